import path from 'node:path';
import type { AccountDb } from '../../db/database.ts';
import type { AuditRecorder, ProjectAccess } from '../../lib/access.ts';
import type { Clock } from '../../lib/clock.ts';
import { createMapFiles } from './files.ts';
import { createSourcemapService, type SourcemapLimits, type SourcemapService } from './service.ts';
import { createSourcemapStore } from './store.ts';
import { createSymbolicator, type Symbolicator } from './symbolicator.ts';

/** Source maps: the service (uploads, write tokens) and the symbolicator, for app.ts to compose. */
export function createSourcemaps(deps: {
  db: AccountDb;
  dataDir: string;
  projects: ProjectAccess;
  clock: Clock;
  audit: AuditRecorder;
  /** The account quota and the free-disk reserve (config.sourcemapLimits); defaults in service.ts. */
  limits?: Partial<SourcemapLimits>;
}): {
  service: SourcemapService;
  symbolicator: Symbolicator;
  /** A deleted project's map files (their rows go with the project's by cascade). */
  removeProjectFiles(projectId: string): Promise<void>;
} {
  const store = createSourcemapStore(deps.db);
  const files = createMapFiles(path.join(deps.dataDir, 'sourcemaps'));
  const symbolicator = createSymbolicator({ store, files });
  const service = createSourcemapService({
    store,
    files,
    symbolicator,
    projects: deps.projects,
    clock: deps.clock,
    audit: deps.audit,
    limits: deps.limits,
  });
  return { service, symbolicator, removeProjectFiles: (projectId) => files.removeProject(projectId) };
}
