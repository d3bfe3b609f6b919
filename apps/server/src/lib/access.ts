import type { AuditAction, Role } from '@polyflow/contracts/members';
import type { Project } from '@polyflow/contracts/projects';

/** Who acts on a project from a console session, and from where (the audit log keeps both). */
export type Actor = { id: string; email: string; ip: string };

/**
 * What an operation needs of the caller's role (docs/teams.md): `read` every member has (dashboards,
 * live view, incidents, export), `manage` admins and the owner (keys, domains, read tokens, retention,
 * forget, incident status, invitations, members), `own` the owner alone (transfer, delete).
 */
export type Right = 'read' | 'manage' | 'own';

const RIGHTS: Record<Role, readonly Right[]> = {
  owner: ['read', 'manage', 'own'],
  admin: ['read', 'manage'],
  viewer: ['read'],
};

export const roleAllows = (role: Role, right: Right): boolean => RIGHTS[role].includes(right);

/** One change to record in a project's audit log. */
export type AuditRecord = {
  projectId: string;
  actor: Actor;
  action: AuditAction;
  target?: string | null;
  details?: Record<string, unknown>;
};

/** The audit log as the services that change projects see it (modules/audit-log). */
export type AuditRecorder = { record(entry: AuditRecord): Promise<void> };

/** What the modules that read or change a project need of the projects service. */
export type ProjectAccess = {
  /** 404 for a non-member (as for a missing project), 403 ACCESS_FORBIDDEN without `right` (default read). */
  getProjectFor(userId: string, projectId: string, right?: Right): Promise<Project>;
};
