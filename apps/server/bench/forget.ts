/**
 * `npm run bench:forget`: how long forgetting a user takes on ClickHouse (the ClickHouse store's
 * `deleteUserEvents`: a lightweight DELETE of the user's rows in `events` and in every derived table, each
 * answering when its mutation is done), with ClickHouse's default wait of background tasks and with the one
 * docs/scaling.md recommends (ADR 171: `background_processing_pool_task_sleep_seconds_when_no_work_random_part`
 * 0 instead of 1 s). The engine is chdb behind its HTTP interface (test/support/chdb-http-server.ts), a
 * fresh one per round, the two settings taking turns.
 *
 * A round loads BENCH_USERS users' events (default 40 users, 60 events each, over three days: page views,
 * wallet connections, transaction stages, signatures, errors) in three segments, then forgets BENCH_FORGETS
 * users (default 6), each right after a small load of another user's events, as a node that keeps loading
 * while a user is forgotten. Prints each forget's wall time and the engine's CPU (its process, from /proc),
 * then per setting the median and the sums: the difference between the two is the time the engine waited.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createClickHouseEventStore } from '../src/modules/event-store/clickhouse/clickhouse-event-store.ts';
import type { EventRow } from '../src/modules/event-store/event-row.ts';
import { eventBuilder, sequence } from '../test/event-store/event-builder.ts';
import { writeSegment } from '../test/event-store/segment-file.ts';
import { startChdbProcess } from '../test/support/chdb-process.ts';
import { processCpuMs } from './support/process-cpu.ts';

const USERS = Number(process.env.BENCH_USERS ?? 40);
const FORGETS = Number(process.env.BENCH_FORGETS ?? 6);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const PROJECT = 'bench-forget';
const DAY0 = Date.UTC(2026, 10, 1);
const MINUTE = 60_000;

type Setting = 'recommended' | 'default';

function usersEvents(users: string[], seed: number): EventRow[] {
  const event = eventBuilder(PROJECT);
  const pick = sequence(seed);
  const rows: EventRow[] = [];
  for (const [index, user] of users.entries()) {
    const wallet = `0x${(seed * 1000 + index).toString(16).padStart(40, '0')}`;
    for (let step = 0; step < 60; step += 1) {
      const ts = DAY0 + (step % 3) * 86_400_000 + index * 7 * MINUTE + step * MINUTE;
      const type = pick(['page_view', 'page_view', 'wallet_connected', 'tx', 'tx', 'signature', 'error']);
      const fields: Partial<EventRow> = {
        user_id: user,
        session_id: `${user}-s${step % 3}`,
        utm_source: pick(['google', 'twitter', null]),
        country: pick(['DE', 'FR', 'US']),
        browser: pick(['Chrome', 'Firefox']),
        wallet_address: type === 'page_view' ? null : wallet,
        wallet_provider: 'MetaMask',
      };
      if (type === 'tx') {
        fields.tx_id = `tx-${user}-${step % 5}`;
        fields.tx_stage = pick(['requested', 'submitted', 'confirmed', 'reverted']);
        fields.tx_kind = 'contract';
        fields.tx_from = wallet;
      }
      if (type === 'signature') fields.sig_stage = pick(['signed', 'rejected']);
      if (type === 'error') {
        fields.error_message = 'execution reverted';
        fields.error_source = 'wallet';
      }
      rows.push({ ...event(type, ts, fields), id: `${user}-${step}` });
    }
  }
  return rows;
}

async function round(setting: Setting, dir: string): Promise<{ wallMs: number; cpuMs: number }[]> {
  const chdb = await startChdbProcess({
    dataPath: path.join(dir, `chdb-${setting}-${Date.now()}`),
    defaultBackgroundRetry: setting === 'default',
  });
  const pid = chdb.process.pid as number;
  const store = await createClickHouseEventStore(`${chdb.url}/polyflow`);
  try {
    const users = Array.from({ length: USERS }, (_, index) => `u${index}`);
    const rows = usersEvents(users, 7);
    for (let part = 0; part < 3; part += 1) {
      await store.loadSegment(
        writeSegment(
          dir,
          rows.filter((_, index) => index % 3 === part),
        ),
      );
    }
    const forgets: { wallMs: number; cpuMs: number }[] = [];
    for (let index = 0; index < FORGETS; index += 1) {
      await store.loadSegment(writeSegment(dir, usersEvents([`late${index}`], 100 + index)));
      const cpuBefore = processCpuMs(pid);
      const started = performance.now();
      const removed = await store.deleteUserEvents(PROJECT, `u${index}`);
      const wallMs = performance.now() - started;
      const cpuMs = processCpuMs(pid) - cpuBefore;
      if (removed !== 60) throw new Error(`forgot ${removed} events of u${index}, not 60`);
      forgets.push({ wallMs, cpuMs });
      console.log(
        `${setting.padEnd(11)} forget u${index}: ${wallMs.toFixed(0).padStart(5)} ms wall, engine ${cpuMs.toFixed(0).padStart(4)} ms CPU`,
      );
    }
    return forgets;
  } finally {
    await store.close();
    await chdb.stop();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

const dir = mkdtempSync(path.join(os.tmpdir(), 'polyflow-bench-forget-'));
try {
  const results: Record<Setting, { wallMs: number; cpuMs: number }[]> = { recommended: [], default: [] };
  for (let turn = 0; turn < ROUNDS; turn += 1) {
    for (const setting of (turn % 2 === 0
      ? ['default', 'recommended']
      : ['recommended', 'default']) as Setting[]) {
      results[setting].push(...(await round(setting, dir)));
    }
  }
  console.log(
    `\n${USERS} users of 60 events, ${FORGETS} forgets a round, ${ROUNDS} rounds per setting (ADR 171):`,
  );
  for (const setting of ['default', 'recommended'] as Setting[]) {
    const walls = results[setting].map((forget) => forget.wallMs);
    const cpus = results[setting].map((forget) => forget.cpuMs);
    console.log(
      `  ${setting === 'default' ? 'ClickHouse default (random part 1 s)' : 'recommended (random part 0)  '}: median ${median(walls).toFixed(0)} ms wall a forget, ${median(cpus).toFixed(0)} ms engine CPU; sums ${sum(walls).toFixed(0)} ms wall, ${sum(cpus).toFixed(0)} ms CPU`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
