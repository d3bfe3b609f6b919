import { hash } from '@node-rs/argon2';
import type { Project } from '@polyflow/contracts/projects';
import type { Services } from '../../src/app.ts';
import { newId } from '../../src/lib/ids.ts';
import { uniqueEmail } from './harness.ts';

export const SEED_PASSWORD = 'correct horse battery staple';
// One argon2id hash for every seeded user: hashing is the slow part of creating one.
let seedHash: Promise<string> | undefined;

export type SeededUser = { id: string; email: string; password: string; token: string };
export type SeededProject = { user: SeededUser; project: Project };

type UserSpec = { email?: string; isVerified: boolean };
type ProjectSpec = { name: string; hasApiKey: boolean; domains: string[] };

class ProjectBuilder implements PromiseLike<SeededProject> {
  constructor(
    private readonly services: Services,
    private readonly user: UserBuilder,
    private readonly spec: ProjectSpec,
  ) {}
  apiKey(): this {
    this.spec.hasApiKey = true;
    return this;
  }
  domain(domain: string): this {
    this.spec.domains.push(domain);
    return this;
  }
  async build(): Promise<SeededProject> {
    const user = await this.user.build();
    const { projects } = this.services;
    const actor = { id: user.id, email: user.email, ip: '127.0.0.1' };
    let project = await projects.createProject(actor, this.spec.name);
    if (this.spec.hasApiKey) project = await projects.createApiKey(actor, project.id);
    for (const domain of this.spec.domains) project = await projects.addDomain(actor, project.id, domain);
    return { user, project };
  }
  // biome-ignore lint/suspicious/noThenProperty: the builder is awaited directly, by design.
  then<A = SeededProject, B = never>(
    onFulfilled?: ((value: SeededProject) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): PromiseLike<A | B> {
    return this.build().then(onFulfilled, onRejected);
  }
}

class UserBuilder implements PromiseLike<SeededUser> {
  private built: Promise<SeededUser> | undefined;
  constructor(
    private readonly services: Services,
    private readonly spec: UserSpec,
  ) {}
  verified(): this {
    this.spec.isVerified = true;
    return this;
  }
  project(name = 'Seeded project'): ProjectBuilder {
    return new ProjectBuilder(this.services, this, { name, hasApiKey: false, domains: [] });
  }
  build(): Promise<SeededUser> {
    this.built ??= this.insert();
    return this.built;
  }
  private async insert(): Promise<SeededUser> {
    const { db, clock, sessions } = this.services;
    seedHash ??= hash(SEED_PASSWORD);
    const now = clock().toISOString();
    const row = {
      id: newId(),
      email: this.spec.email ?? uniqueEmail('seed'),
      password_hash: await seedHash,
      verified_at: this.spec.isVerified ? now : null,
      password_changed_at: now,
      session_version: 0,
      created_at: now,
    };
    await db.insertInto('users').values(row).execute();
    const session = await sessions.issue(row);
    return { id: row.id, email: row.email, password: SEED_PASSWORD, token: session.token };
  }
  // biome-ignore lint/suspicious/noThenProperty: the builder is awaited directly, by design.
  then<A = SeededUser, B = never>(
    onFulfilled?: ((value: SeededUser) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): PromiseLike<A | B> {
    return this.build().then(onFulfilled, onRejected);
  }
}

/** `await seed(services).user().verified().project('Shop').apiKey().domain('shop.example')` */
export function seed(services: Services) {
  return {
    user: (options: { email?: string } = {}) => new UserBuilder(services, { ...options, isVerified: false }),
  };
}

/** Makes a user a member of the project with `role`, as an accepted invitation does (docs/teams.md). */
export async function addMember(
  services: Services,
  projectId: string,
  userId: string,
  role: 'admin' | 'viewer',
): Promise<void> {
  await services.db
    .insertInto('project_members')
    .values({ project_id: projectId, user_id: userId, role, joined_at: services.clock().toISOString() })
    .execute();
}

/** Every row of every account table, to prove a rejected request wrote nothing. */
export async function snapshot(services: Services): Promise<string> {
  const { db } = services;
  const tables = await Promise.all([
    db.selectFrom('users').selectAll().orderBy('id').execute(),
    db.selectFrom('email_tokens').selectAll().orderBy('id').execute(),
    db.selectFrom('projects').selectAll().orderBy('id').execute(),
    db.selectFrom('project_domains').selectAll().orderBy('project_id').orderBy('domain').execute(),
    db.selectFrom('read_tokens').selectAll().orderBy('id').execute(),
    db.selectFrom('project_members').selectAll().orderBy('project_id').orderBy('user_id').execute(),
    db.selectFrom('project_invitations').selectAll().orderBy('id').execute(),
    db.selectFrom('audit_log').selectAll().orderBy('id').execute(),
    db.selectFrom('incident_states').selectAll().orderBy('project_id').orderBy('incident_id').execute(),
    db.selectFrom('annotations').selectAll().orderBy('id').execute(),
    db.selectFrom('goals').selectAll().orderBy('id').execute(),
    db.selectFrom('incident_assignments').selectAll().orderBy('project_id').orderBy('incident_id').execute(),
    db.selectFrom('alert_channels').selectAll().orderBy('id').execute(),
    db.selectFrom('alert_deliveries').selectAll().orderBy('id').execute(),
    db.selectFrom('report_subscriptions').selectAll().orderBy('project_id').orderBy('user_id').execute(),
    db.selectFrom('report_sends').selectAll().orderBy('id').execute(),
    db.selectFrom('alert_rules').selectAll().orderBy('id').execute(),
    db.selectFrom('alert_rule_states').selectAll().orderBy('rule_id').orderBy('subject_id').execute(),
    db.selectFrom('alert_firings').selectAll().orderBy('id').execute(),
    db.selectFrom('write_tokens').selectAll().orderBy('id').execute(),
    db.selectFrom('sourcemap_releases').selectAll().orderBy('project_id').orderBy('release').execute(),
    db
      .selectFrom('sourcemap_files')
      .selectAll()
      .orderBy('project_id')
      .orderBy('release')
      .orderBy('url')
      .execute(),
  ]);
  return JSON.stringify(tables);
}
