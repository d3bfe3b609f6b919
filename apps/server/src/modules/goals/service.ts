import {
  type AcquisitionFilters,
  AcquisitionFiltersSchema,
  type AttributionDimension,
  AttributionDimensions,
} from '@polyflow/contracts/acquisition';
import { type Goal, type GoalInput, MAX_GOALS_PER_PROJECT } from '@polyflow/contracts/goals';
import { pathPatternProblem, pathPatternRegex } from '@polyflow/contracts/path-pattern';
import { AppError, notFound } from '../../errors.ts';
import type { Actor, AuditRecorder, ProjectAccess } from '../../lib/access.ts';
import { type Clock, systemClock } from '../../lib/clock.ts';
import { isId, newId } from '../../lib/ids.ts';
import { InputError } from '../../reading/input-error.ts';
import {
  type ComparableRangeInput,
  comparedRange,
  needsSpan,
  resolveRange,
  type TimeRange,
} from '../../reading/time-range.ts';
import type { GoalMatch, GoalQuestions } from '../event-store/goal-questions.ts';
import type { GoalDefinitionColumns, GoalStore } from './store.ts';

export type GoalServiceDeps = {
  store: GoalStore;
  projects: ProjectAccess;
  audit: AuditRecorder;
  /** The event store's read side: the goals' figures. */
  events: GoalQuestions;
  clock?: Clock;
};

export type GoalService = ReturnType<typeof createGoalService>;

/** One goal's figures over a range (docs/goals.md#conversions). */
export type GoalConversion = { goal: Goal; conversions: number; rate: number | null };
export type GoalConversionsAnswer = { users: number; goals: GoalConversion[] };
export type GoalAttributionAnswer = {
  goal: Goal;
  rows: { isTotal: boolean; value: string | null; conversions: number }[];
};

const goalNotFound = () => notFound('Goal not found.');

/** 400 GOAL_PATTERN_INVALID naming what is wrong with a page path pattern; null when it is valid. */
function checkPattern(input: GoalInput): void {
  if (input.kind !== 'path') return;
  const problem = pathPatternProblem(input.pathPattern);
  if (problem) {
    throw new AppError(
      400,
      'GOAL_PATTERN_INVALID',
      `pathPattern ${problem}. A pattern is a page path such as /docs/*/intro or /blog/** (docs/goals.md).`,
      [{ path: 'pathPattern', message: problem }],
    );
  }
}

const columnsOf = (input: GoalInput): GoalDefinitionColumns =>
  input.kind === 'event'
    ? {
        name: input.name,
        kind: 'event',
        event_name: input.eventName,
        property_key: input.propertyKey ?? null,
        property_value: input.propertyValue ?? null,
        path_pattern: null,
      }
    : {
        name: input.name,
        kind: 'path',
        event_name: null,
        property_key: null,
        property_value: null,
        path_pattern: input.pathPattern,
      };

/** What the event store matches for a stored goal. */
export const matchOf = (goal: Goal): GoalMatch =>
  goal.kind === 'path'
    ? { kind: 'path', pathRegex: pathPatternRegex(goal.pathPattern ?? '/') }
    : {
        kind: 'event',
        eventName: goal.eventName ?? '',
        propertyKey: goal.propertyKey,
        propertyValue: goal.propertyValue,
      };

/** GraphQL hands absent list arguments over as null; the contract wants them absent. */
function parseFilters(input: unknown): AcquisitionFilters {
  if (input == null) return {};
  const present = Object.fromEntries(Object.entries(input as object).filter(([, value]) => value != null));
  const parsed = AcquisitionFiltersSchema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new InputError(`Invalid filters: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`.trim());
  }
  return parsed.data;
}

function parseDimension(input: string): AttributionDimension {
  const dimension = AttributionDimensions.find((known) => known === input);
  if (!dimension) {
    throw new InputError(
      `Invalid dimension "${input.slice(0, 40)}": use one of ${AttributionDimensions.join(', ')}.`,
    );
  }
  return dimension;
}

/**
 * Goals (docs/goals.md): every member and read token reads them and their conversions, admins and the
 * owner write them; each change is in the audit log. Another project's goal id answers 404 as a missing one.
 */
export function createGoalService({ store, projects, audit, events, clock = systemClock }: GoalServiceDeps) {
  async function ownedRange(
    userId: string,
    projectId: string,
    input: ComparableRangeInput,
  ): Promise<TimeRange> {
    const { timeZone } = await projects.getProjectFor(userId, projectId);
    const span = needsSpan(input) ? await events.eventSpan(projectId) : null;
    const nowMs = clock().getTime();
    // "All time" starts at the local midnight of the project's first event (docs/timezone.md).
    return comparedRange(resolveRange(input, span, nowMs, timeZone), input.previous === true, nowMs);
  }

  return {
    async list(userId: string, projectId: string): Promise<Goal[]> {
      await projects.getProjectFor(userId, projectId);
      return store.listByProject(projectId);
    },

    async create(actor: Actor, projectId: string, input: GoalInput): Promise<Goal> {
      await projects.getProjectFor(actor.id, projectId, 'manage');
      checkPattern(input);
      if ((await store.countByProject(projectId)) >= MAX_GOALS_PER_PROJECT) {
        throw new AppError(
          400,
          'GOAL_LIMIT',
          `A project can have at most ${MAX_GOALS_PER_PROJECT} goals; delete one first.`,
        );
      }
      const created = await store.insert({
        id: newId(),
        project_id: projectId,
        ...columnsOf(input),
        created_by: actor.email,
        created_at: clock().toISOString(),
      });
      await audit.record({
        projectId,
        actor,
        action: 'goal.create',
        target: created.id,
        details: { name: created.name },
      });
      return created;
    },

    /** Replaces a goal's definition (name and what it matches). */
    async update(actor: Actor, projectId: string, id: string, input: GoalInput): Promise<Goal> {
      await projects.getProjectFor(actor.id, projectId, 'manage');
      const before = isId(id) ? await store.find(projectId, id) : null;
      if (!before) throw goalNotFound();
      checkPattern(input);
      await store.update(projectId, id, columnsOf(input));
      await audit.record({
        projectId,
        actor,
        action: 'goal.update',
        target: id,
        details: { name: input.name },
      });
      return (await store.find(projectId, id)) ?? before;
    },

    async remove(actor: Actor, projectId: string, id: string): Promise<void> {
      await projects.getProjectFor(actor.id, projectId, 'manage');
      const goal = isId(id) ? await store.find(projectId, id) : null;
      if (!goal || !(await store.delete(projectId, id))) throw goalNotFound();
      await audit.record({
        projectId,
        actor,
        action: 'goal.delete',
        target: id,
        details: { name: goal.name },
      });
    },

    /** Every goal's converting users and rate; `previous`: the same over the period before. */
    async conversions(
      userId: string,
      projectId: string,
      input: ComparableRangeInput,
    ): Promise<GoalConversionsAnswer> {
      const range = await ownedRange(userId, projectId, input);
      const goals = await store.listByProject(projectId);
      const counts = await events.goalConversions(projectId, range, goals.map(matchOf));
      return {
        users: counts.users,
        goals: goals.map((goal, index) => {
          const conversions = counts.conversions[index] ?? 0;
          return { goal, conversions, rate: counts.users > 0 ? conversions / counts.users : null };
        }),
      };
    },

    /** One goal's converting users per attribution row (docs/goals.md#in-the-attribution-table). */
    async attribution(
      userId: string,
      projectId: string,
      input: ComparableRangeInput & { goalId: string; dimension: string; filters?: unknown },
    ): Promise<GoalAttributionAnswer> {
      const dimension = parseDimension(input.dimension);
      const filters = parseFilters(input.filters);
      const range = await ownedRange(userId, projectId, input);
      const goal = isId(input.goalId) ? await store.find(projectId, input.goalId) : null;
      if (!goal) throw goalNotFound();
      const rows = await events.goalAttribution(projectId, range, dimension, matchOf(goal), filters);
      // As the attribution table lists them: Total, then the values in byte order, Unattributed last.
      const rank = (row: (typeof rows)[number]) => (row.isTotal ? 0 : row.value === null ? 2 : 1);
      const ordered = rows.toSorted(
        (a, b) => rank(a) - rank(b) || ((a.value ?? '') < (b.value ?? '') ? -1 : a.value === b.value ? 0 : 1),
      );
      return { goal, rows: ordered };
    },
  };
}
