import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';
import { serverCommand } from './support/server-command.ts';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'polyflow-config-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('loadConfig', () => {
  it('works with nothing set, generating the JWT secret once with mode 0600', () => {
    const dataDir = tempDir();
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      dataDir,
      publicUrl: 'http://localhost:3000',
      databaseUrl: undefined,
      smtpUrl: undefined,
      trustProxy: false,
      authRateLimit: { max: 10, windowMs: 60_000 },
    });
    expect(config.consoleDir).toBe(path.resolve(import.meta.dirname, '../../console/dist'));
    expect(config.jwtSecret.length).toBeGreaterThanOrEqual(32);
    const secretFile = path.join(dataDir, 'jwt-secret');
    expect(statSync(secretFile).mode & 0o777).toBe(0o600);
    expect(loadConfig({ DATA_DIR: dataDir }).jwtSecret).toBe(config.jwtSecret);
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '0.0.0.0',
      DATA_DIR: tempDir(),
      PUBLIC_URL: 'https://polyflow.example.com/',
      DATABASE_URL: 'postgres://u:p@db:5432/polyflow',
      SMTP_URL: 'smtp://user:pass@mail:587',
      MAIL_FROM: 'Polyflow <hello@polyflow.example.com>',
      JWT_SECRET: 's'.repeat(40),
      TRUST_PROXY: 'true',
      AUTH_RATE_LIMIT_MAX: '3',
      INGEST_EVENTS_PER_MINUTE: '1200',
      INGEST_BACKLOG_MAX_MB: '64',
      DUCKDB_MEMORY_LIMIT_MB: '512',
    });
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      publicUrl: 'https://polyflow.example.com',
      databaseUrl: 'postgres://u:p@db:5432/polyflow',
      smtpUrl: 'smtp://user:pass@mail:587',
      mailFrom: 'Polyflow <hello@polyflow.example.com>',
      jwtSecret: 's'.repeat(40),
      trustProxy: true,
      authRateLimit: { max: 3, windowMs: 60_000 },
      ingestEventsPerMinute: 1200,
      ingestBacklogMaxBytes: 64 * 1024 * 1024,
      duckDbMemoryLimitMb: 512,
    });
    expect(loadConfig({ DATA_DIR: tempDir() }).ingestBacklogMaxBytes).toBe(256 * 1024 * 1024);
    // Unset: 1 GB (ADR 056); 0: DuckDB keeps its own, 80 % of RAM.
    expect(loadConfig({ DATA_DIR: tempDir() }).duckDbMemoryLimitMb).toBe(1024);
    expect(
      loadConfig({ DATA_DIR: tempDir(), DUCKDB_MEMORY_LIMIT_MB: '0' }).duckDbMemoryLimitMb,
    ).toBeUndefined();
    expect(loadConfig({ PORT: '4000', DATA_DIR: tempDir() }).publicUrl).toBe('http://localhost:4000');
  });

  it('fails fast naming every bad variable', () => {
    const attempt = () =>
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        SMTP_URL: 'not a url',
        JWT_SECRET: 'short',
        INGEST_BACKLOG_MAX_MB: '-1',
        DUCKDB_MEMORY_LIMIT_MB: '64',
        DATA_DIR: tempDir(),
      });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(
      /PORT[\s\S]*DATABASE_URL[\s\S]*DUCKDB_MEMORY_LIMIT_MB[\s\S]*SMTP_URL[\s\S]*JWT_SECRET[\s\S]*INGEST_BACKLOG_MAX_MB/,
    );
  });

  it('evaluates alert rules every minute unless ALERT_EVALUATION_INTERVAL_SECONDS says otherwise (5 at least)', () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).alertEvaluationIntervalMs).toBe(60_000);
    expect(
      loadConfig({ DATA_DIR: tempDir(), ALERT_EVALUATION_INTERVAL_SECONDS: '5' }).alertEvaluationIntervalMs,
    ).toBe(5_000);
    for (const value of ['4', '0', '1.5', 'soon', '3601']) {
      expect(() => loadConfig({ DATA_DIR: tempDir(), ALERT_EVALUATION_INTERVAL_SECONDS: value })).toThrow(
        /ALERT_EVALUATION_INTERVAL_SECONDS/,
      );
    }
  });

  it('makes acknowledged events queryable within 3 s unless INGEST_LOAD_DELAY_MS says otherwise (100 ms at least)', () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).ingestLoadDelayMs).toBe(3_000);
    expect(loadConfig({ DATA_DIR: tempDir(), INGEST_LOAD_DELAY_MS: '500' }).ingestLoadDelayMs).toBe(500);
    for (const value of ['99', '0', '1.5', 'soon', '60001']) {
      expect(() => loadConfig({ DATA_DIR: tempDir(), INGEST_LOAD_DELAY_MS: value })).toThrow(
        /INGEST_LOAD_DELAY_MS/,
      );
    }
  });

  it('refuses a secret file that was truncated', () => {
    const dataDir = tempDir();
    writeFileSync(path.join(dataDir, 'jwt-secret'), 'short\n');
    expect(() => loadConfig({ DATA_DIR: dataDir })).toThrow(/shorter than 32/);
  });
});

describe('main', () => {
  it('starts on embedded defaults, logs where it listens, serves, and stops on SIGTERM', async () => {
    const dataDir = tempDir();
    const child = spawn(process.execPath, serverCommand('main'), {
      env: { PATH: process.env.PATH, PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no start-up line:\n${output}`)), 15_000);
      child.stdout.on('data', (chunk) => {
        output += chunk;
        const match = /Polyflow listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
        if (match?.[1]) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
    });
    try {
      const health = await fetch(`${url}/api/v1/health`);
      expect(await health.json()).toMatchObject({ status: 'ok' });
      expect(health.headers.get('x-frame-options')).toBe('DENY');
      expect(statSync(path.join(dataDir, 'polyflow.sqlite')).isFile()).toBe(true);
    } finally {
      child.kill('SIGTERM');
    }
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(0);
    expect(output).not.toContain(readFileSync(path.join(dataDir, 'jwt-secret'), 'utf8').trim());
  });

  it('explains, without a stack trace, that another process holds the DATA_DIR', async () => {
    const dataDir = tempDir();
    const start = () =>
      spawn(process.execPath, serverCommand('main'), {
        env: { PATH: process.env.PATH, PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'info' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    const first = start();
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the first server did not start')), 15_000);
      first.stdout.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('Polyflow listening on')) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    try {
      const second = start();
      let output = '';
      second.stderr.on('data', (chunk: Buffer) => {
        output += chunk;
      });
      const code = await new Promise<number | null>((resolve) => second.on('exit', resolve));
      expect(code).toBe(1);
      expect(output).toContain('Another Polyflow process');
      expect(output).not.toMatch(/\n\s+at /);
    } finally {
      first.kill('SIGTERM');
      await new Promise((resolve) => first.on('exit', resolve));
    }
  });
});
