import { z } from 'zod';
import { LABEL_MESSAGE, LABEL_PATTERN } from './text.ts';

/**
 * Goals (docs/goals.md): a named conversion, either a custom event (optionally with one property's value)
 * or a page path pattern. A project has at most MAX_GOALS_PER_PROJECT of them.
 */
export const MAX_GOALS_PER_PROJECT = 50;
export const MAX_GOAL_NAME = 64;
export const MAX_PATH_PATTERN = 256;
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

/**
 * Page path patterns (docs/goals.md#page-path-patterns). A pattern starts with `/` and is read segment by
 * segment (between slashes); a segment is
 * - `*`: exactly one segment, of at least one character;
 * - `**` (only as the last segment): the rest of the path, zero or more segments (`/docs/**` matches
 *   `/docs`, `/docs/` and `/docs/a/b`);
 * - anything else: those characters exactly (case-sensitive), without `*`, `?` or `#`.
 * An empty segment is allowed only last (a trailing slash, matched exactly). The whole path must match.
 */
export function pathPatternProblem(pattern: string): string | null {
  if (!pattern.startsWith('/')) return 'must start with /';
  if (/[?#]/.test(pattern)) return 'must not contain ? or # (a page path has no query or fragment)';
  if (/\s/.test(pattern)) return 'must not contain spaces';
  const segments = pattern.slice(1).split('/');
  for (const [index, segment] of segments.entries()) {
    const last = index === segments.length - 1;
    if (segment === '' && !last) return 'must not contain an empty segment (//)';
    if (segment === '**' && !last) return '** is allowed only as the last segment';
    if (segment !== '*' && segment !== '**' && segment.includes('*'))
      return 'a * must be a whole segment (* or **), not part of one';
  }
  return null;
}

const escapeRegex = (text: string) => text.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&');

/**
 * The regular expression (RE2 and JavaScript alike) a valid pattern stands for, anchored: both engines
 * match a page path with it, the console previews with it.
 */
export function pathPatternRegex(pattern: string): string {
  const segments = pattern.slice(1).split('/');
  const parts = segments.map((segment) => {
    if (segment === '*') return '/[^/]+';
    if (segment === '**') return '(/.*)?';
    return `/${escapeRegex(segment)}`;
  });
  return `^${parts.join('')}$`;
}

/** Whether `path` matches a valid `pattern` (the definition, in JavaScript). */
export const pathMatches = (pattern: string, path: string) =>
  new RegExp(pathPatternRegex(pattern), 'u').test(path);
