import type { Project } from '@polyflow/contracts/projects';
import { forbidden, notFound } from '../../errors.ts';
import { type Right, roleAllows } from '../../lib/access.ts';
import { isId } from '../../lib/ids.ts';
import type { ProjectStore } from './store.ts';

const API_KEY_PATTERN = /^pf_[0-9A-Za-z]{32}$/;

/**
 * What ingestion needs to accept a batch: the project behind a key, where it may come from, and which
 * wallet error codes are not incidents (ADR 067).
 */
export type ApiKeyProject = { id: string; whitelistedDomains: string[]; ignoredWalletCodes: number[] };
/** `deleted`: the project is gone (its live streams close); `updated`: anything else ingestion keeps. */
export type ProjectChange = 'updated' | 'deleted';
export type ProjectChangeListener = (projectId: string, change: ProjectChange) => void;
export type ProjectAccessPart = ReturnType<typeof createProjectAccess>;

const RIGHT_MESSAGES: Record<Right, string> = {
  read: 'Only members of this project can do this.',
  manage: 'Your role in this project (viewer) cannot change it; ask one of its admins or its owner.',
  own: 'Only the owner of this project can do this.',
};

export const projectNotFound = () => notFound('Project not found.');

/**
 * Who may read or change a project, which project a key names, and who is told of a change: what the
 * other modules are built with (ingestion, live, the audit log, source maps, …). It depends on the accounts
 * store alone, so the projects service, which deletes a project's events and files and records into the
 * audit log, is built after them and with them (ADR 075).
 */
export function createProjectAccess({ store }: { store: ProjectStore }) {
  const listeners = new Set<ProjectChangeListener>();

  /**
   * The project as the user sees it, when their role there has `right` (default: read). Checked against
   * the accounts store on every call, so a removed member's next request, on any node, is refused.
   */
  async function getProjectFor(userId: string, projectId: string, right: Right = 'read'): Promise<Project> {
    if (!isId(projectId)) throw projectNotFound();
    const project = await store.findForMember(userId, projectId);
    // Someone else's project answers exactly like a missing one.
    if (!project) throw projectNotFound();
    if (!roleAllows(project.role, right)) {
      throw forbidden(project.role === 'admin' ? RIGHT_MESSAGES.own : RIGHT_MESSAGES[right]);
    }
    return project;
  }

  return {
    getProjectFor,

    /** Whether the user is (still) a member of the project: the live stream asks while it is open. */
    async isMember(userId: string, projectId: string): Promise<boolean> {
      return isId(projectId) && (await store.findForMember(userId, projectId)) !== null;
    },

    /** For ingestion: the project a (publishable) API key belongs to, or null. Never log the key. */
    async findProjectByApiKey(apiKey: string): Promise<ApiKeyProject | null> {
      if (!API_KEY_PATTERN.test(apiKey)) return null;
      return store.findByApiKey(apiKey);
    },

    /**
     * Called after a key is created, replaced or revoked, a domain added or removed, the ignored wallet
     * codes set, or a project deleted.
     */
    onProjectChanged(listener: ProjectChangeListener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    /** Tells every listener (the projects service calls it after each change it makes). */
    changed(projectId: string, change: ProjectChange = 'updated'): void {
      for (const listener of listeners) {
        try {
          listener(projectId, change);
        } catch {
          // A listener's failure (a cache) must not undo or fail the change that already happened.
        }
      }
    },
  };
}
