import type { Role } from '@polyflow/contracts/members';

/** What each role may do in the console (docs/teams.md): viewers read, admins and the owner change. */
export const canManage = (role: Role): boolean => role !== 'viewer';
export const isOwner = (role: Role): boolean => role === 'owner';

/** The tooltip of a control the caller's role cannot use. */
export const VIEWER_HINT = 'Viewers cannot change this project: ask one of its admins or its owner.';
export const OWNER_HINT = 'Only the owner of this project can do this.';

export const ROLE_LABELS: Record<Role, string> = { owner: 'Owner', admin: 'Admin', viewer: 'Viewer' };
