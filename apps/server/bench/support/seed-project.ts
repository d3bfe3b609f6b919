import { hash } from '@node-rs/argon2';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { newId } from '../../src/lib/ids.ts';

export type BenchProject = { projectId: string; apiKey: string; token: string; origin: string };

/** A verified user with a project, an API key and a whitelisted domain, written straight into DATA_DIR. */
export async function seedProject(dataDir: string, env: Record<string, string> = {}): Promise<BenchProject> {
  const app = await buildApp(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...env }));
  try {
    const { db, projects, sessions } = app.services;
    const now = new Date().toISOString();
    const user = {
      id: newId(),
      email: `bench-${Date.now()}@example.com`,
      password_hash: await hash('bench password 123'),
      verified_at: now,
      password_changed_at: now,
      session_version: 0,
      created_at: now,
    };
    await db.insertInto('users').values(user).execute();
    const { token } = await sessions.issue(user);
    const actor = { id: user.id, email: user.email, ip: '127.0.0.1' };
    const project = await projects.createProject(actor, 'Ingestion bench');
    const withKey = await projects.createApiKey(actor, project.id);
    await projects.addDomain(actor, project.id, 'bench.example.com');
    return {
      projectId: project.id,
      apiKey: withKey.apiKey as string,
      token,
      origin: 'https://bench.example.com',
    };
  } finally {
    await app.close();
  }
}
