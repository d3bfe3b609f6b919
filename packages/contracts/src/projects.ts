import { z } from 'zod';
import { RoleSchema } from './members.ts';
import { LABEL_MESSAGE, LABEL_PATTERN } from './text.ts';
import { TimeZoneSchema } from './time-zone.ts';

export const ProjectSchema = z.object({
  id: z.string(),
  name: z.string(),
  apiKey: z.string().nullable(),
  ownerId: z.string(),
  createdAt: z.string(),
  whitelistedDomains: z.array(z.string()),
  /** Events older than this many days are deleted (hourly); null keeps them forever. */
  retentionDays: z.number().int().nullable(),
  /** IANA time zone: days, weeks and dates follow it (docs/timezone.md); `UTC` by default. */
  timeZone: z.string().default('UTC'),
  /** Wallet error codes whose errors are not incidents (docs/acquisition-and-incidents.md); default [4001]. */
  ignoredWalletCodes: z.array(z.number().int()),
  /** The caller's role in the project (docs/teams.md). */
  role: RoleSchema,
});
export type Project = z.infer<typeof ProjectSchema>;

export const ProjectListSchema = z.object({ projects: z.array(ProjectSchema) });

/** A name is shown as typed: control characters and lone surrogates are refused, never cleaned up. */
export const CreateProjectSchema = z.object({
  name: z.string().trim().min(1).max(100).regex(LABEL_PATTERN, LABEL_MESSAGE),
});
export const DomainInputSchema = z.object({ domain: z.string().trim().min(1).max(300) });

/** The longest retention a project can set: ten years. Longer is "forever" (null). */
export const MAX_RETENTION_DAYS = 3650;
/** The project's settings: send either or both; at least one. */
export const ProjectSettingsSchema = z
  .object({
    retentionDays: z
      .number()
      .int('must be a whole number of days')
      .min(1, 'must be at least 1 day')
      .max(MAX_RETENTION_DAYS, `must be at most ${MAX_RETENTION_DAYS} days (use null to keep events forever)`)
      .nullable()
      .optional(),
    timeZone: TimeZoneSchema.optional(),
  })
  .strict()
  .refine((body) => body.retentionDays !== undefined || body.timeZone !== undefined, {
    message: 'send "retentionDays", "timeZone" or both',
  });
export type ProjectSettings = z.infer<typeof ProjectSettingsSchema>;

/** A new project's ignored wallet codes: the user's refusal (EIP-1193 4001). */
export const DEFAULT_IGNORED_WALLET_CODES: readonly number[] = [4001];
/** The codes the console offers, with what they mean (EIP-1193, and MetaMask's -32002). */
export const OFFERED_WALLET_CODES: readonly { code: number; label: string }[] = [
  { code: 4001, label: 'User rejected the request' },
  { code: 4100, label: 'Unauthorized (account or method not authorised)' },
  { code: 4200, label: 'Unsupported method' },
  { code: 4900, label: 'Disconnected from all chains' },
  { code: 4901, label: 'Not connected to the requested chain' },
  { code: -32002, label: 'Request already pending' },
];
export const MAX_IGNORED_WALLET_CODES = 20;
/** Any 32-bit signed integer: the range the event store keeps an error code in. */
export const WALLET_CODE_MIN = -2_147_483_648;
export const WALLET_CODE_MAX = 2_147_483_647;
/** `PUT /projects/:id/ignored-wallet-codes`: the whole list (empty: every wallet error is an incident). */
export const IgnoredWalletCodesSchema = z.object({
  codes: z
    .array(
      z
        .number()
        .int('must be a whole number')
        .min(WALLET_CODE_MIN, 'must be a 32-bit integer')
        .max(WALLET_CODE_MAX, 'must be a 32-bit integer'),
    )
    .max(MAX_IGNORED_WALLET_CODES, `at most ${MAX_IGNORED_WALLET_CODES} codes`)
    .refine((codes) => new Set(codes).size === codes.length, 'each code at most once'),
});
export type IgnoredWalletCodes = z.infer<typeof IgnoredWalletCodesSchema>;

/** A data-subject request: every event of one wallet or of one SDK user, one of the two per request. */
export const ForgetSchema = z
  .strictObject({
    wallet: z
      .string()
      .regex(/^0x[0-9a-fA-F]{40}$/, 'expected a 20-byte address (0x and 40 hex digits)')
      .optional(),
    userId: z.string().min(1).max(64).regex(LABEL_PATTERN, LABEL_MESSAGE).optional(),
  })
  .refine((body) => (body.wallet === undefined) !== (body.userId === undefined), {
    message: 'send either "wallet" or "userId"',
  });
export type ForgetRequest = z.infer<typeof ForgetSchema>;
export const ForgetResultSchema = z.object({ deleted: z.number().int().nonnegative() });
export type ForgetResult = z.infer<typeof ForgetResultSchema>;

/** Read tokens: project-scoped, read-only credentials for scripts and BI tools. */
export const CreateReadTokenSchema = z.object({
  name: z.string().trim().min(1).max(100).regex(LABEL_PATTERN, LABEL_MESSAGE),
});
export const ReadTokenSchema = z.object({ id: z.string(), name: z.string(), createdAt: z.string() });
export type ReadToken = z.infer<typeof ReadTokenSchema>;
/** The answer to a creation: the only time the token itself is shown. */
export const CreatedReadTokenSchema = ReadTokenSchema.extend({ token: z.string() });
export type CreatedReadToken = z.infer<typeof CreatedReadTokenSchema>;
export const ReadTokenListSchema = z.object({ readTokens: z.array(ReadTokenSchema) });
