import type { IngestEventInput, WalletContext } from '@polyflow/contracts/events';
import type * as Addon from './addon.ts';
import type { Undo } from './util.ts';

/** The fields every event gets from the tracker itself; modules supply the rest. */
type BaseField = 'id' | 'ts' | 'userId' | 'sessionId' | 'path' | 'referrer' | 'utm' | 'wallet';

/** What a module hands to `emit`: one event of the contract without the common fields. */
export type EventBody = IngestEventInput extends infer E
  ? E extends unknown
    ? Omit<E, BaseField>
    : never
  : never;

export type TxBody = Extract<EventBody, { type: 'tx' }>;
export type SignatureBody = Extract<EventBody, { type: 'signature' }>;

/** The part of EIP-1193 the SDK touches. */
export interface Eip1193Provider {
  request(args: { method: string; params?: unknown }): unknown;
  on?(event: string, listener: (value: unknown) => void): unknown;
  removeListener?(event: string, listener: (value: unknown) => void): unknown;
}

/** A wallet provider the SDK has seen, with what it learnt about it. Short keys keep the bundle small. */
export interface Wallet {
  p: Eip1193Provider;
  /**
   * The original (unwrapped) request, so the SDK's own calls never show up as dapp calls. Never rejects: a
   * failed call, or one the wallet has not answered within the timeout, resolves to undefined.
   */
  q(method: string, params?: unknown[]): Promise<unknown>;
  /** Name (EIP-6963 or guessed from `window.ethereum` flags). */
  n: string;
  /** EIP-6963 reverse DNS id. */
  r?: string;
  /** Connected address, lower case. */
  a?: string;
  /** Chain id. */
  c?: number;
}

export interface Core {
  /**
   * Builds the common fields and queues the event; never throws, does nothing when opted out. The event's
   * wallet context comes from `wallet`, or else from the active wallet.
   */
  emit(body: EventBody, wallet?: Wallet): void;
  /** The wallet last used or connected: its context goes on events that have no wallet of their own. */
  active?: Wallet;
  /** What `detach()` undoes: listeners and wrappers. */
  undo: Undo;
  /** The add-on (ADR 068), loaded on the first call; undefined when it could not load. Never rejects. */
  addon(): Promise<typeof Addon | undefined>;
}

export const walletContext = (w?: Wallet): WalletContext | undefined =>
  w && { address: w.a, provider: w.n, rdns: w.r, chainId: w.c };
