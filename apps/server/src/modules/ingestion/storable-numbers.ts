import type { IngestEvent } from '@polyflow/contracts/events';
import { badRequest } from '../../errors.ts';

/** HUGEINT's largest value: a decimal above it cannot be stored exactly. */
const MAX_STORED = 2n ** 127n - 1n;

/** Decimal string → bigint, refusing what the store cannot hold (the batch is refused, never cut). */
export function toBig(value: string | undefined | null, path: string): bigint | null {
  if (value === undefined || value === null) return null;
  const big = BigInt(value);
  if (big > MAX_STORED) {
    const message = 'number too large (the largest storable value is 2^127 - 1)';
    throw badRequest(`Invalid batch: ${path}: ${message}.`, [{ path, message }]);
  }
  return big;
}

const TX_DECIMALS = [
  'value',
  'gasLimit',
  'gasPrice',
  'maxFeePerGas',
  'maxPriorityFeePerGas',
  'nonce',
  'gasUsed',
  'effectiveGasPrice',
  'blockNumber',
] as const;
/** 2^127 - 1 has 39 digits: a shorter decimal always fits. */
const fits = (value: string | undefined) =>
  value === undefined || value.length < 39 || BigInt(value) <= MAX_STORED;

/**
 * Refuses (400, naming the field) an event whose big numbers the store cannot hold: SDK batches are
 * mapped to rows by the event store on load, which must never fail on data.
 */
export function assertStorable(event: IngestEvent, index: number): void {
  if (event.type === 'tx') {
    for (const field of TX_DECIMALS) {
      const value = event[field];
      if (!fits(value)) toBig(value, `events.${index}.${field}`);
    }
  } else if (event.type === 'error') {
    const state = event.walletState;
    if (!fits(state?.gasBalance)) toBig(state?.gasBalance, `events.${index}.walletState.gasBalance`);
    if (!fits(state?.nonce)) toBig(state?.nonce, `events.${index}.walletState.nonce`);
  }
}
