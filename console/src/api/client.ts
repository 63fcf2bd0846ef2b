import createClient, { type Middleware } from 'openapi-fetch';
import type { components, paths } from './schema';
import { clearSession, readSession } from './session';
import { stepUpFetch } from './step-up';

export type Schemas = components['schemas'];
export type Project = Schemas['ProjectView'];
export type Card = Schemas['CardView'];
export type CardStatus = Card['status'];

/**
 * A 401 that refuses a password typed into a form rather than the session's token: the sign-in, and
 * the own password change's wrong current password (11001 with `current_password` in its details).
 */
async function refusesTypedPassword(request: Request, response: Response): Promise<boolean> {
  const path = new URL(request.url).pathname;
  if (path.endsWith('/auth/login')) return true;
  if (!path.endsWith('/auth/password')) return false;
  try {
    const body = (await response.clone().json()) as { error?: { details?: unknown } };
    return Array.isArray(body.error?.details) && body.error.details.includes('current_password');
  } catch {
    return false;
  }
}

/** Adds the session's Bearer token; a 401 ends the session (expired or signed out elsewhere). */
const adminAuth: Middleware = {
  onRequest({ request }) {
    const session = readSession();
    if (session) request.headers.set('authorization', `Bearer ${session.token}`);
    return request;
  },
  async onResponse({ request, response }) {
    if (response.status === 401 && readSession() && !(await refusesTypedPassword(request, response))) clearSession(true);
    return response;
  },
};

/** The typed admin API client (types generated from openapi.json by `npm run openapi`). */
export const api = createClient<paths>({ baseUrl: window.location.origin, fetch: stepUpFetch });
api.use(adminAuth);
