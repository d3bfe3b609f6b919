import {
  type Annotation,
  annotationDateProblem,
  type CreateAnnotation,
  MAX_ANNOTATIONS_PER_PROJECT,
  type UpdateAnnotation,
} from '@polyflow/contracts/annotations';
import { DEFAULT_TIME_ZONE, localDate } from '@polyflow/contracts/time-zone';
import { badRequest, notFound } from '../../errors.ts';
import type { Actor, AuditRecorder, ProjectAccess } from '../../lib/access.ts';
import type { Clock } from '../../lib/clock.ts';
import { isId, newId } from '../../lib/ids.ts';
import { InputError } from '../../reading/input-error.ts';
import { parseInstant, type RangeInput } from '../../reading/time-range.ts';
import type { AnnotationStore } from './store.ts';

export type AnnotationService = ReturnType<typeof createAnnotationService>;

export type AnnotationServiceDeps = {
  store: AnnotationStore;
  projects: ProjectAccess;
  clock: Clock;
  audit: AuditRecorder;
};

const annotationNotFound = () => notFound('Annotation not found.');

/** Refuses dates outside the annotations' days (2015-01-01 to a year after today in the project's zone). */
function checkDateBounds(dates: { startDate?: string | null; endDate?: string | null }, today: string) {
  const details = (['startDate', 'endDate'] as const).flatMap((path) => {
    const date = dates[path];
    const message = date ? annotationDateProblem(date, today) : undefined;
    return message ? [{ path, message }] : [];
  });
  const [first] = details;
  if (first) throw badRequest(`${first.path} ${first.message}.`, details);
}

/**
 * Annotations (docs/timezone.md, "Annotations"): every member reads them, admins and the owner write them; each change
 * is in the audit log. Another project's annotation id answers 404 as a missing one.
 */
/** An annotation as the audit log names it: its text, the first 80 characters. */
const nameOf = (text: string) => ({ name: text.length > 80 ? `${text.slice(0, 79)}…` : text });

export function createAnnotationService({ store, projects, clock, audit }: AnnotationServiceDeps) {
  return {
    async list(userId: string, projectId: string): Promise<Annotation[]> {
      await projects.getProjectFor(userId, projectId);
      return store.listByProject(projectId);
    },

    /**
     * The annotations whose days meet the range's: an open end reaches as far as any. The range's days are
     * the local days of the project's zone holding `from` and `to` − 1 ms.
     */
    async listMeeting(userId: string, projectId: string, range: RangeInput): Promise<Annotation[]> {
      const { timeZone } = await projects.getProjectFor(userId, projectId);
      const zone = timeZone ?? DEFAULT_TIME_ZONE;
      const fromMs = range.from ? parseInstant(range.from, 'from') : null;
      const toMs = range.to ? parseInstant(range.to, 'to') : null;
      if (fromMs !== null && toMs !== null && fromMs >= toMs) {
        throw new InputError(`Invalid range: from (${range.from}) must be before to (${range.to}).`);
      }
      const firstDay = fromMs === null ? null : localDate(fromMs, zone);
      const lastDay = toMs === null ? null : localDate(toMs - 1, zone);
      return (await store.listByProject(projectId)).filter(
        (annotation) =>
          (firstDay === null || (annotation.endDate ?? annotation.startDate) >= firstDay) &&
          (lastDay === null || annotation.startDate <= lastDay),
      );
    },

    async create(actor: Actor, projectId: string, input: CreateAnnotation): Promise<Annotation> {
      const { timeZone } = await projects.getProjectFor(actor.id, projectId, 'manage');
      checkDateBounds(input, localDate(clock().getTime(), timeZone ?? DEFAULT_TIME_ZONE));
      if ((await store.countByProject(projectId)) >= MAX_ANNOTATIONS_PER_PROJECT) {
        throw badRequest(
          `A project can have at most ${MAX_ANNOTATIONS_PER_PROJECT} annotations; delete old ones first.`,
        );
      }
      const created = await store.insert({
        id: newId(),
        project_id: projectId,
        text: input.text,
        start_date: input.startDate,
        end_date: input.endDate ?? null,
        created_by: actor.email,
        created_at: clock().toISOString(),
      });
      await audit.record({
        projectId,
        actor,
        action: 'annotation.create',
        target: created.id,
        details: nameOf(created.text),
      });
      return created;
    },

    async update(actor: Actor, projectId: string, id: string, change: UpdateAnnotation): Promise<Annotation> {
      const { timeZone } = await projects.getProjectFor(actor.id, projectId, 'manage');
      // Only the dates sent: an annotation stored before the bounds can still have its text changed.
      checkDateBounds(change, localDate(clock().getTime(), timeZone ?? DEFAULT_TIME_ZONE));
      const before = isId(id) ? await store.find(projectId, id) : null;
      if (!before) throw annotationNotFound();
      const startDate = change.startDate ?? before.startDate;
      const endDate = change.endDate === undefined ? before.endDate : change.endDate;
      if (endDate !== null && endDate < startDate) {
        throw badRequest('endDate must be on or after startDate.');
      }
      await store.update(projectId, id, {
        ...(change.text !== undefined ? { text: change.text } : {}),
        ...(change.startDate !== undefined ? { start_date: change.startDate } : {}),
        ...(change.endDate !== undefined ? { end_date: change.endDate } : {}),
      });
      const after = (await store.find(projectId, id)) ?? before;
      await audit.record({
        projectId,
        actor,
        action: 'annotation.update',
        target: id,
        details: nameOf(after.text),
      });
      return after;
    },

    async remove(actor: Actor, projectId: string, id: string): Promise<void> {
      await projects.getProjectFor(actor.id, projectId, 'manage');
      const annotation = isId(id) ? await store.find(projectId, id) : null;
      if (!annotation || !(await store.delete(projectId, id))) throw annotationNotFound();
      await audit.record({
        projectId,
        actor,
        action: 'annotation.delete',
        target: id,
        details: nameOf(annotation.text),
      });
    },
  };
}
