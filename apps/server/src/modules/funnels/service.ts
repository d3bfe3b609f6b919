import type { AttributionDimension } from '@polyflow/contracts/acquisition';
import {
  type CreateFunnel,
  type Funnel,
  funnelStepLabel,
  MAX_FUNNELS_PER_PROJECT,
  type UpdateFunnel,
} from '@polyflow/contracts/funnels';
import { badRequest, notFound } from '../../errors.ts';
import type { Actor, AuditRecorder, ProjectAccess } from '../../lib/access.ts';
import { type Clock, systemClock } from '../../lib/clock.ts';
import { isId, newId } from '../../lib/ids.ts';
import { needsSpan, type RangeInput, resolveRange } from '../../reading/time-range.ts';
import type { CustomFunnelRow, FunnelQuestions } from '../event-store/funnel-questions.ts';
import type { FunnelStore } from './store.ts';

export type FunnelService = ReturnType<typeof createFunnelService>;

export type FunnelServiceDeps = {
  store: FunnelStore;
  projects: ProjectAccess;
  /** The event store's read side: the custom funnel question. */
  events: FunnelQuestions;
  audit: AuditRecorder;
  clock?: Clock;
};

/** One step of a funnel's answer (docs/funnels.md#the-answer). */
export type FunnelStepResult = {
  index: number;
  label: string;
  /** Users who completed steps 1..index in order within the window. */
  users: number;
  /** users / step 1's users (1 for step 1; 0 when nobody started). */
  conversion: number;
  /** users / the previous step's users (1 for step 1; 0 when the previous step had nobody). */
  stepConversion: number;
  /** The previous step's users who did not reach this one (0 for step 1). */
  dropOff: number;
};

export type FunnelSplitRow = { value: string | null; users: number[]; conversion: number };

export type FunnelResult = {
  funnel: Funnel;
  from: string;
  to: string;
  steps: FunnelStepResult[];
  split: AttributionDimension | null;
  splitRows: FunnelSplitRow[];
};

const funnelNotFound = () => notFound('Funnel not found.');
const HOUR_MS = 3_600_000;
const ratio = (part: number, whole: number) => (whole > 0 ? part / whole : 0);

/**
 * Saved custom funnels and their answer (docs/funnels.md): members and read tokens read them, admins and
 * the owner write them; each change is in the audit log. Another project's funnel answers 404 as a missing one.
 */
export function createFunnelService({
  store,
  projects,
  events,
  audit,
  clock = systemClock,
}: FunnelServiceDeps) {
  async function findFunnel(projectId: string, id: string): Promise<Funnel> {
    const funnel = isId(id) ? await store.find(projectId, id) : null;
    if (!funnel) throw funnelNotFound();
    return funnel;
  }

  return {
    async list(userId: string, projectId: string): Promise<Funnel[]> {
      await projects.getProjectFor(userId, projectId);
      return store.listByProject(projectId);
    },

    async get(userId: string, projectId: string, id: string): Promise<Funnel> {
      await projects.getProjectFor(userId, projectId);
      return findFunnel(projectId, id);
    },

    async create(actor: Actor, projectId: string, input: CreateFunnel): Promise<Funnel> {
      await projects.getProjectFor(actor.id, projectId, 'manage');
      if ((await store.countByProject(projectId)) >= MAX_FUNNELS_PER_PROJECT) {
        throw badRequest(`A project can have at most ${MAX_FUNNELS_PER_PROJECT} funnels; delete one first.`);
      }
      const now = clock().toISOString();
      const created = await store.insert({
        id: newId(),
        project_id: projectId,
        name: input.name,
        steps: JSON.stringify(input.steps),
        window_hours: input.windowHours,
        created_by: actor.email,
        created_at: now,
        updated_at: now,
      });
      await audit.record({
        projectId,
        actor,
        action: 'funnel.create',
        target: created.id,
        details: { name: created.name },
      });
      return created;
    },

    async update(actor: Actor, projectId: string, id: string, change: UpdateFunnel): Promise<Funnel> {
      await projects.getProjectFor(actor.id, projectId, 'manage');
      await findFunnel(projectId, id);
      await store.update(projectId, id, {
        ...(change.name !== undefined ? { name: change.name } : {}),
        ...(change.steps !== undefined ? { steps: JSON.stringify(change.steps) } : {}),
        ...(change.windowHours !== undefined ? { window_hours: change.windowHours } : {}),
        updated_at: clock().toISOString(),
      });
      const updated = await findFunnel(projectId, id);
      await audit.record({
        projectId,
        actor,
        action: 'funnel.update',
        target: id,
        details: { name: updated.name },
      });
      return updated;
    },

    async remove(actor: Actor, projectId: string, id: string): Promise<void> {
      await projects.getProjectFor(actor.id, projectId, 'manage');
      const funnel = await findFunnel(projectId, id);
      if (!(await store.delete(projectId, id))) throw funnelNotFound();
      await audit.record({
        projectId,
        actor,
        action: 'funnel.delete',
        target: id,
        details: { name: funnel.name },
      });
    },

    /** The funnel's answer over the range, optionally split by the landing attribution of step 1. */
    async result(
      userId: string,
      projectId: string,
      id: string,
      input: RangeInput & { split?: AttributionDimension | null },
    ): Promise<FunnelResult> {
      const project = await projects.getProjectFor(userId, projectId);
      const funnel = await findFunnel(projectId, id);
      const span = needsSpan(input) ? await events.eventSpan(projectId) : null;
      const range = resolveRange(input, span, clock().getTime(), project.timeZone);
      const split = input.split ?? null;
      const rows = await events.customFunnel(
        projectId,
        range,
        { steps: funnel.steps, windowMs: funnel.windowHours * HOUR_MS },
        split,
      );
      const total = rows.find((row) => row.isTotal)?.reached ?? funnel.steps.map(() => 0);
      return {
        funnel,
        from: new Date(range.fromMs).toISOString(),
        to: new Date(range.toMs).toISOString(),
        steps: funnel.steps.map((step, index) => {
          const users = total[index] ?? 0;
          const previous = index === 0 ? users : (total[index - 1] ?? 0);
          return {
            index: index + 1,
            label: funnelStepLabel(step),
            users,
            conversion: index === 0 ? (users > 0 ? 1 : 0) : ratio(users, total[0] ?? 0),
            stepConversion: index === 0 ? (users > 0 ? 1 : 0) : ratio(users, previous),
            dropOff: previous - users,
          };
        }),
        split,
        splitRows: split ? splitRowsOf(rows) : [],
      };
    },
  };
}

/** The split's rows, most users at step 1 first, then by value (unattributed last among equals). */
function splitRowsOf(rows: CustomFunnelRow[]): FunnelSplitRow[] {
  return rows
    .filter((row) => !row.isTotal)
    .sort(
      (a, b) =>
        (b.reached[0] ?? 0) - (a.reached[0] ?? 0) ||
        (a.value === null ? 1 : 0) - (b.value === null ? 1 : 0) ||
        (a.value ?? '').localeCompare(b.value ?? ''),
    )
    .map((row) => ({
      value: row.value,
      users: row.reached,
      conversion: ratio(row.reached.at(-1) ?? 0, row.reached[0] ?? 0),
    }));
}
