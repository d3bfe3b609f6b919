import { z } from 'zod';
import { Severities } from './incidents.ts';
import { LABEL_MESSAGE, LABEL_PATTERN } from './text.ts';

/**
 * Alert rules (issue 27, docs/alerts.md#rules): what a project's admins ask Polyflow to watch. Each kind
 * has its own parameters and ranges; anything outside them is refused, nothing stored.
 */
export const AlertRuleKinds = [
  'tx_fail_rate',
  'new_incident',
  'incident_regression',
  'incident_spike',
  'no_events',
] as const;
export type AlertRuleKind = (typeof AlertRuleKinds)[number];

/** At most this many rules per project. */
export const MAX_ALERT_RULES_PER_PROJECT = 50;
/** A rule notifies at most this many channels (a project has at most 20). */
export const MAX_RULE_CHANNELS = 20;
export const DEFAULT_COOLDOWN_MINUTES = 60;
/** A week: a longer silence after a firing is a paused rule. */
export const MAX_COOLDOWN_MINUTES = 10_080;

const windowMinutes = z.number().int().min(5).max(1440);

export const AlertRuleParamsSchemas = {
  tx_fail_rate: z.strictObject({
    windowMinutes,
    thresholdPercent: z.number().min(0).max(100),
    minTransactions: z.number().int().min(1).max(1_000_000_000),
  }),
  new_incident: z.strictObject({ minSeverity: z.enum(Severities) }),
  incident_regression: z.strictObject({}),
  incident_spike: z.strictObject({
    threshold: z.number().int().min(1).max(1_000_000_000),
    windowMinutes,
  }),
  no_events: z.strictObject({ hours: z.number().int().min(1).max(168) }),
} as const satisfies Record<AlertRuleKind, z.ZodType>;

export type TxFailRateParams = z.infer<typeof AlertRuleParamsSchemas.tx_fail_rate>;
export type NewIncidentParams = z.infer<typeof AlertRuleParamsSchemas.new_incident>;
export type IncidentSpikeParams = z.infer<typeof AlertRuleParamsSchemas.incident_spike>;
export type NoEventsParams = z.infer<typeof AlertRuleParamsSchemas.no_events>;

const ruleName = z.string().trim().min(1).max(100).regex(LABEL_PATTERN, LABEL_MESSAGE);
const channelIds = z
  .array(z.uuid())
  .max(MAX_RULE_CHANNELS)
  .refine((ids) => new Set(ids).size === ids.length, 'must not repeat a channel');
const cooldownMinutes = z.number().int().min(0).max(MAX_COOLDOWN_MINUTES);

/** `{kind, params}` with the params of that kind: a union on `kind`, so an unknown kind is refused. */
const kindAndParams = <K extends AlertRuleKind>(kind: K) =>
  z.strictObject({ kind: z.literal(kind), params: AlertRuleParamsSchemas[kind] });

export const AlertRuleConditionSchema = z.discriminatedUnion('kind', [
  kindAndParams('tx_fail_rate'),
  kindAndParams('new_incident'),
  kindAndParams('incident_regression'),
  kindAndParams('incident_spike'),
  kindAndParams('no_events'),
]);
export type AlertRuleCondition = z.infer<typeof AlertRuleConditionSchema>;

const creation = <K extends AlertRuleKind>(kind: K) =>
  kindAndParams(kind).extend({ name: ruleName, channelIds, cooldownMinutes: cooldownMinutes.optional() });

/** `POST /projects/:id/alert-rules`. */
export const CreateAlertRuleSchema = z.discriminatedUnion('kind', [
  creation('tx_fail_rate'),
  creation('new_incident'),
  creation('incident_regression'),
  creation('incident_spike'),
  creation('no_events'),
]);
export type CreateAlertRule = z.infer<typeof CreateAlertRuleSchema>;

/** `PATCH /projects/:id/alert-rules/:ruleId`: any of these; `params` must suit the rule's kind. */
export const UpdateAlertRuleSchema = z
  .strictObject({
    name: ruleName,
    params: z.record(z.string(), z.unknown()),
    channelIds,
    cooldownMinutes,
    paused: z.boolean(),
  })
  .partial()
  .refine((patch) => Object.keys(patch).length > 0, 'must change at least one field');
export type UpdateAlertRule = z.infer<typeof UpdateAlertRuleSchema>;

const previewOf = <K extends AlertRuleKind>(kind: K) =>
  kindAndParams(kind).extend({ cooldownMinutes: cooldownMinutes.optional() });

/** `POST /projects/:id/alert-rules/preview`: a condition (and a cooldown, default 60) to replay. */
export const AlertRulePreviewInputSchema = z.discriminatedUnion('kind', [
  previewOf('tx_fail_rate'),
  previewOf('new_incident'),
  previewOf('incident_regression'),
  previewOf('incident_spike'),
  previewOf('no_events'),
]);
export type AlertRulePreviewInput = z.infer<typeof AlertRulePreviewInputSchema>;

const at = z.iso.datetime();
const figures = z.record(z.string(), z.union([z.number(), z.string()]));

/** What a firing is about: the whole project (fail rate, silence) or one incident. */
export const AlertSubjectSchema = z.object({
  kind: z.enum(['project', 'incident']),
  id: z.string(),
  title: z.string().optional(),
});
export type AlertSubject = z.infer<typeof AlertSubjectSchema>;

export const AlertRuleSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  kind: z.enum(AlertRuleKinds),
  params: z.record(z.string(), z.union([z.number(), z.string()])),
  channelIds: z.array(z.uuid()),
  cooldownMinutes: z.number().int(),
  paused: z.boolean(),
  /** `firing` while one of its subjects is past the threshold (and not yet resolved). */
  state: z.enum(['ok', 'firing']),
  lastFiredAt: at.nullable(),
  createdAt: at,
  updatedAt: at,
});
export type AlertRule = z.infer<typeof AlertRuleSchema>;
export const AlertRuleListSchema = z.object({ alertRules: z.array(AlertRuleSchema) });

export const AlertFiringSchema = z.object({
  id: z.uuid(),
  ruleId: z.uuid(),
  type: z.enum(['triggered', 'resolved']),
  subject: AlertSubjectSchema,
  figures,
  at,
});
export type AlertFiring = z.infer<typeof AlertFiringSchema>;
export const AlertFiringListSchema = z.object({ firings: z.array(AlertFiringSchema) });

export const AlertPreviewFiringSchema = z.object({ at, subject: AlertSubjectSchema, figures });
export type AlertPreviewFiring = z.infer<typeof AlertPreviewFiringSchema>;
export const AlertPreviewSchema = z.object({ firings: z.array(AlertPreviewFiringSchema) });
