import type { IngestEvent, TxStage } from '@polyflow/contracts/events';
import {
  BRIDGE_TARGETS,
  BROWSERS,
  CAMPAIGNS,
  type Campaign,
  CHAINS,
  CONTRACT_CALLS,
  COUNTRIES,
  INSUFFICIENT_FUNDS,
  OUTCOMES,
  PAGE_ERRORS,
  PATHS,
  SWAP_PAIRS,
  SYSTEMS,
  WALLET_ERRORS,
  WALLETS,
  type WalletBrand,
} from './catalog.ts';
import { createRandom, type Random } from './random.ts';

/** An event as the server stores it: what the SDK sent plus what enrichment adds. */
export type DemoEvent = {
  event: IngestEvent;
  receivedAt: number;
  origin: string;
  country: string;
  browser: string;
  os: string;
  device: string;
};

export type DemoOptions = { endMs: number; days?: number; users?: number; seed?: number };

const DAY = 86_400_000;
const ORIGIN = 'https://app.demo-dex.xyz';

type User = {
  id: string;
  country: string;
  browser: string;
  os: string;
  device: string;
  campaign: Campaign | null;
  wallet: (WalletBrand & { address: string; chainId: number; gwei: number }) | null;
  nonce: number;
  /** The dapp's own account id, told by identify on connection; null for users without one. */
  appUserId: string | null;
  plan: 'free' | 'pro';
};

/**
 * About 90 days of a DEX's traffic, oldest first per session: page views → wallet detected → connect →
 * transactions and signatures, with page and wallet errors (and a bad deploy that makes an incident burst).
 */
export function* generateDemoEvents(options: DemoOptions): Generator<DemoEvent> {
  const days = options.days ?? 90;
  const random = createRandom(options.seed ?? 20240601);
  const startMs = options.endMs - days * DAY;
  const { fromMs: burstFromMs, toMs: burstToMs } = badDeployOf(options.endMs);
  let counter = 0;
  const nextId = () => `demo_${(counter++).toString(36).padStart(7, '0')}`;

  const userCount = options.users ?? 3000;
  for (let n = 0; n < userCount; n++) {
    const user = newUser(random, n);
    // Traffic grows: more users arrive in later weeks.
    let sessionMs = startMs + Math.sqrt(random.next()) * days * DAY;
    const sessions = random.count(2.5);
    for (let s = 0; s < sessions && sessionMs < options.endMs; s++) {
      yield* session(
        random,
        user,
        s,
        sessionMs,
        options.endMs,
        nextId,
        sessionMs >= burstFromMs && sessionMs < burstToMs,
      );
      sessionMs += (0.3 + random.next() * 9) * DAY;
    }
  }
}

/** The bad deploy: a page error that hit many sessions for two days about three weeks before the end. */
export function badDeployOf(endMs: number): { fromMs: number; toMs: number } {
  const fromMs = endMs - 21 * DAY;
  return { fromMs, toMs: fromMs + 2 * DAY };
}

function newUser(random: Random, n: number): User {
  const system = random.weighted(SYSTEMS);
  const brand = random.chance(0.78) ? random.weighted(WALLETS) : null;
  const chain = random.weighted(CHAINS);
  return {
    id: `demo-user-${n.toString(36)}`,
    country: random.weighted(COUNTRIES),
    browser: random.weighted(BROWSERS),
    os: system.os,
    device: system.device,
    campaign: random.weighted(CAMPAIGNS),
    wallet: brand ? { ...brand, address: random.hex(20), chainId: chain.chainId, gwei: chain.gwei } : null,
    nonce: random.int(0, 400),
    // About a third of the users have an account in the dapp, which tells it on connection (identify).
    ...accountOf(n),
  };
}

function accountOf(n: number): Pick<User, 'appUserId' | 'plan'> {
  const draw = createRandom(hashOf(`account-${n}`));
  if (!draw.chance(0.35)) return { appUserId: null, plan: 'free' };
  return { appUserId: `acct_${(10_000 + n).toString()}`, plan: draw.chance(0.2) ? 'pro' : 'free' };
}

/** FNV-1a: a stable 32-bit seed from a text. */
function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/** The custom events a DEX's own code sends on a page (docs/custom-events.md), at most a few per view. */
function tracked(random: Random, dapp: Emit, path: string): DemoEvent | null {
  if (path === '/swap' && random.chance(0.65)) {
    const pair = random.weighted(SWAP_PAIRS);
    const amountUsd = Math.round(10 ** (1 + random.next() * 3));
    return dapp(
      {
        type: 'custom',
        name: 'quote_requested',
        props: { pair, amountUsd, route: random.chance(0.7) ? 'direct' : 'split' },
      },
      path,
    );
  }
  if (path === '/bridge' && random.chance(0.6)) {
    const to = random.weighted(BRIDGE_TARGETS);
    return dapp({ type: 'custom', name: 'bridge_route_selected', props: { from: 'ethereum', to } }, path);
  }
  if (path === '/pool' && random.chance(0.5))
    return dapp(
      {
        type: 'custom',
        name: 'pool_opened',
        props: { pool: random.weighted(SWAP_PAIRS), fee: random.pick([0.05, 0.3, 1]) },
      },
      path,
    );
  if (path === '/stake' && random.chance(0.3))
    return dapp(
      { type: 'custom', name: 'stake_calculator_used', props: { days: random.pick([30, 90, 365]) } },
      path,
    );
  return null;
}

function* session(
  random: Random,
  user: User,
  index: number,
  startMs: number,
  endMs: number,
  nextId: () => string,
  inBurst: boolean,
): Generator<DemoEvent> {
  const sessionId = `${user.id}-s${index}`;
  let ts = startMs;
  // Campaign parameters arrive with the first visit; returning visitors mostly come back directly.
  const campaign = index === 0 || random.chance(0.2) ? user.campaign : null;
  const utm = campaign
    ? {
        source: campaign.source,
        medium: campaign.medium,
        campaign: campaign.campaign,
        ...(campaign.contents.length ? { content: random.pick(campaign.contents) } : {}),
        ...(campaign.terms.length ? { term: random.pick(campaign.terms) } : {}),
      }
    : undefined;
  let connected = false;
  const wallet = user.wallet;
  const walletContext = () =>
    wallet
      ? {
          provider: wallet.name,
          rdns: wallet.rdns,
          chainId: wallet.chainId,
          ...(connected ? { address: wallet.address } : {}),
        }
      : undefined;

  const build = (
    body: Record<string, unknown>,
    path: string,
    at: { ts: number; id: string; lag: number },
  ): DemoEvent => {
    const ctx = walletContext();
    const event = {
      id: at.id,
      ts: Math.floor(at.ts),
      userId: user.id,
      sessionId,
      path,
      ...(utm ? { utm } : {}),
      ...(ctx ? { wallet: ctx } : {}),
      ...body,
    } as IngestEvent;
    return {
      event,
      receivedAt: Math.floor(at.ts) + at.lag,
      origin: ORIGIN,
      country: user.country,
      browser: user.browser,
      os: user.os,
      device: user.device,
    };
  };
  const emit = (body: Record<string, unknown>, path: string): DemoEvent | null =>
    ts >= endMs ? null : build(body, path, { ts, id: nextId(), lag: random.int(40, 900) });
  // What the dapp itself reports (track, identify) comes from its own random stream and ids, a second or so
  // after the page view or connection it follows: the rest of the traffic stays as it was without them.
  const extra = createRandom(hashOf(sessionId));
  let extraCount = 0;
  const dapp = (body: Record<string, unknown>, path: string): DemoEvent | null => {
    const at = ts + extra.int(300, 1500);
    if (at >= endMs) return null;
    return build(body, path, { ts: at, id: `${sessionId}-d${extraCount++}`, lag: extra.int(40, 900) });
  };
  const step = (minSeconds: number, maxSeconds: number) => {
    ts += random.int(minSeconds * 1000, maxSeconds * 1000);
  };
  function* out(event: DemoEvent | null): Generator<DemoEvent> {
    if (event) yield event;
  }

  let path: string = index === 0 ? '/' : random.pick(PATHS);
  yield* out(
    emit(
      { type: 'page_view', title: 'Demo DEX', ...(index === 0 ? { referrer: referrerOf(campaign) } : {}) },
      path,
    ),
  );
  if (wallet && random.chance(0.93)) {
    step(0, 2);
    yield* out(emit({ type: 'wallet_detected' }, path));
  }
  const views = random.count(3);
  const connectChance = index === 0 ? 0.55 : 0.8;
  for (let v = 0; v < views; v++) {
    step(5, 120);
    if (v > 0) {
      path = random.pick(PATHS);
      yield* out(emit({ type: 'page_view', title: 'Demo DEX' }, path));
    }
    yield* out(tracked(extra, dapp, path));
    if (inBurst && path === '/portfolio' ? random.chance(0.7) : random.chance(0.015)) {
      yield* out(pageError(random, emit, path));
    }
    if (!wallet) continue;
    if (!connected && random.chance(connectChance / views)) {
      step(2, 20);
      if (random.chance(0.04)) {
        yield* out(walletError(random, emit, path, wallet, user, WALLET_ERRORS[0]?.[0]));
        continue;
      }
      connected = true;
      yield* out(emit({ type: 'wallet_connected' }, path));
      if (user.appUserId)
        yield* out(dapp({ type: 'identify', appUserId: user.appUserId, traits: { plan: user.plan } }, path));
    }
    if (!connected) continue;
    const txs = random.chance(0.55) ? random.count(1.4) : 0;
    for (let t = 0; t < txs; t++) {
      step(10, 90);
      yield* transaction(random, emit, step, path, wallet, user);
    }
    if (random.chance(0.12)) {
      step(3, 30);
      const signatureId = nextId();
      const method = random.chance(0.7) ? 'personal_sign' : 'eth_signTypedData_v4';
      yield* out(emit({ type: 'signature', signatureId, method, stage: 'requested' }, path));
      step(2, 25);
      yield* out(
        emit(
          { type: 'signature', signatureId, method, stage: random.chance(0.85) ? 'signed' : 'rejected' },
          path,
        ),
      );
    }
    if (random.chance(0.02)) {
      step(1, 10);
      yield* out(walletError(random, emit, path, wallet, user, random.weighted(WALLET_ERRORS)));
    }
  }
  if (connected && random.chance(0.05)) {
    step(5, 60);
    yield* out(emit({ type: 'wallet_disconnected' }, path));
  }
}

type Emit = (body: Record<string, unknown>, path: string) => DemoEvent | null;

function referrerOf(campaign: Campaign | null): string | undefined {
  if (!campaign) return undefined;
  if (campaign.source === 'twitter') return 'https://t.co/';
  if (campaign.source === 'discord') return 'https://discord.com/';
  return 'https://www.google.com/';
}

function pageError(random: Random, emit: Emit, path: string): DemoEvent | null {
  const error = random.weighted(path === '/portfolio' ? [[PAGE_ERRORS[0]?.[0], 1] as const] : PAGE_ERRORS);
  if (!error) return null;
  return emit({ type: 'error', source: error.source, message: error.message, stack: error.stack }, path);
}

function walletError(
  random: Random,
  emit: Emit,
  path: string,
  wallet: NonNullable<User['wallet']>,
  user: User,
  error: { code: number; method: string; message: string } | undefined,
): DemoEvent | null {
  if (!error) return null;
  return emit(
    {
      type: 'error',
      source: 'wallet',
      message: error.message,
      code: error.code,
      method: error.method,
      walletState: {
        gasBalance: weiOf(random.next() * 0.4),
        nonce: String(user.nonce),
        chainId: wallet.chainId,
        provider: wallet.name,
      },
    },
    path,
  );
}

function* transaction(
  random: Random,
  emit: Emit,
  step: (min: number, max: number) => void,
  path: string,
  wallet: NonNullable<User['wallet']>,
  user: User,
): Generator<DemoEvent> {
  const isCoin = random.chance(0.25);
  const call = isCoin ? null : random.weighted(CONTRACT_CALLS);
  const gasPriceWei = BigInt(Math.max(1, Math.round(wallet.gwei * (0.6 + random.next() * 0.9) * 1e9)));
  const tx: Record<string, unknown> = {
    type: 'tx',
    txId: `demo-tx-${random.hex(8).slice(2)}`,
    kind: isCoin ? 'coin' : 'contract',
    from: wallet.address,
    to: call ? call.contract : random.hex(20),
    value: isCoin || call?.selector === '0x7ff36ab5' ? weiOf(random.next() * 2) : '0',
    chainId: wallet.chainId,
    gasLimit: String(call ? call.gas + 30_000 : 21_000),
    maxFeePerGas: String(gasPriceWei * 2n),
    maxPriorityFeePerGas: String(gasPriceWei / 10n + 1n),
    ...(call ? { selector: call.selector } : {}),
  };
  const stage = (name: TxStage, extra: Record<string, unknown> = {}) =>
    emit({ ...tx, stage: name, ...extra }, path);
  const outcome = random.weighted(OUTCOMES);
  const requested = stage('requested');
  if (requested) yield requested;
  step(3, 40);
  if (outcome === 'rejected') {
    const event = stage('rejected', { error: { code: 4001, message: 'User rejected the request.' } });
    if (event) yield event;
    return;
  }
  if (outcome === 'failed') {
    const failed = stage('failed', {
      error: { code: INSUFFICIENT_FUNDS.code, message: INSUFFICIENT_FUNDS.message },
    });
    if (failed) yield failed;
    const error = walletError(random, emit, path, wallet, user, INSUFFICIENT_FUNDS);
    if (error) yield error;
    return;
  }
  tx.hash = random.hex(32);
  tx.nonce = String(user.nonce++);
  const submitted = stage('submitted');
  if (submitted) yield submitted;
  step(outcome === 'dropped' ? 60 : 4, outcome === 'dropped' ? 120 : 45);
  if (outcome === 'confirmed' || outcome === 'reverted') {
    const gasLimit = Number(tx.gasLimit);
    const gasUsed =
      outcome === 'reverted'
        ? Math.round(gasLimit * 0.6)
        : Math.round(gasLimit * (0.7 + random.next() * 0.25));
    const event = stage(outcome, {
      gasUsed: String(gasUsed),
      effectiveGasPrice: String(gasPriceWei),
      blockNumber: String(blockOf(wallet.chainId, Number(tx.nonce))),
    });
    if (event) yield event;
  } else {
    const event = stage(outcome, outcome === 'replaced' ? { replacedBy: random.hex(32) } : {});
    if (event) yield event;
  }
}

function weiOf(ether: number): string {
  return (BigInt(Math.round(ether * 1e6)) * 10n ** 12n).toString();
}

function blockOf(chainId: number, salt: number): number {
  const base = chainId === 1 ? 19_800_000 : chainId === 137 ? 57_000_000 : 14_000_000;
  return base + (salt % 100_000) * 7;
}
