import { z } from 'zod';

/**
 * The alert routes' answers as the console reads them (issue 27, the contract the alert modules share).
 * Parsed at the edge so components trust their types; unknown extra fields are dropped.
 */

export const RuleKinds = [
  'tx_fail_rate',
  'new_incident',
  'incident_regression',
  'incident_spike',
  'no_events',
] as const;
export type RuleKind = (typeof RuleKinds)[number];

export const ChannelTypes = ['email', 'webhook', 'slack', 'discord'] as const;
export type ChannelType = (typeof ChannelTypes)[number];

const FiguresSchema = z.record(z.string(), z.union([z.number(), z.string()]));
export type Figures = z.infer<typeof FiguresSchema>;

export const SubjectSchema = z.object({
  kind: z.enum(['project', 'incident']),
  id: z.string(),
  title: z.string().optional(),
});
export type Subject = z.infer<typeof SubjectSchema>;

export const AlertRuleSchema = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(RuleKinds),
  params: z.record(z.string(), z.union([z.number(), z.string()])),
  channelIds: z.array(z.string()),
  cooldownMinutes: z.number(),
  paused: z.boolean(),
  state: z.enum(['ok', 'firing']),
  lastFiredAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type AlertRule = z.infer<typeof AlertRuleSchema>;
export const AlertRuleListSchema = z.object({ alertRules: z.array(AlertRuleSchema) });

export const FiringSchema = z.object({
  id: z.string(),
  ruleId: z.string(),
  type: z.enum(['triggered', 'resolved']),
  subject: SubjectSchema,
  figures: FiguresSchema,
  at: z.string(),
});
export type Firing = z.infer<typeof FiringSchema>;
export const FiringListSchema = z.object({ firings: z.array(FiringSchema) });

export const PreviewFiringSchema = z.object({
  at: z.string(),
  subject: SubjectSchema,
  figures: FiguresSchema,
});
export type PreviewFiring = z.infer<typeof PreviewFiringSchema>;
export const PreviewSchema = z.object({ firings: z.array(PreviewFiringSchema) });
export type Preview = z.infer<typeof PreviewSchema>;

export const AlertChannelSchema = z.object({
  id: z.string(),
  type: z.enum(ChannelTypes),
  name: z.string(),
  url: z.string().nullable().optional(),
  memberIds: z.array(z.string()).nullable().optional(),
  createdAt: z.string(),
});
export type AlertChannel = z.infer<typeof AlertChannelSchema>;
export const AlertChannelListSchema = z.object({ alertChannels: z.array(AlertChannelSchema) });
/** The creation answer: a webhook's signing secret appears here and nowhere else. */
export const CreatedAlertChannelSchema = AlertChannelSchema.extend({ secret: z.string().optional() });
export type CreatedAlertChannel = z.infer<typeof CreatedAlertChannelSchema>;

export const TestNoticeSchema = z.object({ noticeId: z.string() });

export const DeliverySchema = z.object({
  id: z.string(),
  noticeId: z.string(),
  noticeType: z.string(),
  attempt: z.number(),
  at: z.string(),
  statusCode: z.number().nullable(),
  latencyMs: z.number().nullable(),
  error: z.string().nullable(),
  state: z.enum(['pending', 'delivered', 'failed']),
});
export type Delivery = z.infer<typeof DeliverySchema>;
export const DeliveryListSchema = z.object({ deliveries: z.array(DeliverySchema) });

export const ReportSubscriptionSchema = z.object({
  userId: z.string(),
  email: z.string(),
  weekly: z.boolean(),
  monthly: z.boolean(),
});
export type ReportSubscription = z.infer<typeof ReportSubscriptionSchema>;
export const ReportSubscriptionListSchema = z.object({
  reportSubscriptions: z.array(ReportSubscriptionSchema),
});
