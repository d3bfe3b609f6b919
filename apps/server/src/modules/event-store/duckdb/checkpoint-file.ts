import { DuckDBInstance } from './binding.ts';

/** Another process (most likely a running server) has the file open: DuckDB lets one process open it. */
export class EventFileLockedError extends Error {}

/**
 * Opens the event store's file alone and checkpoints it, so that everything in its WAL is in the file
 * (a copy of the file is then a complete backup). Throws EventFileLockedError when a server holds it.
 */
export async function checkpointEventFile(file: string): Promise<void> {
  let instance: DuckDBInstance;
  try {
    instance = await DuckDBInstance.create(file);
  } catch (error) {
    if (/lock/i.test(String(error))) throw new EventFileLockedError(String(error));
    throw error;
  }
  try {
    const connection = await instance.connect();
    await connection.run('CHECKPOINT');
    connection.closeSync();
  } finally {
    instance.closeSync();
  }
}
