import { z } from 'zod';

/**
 * The alert rules routes' answers as the console reads them (issue 27, the contract the alert modules
 * share); channels and reports are read with their contracts' schemas.
 */

export const RuleKinds = [
  'tx_fail_rate',
  'new_incident',
  'incident_regression',
  'incident_spike',
  'no_events',
] as const;
export type RuleKind = (typeof RuleKinds)[number];

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
