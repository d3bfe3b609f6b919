import {
  DEFAULT_IGNORED_WALLET_CODES,
  type ForgetRequest,
  type ForgetResult,
  type Project,
  type ProjectSettings,
} from '@polyflow/contracts/projects';
import { DEFAULT_TIME_ZONE } from '@polyflow/contracts/time-zone';
import { isUniqueViolation } from '../../db/database.ts';
import { AppError, badRequest, notFound } from '../../errors.ts';
import type { Actor, AuditRecorder } from '../../lib/access.ts';
import type { Clock } from '../../lib/clock.ts';
import { newApiKey, newId } from '../../lib/ids.ts';
import type { ProjectAccessPart } from '../project-access/service.ts';
import type { ProjectStore } from '../project-access/store.ts';
import { normaliseDomain } from './domains.ts';

export const MAX_PROJECTS_PER_USER = 100;
export const MAX_DOMAINS_PER_PROJECT = 100;
export type ProjectService = ReturnType<typeof createProjectService>;

export type ProjectServiceDeps = {
  store: ProjectStore;
  /** Roles, keys and change listeners (access.ts): built first, with the store alone. */
  access: ProjectAccessPart;
  clock: Clock;
  /** Every change is recorded there (modules/audit-log). */
  audit: AuditRecorder;
  /**
   * The ingestion log: a deleted project's events go with it, and a forgotten wallet's or user's, those
   * still in the ingestion log included.
   */
  events: {
    deleteProjectEvents(projectId: string): Promise<void>;
    deleteWalletEvents(projectId: string, wallet: string): Promise<number>;
    deleteUserEvents(projectId: string, userId: string): Promise<number>;
    /** The event store: retention needs no flush (the ingestion log holds only seconds of events). */
    deleteEventsBefore(projectId: string, before: Date): Promise<number>;
  };
  /** Files a project keeps under DATA_DIR (its source maps), removed after the project is deleted. */
  deleteProjectFiles?: (projectId: string) => Promise<void>;
};

const DAY_MS = 86_400_000;

/**
 * Projects, their API keys and domain whitelists. Every operation answers the project's members as
 * their role allows (docs/teams.md): a non-member gets 404 as for a missing project, a member without
 * the right 403 ACCESS_FORBIDDEN.
 */
export function createProjectService({
  store,
  access,
  clock,
  events,
  audit,
  deleteProjectFiles,
}: ProjectServiceDeps) {
  const { getProjectFor, changed } = access;

  function parseDomain(input: string): string {
    const result = normaliseDomain(input);
    if (!result.ok) throw badRequest(result.message, [{ path: 'domain', message: result.message }]);
    return result.domain;
  }

  async function setApiKey(actor: Actor, projectId: string, apiKey: string | null): Promise<Project> {
    await getProjectFor(actor.id, projectId, 'manage');
    await store.setApiKey(projectId, apiKey);
    changed(projectId);
    await audit.record({ projectId, actor, action: apiKey ? 'api_key.create' : 'api_key.revoke' });
    return getProjectFor(actor.id, projectId);
  }

  return {
    getProjectFor,
    isMember: access.isMember,
    findProjectByApiKey: access.findProjectByApiKey,
    onProjectChanged: access.onProjectChanged,

    /** Every project the user is a member of, each with their role. */
    listProjects(userId: string): Promise<Project[]> {
      return store.listByMember(userId);
    },

    async createProject(actor: Actor, name: string): Promise<Project> {
      if ((await store.countOwnedBy(actor.id)) >= MAX_PROJECTS_PER_USER) {
        throw badRequest(`An account can own at most ${MAX_PROJECTS_PER_USER} projects.`);
      }
      const id = newId();
      await store.insert({
        id,
        owner_id: actor.id,
        name,
        api_key: null,
        created_at: clock().toISOString(),
        retention_days: null,
        time_zone: DEFAULT_TIME_ZONE,
        ignored_wallet_codes: JSON.stringify(DEFAULT_IGNORED_WALLET_CODES),
      });
      await audit.record({ projectId: id, actor, action: 'project.create', target: name });
      return getProjectFor(actor.id, id);
    },

    /** Creates or replaces the key; the previous key stops working at once. */
    async createApiKey(actor: Actor, projectId: string): Promise<Project> {
      for (let attempt = 0; ; attempt++) {
        try {
          return await setApiKey(actor, projectId, newApiKey());
        } catch (error) {
          // A 190-bit collision is not going to happen, but the unique index would say so if it did.
          if (!isUniqueViolation(error) || attempt >= 2) throw error;
        }
      }
    },

    revokeApiKey(actor: Actor, projectId: string): Promise<Project> {
      return setApiKey(actor, projectId, null);
    },

    async addDomain(actor: Actor, projectId: string, input: string): Promise<Project> {
      const project = await getProjectFor(actor.id, projectId, 'manage');
      const domain = parseDomain(input);
      const duplicate = () =>
        new AppError(400, 'DOMAIN_ALREADY_WHITELISTED', `${domain} is already on the whitelist.`);
      if (project.whitelistedDomains.includes(domain)) throw duplicate();
      if ((await store.countDomains(projectId)) >= MAX_DOMAINS_PER_PROJECT) {
        throw badRequest(`A project can whitelist at most ${MAX_DOMAINS_PER_PROJECT} domains.`);
      }
      try {
        await store.addDomain(projectId, domain, clock().toISOString());
      } catch (error) {
        if (isUniqueViolation(error)) throw duplicate();
        throw error;
      }
      changed(projectId);
      await audit.record({ projectId, actor, action: 'domain.add', target: domain });
      return getProjectFor(actor.id, projectId);
    },

    async deleteDomain(actor: Actor, projectId: string, input: string): Promise<Project> {
      await getProjectFor(actor.id, projectId, 'manage');
      const domain = parseDomain(input);
      if (!(await store.deleteDomain(projectId, domain)))
        throw notFound(`${domain} is not on the whitelist.`);
      changed(projectId);
      await audit.record({ projectId, actor, action: 'domain.remove', target: domain });
      return getProjectFor(actor.id, projectId);
    },

    /** Sets how long the project's events are kept (null: forever); the retention job applies it. */
    async setRetentionDays(actor: Actor, projectId: string, days: number | null): Promise<Project> {
      return this.updateSettings(actor, projectId, { retentionDays: days });
    },

    /**
     * Sets the retention and/or the time zone (each audited as its own change, only when it changes):
     * both in one statement, so a refused body changes nothing.
     */
    async updateSettings(actor: Actor, projectId: string, settings: ProjectSettings): Promise<Project> {
      const before = await getProjectFor(actor.id, projectId, 'manage');
      await store.updateSettings(projectId, settings);
      if (settings.retentionDays !== undefined) {
        await audit.record({
          projectId,
          actor,
          action: 'retention.set',
          details: { from: before.retentionDays, to: settings.retentionDays },
        });
      }
      if (settings.timeZone !== undefined && settings.timeZone !== before.timeZone) {
        await audit.record({
          projectId,
          actor,
          action: 'timezone.set',
          details: { from: before.timeZone, to: settings.timeZone },
        });
      }
      return getProjectFor(actor.id, projectId);
    },

    /**
     * Sets the wallet error codes whose errors are not incidents (validated by the route's schema: whole
     * 32-bit numbers, each once). Ingestion applies them to events it receives from then on (at once on
     * this node, within the key cache's 2 s on others); stored events and their incidents stay as they are.
     */
    async setIgnoredWalletCodes(actor: Actor, projectId: string, codes: readonly number[]): Promise<Project> {
      const before = await getProjectFor(actor.id, projectId, 'manage');
      const sorted = [...codes].sort((a, b) => a - b);
      await store.setIgnoredWalletCodes(projectId, sorted);
      changed(projectId);
      await audit.record({
        projectId,
        actor,
        action: 'wallet_codes.set',
        details: { from: before.ignoredWalletCodes, to: sorted },
      });
      return getProjectFor(actor.id, projectId);
    },

    /** The project's time zone for the server's own jobs (the email reports); UTC for no such project. */
    async timeZoneOf(projectId: string): Promise<string> {
      return (await store.timeZoneOf(projectId)) ?? DEFAULT_TIME_ZONE;
    },

    /**
     * One retention pass (the hourly job, retention-job.ts): deletes each project's events whose client
     * time is more than its retention days before now. Answers what it deleted per project.
     */
    async applyRetention(): Promise<{ projectId: string; deleted: number }[]> {
      const results = [];
      for (const { id, retentionDays } of await store.listRetentions()) {
        const before = new Date(clock().getTime() - retentionDays * DAY_MS);
        results.push({ projectId: id, deleted: await events.deleteEventsBefore(id, before) });
      }
      return results;
    },

    /** Deletes every event of one wallet or SDK user of the project; answers how many. */
    async forget(actor: Actor, projectId: string, subject: ForgetRequest): Promise<ForgetResult> {
      await getProjectFor(actor.id, projectId, 'manage');
      const deleted =
        subject.wallet !== undefined
          ? await events.deleteWalletEvents(projectId, subject.wallet)
          : await events.deleteUserEvents(projectId, subject.userId ?? '');
      // The subject's identifier is what was asked to be forgotten: the log names only its kind.
      await audit.record({
        projectId,
        actor,
        action: 'forget',
        target: subject.wallet !== undefined ? 'wallet' : 'userId',
        details: { deleted },
      });
      return { deleted };
    },

    async deleteProject(actor: Actor, projectId: string): Promise<void> {
      const project = await getProjectFor(actor.id, projectId, 'own');
      await store.delete(projectId);
      await audit.record({ projectId, actor, action: 'project.delete', target: project.name });
      // The key is gone with the project (and from ingestion's cache), so no event arrives after this.
      changed(projectId, 'deleted');
      await events.deleteProjectEvents(projectId);
      await deleteProjectFiles?.(projectId);
    },
  };
}
