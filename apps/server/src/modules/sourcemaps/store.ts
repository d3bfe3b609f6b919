import type { WriteToken } from '@polyflow/contracts/sourcemaps';
import type { AccountDb } from '../../db/database.ts';
import type { SourcemapFilesTable, WriteTokensTable } from '../../db/schema.ts';

export type SourcemapStore = ReturnType<typeof createSourcemapStore>;

const toWriteToken = (row: Pick<WriteTokensTable, 'id' | 'name' | 'created_at'>): WriteToken => ({
  id: row.id,
  name: row.name,
  createdAt: row.created_at,
});

/** A map of a release as stored: the minified file's path key and the map's file under DATA_DIR/sourcemaps. */
export type StoredMap = { url: string; file: string; bytes: number };

/** All SQL about write tokens and source maps (the maps themselves are files: files.ts). */
export function createSourcemapStore(db: AccountDb) {
  return {
    async insertWriteToken(row: WriteTokensTable): Promise<WriteToken> {
      await db.insertInto('write_tokens').values(row).execute();
      return toWriteToken(row);
    },

    async listWriteTokens(projectId: string): Promise<WriteToken[]> {
      const rows = await db
        .selectFrom('write_tokens')
        .select(['id', 'name', 'created_at'])
        .where('project_id', '=', projectId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map(toWriteToken);
    },

    async countWriteTokens(projectId: string): Promise<number> {
      const row = await db
        .selectFrom('write_tokens')
        .select((eb) => eb.fn.countAll<string | number>().as('count'))
        .where('project_id', '=', projectId)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },

    /** The removed token's name, or null when there was no such token. */
    async deleteWriteToken(projectId: string, tokenId: string): Promise<string | null> {
      const row = await db
        .deleteFrom('write_tokens')
        .where('project_id', '=', projectId)
        .where('id', '=', tokenId)
        .returning('name')
        .executeTakeFirst();
      return row?.name ?? null;
    },

    /** The token's project, name and creator (the audit log's actor for its uploads). */
    async findWriteToken(
      tokenHash: string,
    ): Promise<{ projectId: string; name: string; createdBy: string } | null> {
      const row = await db
        .selectFrom('write_tokens')
        .select(['project_id as projectId', 'name', 'created_by as createdBy'])
        .where('token_hash', '=', tokenHash)
        .executeTakeFirst();
      return row ?? null;
    },

    async userEmail(userId: string): Promise<string | null> {
      const row = await db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirst();
      return row?.email ?? null;
    },

    /** The release's maps, by path key. */
    async mapsOf(projectId: string, release: string): Promise<StoredMap[]> {
      const rows = await db
        .selectFrom('sourcemap_files')
        .select(['url', 'file', 'bytes'])
        .where('project_id', '=', projectId)
        .where('release', '=', release)
        .execute();
      return rows.map((row) => ({ url: row.url, file: row.file, bytes: Number(row.bytes) }));
    },

    /** Every (project, release) with maps: the ingestion's index of where mapping is needed at all. */
    async releasesWithMaps(): Promise<{ projectId: string; release: string }[]> {
      return db.selectFrom('sourcemap_releases').select(['project_id as projectId', 'release']).execute();
    },

    async listReleases(projectId: string) {
      const rows = await db
        .selectFrom('sourcemap_releases as r')
        .leftJoin('sourcemap_files as f', (join) =>
          join.onRef('f.project_id', '=', 'r.project_id').onRef('f.release', '=', 'r.release'),
        )
        .select((eb) => [
          'r.release',
          'r.bytes',
          'r.updated_at',
          eb.fn.count<string | number>('f.url').as('files'),
        ])
        .where('r.project_id', '=', projectId)
        .groupBy(['r.release', 'r.bytes', 'r.updated_at'])
        .orderBy('r.updated_at', 'desc')
        .execute();
      return rows.map((row) => ({
        release: row.release,
        bytes: Number(row.bytes),
        files: Number(row.files),
        updatedAt: row.updated_at,
      }));
    },

    /**
     * Stores a release's new maps in one transaction: the files replace those of the same URLs, the release's
     * total is recounted, and past `maxReleases` the oldest releases (by first upload) go. Answers the
     * release's total and the releases deleted with their files (for the caller to remove from disk).
     * Refuses (`tooLarge`) without writing when the release would pass `maxBytes`.
     */
    async putMaps(input: {
      projectId: string;
      release: string;
      files: readonly Omit<SourcemapFilesTable, 'project_id' | 'release'>[];
      now: string;
      maxBytes: number;
      maxReleases: number;
    }): Promise<
      | { tooLarge: true; releaseBytes: number }
      | {
          tooLarge: false;
          releaseBytes: number;
          replaced: string[];
          deleted: { release: string; files: string[] }[];
        }
    > {
      return db.transaction().execute(async (trx) => {
        const urls = input.files.map((file) => file.url);
        const existing = await trx
          .selectFrom('sourcemap_files')
          .select(['url', 'file', 'bytes'])
          .where('project_id', '=', input.projectId)
          .where('release', '=', input.release)
          .execute();
        const kept = existing.filter((row) => !urls.includes(row.url));
        const releaseBytes =
          kept.reduce((sum, row) => sum + Number(row.bytes), 0) +
          input.files.reduce((sum, file) => sum + Number(file.bytes), 0);
        if (releaseBytes > input.maxBytes) return { tooLarge: true as const, releaseBytes };
        const replaced = existing.filter((row) => urls.includes(row.url)).map((row) => row.file);

        await trx
          .insertInto('sourcemap_releases')
          .values({
            project_id: input.projectId,
            release: input.release,
            bytes: releaseBytes,
            created_at: input.now,
            updated_at: input.now,
          })
          .onConflict((conflict) =>
            conflict
              .columns(['project_id', 'release'])
              .doUpdateSet({ bytes: releaseBytes, updated_at: input.now }),
          )
          .execute();
        if (urls.length > 0) {
          await trx
            .deleteFrom('sourcemap_files')
            .where('project_id', '=', input.projectId)
            .where('release', '=', input.release)
            .where('url', 'in', urls)
            .execute();
          await trx
            .insertInto('sourcemap_files')
            .values(
              input.files.map((file) => ({ ...file, project_id: input.projectId, release: input.release })),
            )
            .execute();
        }

        const releases = await trx
          .selectFrom('sourcemap_releases')
          .select(['release'])
          .where('project_id', '=', input.projectId)
          .orderBy('created_at', 'desc')
          .orderBy('release', 'desc')
          .execute();
        const deleted: { release: string; files: string[] }[] = [];
        for (const { release } of releases.slice(input.maxReleases)) {
          if (release === input.release) continue;
          const files = await trx
            .selectFrom('sourcemap_files')
            .select('file')
            .where('project_id', '=', input.projectId)
            .where('release', '=', release)
            .execute();
          await trx
            .deleteFrom('sourcemap_files')
            .where('project_id', '=', input.projectId)
            .where('release', '=', release)
            .execute();
          await trx
            .deleteFrom('sourcemap_releases')
            .where('project_id', '=', input.projectId)
            .where('release', '=', release)
            .execute();
          deleted.push({ release, files: files.map((row) => row.file) });
        }
        return { tooLarge: false as const, releaseBytes, replaced, deleted };
      });
    },
  };
}
