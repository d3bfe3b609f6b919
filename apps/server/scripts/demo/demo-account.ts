import type { Project } from '@polyflow/contracts/projects';
import type { AccountDb } from '../../src/db/database.ts';
import type { Clock } from '../../src/lib/clock.ts';
import { newId } from '../../src/lib/ids.ts';
import { createAuditLogService } from '../../src/modules/audit-log/service.ts';
import { createAuditLogStore } from '../../src/modules/audit-log/store.ts';
import { createPasswordHasher } from '../../src/modules/auth/passwords.ts';
import { createAuthStore } from '../../src/modules/auth/store.ts';
import type { EventWriter } from '../../src/modules/event-store/event-store.ts';
import { createProjectAccess } from '../../src/modules/project-access/service.ts';
import { createProjectStore } from '../../src/modules/project-access/store.ts';
import { createProjectService } from '../../src/modules/projects/service.ts';

export type DemoAccount = { userId: string; email: string; password: string; project: Project };

export const DEMO_PROJECT_NAME = 'Demo DEX';
/** Where the demo's events say they came from, and where a developer tries the SDK locally. */
export const DEMO_DOMAINS = ['localhost', 'app.demo-dex.xyz'];

/**
 * Creates the demo user (verified) and project, or refreshes them: the password is set again if it
 * differs; the project, its id and its API key are kept (so a console tab left open keeps working).
 */
export async function ensureDemoAccount(
  db: AccountDb,
  options: {
    email: string;
    password: string;
    clock: Clock;
    eventStore: Pick<
      EventWriter,
      'deleteProjectEvents' | 'deleteWalletEvents' | 'deleteUserEvents' | 'deleteEventsBefore'
    >;
  },
): Promise<DemoAccount> {
  const { email, password, clock } = options;
  const auth = createAuthStore(db);
  const hasher = createPasswordHasher();
  const passwordHash = await hasher.hash(password);
  const now = clock().toISOString();
  let user = await auth.findUserByEmail(email);
  if (!user) {
    await auth.insertUser({
      id: newId(),
      email,
      password_hash: passwordHash,
      verified_at: now,
      password_changed_at: now,
      session_version: 0,
      created_at: now,
    });
    user = await auth.findUserByEmail(email);
  } else {
    // A password change ends every session: only when it differs, so open consoles survive a refresh.
    if (!(await hasher.verify(user.password_hash, password)))
      await auth.changePassword(user.id, passwordHash, now);
    await auth.markVerified(user.id, now);
  }
  if (!user) throw new Error(`could not create ${email}`);

  // The demo's changes go to the project's audit log like anyone's, from no client address.
  const store = createProjectStore(db);
  const access = createProjectAccess({ store });
  const audit = createAuditLogService({ store: createAuditLogStore(db), projects: access, clock });
  const projects = createProjectService({
    store,
    access,
    clock,
    events: options.eventStore,
    audit,
  });
  const actor = { id: user.id, email: user.email, ip: 'local' };
  const existing = (await projects.listProjects(user.id)).find(
    (project) => project.name === DEMO_PROJECT_NAME,
  );
  let project = existing ?? (await projects.createProject(actor, DEMO_PROJECT_NAME));
  if (!project.apiKey) project = await projects.createApiKey(actor, project.id);
  for (const domain of DEMO_DOMAINS) {
    if (!project.whitelistedDomains.includes(domain))
      project = await projects.addDomain(actor, project.id, domain);
  }
  return { userId: user.id, email, password, project };
}
