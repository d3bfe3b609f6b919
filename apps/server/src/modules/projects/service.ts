import type { ForgetRequest, ForgetResult, Project } from '@polyflow/contracts/projects';
import { isUniqueViolation } from '../../db/database.ts';
import { AppError, badRequest, notFound } from '../../errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { isId, newApiKey, newId } from '../../lib/ids.ts';
import { normaliseDomain } from './domains.ts';
import type { ProjectStore } from './store.ts';

export const MAX_PROJECTS_PER_USER = 100;
export const MAX_DOMAINS_PER_PROJECT = 100;
const API_KEY_PATTERN = /^pf_[0-9A-Za-z]{32}$/;

/** What ingestion needs to accept a batch: the project behind a key and where it may come from. */
export type ApiKeyProject = { id: string; whitelistedDomains: string[] };
export type ProjectChangeListener = (projectId: string) => void;
export type ProjectService = ReturnType<typeof createProjectService>;

const projectNotFound = () => notFound('Project not found.');

export type ProjectServiceDeps = {
  store: ProjectStore;
  clock: Clock;
  /**
   * Ingestion: a deleted project's events go with it, and a forgotten wallet's or user's, those still in
   * the ingestion log included.
   */
  events: {
    deleteProjectEvents(projectId: string): Promise<void>;
    deleteWalletEvents(projectId: string, wallet: string): Promise<number>;
    deleteUserEvents(projectId: string, userId: string): Promise<number>;
    /** The event store: retention needs no flush (the ingestion log holds only seconds of events). */
    deleteEventsBefore(projectId: string, before: Date): Promise<number>;
  };
};

const DAY_MS = 86_400_000;

/** Projects, their API keys and domain whitelists; every operation answers only the owner. */
export function createProjectService({ store, clock, events }: ProjectServiceDeps) {
  const listeners = new Set<ProjectChangeListener>();

  function changed(projectId: string): void {
    for (const listener of listeners) {
      try {
        listener(projectId);
      } catch {
        // A listener's failure (a cache) must not undo or fail the change that already happened.
      }
    }
  }

  async function getOwnedProject(userId: string, projectId: string): Promise<Project> {
    if (!isId(projectId)) throw projectNotFound();
    const project = await store.findOwned(userId, projectId);
    // Someone else's project answers exactly like a missing one.
    if (!project) throw projectNotFound();
    return project;
  }

  function parseDomain(input: string): string {
    const result = normaliseDomain(input);
    if (!result.ok) throw badRequest(result.message, [{ path: 'domain', message: result.message }]);
    return result.domain;
  }

  async function setApiKey(userId: string, projectId: string, apiKey: string | null): Promise<Project> {
    await getOwnedProject(userId, projectId);
    await store.setApiKey(projectId, apiKey);
    changed(projectId);
    return getOwnedProject(userId, projectId);
  }

  return {
    getOwnedProject,

    listProjects(userId: string): Promise<Project[]> {
      return store.listByOwner(userId);
    },

    async createProject(userId: string, name: string): Promise<Project> {
      const existing = await store.listByOwner(userId);
      if (existing.length >= MAX_PROJECTS_PER_USER) {
        throw badRequest(`An account can have at most ${MAX_PROJECTS_PER_USER} projects.`);
      }
      const id = newId();
      await store.insert({
        id,
        owner_id: userId,
        name,
        api_key: null,
        created_at: clock().toISOString(),
        retention_days: null,
      });
      return getOwnedProject(userId, id);
    },

    /** Creates or replaces the key; the previous key stops working at once. */
    async createApiKey(userId: string, projectId: string): Promise<Project> {
      for (let attempt = 0; ; attempt++) {
        try {
          return await setApiKey(userId, projectId, newApiKey());
        } catch (error) {
          // A 190-bit collision is not going to happen, but the unique index would say so if it did.
          if (!isUniqueViolation(error) || attempt >= 2) throw error;
        }
      }
    },

    revokeApiKey(userId: string, projectId: string): Promise<Project> {
      return setApiKey(userId, projectId, null);
    },

    async addDomain(userId: string, projectId: string, input: string): Promise<Project> {
      const project = await getOwnedProject(userId, projectId);
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
      return getOwnedProject(userId, projectId);
    },

    async deleteDomain(userId: string, projectId: string, input: string): Promise<Project> {
      await getOwnedProject(userId, projectId);
      const domain = parseDomain(input);
      if (!(await store.deleteDomain(projectId, domain)))
        throw notFound(`${domain} is not on the whitelist.`);
      changed(projectId);
      return getOwnedProject(userId, projectId);
    },

    /** Sets how long the project's events are kept (null: forever); the retention job applies it. */
    async setRetentionDays(userId: string, projectId: string, days: number | null): Promise<Project> {
      await getOwnedProject(userId, projectId);
      await store.setRetentionDays(projectId, days);
      return getOwnedProject(userId, projectId);
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
    async forget(userId: string, projectId: string, subject: ForgetRequest): Promise<ForgetResult> {
      await getOwnedProject(userId, projectId);
      const deleted =
        subject.wallet !== undefined
          ? await events.deleteWalletEvents(projectId, subject.wallet)
          : await events.deleteUserEvents(projectId, subject.userId ?? '');
      return { deleted };
    },

    async deleteProject(userId: string, projectId: string): Promise<void> {
      await getOwnedProject(userId, projectId);
      await store.delete(projectId);
      // The key is gone with the project (and from ingestion's cache), so no event arrives after this.
      changed(projectId);
      await events.deleteProjectEvents(projectId);
    },

    /** For ingestion: the project a (publishable) API key belongs to, or null. Never log the key. */
    async findProjectByApiKey(apiKey: string): Promise<ApiKeyProject | null> {
      if (!API_KEY_PATTERN.test(apiKey)) return null;
      return store.findByApiKey(apiKey);
    },

    /** Called after a key is created, replaced or revoked, a domain added or removed, or a project deleted. */
    onProjectChanged(listener: ProjectChangeListener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
