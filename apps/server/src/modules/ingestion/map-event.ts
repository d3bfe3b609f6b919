import type { IngestEvent } from '@polyflow/contracts/events';
import { badRequest } from '../../errors.ts';
import { blankRow, type EventRow } from '../event-store/event-row.ts';

/** What the server adds to every event of a request. */
export type RequestFacts = {
  projectId: string;
  originHost: string;
  receivedAt: number;
  sdk: string | null;
  country: string | null;
  browser: string | null;
  os: string | null;
  device: string | null;
};

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
 * Refuses (400, naming the field) an event whose big numbers the store cannot hold, as `mapEvent` does,
 * without building its row: SDK batches are mapped to rows by DuckDB on load, which must never fail.
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

/** Hex (validated as such) is stored lower-cased: addresses and hashes compare as text. */
const lowerHex = (value: string | undefined): string | null => value?.toLowerCase() ?? null;

/** A validated wire event (`@polyflow/contracts/events`) as a stored row. `index` names it in errors. */
export function mapEvent(event: IngestEvent, index: number, facts: RequestFacts): EventRow {
  const row = blankRow({
    project_id: facts.projectId,
    id: event.id,
    type: event.type,
    ts: event.ts,
    received_at: facts.receivedAt,
    user_id: event.userId,
    session_id: event.sessionId,
    origin: facts.originHost,
  });
  row.path = event.path;
  row.referrer = event.referrer ?? null;
  row.utm_source = event.utm?.source ?? null;
  row.utm_medium = event.utm?.medium ?? null;
  row.utm_campaign = event.utm?.campaign ?? null;
  row.utm_content = event.utm?.content ?? null;
  row.utm_term = event.utm?.term ?? null;
  row.sdk = facts.sdk;
  row.wallet_address = lowerHex(event.wallet?.address);
  row.wallet_provider = event.wallet?.provider ?? null;
  row.wallet_rdns = event.wallet?.rdns ?? null;
  row.chain_id = event.wallet?.chainId ?? null;
  row.country = facts.country;
  row.browser = facts.browser;
  row.os = facts.os;
  row.device = facts.device;
  const at = (field: string) => `events.${index}.${field}`;

  switch (event.type) {
    case 'page_view':
      row.title = event.title ?? null;
      break;
    case 'tx':
      row.tx_id = event.txId;
      row.tx_stage = event.stage;
      row.tx_hash = lowerHex(event.hash);
      row.tx_from = lowerHex(event.from);
      row.tx_to = lowerHex(event.to);
      row.tx_value = toBig(event.value, at('value'));
      row.selector = lowerHex(event.selector);
      row.tx_kind = event.kind;
      row.chain_id = event.chainId ?? row.chain_id;
      row.gas_limit = toBig(event.gasLimit, at('gasLimit'));
      row.gas_price = toBig(event.gasPrice, at('gasPrice'));
      row.max_fee_per_gas = toBig(event.maxFeePerGas, at('maxFeePerGas'));
      row.max_priority_fee_per_gas = toBig(event.maxPriorityFeePerGas, at('maxPriorityFeePerGas'));
      row.nonce = toBig(event.nonce, at('nonce'));
      row.gas_used = toBig(event.gasUsed, at('gasUsed'));
      row.effective_gas_price = toBig(event.effectiveGasPrice, at('effectiveGasPrice'));
      row.block_number = toBig(event.blockNumber, at('blockNumber'));
      row.replaced_by = lowerHex(event.replacedBy);
      row.error_code = event.error?.code ?? null;
      row.error_message = event.error?.message ?? null;
      break;
    case 'signature':
      row.signature_id = event.signatureId;
      row.sig_stage = event.stage;
      row.sig_method = event.method;
      row.error_code = event.error?.code ?? null;
      row.error_message = event.error?.message ?? null;
      break;
    case 'error':
      row.error_source = event.source;
      row.error_message = event.message;
      row.error_stack = event.stack ?? null;
      row.error_code = event.code ?? null;
      row.rpc_method = event.method ?? null;
      row.gas_balance = toBig(event.walletState?.gasBalance, at('walletState.gasBalance'));
      row.wallet_nonce = toBig(event.walletState?.nonce, at('walletState.nonce'));
      row.chain_id = row.chain_id ?? event.walletState?.chainId ?? null;
      row.wallet_provider = row.wallet_provider ?? event.walletState?.provider ?? null;
      break;
    default:
      break;
  }
  return row;
}
