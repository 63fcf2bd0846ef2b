import { useSyncExternalStore } from 'react';
import { parseSession, sessionSnapshot, subscribeSession, type AdminSession } from '../api/session';

/** The signed-in admin, re-read when the session is saved or cleared. */
export function useSession(): AdminSession | null {
  return parseSession(useSyncExternalStore(subscribeSession, sessionSnapshot));
}
