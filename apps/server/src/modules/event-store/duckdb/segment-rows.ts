import { EVENT_COLUMNS, type EventRow } from '../event-row.ts';

/**
 * The ingestion log's record of one SDK batch (ADR 003, "batch records"): the request's facts and its
 * validated events as the SDK sent them, mapped to `events` rows by DuckDB itself on load. Parsing the
 * SDK's compact JSON and mapping it in SQL, on DuckDB's threads, costs a fraction of building a
 * 53-column row per event in JavaScript on the request path; that was half of an ingestion request's CPU.
 *
 * The mapping is the one `map-event.ts` writes in TypeScript (which the demo seeder and the published
 * SDK's GraphQL path still use); test/events/batch-records.test.ts stores every event shape both ways
 * and compares the rows column by column.
 */
export type BatchRequestFacts = {
  project: string;
  origin: string;
  receivedAt: number;
  sdk: string | null;
  country: string | null;
  browser: string | null;
  os: string | null;
  device: string | null;
};

const V = 'VARCHAR';
const I = 'BIGINT';
/** Every field of every event type (a field belongs to one type or means the same in each). */
const EVENT_STRUCTURE = {
  id: V,
  type: V,
  ts: I,
  userId: V,
  sessionId: V,
  path: V,
  referrer: V,
  title: V,
  utm: { source: V, medium: V, campaign: V, content: V, term: V },
  wallet: { address: V, provider: V, rdns: V, chainId: I },
  txId: V,
  stage: V,
  kind: V,
  hash: V,
  from: V,
  to: V,
  value: V,
  selector: V,
  chainId: I,
  gasLimit: V,
  gasPrice: V,
  maxFeePerGas: V,
  maxPriorityFeePerGas: V,
  nonce: V,
  gasUsed: V,
  effectiveGasPrice: V,
  blockNumber: V,
  replacedBy: V,
  error: { code: I, message: V },
  signatureId: V,
  method: V,
  source: V,
  message: V,
  stack: V,
  code: I,
  walletState: { gasBalance: V, nonce: V, chainId: I, provider: V },
  /** Set by the server on error events (modules/incidents/fingerprint.ts), not by the SDK. */
  incidentId: V,
};
const REQUEST_STRUCTURE: Record<keyof BatchRequestFacts, string> = {
  project: V,
  origin: V,
  receivedAt: I,
  sdk: V,
  country: V,
  browser: V,
  os: V,
  device: V,
};
const RECORD_STRUCTURE = JSON.stringify({ request: REQUEST_STRUCTURE, events: [EVENT_STRUCTURE] });

/** `e`: the event, `q`: its request. The schema's strictness makes a field present only where it belongs. */
const typed = (type: string, expression: string) => `CASE WHEN e.type = '${type}' THEN ${expression} END`;
const COLUMN_SQL: Record<keyof EventRow, string> = {
  project_id: 'q.project',
  id: 'e.id',
  type: 'e.type',
  ts: 'make_timestamp(e.ts * 1000)',
  received_at: 'make_timestamp(q.receivedAt * 1000)',
  user_id: 'e.userId',
  session_id: 'e.sessionId',
  path: 'e.path',
  referrer: 'e.referrer',
  title: 'e.title',
  utm_source: 'e.utm.source',
  utm_medium: 'e.utm.medium',
  utm_campaign: 'e.utm.campaign',
  utm_content: 'e.utm.content',
  utm_term: 'e.utm.term',
  origin: 'q.origin',
  sdk: 'q.sdk',
  wallet_address: 'lower(e.wallet.address)',
  wallet_provider: 'coalesce(e.wallet.provider, e.walletState.provider)',
  wallet_rdns: 'e.wallet.rdns',
  chain_id: 'coalesce(e.chainId, e.wallet.chainId, e.walletState.chainId)',
  country: 'q.country',
  browser: 'q.browser',
  os: 'q.os',
  device: 'q.device',
  tx_id: 'e.txId',
  tx_stage: typed('tx', 'e.stage'),
  tx_hash: 'lower(e.hash)',
  tx_from: 'lower(e."from")',
  tx_to: 'lower(e."to")',
  tx_value: 'e.value::HUGEINT',
  selector: 'lower(e.selector)',
  tx_kind: 'e.kind',
  gas_limit: 'e.gasLimit::HUGEINT',
  gas_price: 'e.gasPrice::HUGEINT',
  max_fee_per_gas: 'e.maxFeePerGas::HUGEINT',
  max_priority_fee_per_gas: 'e.maxPriorityFeePerGas::HUGEINT',
  nonce: 'e.nonce::HUGEINT',
  gas_used: 'e.gasUsed::HUGEINT',
  effective_gas_price: 'e.effectiveGasPrice::HUGEINT',
  block_number: 'e.blockNumber::HUGEINT',
  replaced_by: 'lower(e.replacedBy)',
  signature_id: 'e.signatureId',
  sig_stage: typed('signature', 'e.stage'),
  sig_method: typed('signature', 'e.method'),
  error_source: 'e.source',
  error_message: 'coalesce(e.message, e.error.message)',
  error_stack: 'e.stack',
  error_code: 'coalesce(e.code, e.error.code)',
  rpc_method: typed('error', 'e.method'),
  gas_balance: 'e.walletState.gasBalance::HUGEINT',
  wallet_nonce: 'e.walletState.nonce::HUGEINT',
  incident_id: 'e.incidentId',
};

/** Records start with this, rows records (rows-json.ts) with `{"project_id":`. */
export const BATCH_RECORD_PREFIX = '{"request":';

/**
 * `SELECT <every events column>` over the batch records of an ingestion log segment: the file `$1`, one
 * record per line, which DuckDB reads itself (the JavaScript thread never holds the segment).
 */
export const SELECT_ROWS_FROM_LOG_FILE_BATCHES = `SELECT ${EVENT_COLUMNS.map(([name]) => COLUMN_SQL[name]).join(', ')}
  FROM (SELECT r.request AS q, unnest(r.events) AS e
          FROM (SELECT json_transform(json, '${RECORD_STRUCTURE}') AS r
                  FROM read_json_objects($1::VARCHAR, format = 'newline_delimited')
                 WHERE starts_with(json::VARCHAR, '${BATCH_RECORD_PREFIX}')))`;

/** One single-line record; `events` are validated wire events (with `incidentId` on error events). */
export function batchRecord(request: BatchRequestFacts, events: readonly object[]): string {
  return `${BATCH_RECORD_PREFIX}${JSON.stringify(request)},"events":${JSON.stringify(events)}}`;
}
