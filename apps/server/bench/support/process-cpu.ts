import { readFileSync } from 'node:fs';

/**
 * CPU seconds (user, system) a process has used, or its main thread alone (`thread`), from /proc (Linux;
 * clock ticks of 10 ms). A process's figure counts its threads that have ended too.
 */
export function processCpu(pid: number, thread = false): { user: number; system: number } {
  const file = thread ? `/proc/${pid}/task/${pid}/stat` : `/proc/${pid}/stat`;
  const stat = readFileSync(file, 'utf8');
  // Fields after the command name (which may hold spaces and parentheses) start at state: utime and stime are
  // the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
  return { user: Number(fields[11]) / 100, system: Number(fields[12]) / 100 };
}

/** User + system CPU ms of a process, or of its main thread. */
export const processCpuMs = (pid: number, thread = false): number => {
  const { user, system } = processCpu(pid, thread);
  return (user + system) * 1000;
};
