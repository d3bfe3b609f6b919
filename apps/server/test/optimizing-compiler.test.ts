import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import {
  deferOptimizingCompiler,
  enableOptimizingCompiler,
  enableOptimizingCompilerOnFirstWork,
  optimizingCompilerDeferred,
} from '../src/lib/optimizing-compiler.ts';
import { pageView, postBatch } from './ingestion/support.ts';
import { useTestApp } from './support/harness.ts';
import { seed } from './support/seed.ts';

// V8's optimizing compiler held back from process start until the server's first work (docs/decisions/105).
// The flags are recorded, not set: this test worker keeps its compiler.
describe("the optimizing compiler at the server's start", () => {
  const flags: string[] = [];
  const record = (flag: string) => {
    flags.push(flag);
  };
  afterEach(() => {
    enableOptimizingCompiler(record);
    flags.length = 0;
  });

  it('is turned off, then on once', () => {
    deferOptimizingCompiler(record);
    expect(optimizingCompilerDeferred()).toBe(true);
    enableOptimizingCompiler(record);
    enableOptimizingCompiler(record);
    expect(flags).toEqual(['--no-turbofan', '--turbofan']);
    expect(optimizingCompilerDeferred()).toBe(false);
  });

  it('stays off through health checks and /metrics scrapes, and comes on with the first other request', async () => {
    const app = Fastify();
    enableOptimizingCompilerOnFirstWork(app, record);
    app.get('/api/v1/health', async () => ({ ok: true }));
    app.get('/metrics', async () => '');
    app.get('/api/v1/projects/:id', async () => ({}));
    deferOptimizingCompiler(record);
    for (let probe = 0; probe < 3; probe += 1) {
      expect((await app.inject('/api/v1/health')).statusCode).toBe(200);
      expect((await app.inject('/metrics')).statusCode).toBe(200);
    }
    expect(optimizingCompilerDeferred()).toBe(true);
    expect(flags).toEqual(['--no-turbofan']);
    await app.inject('/api/v1/projects/p1');
    expect(optimizingCompilerDeferred()).toBe(false);
    expect(flags).toEqual(['--no-turbofan', '--turbofan']);
    await app.close();
  });

  it('comes on with a request no route answers (a scanner or a typo is work too)', async () => {
    const app = Fastify();
    enableOptimizingCompilerOnFirstWork(app, record);
    deferOptimizingCompiler(record);
    expect((await app.inject('/nowhere')).statusCode).toBe(404);
    expect(optimizingCompilerDeferred()).toBe(false);
    await app.close();
  });
});

// The first ingestion load turns it on (a backlog left by the last run is loaded before any request).
describe('the optimizing compiler and the ingestion loader', () => {
  const t = useTestApp('sqlite');

  it('comes on with the first load into the event store', async () => {
    const { project } = await seed(t.services)
      .user()
      .verified()
      .project('Loaded')
      .apiKey()
      .domain('app.example.com');
    const flags: string[] = [];
    deferOptimizingCompiler((flag) => {
      flags.push(flag);
    });
    // The test app has no first-work hook (src/server.ts adds it): only the load can turn it on.
    const response = await postBatch(t.app, { apiKey: project.apiKey ?? '', events: [pageView()] });
    expect(response.statusCode).toBe(200);
    expect(optimizingCompilerDeferred()).toBe(true);
    await t.services.events.flush();
    expect(optimizingCompilerDeferred()).toBe(false);
    expect(flags).toEqual(['--no-turbofan']);
  });
});
