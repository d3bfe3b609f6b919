import type { WriteToken } from '@polyflow/contracts/sourcemaps';
import { type Kysely, PostgresAdapter } from 'kysely';
import type { AccountDb } from '../../db/database.ts';
import type { Database, SourcemapFilesTable, WriteTokensTable } from '../../db/schema.ts';

export type SourcemapStore = ReturnType<typeof createSourcemapStore>;

const toWriteToken = (row: Pick<WriteTokensTable, 'id' | 'name' | 'created_at'>): WriteToken => ({
  id: row.id,
  name: row.name,
  createdAt: row.created_at,
});

/** A map of a release as stored: the minified file's path key and the map's file under DATA_DIR/sourcemaps. */
export type StoredMap = { url: string; file: string; bytes: number };

/** What putMaps answers: stored, or refused with nothing written (the release's or the account's limit). */
export type PutMapsResult =
  | { outcome: 'release-too-large'; releaseBytes: number }
  | { outcome: 'account-over-quota'; accountBytes: number }
  | {
      outcome: 'stored';
      releaseBytes: number;
      accountBytes: number;
      replaced: string[];
      deleted: { release: string; files: string[] }[];
    };

type PutMapsInput = {
  projectId: string;
  release: string;
  files: readonly Omit<SourcemapFilesTable, 'project_id' | 'release'>[];
  now: string;
  maxBytes: number;
  maxReleases: number;
  maxAccountBytes: number;
};

/** Thrown inside putMaps' transaction to roll it back when the account would pass its quota. */
class AccountOverQuota extends Error {
  constructor(readonly accountBytes: number) {
    super('account over its source-map quota');
  }
}

/** The bytes of maps of every project `ownerId` owns (the account's quota counts them all). */
async function accountBytesOf(db: Kysely<Database>, ownerId: string): Promise<number> {
  const row = await db
    .selectFrom('sourcemap_releases as r')
    .innerJoin('projects as p', 'p.id', 'r.project_id')
    .select((eb) => eb.fn.sum<string | number | bigint | null>('r.bytes').as('bytes'))
    .where('p.owner_id', '=', ownerId)
    .executeTakeFirst();
  return Number(row?.bytes ?? 0);
}

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

    /** The bytes of maps of every project `ownerId` owns: what the account's quota counts (one SUM). */
    accountBytes: (ownerId: string): Promise<number> => accountBytesOf(db, ownerId),

    /**
     * Deletes a release's maps (rows) in one transaction; answers their files, for the caller to remove from
     * disk, and their bytes, or null when the project has no maps for that release.
     */
    async deleteRelease(
      projectId: string,
      release: string,
    ): Promise<{ files: string[]; bytes: number } | null> {
      return db.transaction().execute(async (trx) => {
        // The files first: deleting the release's row would take them by cascade, before their names are read.
        const files = await trx
          .deleteFrom('sourcemap_files')
          .where('project_id', '=', projectId)
          .where('release', '=', release)
          .returning('file')
          .execute();
        const deleted = await trx
          .deleteFrom('sourcemap_releases')
          .where('project_id', '=', projectId)
          .where('release', '=', release)
          .returning('bytes')
          .executeTakeFirst();
        return deleted ? { files: files.map((row) => row.file), bytes: Number(deleted.bytes) } : null;
      });
    },

    /**
     * Stores a release's new maps in one transaction: the files replace those of the same URLs, the release's
     * total is recounted, and past `maxReleases` the oldest releases (by first upload) go. Answers the
     * release's total and the releases deleted with their files (for the caller to remove from disk).
     * Refuses without writing when the release would pass `maxBytes`, or when the maps of every project of
     * the project's owner would pass `maxAccountBytes` once stored (replaced maps and deleted releases
     * counted out). Uploads of one account are serialised: SQLite runs one transaction at a time, and on
     * PostgreSQL the owner's row is locked first, so two uploads at once (on any nodes) cannot both pass.
     */
    async putMaps(input: PutMapsInput): Promise<PutMapsResult> {
      try {
        return await db.transaction().execute((trx) => putMapsIn(trx, input));
      } catch (error) {
        if (error instanceof AccountOverQuota) {
          return { outcome: 'account-over-quota', accountBytes: error.accountBytes };
        }
        throw error;
      }
    },
  };
}

async function putMapsIn(trx: Kysely<Database>, input: PutMapsInput): Promise<PutMapsResult> {
  const project = await trx
    .selectFrom('projects')
    .select('owner_id')
    .where('id', '=', input.projectId)
    .executeTakeFirst();
  if (project && trx.getExecutor().adapter instanceof PostgresAdapter) {
    await trx.selectFrom('users').select('id').where('id', '=', project.owner_id).forNoKeyUpdate().execute();
  }
  const accountBytesBefore = project ? await accountBytesOf(trx, project.owner_id) : 0;
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
  if (releaseBytes > input.maxBytes) return { outcome: 'release-too-large', releaseBytes };
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
      conflict.columns(['project_id', 'release']).doUpdateSet({ bytes: releaseBytes, updated_at: input.now }),
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
      .values(input.files.map((file) => ({ ...file, project_id: input.projectId, release: input.release })))
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
  // Counted after the writes: the maps this upload replaces and the releases it pushed out are gone.
  const accountBytes = project ? await accountBytesOf(trx, project.owner_id) : 0;
  if (accountBytes > input.maxAccountBytes) throw new AccountOverQuota(accountBytesBefore);
  return { outcome: 'stored', releaseBytes, accountBytes, replaced, deleted };
}
