import { z } from 'zod';
import { LABEL_MESSAGE, LABEL_PATTERN } from './text.ts';

/**
 * Alert channels (issue 27, docs/alerts.md): where a project's alerts go. Admins and the owner manage
 * them, every member reads them and their delivery log.
 */
export const AlertChannelTypes = ['email', 'webhook', 'slack', 'discord'] as const;
export const AlertChannelTypeSchema = z.enum(AlertChannelTypes, {
  error: 'must be "email", "webhook", "slack" or "discord"',
});
export type AlertChannelType = z.infer<typeof AlertChannelTypeSchema>;

/** Most channels a project can have. */
export const MAX_ALERT_CHANNELS_PER_PROJECT = 20;
/** Longest URL a channel can have. */
export const MAX_ALERT_CHANNEL_URL_LENGTH = 2048;
/** Most members one email channel writes to (a project has at most 50). */
export const MAX_ALERT_CHANNEL_MEMBERS = 50;

const NameSchema = z.string().trim().min(1).max(100).regex(LABEL_PATTERN, LABEL_MESSAGE);

/** An absolute http(s) URL of at most 2048 characters, with a host and no user or password in it. */
const HttpUrlSchema = z
  .string()
  .trim()
  .max(MAX_ALERT_CHANNEL_URL_LENGTH, `must be at most ${MAX_ALERT_CHANNEL_URL_LENGTH} characters`)
  .pipe(z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }))
  .refine((text) => !/^https?:\/\/[^/?#]*@/i.test(text), 'must not contain a user name or password');

/** Slack's incoming webhooks: `https://hooks.slack.com/services/…`. */
export const SLACK_URL_PATTERN = /^https:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9_/-]+$/;
/** Discord's webhooks: `https://discord.com/api/webhooks/…` (or the older discordapp.com). */
export const DISCORD_URL_PATTERN = /^https:\/\/(discord|discordapp)\.com\/api\/webhooks\/[A-Za-z0-9_/-]+$/;

/** `POST /projects/:id/alert-channels`: the fields each type takes, nothing else. */
export const CreateAlertChannelSchema = z.discriminatedUnion(
  'type',
  [
    z.strictObject({
      type: z.literal('email'),
      name: NameSchema,
      /** Members of the project who get the emails (at least one). */
      memberIds: z
        .array(z.uuid("expected a member's user id"))
        .min(1, 'choose at least one member')
        .max(MAX_ALERT_CHANNEL_MEMBERS),
    }),
    z.strictObject({ type: z.literal('webhook'), name: NameSchema, url: HttpUrlSchema }),
    z.strictObject({
      type: z.literal('slack'),
      name: NameSchema,
      url: HttpUrlSchema.pipe(
        z
          .string()
          .regex(SLACK_URL_PATTERN, 'must be a Slack incoming webhook (https://hooks.slack.com/services/…)'),
      ),
    }),
    z.strictObject({
      type: z.literal('discord'),
      name: NameSchema,
      url: HttpUrlSchema.pipe(
        z
          .string()
          .regex(DISCORD_URL_PATTERN, 'must be a Discord webhook (https://discord.com/api/webhooks/…)'),
      ),
    }),
  ],
  { error: 'type must be "email", "webhook", "slack" or "discord"' },
);
export type CreateAlertChannel = z.infer<typeof CreateAlertChannelSchema>;

export const AlertChannelSchema = z.object({
  id: z.string(),
  type: AlertChannelTypeSchema,
  name: z.string(),
  /** The webhook, Slack or Discord URL; null for email. */
  url: z.string().nullable(),
  /** The members an email channel writes to; [] for the other types. */
  memberIds: z.array(z.string()),
  createdAt: z.string(),
});
export type AlertChannel = z.infer<typeof AlertChannelSchema>;

/** The 201 answer: a webhook's signing secret is in it, and in no other answer. */
export const CreatedAlertChannelSchema = AlertChannelSchema.extend({ secret: z.string().optional() });
export type CreatedAlertChannel = z.infer<typeof CreatedAlertChannelSchema>;

/** `GET /projects/:id/alert-channels`. */
export const AlertChannelListSchema = z.object({ alertChannels: z.array(AlertChannelSchema) });
export type AlertChannelList = z.infer<typeof AlertChannelListSchema>;

/** `POST …/alert-channels/:channelId/test` → 202: the test notice's id (its `Polyflow-Delivery`). */
export const SentTestNoticeSchema = z.object({ noticeId: z.string() });

export const AlertDeliveryStates = ['pending', 'delivered', 'failed'] as const;

/**
 * One line of a channel's delivery log (`GET …/alert-channels/:channelId/deliveries`, newest first, the
 * last 200): an attempt made (`delivered`: the receiver answered 2xx; `failed`: another answer, a timeout
 * or no connection, with `error` saying which), or the next attempt of a notice not delivered yet
 * (`pending`, `at` is when it is due). A notice given up on (24 hours of retries) ends with a `failed`
 * line whose error says so.
 */
export const AlertDeliverySchema = z.object({
  id: z.string(),
  noticeId: z.string(),
  noticeType: z.string(),
  attempt: z.number().int(),
  at: z.string(),
  statusCode: z.number().int().nullable(),
  latencyMs: z.number().int().nullable(),
  error: z.string().nullable(),
  state: z.enum(AlertDeliveryStates),
});
export type AlertDelivery = z.infer<typeof AlertDeliverySchema>;
export const AlertDeliveryListSchema = z.object({ deliveries: z.array(AlertDeliverySchema) });

export const AlertNoticeTypes = ['alert.triggered', 'alert.resolved', 'test'] as const;

/**
 * What a rule hands to the channels (the shared alerts contract), and exactly the JSON body a webhook
 * receives. `url` is the absolute console URL of the relevant screen (PUBLIC_URL).
 */
export const AlertNoticeSchema = z.object({
  id: z.uuid(),
  type: z.enum(AlertNoticeTypes),
  project: z.object({ id: z.string(), name: z.string() }),
  /** null for a "test" notice. */
  rule: z.object({ id: z.string(), name: z.string(), kind: z.string() }).nullable(),
  at: z.iso.datetime(),
  subject: z.object({
    kind: z.enum(['project', 'incident']),
    id: z.string(),
    title: z.string().optional(),
  }),
  /** e.g. {failRatePercent, transactions, failed, windowMinutes}. */
  figures: z.record(z.string(), z.union([z.number(), z.string()])),
  url: z.string(),
});
export type AlertNotice = z.infer<typeof AlertNoticeSchema>;
