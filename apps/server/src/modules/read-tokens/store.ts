import type { ReadToken } from '@polyflow/contracts/projects';
import type { AccountDb } from '../../db/database.ts';
import type { ReadTokensTable } from '../../db/schema.ts';

export type ReadTokenStore = ReturnType<typeof createReadTokenStore>;

const toReadToken = (row: Pick<ReadTokensTable, 'id' | 'name' | 'created_at'>): ReadToken => ({
  id: row.id,
  name: row.name,
  createdAt: row.created_at,
});

/** All SQL about read tokens; their values are never stored, only their sha256. */
export function createReadTokenStore(db: AccountDb) {
  return {
    async insert(row: ReadTokensTable): Promise<ReadToken> {
      await db.insertInto('read_tokens').values(row).execute();
      return toReadToken(row);
    },

    async listByProject(projectId: string): Promise<ReadToken[]> {
      const rows = await db
        .selectFrom('read_tokens')
        .select(['id', 'name', 'created_at'])
        .where('project_id', '=', projectId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map(toReadToken);
    },

    async countByProject(projectId: string): Promise<number> {
      const row = await db
        .selectFrom('read_tokens')
        .select((eb) => eb.fn.countAll<string | number>().as('count'))
        .where('project_id', '=', projectId)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },

    /** The removed token's name, or null when there was no such token. */
    async delete(projectId: string, tokenId: string): Promise<string | null> {
      const row = await db
        .deleteFrom('read_tokens')
        .where('project_id', '=', projectId)
        .where('id', '=', tokenId)
        .returning('name')
        .executeTakeFirst();
      return row?.name ?? null;
    },

    /** The project a token hash reads, and that project's owner (today's: it follows a transfer). */
    async findByHash(tokenHash: string): Promise<{ projectId: string; ownerId: string } | null> {
      const row = await db
        .selectFrom('read_tokens')
        .innerJoin('projects', 'projects.id', 'read_tokens.project_id')
        .select(['read_tokens.project_id as projectId', 'projects.owner_id as ownerId'])
        .where('read_tokens.token_hash', '=', tokenHash)
        .executeTakeFirst();
      return row ?? null;
    },
  };
}
