import { useSyncExternalStore } from 'react';
import { readSession, type StoredSession, subscribeToStorage } from './storage';

/** A session counts only while `validUntil` is in the future; an unparsable date counts as expired. */
export function isSessionActive(session: StoredSession | null, now = Date.now()): session is StoredSession {
  if (!session) return false;
  const validUntil = Date.parse(session.validUntil);
  return Number.isFinite(validUntil) && validUntil > now;
}

export function getActiveSession(): StoredSession | null {
  const session = readSession();
  return isSessionActive(session) ? session : null;
}

/** The stored session, re-rendering on login, logout and a 401 that ends the session. */
export function useSession(): StoredSession | null {
  const session = useSyncExternalStore(subscribeToStorage, readSession, () => null);
  return isSessionActive(session) ? session : null;
}
