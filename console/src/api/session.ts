import type { components } from './schema';

/**
 * The signed-in admin: the token of the admin API and who it belongs to. It lives in sessionStorage
 * only — the one secret the console keeps — so it goes with the tab and never reaches localStorage.
 */
export interface AdminSession {
  token: string;
  username: string;
  /** An agent (reseller, decisions §19, docs/commerce.md) gets the reduced console of its own account only. */
  role: 'platform_admin' | 'author' | 'agent';
  expiresAt: string;
  /** The platform requires two-factor sign-in and this account has none: the security page only, until it enrols. */
  twoFactorEnrolmentRequired?: boolean;
}

/** Where the tab keeps it (the browser tests sign in through the API and put it here). */
export const SESSION_KEY = 'cardkey.console.session';
/** Set when the service ended the session (401), so the sign-in page can say why it is shown. */
const ENDED_KEY = 'cardkey.console.session-ended';
/** The session a sign-in answer opens (`POST /admin/v1/auth/login`, or its code step) for `username`. */
export function sessionFromAnswer(answer: components['schemas']['AdminSessionView'], username: string): AdminSession {
  return {
    token: answer.token,
    role: answer.role,
    expiresAt: answer.expires_at,
    username,
    twoFactorEnrolmentRequired: answer.two_factor_enrolment_required === true,
  };
}

const listeners = new Set<() => void>();
/** The admin signed out in this tab (rather than the session ending): sign-in then needs no way back. */
let signedOut = false;

/** The stored text itself: a stable snapshot for useSyncExternalStore. */
export function sessionSnapshot(): string | null {
  return sessionStorage.getItem(SESSION_KEY);
}

export function parseSession(raw: string | null): AdminSession | null {
  if (!raw) return null;
  try {
    const session = JSON.parse(raw) as AdminSession;
    return Date.parse(session.expiresAt) > Date.now() ? session : null;
  } catch {
    return null;
  }
}

export function readSession(): AdminSession | null {
  return parseSession(sessionSnapshot());
}

export function saveSession(session: AdminSession): void {
  sessionStorage.setItem(SESSION_KEY, JSON.stringify(session));
  sessionStorage.removeItem(ENDED_KEY);
  signedOut = false;
  listeners.forEach((listener) => listener());
}

/** Marks (an answer 11009) or clears (enrolled) the platform's demand that this account set up two-factor sign-in. */
export function setEnrolmentRequired(required: boolean): void {
  const session = readSession();
  if (session && Boolean(session.twoFactorEnrolmentRequired) !== required)
    saveSession({ ...session, twoFactorEnrolmentRequired: required });
}

export function clearSession(endedByService = false): void {
  sessionStorage.removeItem(SESSION_KEY);
  if (endedByService) sessionStorage.setItem(ENDED_KEY, '1');
  signedOut = !endedByService;
  listeners.forEach((listener) => listener());
}

export function wasSignedOut(): boolean {
  return signedOut;
}

/** True once after the service ended the session. */
export function takeSessionEnded(): boolean {
  const ended = sessionStorage.getItem(ENDED_KEY) === '1';
  sessionStorage.removeItem(ENDED_KEY);
  return ended;
}

export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
