import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createClickHouseEventStore } from '../../src/modules/event-store/clickhouse/clickhouse-event-store.ts';
import { startChdbProcess } from '../../test/support/chdb-process.ts';

/** CPU seconds (user + system) per thread name of a process (digits dropped: a pool's threads add up), from /proc. */
function cpuByThread(pid: number): Map<string, number> {
  const byName = new Map<string, number>();
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8');
    } catch {
      continue; // the thread ended meanwhile
    }
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')).replace(/\d+$/, '');
    const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
    byName.set(name, (byName.get(name) ?? 0) + (Number(fields[11]) + Number(fields[12])) / 100);
  }
  return byName;
}

/**
 * `BENCH_EVENT_STORE=clickhouse npm run bench:load`: the same segments loaded through the ClickHouse adapter
 * into a fresh chdb (a process of its own, as bench:ingest's), every derived table's view included. Prints
 * chdb's CPU per event per round, and over the timed rounds by thread: the insert (its pipeline's threads)
 * apart from the background merges (`MergeMutate`), which land in whichever round they run in.
 */
export async function benchChdbLoads(
  dir: string,
  rounds: number,
  events: number,
  segmentOf: (round: number) => string,
): Promise<void> {
  const chdb = await startChdbProcess({ dataPath: path.join(dir, 'chdb') });
  try {
    const store = await createClickHouseEventStore(`${chdb.url}/polyflow`);
    const pid = chdb.process.pid as number;
    const timed = new Map<string, number>();
    for (let round = 0; round <= rounds; round++) {
      const file = segmentOf(round);
      const before = cpuByThread(pid);
      await store.loadSegment(file);
      let seconds = 0;
      for (const [name, now] of cpuByThread(pid)) {
        const used = now - (before.get(name) ?? 0);
        seconds += used;
        if (round > 0) timed.set(name, (timed.get(name) ?? 0) + used);
      }
      console.log(
        `${(round === 0 ? 'warm-up' : `round ${round}`).padEnd(8)}: ${events.toLocaleString('en-US')} events, chdb ${((seconds * 1e6) / events).toFixed(1)} µs/event CPU`,
      );
    }
    const perEvent = (seconds: number) => ((seconds * 1e6) / (events * rounds)).toFixed(1);
    const total = [...timed.values()].reduce((sum, seconds) => sum + seconds, 0);
    console.log(`\ntimed rounds: chdb ${perEvent(total)} µs/event CPU; by thread (µs/event):`);
    for (const [name, seconds] of [...timed].sort(([, a], [, b]) => b - a)) {
      if (seconds >= 0.05) console.log(`  ${name.padEnd(24)} ${perEvent(seconds).padStart(6)}`);
    }
    await store.close();
  } finally {
    await chdb.stop();
  }
}
