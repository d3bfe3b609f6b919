import { Agent, request } from 'node:http';
import type { BenchProject } from './seed-project.ts';

const USER_AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (X11; Linux x86_64; rv:131.0) Gecko/20100101 Firefox/131.0',
];
const IPS = ['81.2.69.160', '2.16.0.1', '3.0.0.1', '5.1.0.1', '8.8.8.8', '91.198.174.1'];

/** A realistic batch of 20: page views, wallet events, transactions with big numbers, an error. */
function batch(project: BenchProject, prefix: string): { body: string; ids: string[] } {
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

function post(
  agent: Agent,
  url: URL,
  origin: string,
  body: string,
  userAgent: string,
  ip: string,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'text/plain;charset=UTF-8',
          'content-length': Buffer.byteLength(body),
          origin,
          'user-agent': userAgent,
          // Only honoured with TRUST_PROXY; harmless otherwise.
          'x-forwarded-for': ip,
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

export type LoadResult = {
  requests: number;
  events: number;
  errors: number;
  latenciesMs: number[];
  seconds: number;
  ackedIds: string[];
};

/**
 * `concurrency` keep-alive connections, each sending its next batch as soon as the previous one is
 * answered, for `seconds` (or until `signal` aborts). Acknowledged ids are kept when `keepIds` is set.
 */
export async function drive(
  server: string,
  project: BenchProject,
  {
    concurrency,
    seconds,
    keepIds = false,
    runId,
  }: { concurrency: number; seconds: number; keepIds?: boolean; runId: string },
): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const url = new URL('/api/v1/events', server);
  const result: LoadResult = { requests: 0, events: 0, errors: 0, latenciesMs: [], seconds: 0, ackedIds: [] };
  const started = performance.now();
  const endAt = started + seconds * 1000;
  let sequence = 0;
  // The client shares the 2 cores with the server: each body is cut from one template per run (unique
  // ids and session per batch) instead of serialising twenty events per request.
  const PLACEHOLDER = '~PREFIX~';
  const template = batch(project, PLACEHOLDER).body.split(PLACEHOLDER);
  async function worker(w: number): Promise<void> {
    while (performance.now() < endAt) {
      const prefix = `${runId}${w}x${sequence++}`;
      const body = template.join(prefix);
      const ids = Array.from({ length: 20 }, (_, i) => `${prefix}_${i}`);
      const sentAt = performance.now();
      try {
        const status = await post(
          agent,
          url,
          project.origin,
          body,
          USER_AGENTS[w % USER_AGENTS.length] as string,
          IPS[w % IPS.length] as string,
        );
        if (status !== 200) {
          result.errors++;
          continue;
        }
      } catch {
        result.errors++;
        // The server went away (the crash check kills it): stop this worker.
        return;
      }
      result.latenciesMs.push(performance.now() - sentAt);
      result.requests++;
      result.events += ids.length;
      if (keepIds) for (const id of ids) result.ackedIds.push(id);
    }
  }
  await Promise.all(Array.from({ length: concurrency }, (_, w) => worker(w)));
  result.seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return result;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}
