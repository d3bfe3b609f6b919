import { SessionSchema } from '@polyflow/contracts/auth';
import { type Project, ProjectSchema } from '@polyflow/contracts/projects';
import { z } from 'zod';

/** Local storage keys fixed by the spec (§9). */
export const USER_KEY = 'PF_USER';
export const CURRENT_PROJECT_KEY = 'PF_CURRENT_PROJECT';
/**
 * The project each account last opened, by email. Not one of the spec's keys: PF_CURRENT_PROJECT is
 * cleared before every login (spec §4), and this lets the next login reopen the project instead of asking.
 */
export const LAST_PROJECTS_KEY = 'PF_LAST_PROJECTS';
const LastProjectsSchema = z.record(z.string(), z.string());

/**
 * The stored session. `verified` is not sent by our server (it only logs in verified users) but the
 * shell's unverified warning reads it, so a session written by another client still shows it.
 */
export const StoredSessionSchema = SessionSchema.extend({ verified: z.boolean().optional() });
export type StoredSession = z.infer<typeof StoredSessionSchema>;

type Listener = () => void;
const listeners = new Set<Listener>();

function notify() {
  for (const listener of listeners) listener();
}

/** Subscribes to changes of either key, in this tab or (through the `storage` event) in another one. */
export function subscribeToStorage(listener: Listener): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === USER_KEY || event.key === CURRENT_PROJECT_KEY) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

function readJson<T>(key: string, schema: z.ZodType<T>): T | null {
  const raw = window.localStorage.getItem(key);
  if (raw === null) return null;
  try {
    const parsed = schema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    // Corrupt JSON (hand-edited storage): behave as if nothing was stored.
    return null;
  }
}

function write(key: string, value: unknown) {
  if (value === null) window.localStorage.removeItem(key);
  else window.localStorage.setItem(key, JSON.stringify(value));
  notify();
}

// useSyncExternalStore needs a stable snapshot, so the raw string is the snapshot and parsing is cached.
let cachedSessionRaw: string | null = null;
let cachedSession: StoredSession | null = null;

export function readSession(): StoredSession | null {
  const raw = window.localStorage.getItem(USER_KEY);
  if (raw !== cachedSessionRaw) {
    cachedSessionRaw = raw;
    cachedSession = readJson(USER_KEY, StoredSessionSchema);
  }
  return cachedSession;
}

export function writeSession(session: StoredSession): void {
  write(USER_KEY, session);
}

export function readCurrentProject(): Project | null {
  return readJson(CURRENT_PROJECT_KEY, ProjectSchema);
}

export function writeCurrentProject(project: Project | null): void {
  write(CURRENT_PROJECT_KEY, project);
}

export function readLastProjectId(email: string): string | null {
  return readJson(LAST_PROJECTS_KEY, LastProjectsSchema)?.[email] ?? null;
}

export function writeLastProjectId(email: string, projectId: string): void {
  const lastProjects = readJson(LAST_PROJECTS_KEY, LastProjectsSchema) ?? {};
  if (lastProjects[email] === projectId) return;
  window.localStorage.setItem(LAST_PROJECTS_KEY, JSON.stringify({ ...lastProjects, [email]: projectId }));
}

/**
 * GraphiQL keeps the user's tabs, queries and history (project ids in them) in local storage under
 * this prefix (its default storage namespace).
 */
const GRAPHIQL_PREFIX = 'graphiql:';

/**
 * Log Out on a shared browser: everything the console stored for this user goes, the account's
 * last project and GraphiQL's queries too, not only the spec's two keys (an ended session, a 401,
 * keeps the last project so that logging in again reopens it).
 */
export function clearUserData(): void {
  window.localStorage.removeItem(LAST_PROJECTS_KEY);
  const keys = Array.from({ length: window.localStorage.length }, (_, index) =>
    window.localStorage.key(index),
  );
  for (const key of keys) {
    if (key?.startsWith(GRAPHIQL_PREFIX)) window.localStorage.removeItem(key);
  }
  clearStoredSession();
}

/** The session ends (a 401, another tab): both keys go, as in the original console. */
export function clearStoredSession(): void {
  window.localStorage.removeItem(USER_KEY);
  window.localStorage.removeItem(CURRENT_PROJECT_KEY);
  notify();
}

/** An invitation link opened before logging in: accepted once there is a session (docs/teams.md). */
export const PENDING_INVITATION_KEY = 'PF_PENDING_INVITATION';

export function readPendingInvitation(): string | null {
  return readJson(PENDING_INVITATION_KEY, z.string().regex(/^[A-Za-z0-9_-]{1,512}$/));
}

export function writePendingInvitation(token: string | null): void {
  write(PENDING_INVITATION_KEY, token);
}
