import { z } from 'zod';
import { AttributionDimensions } from './acquisition.ts';
import { PathPatternSchema } from './path-pattern.ts';
import { LABEL_MESSAGE, LABEL_PATTERN, labelText } from './text.ts';

/**
 * Custom funnels (docs/funnels.md): a name, 2–8 ordered steps and a completion window of 1 hour to 30
 * days, saved per project (at most 50).
 */
export const MIN_FUNNEL_STEPS = 2;
export const MAX_FUNNEL_STEPS = 8;
export const MIN_FUNNEL_WINDOW_HOURS = 1;
export const MAX_FUNNEL_WINDOW_HOURS = 30 * 24;
export const MAX_FUNNELS_PER_PROJECT = 50;
export const MAX_FUNNEL_NAME = 80;

/** The transaction stages a step can wait for (the SDK's stages, docs/wallets.md). */
export const FunnelTxStages = [
  'requested',
  'submitted',
  'confirmed',
  'failed',
  'rejected',
  'reverted',
] as const;
export type FunnelTxStage = (typeof FunnelTxStages)[number];

const name = (max: number) => labelText(max).min(1, 'must not be empty');

export const FunnelStepSchema = z.discriminatedUnion(
  'kind',
  [
    z.strictObject({ kind: z.literal('page'), path: PathPatternSchema }),
    z.strictObject({
      kind: z.literal('event'),
      name: name(64),
      /** Only events whose property `key` has this value (a number or boolean as JSON writes it: `1.5`, `true`). */
      property: z.strictObject({ key: name(64), value: labelText(256) }).nullish(),
    }),
    z.strictObject({ kind: z.literal('wallet_connected') }),
    z.strictObject({ kind: z.literal('transaction'), stage: z.enum(FunnelTxStages) }),
  ],
  {
    error: (issue) =>
      issue.code === 'invalid_union'
        ? 'kind must be one of page, event, wallet_connected, transaction'
        : undefined,
  },
);
export type FunnelStep = z.infer<typeof FunnelStepSchema>;
export type FunnelStepKind = FunnelStep['kind'];

const Steps = z
  .array(FunnelStepSchema)
  .min(MIN_FUNNEL_STEPS, `a funnel has ${MIN_FUNNEL_STEPS} to ${MAX_FUNNEL_STEPS} steps`)
  .max(MAX_FUNNEL_STEPS, `a funnel has ${MIN_FUNNEL_STEPS} to ${MAX_FUNNEL_STEPS} steps`);
const WindowHours = z
  .number()
  .int('must be a whole number of hours')
  .min(MIN_FUNNEL_WINDOW_HOURS, 'the window is 1 hour to 30 days (720 hours)')
  .max(MAX_FUNNEL_WINDOW_HOURS, 'the window is 1 hour to 30 days (720 hours)');
const FunnelName = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(MAX_FUNNEL_NAME, `must be at most ${MAX_FUNNEL_NAME} characters`)
  .regex(LABEL_PATTERN, LABEL_MESSAGE);

export const CreateFunnelSchema = z.strictObject({
  name: FunnelName,
  steps: Steps,
  windowHours: WindowHours,
});
export type CreateFunnel = z.infer<typeof CreateFunnelSchema>;

/** A change: any of the fields (the steps are replaced whole). */
export const UpdateFunnelSchema = z
  .strictObject({ name: FunnelName.optional(), steps: Steps.optional(), windowHours: WindowHours.optional() })
  .refine((body) => Object.keys(body).length > 0, {
    message: 'send at least one of name, steps, windowHours',
  });
export type UpdateFunnel = z.infer<typeof UpdateFunnelSchema>;

export const FunnelSchema = z.object({
  id: z.string(),
  name: z.string(),
  steps: z.array(FunnelStepSchema),
  windowHours: z.number().int(),
  /** The author's email, as the audit log names them. */
  createdBy: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Funnel = z.infer<typeof FunnelSchema>;

export const FunnelListSchema = z.object({ funnels: z.array(FunnelSchema) });

/** The dimensions a funnel's result can be split by: the landing attribution of the user's first step. */
export const FunnelSplitDimensions = AttributionDimensions;

/** A step's words in the console and the docs: `Page /pricing`, `Event swap (pair = ETH/USDC)`. */
export function funnelStepLabel(step: FunnelStep): string {
  switch (step.kind) {
    case 'page':
      return `Page ${step.path}`;
    case 'event':
      return step.property
        ? `Event ${step.name} (${step.property.key} = ${step.property.value})`
        : `Event ${step.name}`;
    case 'wallet_connected':
      return 'Wallet connected';
    case 'transaction':
      return `Transaction ${step.stage}`;
  }
}
