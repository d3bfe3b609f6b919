import type { ProjectAccess } from '../../lib/access.ts';
import type { IngestionQuestions } from '../event-store/event-store.ts';
import { type ExportFormat, formatEvents } from './event-formats.ts';

export type EventExportService = ReturnType<typeof createEventExportService>;

export type EventExportDeps = {
  projects: ProjectAccess;
  store: Pick<IngestionQuestions, 'exportEvents'>;
};

export type ExportRequest = { fromMs: number; toMs: number; format: ExportFormat };

const fileTime = (ms: number) => new Date(ms).toISOString().replaceAll(':', '').replace('.000', '');

/** The raw export: every stored event of a project in [from, to) of client time, streamed. */
export function createEventExportService({ projects, store }: EventExportDeps) {
  return {
    async exportEvents(userId: string, projectId: string, { fromMs, toMs, format }: ExportRequest) {
      const project = await projects.getProjectFor(userId, projectId);
      const batches = store.exportEvents(project.id, { from: new Date(fromMs), to: new Date(toMs) });
      return {
        filename: `polyflow-events-${project.id}-${fileTime(fromMs)}-${fileTime(toMs)}.${format}`,
        chunks: formatEvents(batches, format),
      };
    },
  };
}
