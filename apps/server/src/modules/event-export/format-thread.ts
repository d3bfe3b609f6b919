import { Worker } from 'node:worker_threads';
import type { EventBatch, EventValueWriter } from '../event-store/event-batch.ts';
import { EVENT_COLUMNS } from '../event-store/event-row.ts';
import { type ExportFormat, exportFormatters } from './event-formats.ts';

/**
 * The export's text is written on a thread of its own (docs/decisions/047): the JavaScript thread only
 * copies each batch's values into one buffer (a tag per value, texts as their bytes, numbers as doubles,
 * memcpy for the texts), and the thread writes NDJSON or CSV from it with the very formatters of
 * event-formats.ts, evaluated from their source so that the same code runs under tsx and in the esbuild
 * bundle. One thread for every export of the node, started on the first; each export has its formatter
 * there (its day cache), dropped when the export ends.
 */

const TEXT = 0;
const NUMBER = 1;
const TIME = 2;
const MISSING = 3;
const END_ROW = 4;

const threadSource = () => `
// esbuild's keepNames may wrap functions in __name(…); harmless here.
var __name = (target) => target;
const { parentPort, workerData } = require('node:worker_threads');
const formatters = (${exportFormatters.toString()})(workerData.columns);
const byExport = new Map();
parentPort.on('message', (call) => {
  if (call.op === 'close') {
    byExport.delete(call.exportId);
    return;
  }
  try {
    let formatter = byExport.get(call.exportId);
    if (!formatter) {
      formatter = call.format === 'csv' ? formatters.csvFormatter() : formatters.ndjsonFormatter();
      byExport.set(call.exportId, formatter);
    }
    const bytes = new Uint8Array(call.values, 0, call.length);
    const view = new DataView(call.values, 0, call.length);
    let at = 0;
    while (at < call.length) {
      const tag = bytes[at++];
      if (tag === ${TEXT}) {
        const length = view.getUint32(at, true);
        at += 4;
        formatter.text(bytes, at, at + length);
        at += length;
      } else if (tag === ${NUMBER}) {
        formatter.number(view.getFloat64(at, true));
        at += 8;
      } else if (tag === ${TIME}) {
        formatter.time(view.getFloat64(at, true));
        at += 8;
      } else if (tag === ${MISSING}) formatter.missing();
      else formatter.endRow();
    }
    const taken = formatter.take();
    const text = new Uint8Array(taken.length);
    text.set(taken);
    parentPort.postMessage({ id: call.id, text }, [text.buffer]);
  } catch (error) {
    parentPort.postMessage({ id: call.id, error: String(error && error.stack || error) });
  }
});
`;

/** A batch's values in one buffer, in the order `writeTo` hands them over. */
function recordBatch(batch: EventBatch): { values: ArrayBuffer; length: number } {
  let bytes = new Uint8Array(1 << 16);
  let view = new DataView(bytes.buffer);
  let length = 0;
  const reserve = (count: number) => {
    if (length + count <= bytes.length) return;
    const grown = new Uint8Array(Math.max(bytes.length * 2, length + count));
    grown.set(bytes.subarray(0, length));
    bytes = grown;
    view = new DataView(bytes.buffer);
  };
  const putText = (source: Uint8Array, start: number, end: number) => {
    reserve(5 + end - start);
    bytes[length] = TEXT;
    view.setUint32(length + 1, end - start, true);
    bytes.set(source.subarray(start, end), length + 5);
    length += 5 + end - start;
  };
  const putDouble = (tag: number, value: number) => {
    reserve(9);
    bytes[length] = tag;
    view.setFloat64(length + 1, value, true);
    length += 9;
  };
  const putTag = (tag: number) => {
    reserve(1);
    bytes[length++] = tag;
  };
  const writer: EventValueWriter = {
    text: putText,
    string(value) {
      const encoded = Buffer.from(value, 'utf8');
      putText(encoded, 0, encoded.length);
    },
    number: (value) => putDouble(NUMBER, value),
    time: (ms) => putDouble(TIME, ms),
    missing: () => putTag(MISSING),
    endRow: () => putTag(END_ROW),
  };
  batch.writeTo(writer);
  return { values: bytes.buffer, length };
}

type Reply = { id: number; text?: Uint8Array; error?: string };

let thread: Worker | undefined;
let calls = 0;
let exports = 0;
const pending = new Map<number, { resolve(text: Buffer): void; reject(error: Error): void }>();

function started(): Worker {
  if (thread) return thread;
  const worker = new Worker(threadSource(), {
    eval: true,
    execArgv: [],
    workerData: { columns: EVENT_COLUMNS.map(({ name }) => name) },
  });
  worker.on('message', (reply: Reply) => {
    const call = pending.get(reply.id);
    pending.delete(reply.id);
    if (!call) return;
    if (reply.error !== undefined || !reply.text)
      call.reject(new Error(`export format thread: ${reply.error}`));
    else call.resolve(Buffer.from(reply.text.buffer, reply.text.byteOffset, reply.text.byteLength));
  });
  worker.on('error', (error) => {
    for (const call of pending.values()) call.reject(error);
    pending.clear();
    thread = undefined;
  });
  // Idle, it keeps no process alive.
  worker.unref();
  thread = worker;
  return worker;
}

/** An export's formatter on the format thread: `format` answers a batch's text; `close` frees it. */
export function threadFormatter(format: ExportFormat) {
  const exportId = ++exports;
  return {
    format(batch: EventBatch): Promise<Buffer> {
      const { values, length } = recordBatch(batch);
      const id = ++calls;
      const worker = started();
      worker.ref();
      return new Promise<Buffer>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker.postMessage({ op: 'format', id, exportId, format, values, length }, [values]);
      }).finally(() => {
        if (pending.size === 0) worker.unref();
      });
    },
    close(): void {
      thread?.postMessage({ op: 'close', exportId });
    },
  };
}
