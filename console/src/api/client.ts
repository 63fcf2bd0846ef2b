import createClient, { type Middleware } from 'openapi-fetch';
import type { components, paths } from './schema';
import { clearSession, readSession } from './session';
import { stepUpFetch } from './step-up';

export type Schemas = components['schemas'];
export type Project = Schemas['ProjectView'];
export type Card = Schemas['CardView'];
export type CardStatus = Card['status'];

/** Adds the session's Bearer token; a 401 ends the session (expired or signed out elsewhere). */
const adminAuth: Middleware = {
  onRequest({ request }) {
    const session = readSession();
    if (session) request.headers.set('authorization', `Bearer ${session.token}`);
    return request;
  },
  onResponse({ request, response }) {
    const signingIn = new URL(request.url).pathname.endsWith('/auth/login');
    if (response.status === 401 && !signingIn && readSession()) clearSession(true);
    return response;
  },
};

/** The typed admin API client (types generated from openapi.json by `npm run openapi`). */
export const api = createClient<paths>({ baseUrl: window.location.origin, fetch: stepUpFetch });
api.use(adminAuth);
