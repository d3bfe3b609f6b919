import { connect, type Socket } from 'node:net';
import type { BenchProject } from './seed-project.ts';

/** Custom events in the mix (bench:ingest's before/after for issue 29). */
const CUSTOM_EVENTS = process.env.BENCH_CUSTOM_EVENTS === '1';

const USER_AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (X11; Linux x86_64; rv:131.0) Gecko/20100101 Firefox/131.0',
];
const IPS = ['81.2.69.160', '2.16.0.1', '3.0.0.1', '5.1.0.1', '8.8.8.8', '91.198.174.1'];

/** The request facts of a bench batch as ingestion records them in the log (bench:load, bench:log). */
export function benchRequest() {
  return {
    project: 'bench-project',
    origin: 'app.example.com',
    receivedAt: Date.now(),
    sdk: 'polyflow/bench',
    country: 'GB',
    browser: 'Chrome',
    os: 'Linux',
    device: 'desktop',
  };
}

/** A realistic batch of 20: page views, wallet events, transactions with big numbers, an error. */
export function batch(
  project: Pick<BenchProject, 'apiKey'>,
  prefix: string,
): { body: string; ids: string[] } {
  const now = Date.now();
  const ids: string[] = [];
  const events = [];
  for (let i = 0; i < 20; i++) {
    const id = `${prefix}_${i}`;
    ids.push(id);
    const base = {
      id,
      ts: now,
      userId: `u${prefix.length % 97}`,
      sessionId: `s${prefix}`,
      path: '/swap',
      utm: { source: 'twitter', campaign: 'launch' },
    };
    const wallet = {
      address: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
      provider: 'MetaMask',
      rdns: 'io.metamask',
      chainId: 1,
    };
    if (i % 5 === 0) events.push({ ...base, type: 'page_view', referrer: 'https://google.com/' });
    else if (i % 5 === 1) events.push({ ...base, type: 'wallet_connected', wallet });
    // BENCH_CUSTOM_EVENTS=1: four of the twenty are custom events with three properties instead of tx stages.
    else if (CUSTOM_EVENTS && i % 5 === 2)
      events.push({
        ...base,
        type: 'custom',
        name: i % 2 ? 'swap_quote_shown' : 'bridge_started',
        props: { pair: 'ETH/USDC', amount: 1.5, fast: true },
      });
    else if (i % 5 === 4 && i === 19)
      events.push({
        ...base,
        type: 'error',
        source: 'window',
        message: 'TypeError: x is undefined',
        stack: 'at a (app.js:1:2)',
      });
    else
      events.push({
        ...base,
        type: 'tx',
        wallet,
        txId: `t${prefix}_${i}`,
        stage: 'confirmed',
        kind: 'contract',
        hash: `0x${'ab'.repeat(32)}`,
        from: wallet.address,
        to: '0x1111111111111111111111111111111111111111',
        value: '1000000000000000000',
        selector: '0xa9059cbb',
        chainId: 1,
        gasLimit: '65000',
        maxFeePerGas: '30000000000',
        maxPriorityFeePerGas: '1500000000',
        nonce: '42',
        gasUsed: '51234',
        effectiveGasPrice: '25000000000',
        blockNumber: '19000000',
      });
  }
  return { body: JSON.stringify({ apiKey: project.apiKey, sdkVersion: 'bench', events }), ids };
}

/**
 * One keep-alive HTTP/1.1 connection that sends a request and reads its answer, one at a time, over a
 * raw socket. The load generator shares the machine's 2 cores with the server: node:http's client
 * costs about 260 µs of CPU per request, this one a fraction of that, so the figures measure the server.
 * It understands what the server sends back: a status line, headers, and a Content-Length body.
 */
class Connection {
  private readonly socket: Socket;
  private buffered = '';
  private pending?: { resolve(status: number): void; reject(error: Error): void };
  private closedError?: Error;

  constructor(url: URL) {
    this.socket = connect(Number(url.port), url.hostname);
    this.socket.setNoDelay(true);
    this.socket.setEncoding('latin1');
    this.socket.on('data', (chunk: string) => this.onData(chunk));
    const fail = (error: Error) => {
      this.closedError ??= error;
      this.pending?.reject(this.closedError);
      this.pending = undefined;
    };
    this.socket.on('error', fail);
    this.socket.on('close', () => fail(new Error('connection closed')));
  }

  /** Sends one request (head and body already joined) and resolves with the answer's status code. */
  send(request: string): Promise<number> {
    if (this.closedError) return Promise.reject(this.closedError);
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      this.socket.write(request, 'latin1');
    });
  }

  private onData(chunk: string): void {
    this.buffered += chunk;
    const headEnd = this.buffered.indexOf('\r\n\r\n');
    if (headEnd < 0) return;
    const head = this.buffered.slice(0, headEnd);
    const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
    if (this.buffered.length < headEnd + 4 + length) return;
    this.buffered = this.buffered.slice(headEnd + 4 + length);
    const status = Number(head.slice(9, 12));
    const pending = this.pending;
    this.pending = undefined;
    pending?.resolve(status);
  }

  close(): void {
    this.socket.destroy();
  }
}

/** The request's head for a body of `length` bytes (the bench's bodies are ASCII). */
function requestHead(url: URL, origin: string, userAgent: string, ip: string, length: number): string {
  return [
    `POST ${url.pathname} HTTP/1.1`,
    `host: ${url.host}`,
    'content-type: text/plain;charset=UTF-8',
    `content-length: ${length}`,
    `origin: ${origin}`,
    `user-agent: ${userAgent}`,
    // Only honoured with TRUST_PROXY; harmless otherwise.
    `x-forwarded-for: ${ip}`,
    '',
    '',
  ].join('\r\n');
}

export type LoadResult = {
  requests: number;
  events: number;
  errors: number;
  /** Answers other than 200, by status (503: backlog, 429: rate); 0: the connection failed. */
  refusals: Map<number, number>;
  latenciesMs: number[];
  seconds: number;
  ackedIds: string[];
};

/**
 * `concurrency` keep-alive connections, each sending its next batch as soon as the previous one is
 * answered, for `seconds` or `maxEvents` events, whichever comes first (or until the server goes away). Acknowledged ids are kept when `keepIds` is set.
 *
 * With `eventsPerSecond` the load is paced instead: batch k is due at k × 20 / eventsPerSecond seconds
 * after the start, whoever sends it, and a worker waits for its batch's due time. Its latency is taken
 * from that due time, not from when it could be sent: a server that falls behind the offered rate shows
 * it in the latencies (no coordinated omission), not in a quietly lower rate.
 */
export async function drive(
  server: string,
  project: BenchProject,
  {
    concurrency,
    seconds,
    keepIds = false,
    runId,
    maxEvents = Number.POSITIVE_INFINITY,
    eventsPerSecond,
    onAcknowledged,
  }: {
    concurrency: number;
    seconds: number;
    /** The offered rate; unset, every connection sends as fast as it is answered. */
    eventsPerSecond?: number;
    keepIds?: boolean;
    runId: string;
    maxEvents?: number;
    /** Told of each acknowledged batch's ids when its answer arrives (`bench:live` times the stream from it). */
    onAcknowledged?(ids: readonly string[]): void;
  },
): Promise<LoadResult> {
  const url = new URL('/api/v1/events', server);
  const result: LoadResult = {
    requests: 0,
    events: 0,
    errors: 0,
    refusals: new Map(),
    latenciesMs: [],
    seconds: 0,
    ackedIds: [],
  };
  const refuse = (status: number) => {
    result.errors++;
    result.refusals.set(status, (result.refusals.get(status) ?? 0) + 1);
  };
  const started = performance.now();
  const endAt = started + seconds * 1000;
  let sequence = 0;
  // Events sent so far by every worker: a run can stop at a count (`maxEvents`) rather than at a time.
  let sentEvents = 0;
  // The client shares the 2 cores with the server: each body is cut from one template per run (unique
  // ids and session per batch) instead of serialising twenty events per request.
  const PLACEHOLDER = '~PREFIX~';
  const template = batch(project, PLACEHOLDER).body.split(PLACEHOLDER);
  const connections = Array.from({ length: concurrency }, () => new Connection(url));
  async function worker(w: number): Promise<void> {
    const connection = connections[w] as Connection;
    const userAgent = USER_AGENTS[w % USER_AGENTS.length] as string;
    const ip = IPS[w % IPS.length] as string;
    while (performance.now() < endAt && sentEvents < maxEvents) {
      sentEvents += 20;
      const batchNumber = sequence++;
      const prefix = `${runId}${w}x${batchNumber}`;
      const body = template.join(prefix);
      const ids = Array.from({ length: 20 }, (_, i) => `${prefix}_${i}`);
      const dueAt = eventsPerSecond ? started + (batchNumber * 20 * 1000) / eventsPerSecond : undefined;
      if (dueAt !== undefined) {
        if (dueAt >= endAt) return;
        const wait = dueAt - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      }
      const sentAt = dueAt ?? performance.now();
      try {
        const status = await connection.send(
          requestHead(url, project.origin, userAgent, ip, body.length) + body,
        );
        if (status !== 200) {
          refuse(status);
          continue;
        }
      } catch {
        refuse(0);
        // The server went away (the crash check kills it): stop this worker.
        return;
      }
      result.latenciesMs.push(performance.now() - sentAt);
      onAcknowledged?.(ids);
      result.requests++;
      result.events += ids.length;
      if (keepIds) for (const id of ids) result.ackedIds.push(id);
    }
  }
  await Promise.all(Array.from({ length: concurrency }, (_, w) => worker(w)));
  result.seconds = (performance.now() - started) / 1000;
  for (const connection of connections) connection.close();
  return result;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}
