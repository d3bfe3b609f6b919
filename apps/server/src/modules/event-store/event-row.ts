/**
 * One stored event: a wide row whose field names are the `events` table's column names, so every
 * store engine maps it column for column. Fields an event type does not have are null.
 * Big numbers (wei, gas, nonces, block heights) are bigint so the store keeps them exact and SQL can
 * sum and average them (DuckDB HUGEINT; ClickHouse Int128).
 */
export type EventRow = {
  project_id: string;
  /** Client event id (current SDK) or a server UUID (published 1.0.25 SDK); unique per project. */
  id: string;
  type: string;
  /** Client clock, epoch milliseconds. */
  ts: number;
  /** Server clock at acceptance, epoch milliseconds. */
  received_at: number;
  user_id: string;
  session_id: string;
  path: string | null;
  referrer: string | null;
  title: string | null;
  utm_source: string | null;
  utm_medium: string | null;
  utm_campaign: string | null;
  utm_content: string | null;
  utm_term: string | null;
  /** Host of the request's Origin header (whitelisted), e.g. `app.example.com`. */
  origin: string;
  /** `polyflow/<version>` (current SDK) or `polyflow-legacy/1.0.25` (GraphQL). */
  sdk: string | null;
  wallet_address: string | null;
  wallet_provider: string | null;
  wallet_rdns: string | null;
  chain_id: number | null;
  /** ISO 3166-1 alpha-2 from the client IP (geo-IP), or null when unknown. */
  country: string | null;
  browser: string | null;
  os: string | null;
  /** desktop | mobile | tablet | console | smarttv | wearable | embedded */
  device: string | null;
  tx_id: string | null;
  tx_stage: string | null;
  tx_hash: string | null;
  tx_from: string | null;
  tx_to: string | null;
  tx_value: bigint | null;
  selector: string | null;
  /** coin | contract */
  tx_kind: string | null;
  gas_limit: bigint | null;
  gas_price: bigint | null;
  max_fee_per_gas: bigint | null;
  max_priority_fee_per_gas: bigint | null;
  nonce: bigint | null;
  gas_used: bigint | null;
  effective_gas_price: bigint | null;
  block_number: bigint | null;
  replaced_by: string | null;
  signature_id: string | null;
  /** requested | signed | rejected | failed */
  sig_stage: string | null;
  sig_method: string | null;
  /** window | promise | wallet (errors), sdk (published SDK's own failures); tx/signature failures use rpc columns. */
  error_source: string | null;
  error_message: string | null;
  error_stack: string | null;
  error_code: number | null;
  rpc_method: string | null;
  gas_balance: bigint | null;
  wallet_nonce: bigint | null;
  /** Error events: the incident they belong to (modules/incidents/fingerprint.ts), set by the store on write. */
  incident_id: string | null;
};

export type ColumnKind = 'varchar' | 'timestamp' | 'bigint' | 'hugeint';

/** Column order of the `events` table; the DuckDB store appends in this order. */
export const EVENT_COLUMNS: ReadonlyArray<readonly [keyof EventRow, ColumnKind]> = [
  ['project_id', 'varchar'],
  ['id', 'varchar'],
  ['type', 'varchar'],
  ['ts', 'timestamp'],
  ['received_at', 'timestamp'],
  ['user_id', 'varchar'],
  ['session_id', 'varchar'],
  ['path', 'varchar'],
  ['referrer', 'varchar'],
  ['title', 'varchar'],
  ['utm_source', 'varchar'],
  ['utm_medium', 'varchar'],
  ['utm_campaign', 'varchar'],
  ['utm_content', 'varchar'],
  ['utm_term', 'varchar'],
  ['origin', 'varchar'],
  ['sdk', 'varchar'],
  ['wallet_address', 'varchar'],
  ['wallet_provider', 'varchar'],
  ['wallet_rdns', 'varchar'],
  ['chain_id', 'bigint'],
  ['country', 'varchar'],
  ['browser', 'varchar'],
  ['os', 'varchar'],
  ['device', 'varchar'],
  ['tx_id', 'varchar'],
  ['tx_stage', 'varchar'],
  ['tx_hash', 'varchar'],
  ['tx_from', 'varchar'],
  ['tx_to', 'varchar'],
  ['tx_value', 'hugeint'],
  ['selector', 'varchar'],
  ['tx_kind', 'varchar'],
  ['gas_limit', 'hugeint'],
  ['gas_price', 'hugeint'],
  ['max_fee_per_gas', 'hugeint'],
  ['max_priority_fee_per_gas', 'hugeint'],
  ['nonce', 'hugeint'],
  ['gas_used', 'hugeint'],
  ['effective_gas_price', 'hugeint'],
  ['block_number', 'hugeint'],
  ['replaced_by', 'varchar'],
  ['signature_id', 'varchar'],
  ['sig_stage', 'varchar'],
  ['sig_method', 'varchar'],
  ['error_source', 'varchar'],
  ['error_message', 'varchar'],
  ['error_stack', 'varchar'],
  ['error_code', 'bigint'],
  ['rpc_method', 'varchar'],
  ['gas_balance', 'hugeint'],
  ['wallet_nonce', 'hugeint'],
  ['incident_id', 'varchar'],
];

/**
 * An empty row: every optional column null. Written out field by field: in V8 (Node 20) an object
 * literal that starts with a spread and then adds fifty properties takes ~300 µs to build; this, ~0.3 µs.
 */
export function blankRow(
  base: Pick<
    EventRow,
    'project_id' | 'id' | 'type' | 'ts' | 'received_at' | 'user_id' | 'session_id' | 'origin'
  >,
): EventRow {
  return {
    project_id: base.project_id,
    id: base.id,
    type: base.type,
    ts: base.ts,
    received_at: base.received_at,
    user_id: base.user_id,
    session_id: base.session_id,
    origin: base.origin,
    path: null,
    referrer: null,
    title: null,
    utm_source: null,
    utm_medium: null,
    utm_campaign: null,
    utm_content: null,
    utm_term: null,
    sdk: null,
    wallet_address: null,
    wallet_provider: null,
    wallet_rdns: null,
    chain_id: null,
    country: null,
    browser: null,
    os: null,
    device: null,
    tx_id: null,
    tx_stage: null,
    tx_hash: null,
    tx_from: null,
    tx_to: null,
    tx_value: null,
    selector: null,
    tx_kind: null,
    gas_limit: null,
    gas_price: null,
    max_fee_per_gas: null,
    max_priority_fee_per_gas: null,
    nonce: null,
    gas_used: null,
    effective_gas_price: null,
    block_number: null,
    replaced_by: null,
    signature_id: null,
    sig_stage: null,
    sig_method: null,
    error_source: null,
    error_message: null,
    error_stack: null,
    error_code: null,
    rpc_method: null,
    gas_balance: null,
    wallet_nonce: null,
    incident_id: null,
  };
}
