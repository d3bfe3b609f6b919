import type { Session } from '@polyflow/contracts/auth';
import type { Project } from '@polyflow/contracts/projects';
import { USER_KEY } from '../lib/storage';

export function buildSession(overrides: Partial<Session> & { verified?: boolean } = {}): Session {
  return {
    token: 'session-token',
    email: 'ada@example.com',
    validUntil: new Date(Date.now() + 3_600_000).toISOString(),
    ...overrides,
  };
}

export function logIn(overrides: Partial<Session> & { verified?: boolean } = {}): Session {
  const session = buildSession(overrides);
  window.localStorage.setItem(USER_KEY, JSON.stringify(session));
  return session;
}

let nextId = 1;
export function buildProject(overrides: Partial<Project> = {}): Project {
  const id = `project-${nextId++}`;
  return {
    id,
    name: 'My dapp',
    apiKey: null,
    ownerId: 'user-1',
    createdAt: '2025-01-02T03:04:05.000Z',
    whitelistedDomains: [],
    retentionDays: null,
    timeZone: 'UTC',
    ignoredWalletCodes: [4001],
    role: 'owner',
    ...overrides,
  };
}
