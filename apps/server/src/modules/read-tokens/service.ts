import type { CreatedReadToken, Project, ReadToken } from '@polyflow/contracts/projects';
import { badRequest, notFound } from '../../errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { isId, newId, newReadToken, READ_TOKEN_PREFIX, sha256 } from '../../lib/ids.ts';
import type { Reader } from '../../reading/reader.ts';
import type { ReadTokenStore } from './store.ts';

export const MAX_READ_TOKENS_PER_PROJECT = 25;
const READ_TOKEN_PATTERN = new RegExp(`^${READ_TOKEN_PREFIX}[0-9A-Za-z]{40}$`);

export type ReadTokenService = ReturnType<typeof createReadTokenService>;

export type ReadTokenServiceDeps = {
  store: ReadTokenStore;
  projects: { getOwnedProject(userId: string, projectId: string): Promise<Project> };
  clock: Clock;
};

/**
 * Read tokens: a project's credentials for scripts and BI tools. The owner creates (the token is shown
 * once), lists and revokes them; a token reads that project's dashboards and exports, nothing else.
 */
export function createReadTokenService({ store, projects, clock }: ReadTokenServiceDeps) {
  return {
    async create(userId: string, projectId: string, name: string): Promise<CreatedReadToken> {
      await projects.getOwnedProject(userId, projectId);
      if ((await store.countByProject(projectId)) >= MAX_READ_TOKENS_PER_PROJECT) {
        throw badRequest(`A project can have at most ${MAX_READ_TOKENS_PER_PROJECT} read tokens.`);
      }
      const token = newReadToken();
      const created = await store.insert({
        id: newId(),
        project_id: projectId,
        name,
        token_hash: sha256(token),
        created_at: clock().toISOString(),
      });
      return { ...created, token };
    },

    async list(userId: string, projectId: string): Promise<ReadToken[]> {
      await projects.getOwnedProject(userId, projectId);
      return store.listByProject(projectId);
    },

    /** Revoked at once: the next request with the token is refused. */
    async revoke(userId: string, projectId: string, tokenId: string): Promise<void> {
      await projects.getOwnedProject(userId, projectId);
      if (!isId(tokenId) || !(await store.delete(projectId, tokenId))) {
        throw notFound('Read token not found.');
      }
    },

    /** The reader a token stands for, or null for an unknown or revoked token. Never log the token. */
    async verify(token: string): Promise<Reader | null> {
      if (!READ_TOKEN_PATTERN.test(token)) return null;
      const found = await store.findByHash(sha256(token));
      return found && { userId: found.ownerId, onlyProjectId: found.projectId };
    },
  };
}
