import type { CreatedReadToken, ReadToken } from '@polyflow/contracts/projects';
import { badRequest, notFound } from '../../errors.ts';
import type { Actor, AuditRecorder, ProjectAccess } from '../../lib/access.ts';
import type { Clock } from '../../lib/clock.ts';
import { isId, newId, newReadToken, READ_TOKEN_PREFIX, sha256 } from '../../lib/ids.ts';
import type { Reader } from '../../reading/reader.ts';
import type { ReadTokenStore } from './store.ts';

export const MAX_READ_TOKENS_PER_PROJECT = 25;
const READ_TOKEN_PATTERN = new RegExp(`^${READ_TOKEN_PREFIX}[0-9A-Za-z]{40}$`);

export type ReadTokenService = ReturnType<typeof createReadTokenService>;

export type ReadTokenServiceDeps = {
  store: ReadTokenStore;
  projects: ProjectAccess;
  clock: Clock;
  audit: AuditRecorder;
};

/**
 * Read tokens: a project's credentials for scripts and BI tools. Admins and the owner create (the token
 * is shown once) and revoke them, every member lists them; a token reads that project's dashboards and
 * exports, nothing else, with its owner's authority.
 */
export function createReadTokenService({ store, projects, clock, audit }: ReadTokenServiceDeps) {
  return {
    async create(actor: Actor, projectId: string, name: string): Promise<CreatedReadToken> {
      await projects.getProjectFor(actor.id, projectId, 'manage');
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
      await audit.record({ projectId, actor, action: 'read_token.create', target: name });
      return { ...created, token };
    },

    async list(userId: string, projectId: string): Promise<ReadToken[]> {
      await projects.getProjectFor(userId, projectId);
      return store.listByProject(projectId);
    },

    /** Revoked at once: the next request with the token is refused. */
    async revoke(actor: Actor, projectId: string, tokenId: string): Promise<void> {
      await projects.getProjectFor(actor.id, projectId, 'manage');
      const name = isId(tokenId) ? await store.delete(projectId, tokenId) : null;
      if (name === null) throw notFound('Read token not found.');
      await audit.record({ projectId, actor, action: 'read_token.revoke', target: name });
    },

    /** The reader a token stands for, or null for an unknown or revoked token. Never log the token. */
    async verify(token: string): Promise<Reader | null> {
      if (!READ_TOKEN_PATTERN.test(token)) return null;
      const found = await store.findByHash(sha256(token));
      return found && { userId: found.ownerId, onlyProjectId: found.projectId };
    },
  };
}
