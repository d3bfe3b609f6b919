import type { Utm } from '@polyflow/contracts/events';
import { load, now, store, text, uid } from './util.ts';

/** 30 minutes without an event ends a session (the usual web analytics rule). */
export const SESSION_IDLE_MS = 30 * 60 * 1000;
const USER_KEY = 'pf_uid';
const SESSION_KEY = 'pf_s';
const UTM_FIELDS = ['source', 'medium', 'campaign', 'content', 'term'] as const;

export interface Session {
  /** Session id. */
  i: string;
  /** Time of the last event. */
  t: number;
  /** UTM parameters of the landing URL, kept for the whole session. */
  u?: Utm;
  /** Keys of the wallets already reported as detected in this session. */
  d: string[];
  /** Connected address per wallet key, so a reload does not report the same connection again. */
  c: Record<string, string | undefined>;
}

// Memory copies keep ids stable when localStorage is blocked.
let user: string | undefined;
let memory: Session | undefined;

/** The anonymous user id: random, kept in localStorage, never derived from the wallet. */
export function userId(): string {
  user = load(USER_KEY) || user || uid();
  store(USER_KEY, user);
  return user;
}

function landingUtm(): Utm | undefined {
  const query = new URLSearchParams(location.search);
  let utm: Utm | undefined;
  for (const field of UTM_FIELDS) {
    const value = query.get(`utm_${field}`);
    if (value) {
      utm ||= {};
      utm[field] = text(value);
    }
  }
  return utm;
}

export const saveSession = (session: Session): void => {
  memory = session;
  store(SESSION_KEY, JSON.stringify(session));
};

/**
 * The current session, extended to now. Starts a new one (fresh id, UTM of the current URL) after 30 minutes
 * of inactivity; `onStart` lets the wallets module report its providers again in the new session.
 */
export function touchSession(onStart?: () => void): Session {
  let session = memory as Session;
  try {
    session = JSON.parse(load(SESSION_KEY) as string) || session;
  } catch {}
  const isNew = !session?.i || now() - session.t > SESSION_IDLE_MS;
  if (isNew) session = { i: uid(), t: 0, u: landingUtm(), d: [], c: {} };
  session.t = now();
  saveSession(session);
  if (isNew) onStart?.();
  return session;
}
