import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const read = (file: string) => readFileSync(path.join(repoRoot, file), 'utf8');

/** Node's flags and the environment the server's memory and thread pool depend on (ADR 014, 034, 089). */
const NODE_FLAGS = ['--max-semi-space-size=32', '--expose-gc'];
const ENVIRONMENT = { UV_THREADPOOL_SIZE: '16', MALLOC_ARENA_MAX: '2' };

describe('how the server is started', () => {
  it('`npm start` passes the flags and sets the environment unless set already', () => {
    const start = (JSON.parse(read('package.json')) as { scripts: { start: string } }).scripts.start;
    for (const flag of NODE_FLAGS) expect(start).toContain(` ${flag} `);
    for (const [name, value] of Object.entries(ENVIRONMENT))
      expect(start).toContain(`${name}=\${${name}:-${value}}`);
  });

  it('the Docker image does the same', () => {
    const dockerfile = read('Dockerfile');
    const command = /^CMD (\[.*\])$/m.exec(dockerfile)?.[1];
    expect(JSON.parse(command ?? '[]')).toEqual(['node', ...NODE_FLAGS, 'apps/server/dist/main.js']);
    for (const [name, value] of Object.entries(ENVIRONMENT)) {
      expect(dockerfile).toMatch(new RegExp(`^ENV ${name}=${value}$`, 'm'));
    }
  });

  it('the benches measure the server started that way', () => {
    const benchServer = read('apps/server/bench/support/server-process.ts');
    for (const flag of NODE_FLAGS) expect(benchServer).toContain(`'${flag}'`);
    for (const [name, value] of Object.entries(ENVIRONMENT))
      expect(benchServer).toContain(`${name}: '${value}'`);
  });
});
