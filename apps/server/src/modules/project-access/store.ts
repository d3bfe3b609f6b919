import type { Role } from '@polyflow/contracts/members';
import { DEFAULT_IGNORED_WALLET_CODES, type Project } from '@polyflow/contracts/projects';
import type { Insertable, Selectable } from 'kysely';
import { type AccountDb, inTransaction } from '../../db/database.ts';
import type { ProjectsTable } from '../../db/schema.ts';

export type ProjectStore = ReturnType<typeof createProjectStore>;

/** The stored JSON array of ignored wallet codes; anything unreadable counts as the default. */
export function parseWalletCodes(stored: string | null | undefined): number[] {
  try {
    const codes: unknown = JSON.parse(stored ?? '');
    if (Array.isArray(codes) && codes.every((code) => Number.isSafeInteger(code))) return codes as number[];
  } catch {
    // Not JSON: the default below.
  }
  return [...DEFAULT_IGNORED_WALLET_CODES];
}

/** All SQL about projects, their API keys and their domain whitelists. */
export function createProjectStore(db: AccountDb) {
  async function domainsOf(projectIds: string[]): Promise<Map<string, string[]>> {
    const byProject = new Map<string, string[]>(projectIds.map((id) => [id, []]));
    if (projectIds.length === 0) return byProject;
    const rows = await db
      .selectFrom('project_domains')
      .select(['project_id', 'domain'])
      .where('project_id', 'in', projectIds)
      .orderBy('created_at')
      .orderBy('domain')
      .execute();
    for (const row of rows) byProject.get(row.project_id)?.push(row.domain);
    return byProject;
  }

  const toProject = (row: Selectable<ProjectsTable>, domains: string[], role: Role): Project => ({
    id: row.id,
    name: row.name,
    apiKey: row.api_key,
    ownerId: row.owner_id,
    createdAt: row.created_at,
    whitelistedDomains: domains,
    retentionDays: row.retention_days,
    timeZone: row.time_zone,
    ignoredWalletCodes: parseWalletCodes(row.ignored_wallet_codes),
    role,
  });

  return {
    /** Every project the user is a member of, with their role there. */
    async listByMember(userId: string): Promise<Project[]> {
      const rows = await db
        .selectFrom('projects')
        .innerJoin('project_members', 'project_members.project_id', 'projects.id')
        .selectAll('projects')
        .select('project_members.role')
        .where('project_members.user_id', '=', userId)
        .orderBy('projects.created_at')
        .orderBy('projects.id')
        .execute();
      const domains = await domainsOf(rows.map((row) => row.id));
      return rows.map(({ role, ...row }) => toProject(row, domains.get(row.id) ?? [], role));
    },

    /** The project as one of its members sees it, or null when the user is not a member (or it is gone). */
    async findForMember(userId: string, projectId: string): Promise<Project | null> {
      const row = await db
        .selectFrom('projects')
        .innerJoin('project_members', 'project_members.project_id', 'projects.id')
        .selectAll('projects')
        .select('project_members.role')
        .where('projects.id', '=', projectId)
        .where('project_members.user_id', '=', userId)
        .executeTakeFirst();
      if (!row) return null;
      const { role, ...project } = row;
      return toProject(project, (await domainsOf([row.id])).get(row.id) ?? [], role);
    },

    async countOwnedBy(userId: string): Promise<number> {
      const row = await db
        .selectFrom('projects')
        .select((eb) => eb.fn.countAll<string | number>().as('count'))
        .where('owner_id', '=', userId)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },

    async findByApiKey(
      apiKey: string,
    ): Promise<{ id: string; whitelistedDomains: string[]; ignoredWalletCodes: number[] } | null> {
      const row = await db
        .selectFrom('projects')
        .select(['id', 'ignored_wallet_codes'])
        .where('api_key', '=', apiKey)
        .executeTakeFirst();
      if (!row) return null;
      return {
        id: row.id,
        whitelistedDomains: (await domainsOf([row.id])).get(row.id) ?? [],
        ignoredWalletCodes: parseWalletCodes(row.ignored_wallet_codes),
      };
    },

    async setIgnoredWalletCodes(projectId: string, codes: readonly number[]): Promise<void> {
      await db
        .updateTable('projects')
        .set({ ignored_wallet_codes: JSON.stringify(codes) })
        .where('id', '=', projectId)
        .execute();
    },

    /** The project and its owner's membership, together. */
    async insert(row: Insertable<ProjectsTable>): Promise<void> {
      await inTransaction(db, async (trx) => {
        await trx.insertInto('projects').values(row).execute();
        await trx
          .insertInto('project_members')
          .values({ project_id: row.id, user_id: row.owner_id, role: 'owner', joined_at: row.created_at })
          .execute();
      });
    },

    async updateSettings(
      projectId: string,
      { retentionDays, timeZone }: { retentionDays?: number | null; timeZone?: string },
    ): Promise<void> {
      await db
        .updateTable('projects')
        .set({
          ...(retentionDays !== undefined ? { retention_days: retentionDays } : {}),
          ...(timeZone !== undefined ? { time_zone: timeZone } : {}),
        })
        .where('id', '=', projectId)
        .execute();
    },

    /** The project's time zone (IANA name), or null for no such project. */
    async timeZoneOf(projectId: string): Promise<string | null> {
      const row = await db
        .selectFrom('projects')
        .select('time_zone')
        .where('id', '=', projectId)
        .executeTakeFirst();
      return row?.time_zone ?? null;
    },

    /** Every project that keeps its events for a limited time (the retention job). */
    async listRetentions(): Promise<{ id: string; retentionDays: number }[]> {
      const rows = await db
        .selectFrom('projects')
        .select(['id', 'retention_days'])
        .where('retention_days', 'is not', null)
        .orderBy('id')
        .execute();
      return rows.map((row) => ({ id: row.id, retentionDays: Number(row.retention_days) }));
    },

    async setApiKey(projectId: string, apiKey: string | null): Promise<void> {
      await db.updateTable('projects').set({ api_key: apiKey }).where('id', '=', projectId).execute();
    },

    async countDomains(projectId: string): Promise<number> {
      const row = await db
        .selectFrom('project_domains')
        .select((eb) => eb.fn.countAll<string | number>().as('count'))
        .where('project_id', '=', projectId)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },

    async addDomain(projectId: string, domain: string, now: string): Promise<void> {
      await db
        .insertInto('project_domains')
        .values({ project_id: projectId, domain, created_at: now })
        .execute();
    },

    /** Whether a row was removed. */
    async deleteDomain(projectId: string, domain: string): Promise<boolean> {
      const result = await db
        .deleteFrom('project_domains')
        .where('project_id', '=', projectId)
        .where('domain', '=', domain)
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },

    async delete(projectId: string): Promise<void> {
      // Domains, members, invitations and read tokens go with the project (ON DELETE CASCADE).
      await db.deleteFrom('projects').where('id', '=', projectId).execute();
    },
  };
}
