import { z } from 'zod';
import { EmailSchema } from './auth.ts';

/**
 * A project's people (docs/teams.md). `owner`: exactly one, everything; `admin`: everything but deleting
 * the project, transferring it, or touching the owner; `viewer`: reads, changes nothing.
 */
export const Roles = ['owner', 'admin', 'viewer'] as const;
export const RoleSchema = z.enum(Roles);
export type Role = z.infer<typeof RoleSchema>;

/** The roles an invitation or a role change can give: ownership only moves by a transfer. */
export const GrantableRoles = ['admin', 'viewer'] as const;
export const GrantableRoleSchema = z.enum(GrantableRoles, {
  error: 'must be "admin" or "viewer" (ownership moves only by a transfer)',
});
export type GrantableRole = z.infer<typeof GrantableRoleSchema>;

/** Most members and pending invitations a project can have. */
export const MAX_MEMBERS_PER_PROJECT = 50;
export const MAX_PENDING_INVITATIONS_PER_PROJECT = 50;
/** Invitation emails (new and resent) a project can send per hour. */
export const MAX_INVITATION_EMAILS_PER_HOUR = 20;
/** How long an invitation's link works. */
export const INVITATION_TTL_DAYS = 7;

export const MemberSchema = z.object({
  userId: z.string(),
  email: z.string(),
  role: RoleSchema,
  joinedAt: z.string(),
});
export type Member = z.infer<typeof MemberSchema>;

export const InvitationSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: GrantableRoleSchema,
  createdAt: z.string(),
  expiresAt: z.string(),
});
export type Invitation = z.infer<typeof InvitationSchema>;

/** `GET /projects/:id/members`. */
export const MemberListSchema = z.object({
  members: z.array(MemberSchema),
  invitations: z.array(InvitationSchema),
});
export type MemberList = z.infer<typeof MemberListSchema>;

/** `POST /projects/:id/invitations`. */
export const CreateInvitationSchema = z.object({ email: EmailSchema, role: GrantableRoleSchema });
export type CreateInvitation = z.infer<typeof CreateInvitationSchema>;
export const CreatedInvitationSchema = InvitationSchema.pick({
  id: true,
  email: true,
  role: true,
  expiresAt: true,
});
export type CreatedInvitation = z.infer<typeof CreatedInvitationSchema>;

/** `POST /invitations/accept`: the token of the emailed link (32 random bytes, base64url). */
export const AcceptInvitationSchema = z.object({
  token: z
    .string()
    .trim()
    .min(1)
    .max(512)
    .regex(/^[A-Za-z0-9_-]+$/, 'expected the token of the invitation link'),
});

/** `PATCH /projects/:id/members/:userId`. */
export const ChangeRoleSchema = z.object({ role: GrantableRoleSchema });

/** `POST /projects/:id/transfer`: to a member who is an admin already. */
export const TransferSchema = z.object({ userId: z.uuid("expected a member's user id") });

/** What the audit log records (docs/teams.md lists what each one means). */
export const AuditActions = [
  'project.create',
  'project.delete',
  'api_key.create',
  'api_key.revoke',
  'domain.add',
  'domain.remove',
  'retention.set',
  'timezone.set',
  'annotation.create',
  'annotation.update',
  'annotation.delete',
  'funnel.create',
  'funnel.update',
  'funnel.delete',
  'goal.create',
  'goal.update',
  'goal.delete',
  'forget',
  'read_token.create',
  'read_token.revoke',
  'write_token.create',
  'write_token.revoke',
  'sourcemaps.upload',
  'sourcemaps.delete',
  'incident.status',
  'incident.assign',
  'wallet_codes.set',
  'invitation.create',
  'invitation.resend',
  'invitation.revoke',
  'invitation.accept',
  'member.role',
  'member.remove',
  'member.leave',
  'ownership.transfer',
  'alert_channel.create',
  'alert_channel.delete',
] as const;
export type AuditAction = (typeof AuditActions)[number];

export const AuditEntrySchema = z.object({
  id: z.string(),
  at: z.string(),
  actor: z.object({ userId: z.string(), email: z.string() }),
  action: z.enum(AuditActions),
  /** What was acted on: a domain, a member's email, a token's name, an incident id… */
  target: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
  /** The client's address as the server saw it (TRUST_PROXY: the proxy's X-Forwarded-For). */
  ip: z.string(),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

export const AUDIT_PAGE_DEFAULT = 50;
export const AUDIT_PAGE_MAX = 200;

/** `GET /projects/:id/audit-log?before=&limit=&format=`: newest first; `before` is the previous page's `nextBefore`. */
export const AuditLogQuerySchema = z.strictObject({
  before: z
    .string()
    .max(200)
    .regex(/^[A-Za-z0-9_-]+$/, 'expected the nextBefore of the previous page')
    .optional(),
  limit: z.coerce
    .number()
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(AUDIT_PAGE_MAX, `must be at most ${AUDIT_PAGE_MAX}`)
    .optional(),
  format: z.enum(['json', 'csv'], { error: 'must be "json" or "csv"' }).optional(),
});
export type AuditLogQuery = z.infer<typeof AuditLogQuerySchema>;

export const AuditLogSchema = z.object({
  entries: z.array(AuditEntrySchema),
  nextBefore: z.string().nullable(),
});
export type AuditLog = z.infer<typeof AuditLogSchema>;
