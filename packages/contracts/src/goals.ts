import { z } from 'zod';
import { MAX_PATH_PATTERN } from './path-pattern.ts';
import { LABEL_MESSAGE, LABEL_PATTERN } from './text.ts';

/**
 * Goals (docs/goals.md): a named conversion, either a custom event (optionally with one property's value)
 * or a page path pattern. A project has at most MAX_GOALS_PER_PROJECT of them.
 */
export const MAX_GOALS_PER_PROJECT = 50;
export const MAX_GOAL_NAME = 64;
export const MAX_PROPERTY_VALUE = 256;

/** 1–`max` characters, no control character, not blank. */
const label = (max: number) =>
  z
    .string()
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`)
    .regex(LABEL_PATTERN, LABEL_MESSAGE)
    .refine((text) => text.trim().length > 0, 'must not be blank');

const GoalName = label(MAX_GOAL_NAME);
/** A custom event name or property key as the SDK sends them (docs/custom-events.md): 1–64 characters. */
const EventName = label(64);
const PropertyKey = label(64);
/** The property's value as text: a string as it is, a number or boolean as JSON writes it (`1.5`, `true`). */
const PropertyValue = z
  .string()
  .max(MAX_PROPERTY_VALUE, `must be at most ${MAX_PROPERTY_VALUE} characters`)
  .regex(LABEL_PATTERN, LABEL_MESSAGE);
/** Shape only (storable text, length); the grammar is `pathPatternProblem`'s, refused as GOAL_PATTERN_INVALID. */
const PathPattern = z
  .string()
  .min(1, 'must not be empty')
  .max(MAX_PATH_PATTERN, `must be at most ${MAX_PATH_PATTERN} characters`)
  .regex(LABEL_PATTERN, LABEL_MESSAGE);

const EventGoalSchema = z.strictObject({
  name: GoalName,
  kind: z.literal('event'),
  eventName: EventName,
  /** With `propertyValue`: only events whose property `propertyKey` has that value. */
  propertyKey: PropertyKey.nullable().optional(),
  propertyValue: PropertyValue.nullable().optional(),
});
const PathGoalSchema = z.strictObject({
  name: GoalName,
  kind: z.literal('path'),
  pathPattern: PathPattern,
});

/** `POST /projects/:id/goals` and `PUT /projects/:id/goals/:goalId` (a goal's whole definition). */
export const GoalInputSchema = z
  .discriminatedUnion('kind', [EventGoalSchema, PathGoalSchema])
  .refine((goal) => goal.kind !== 'event' || (goal.propertyKey == null) === (goal.propertyValue == null), {
    message: 'send both propertyKey and propertyValue, or neither',
    path: ['propertyValue'],
  });
export type GoalInput = z.infer<typeof GoalInputSchema>;

export const GoalSchema = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(['event', 'path']),
  /** kind event: the custom event's name; else null. */
  eventName: z.string().nullable(),
  propertyKey: z.string().nullable(),
  propertyValue: z.string().nullable(),
  /** kind path: the page path pattern; else null. */
  pathPattern: z.string().nullable(),
  /** The author's email, as the audit log names them. */
  createdBy: z.string(),
  createdAt: z.string(),
});
export type Goal = z.infer<typeof GoalSchema>;

export const GoalListSchema = z.object({ goals: z.array(GoalSchema) });
