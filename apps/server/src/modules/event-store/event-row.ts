/**
 * The stored event, defined once. Each column of the `events` row has its kind (which fixes its type in
 * TypeScript and in every engine's DDL), whether it is required, and where its value comes from in an SDK
 * batch record (`log-records.ts`): a field of the event as the SDK sent it, or of the request that
 * carried it. `EventRow`, the rows records' JSON, each adapter's DDL and its mapping of batch records to
 * rows (DuckDB: in SQL) and `rowOfBatchEvent` (the same mapping in TypeScript) all follow from this table,
 * so a new field is one line here (and one in the wire contract).
 *
 * Big numbers (wei, gas, nonces, block heights) are `hugeint`, bigint in TypeScript, so the store keeps
 * them exact and SQL can sum and average them (DuckDB HUGEINT; ClickHouse Int128). Times are epoch ms.
 */

export type ColumnKind = 'varchar' | 'timestamp' | 'bigint' | 'hugeint';

/** A value of a batch record: JSON text, a JSON integer, or an object stored as its JSON text, at a path. */
type JsonType = 'text' | 'integer' | 'object';
export type Source =
  /** A field of the SDK event (`e`): `["utm", "source"]` is `event.utm.source`. */
  | { from: 'event'; path: readonly string[]; json: JsonType }
  /** A fact of the request that carried the event (`q`). */
  | { from: 'request'; field: string; json: JsonType }
  /** Hex, stored lower-cased: addresses and hashes compare as text. */
  | { from: 'lower'; of: Source }
  /** The first present value. */
  | { from: 'coalesce'; of: readonly Source[] }
  /** The value only on events of this type (a field name some types share with another meaning). */
  | { from: 'only'; type: string; of: Source };

const event = (json: JsonType, ...path: string[]): Source => ({ from: 'event', path, json });
const text = (...path: string[]) => event('text', ...path);
const integer = (...path: string[]) => event('integer', ...path);
/** A flat object (a custom event's properties), stored as its JSON text. */
const object = (...path: string[]) => event('object', ...path);
const request = (field: string, json: JsonType = 'text'): Source => ({ from: 'request', field, json });
const lower = (of: Source): Source => ({ from: 'lower', of });
const coalesce = (...of: Source[]): Source => ({ from: 'coalesce', of });
const only = (type: string, of: Source): Source => ({ from: 'only', type, of });

type ColumnDefinition = { kind: ColumnKind; required: boolean; source: Source };
const required = <K extends ColumnKind>(kind: K, source: Source) => ({
  kind,
  required: true as const,
  source,
});
const optional = <K extends ColumnKind>(kind: K, source: Source) => ({
  kind,
  required: false as const,
  source,
});

/** The columns in table order. Fields an event type does not have are null. */
const COLUMNS = {
  project_id: required('varchar', request('project')),
  /** Client event id (current SDK) or a server UUID (published 1.0.25 SDK); unique per project. */
  id: required('varchar', text('id')),
  type: required('varchar', text('type')),
  /** Client clock. */
  ts: required('timestamp', integer('ts')),
  /** Server clock at acceptance. */
  received_at: required('timestamp', request('receivedAt', 'integer')),
  user_id: required('varchar', text('userId')),
  session_id: required('varchar', text('sessionId')),
  path: optional('varchar', text('path')),
  referrer: optional('varchar', text('referrer')),
  title: optional('varchar', text('title')),
  utm_source: optional('varchar', text('utm', 'source')),
  utm_medium: optional('varchar', text('utm', 'medium')),
  utm_campaign: optional('varchar', text('utm', 'campaign')),
  utm_content: optional('varchar', text('utm', 'content')),
  utm_term: optional('varchar', text('utm', 'term')),
  /** Host of the request's Origin header (whitelisted), e.g. `app.example.com`. */
  origin: required('varchar', request('origin')),
  /** `polyflow/<version>` (current SDK) or `polyflow-legacy/1.0.25` (GraphQL). */
  sdk: optional('varchar', request('sdk')),
  wallet_address: optional('varchar', lower(text('wallet', 'address'))),
  wallet_provider: optional('varchar', coalesce(text('wallet', 'provider'), text('walletState', 'provider'))),
  wallet_rdns: optional('varchar', text('wallet', 'rdns')),
  chain_id: optional(
    'bigint',
    coalesce(integer('chainId'), integer('wallet', 'chainId'), integer('walletState', 'chainId')),
  ),
  /** ISO 3166-1 alpha-2 from the client IP (geo-IP), or null when unknown. */
  country: optional('varchar', request('country')),
  browser: optional('varchar', request('browser')),
  os: optional('varchar', request('os')),
  /** desktop | mobile | tablet | console | smarttv | wearable | embedded */
  device: optional('varchar', request('device')),
  tx_id: optional('varchar', text('txId')),
  tx_stage: optional('varchar', only('tx', text('stage'))),
  tx_hash: optional('varchar', lower(text('hash'))),
  tx_from: optional('varchar', lower(text('from'))),
  tx_to: optional('varchar', lower(text('to'))),
  tx_value: optional('hugeint', text('value')),
  selector: optional('varchar', lower(text('selector'))),
  /** coin | contract */
  tx_kind: optional('varchar', text('kind')),
  gas_limit: optional('hugeint', text('gasLimit')),
  gas_price: optional('hugeint', text('gasPrice')),
  max_fee_per_gas: optional('hugeint', text('maxFeePerGas')),
  max_priority_fee_per_gas: optional('hugeint', text('maxPriorityFeePerGas')),
  nonce: optional('hugeint', text('nonce')),
  gas_used: optional('hugeint', text('gasUsed')),
  effective_gas_price: optional('hugeint', text('effectiveGasPrice')),
  block_number: optional('hugeint', text('blockNumber')),
  replaced_by: optional('varchar', lower(text('replacedBy'))),
  signature_id: optional('varchar', text('signatureId')),
  /** requested | signed | rejected | failed */
  sig_stage: optional('varchar', only('signature', text('stage'))),
  sig_method: optional('varchar', only('signature', text('method'))),
  /** window | promise | wallet (errors), sdk (published SDK's own failures); tx/signature failures use rpc columns. */
  error_source: optional('varchar', text('source')),
  error_message: optional('varchar', coalesce(text('message'), text('error', 'message'))),
  error_stack: optional('varchar', text('stack')),
  error_code: optional('bigint', coalesce(integer('code'), integer('error', 'code'))),
  rpc_method: optional('varchar', only('error', text('method'))),
  gas_balance: optional('hugeint', text('walletState', 'gasBalance')),
  wallet_nonce: optional('hugeint', text('walletState', 'nonce')),
  /** Error events: the incident they belong to (incidents/fingerprint.ts), set by ingestion on write. */
  incident_id: optional('varchar', text('incidentId')),
  /** Custom events: the name the dapp gave (`track`). */
  event_name: optional('varchar', only('custom', text('name'))),
  /** Identify events: the dapp's own id of the user (`identify`). */
  app_user_id: optional('varchar', text('appUserId')),
  /** Custom events' properties or identify events' traits: a flat JSON object of text, numbers and booleans. */
  props: optional('varchar', coalesce(object('props'), object('traits'))),
  /** The dapp's release the batch came from (the SDK's `release` option, docs/releases.md). */
  release: optional('varchar', request('release')),
} as const satisfies Record<string, ColumnDefinition>;

type ValueOf<K extends ColumnKind> = K extends 'varchar' ? string : K extends 'hugeint' ? bigint : number;
type Columns = typeof COLUMNS;

/** One stored event: a wide row whose field names are the `events` table's column names. */
export type EventRow = {
  -readonly [N in keyof Columns]: Columns[N]['required'] extends true
    ? ValueOf<Columns[N]['kind']>
    : ValueOf<Columns[N]['kind']> | null;
};
export type EventColumnName = keyof EventRow;
export type EventColumn = ColumnDefinition & { name: EventColumnName };

/** Every column, in table order. */
export const EVENT_COLUMNS: readonly EventColumn[] = Object.entries(COLUMNS).map(([name, column]) => ({
  name: name as EventColumnName,
  ...column,
}));

const BLANK_ROW = Object.fromEntries(EVENT_COLUMNS.map((column) => [column.name, null]));

type RequiredColumn = {
  [N in keyof Columns]: Columns[N]['required'] extends true ? N : never;
}[keyof Columns];

/** A row with the required columns given and every other column null. */
export function blankRow(base: Pick<EventRow, RequiredColumn>): EventRow {
  return Object.assign({}, BLANK_ROW, base) as unknown as EventRow;
}

function valueAt(source: Source, request: Record<string, unknown>, event: Record<string, unknown>): unknown {
  switch (source.from) {
    case 'event': {
      let value: unknown = event;
      for (const key of source.path) value = (value as Record<string, unknown> | undefined)?.[key];
      if (source.json === 'object' && value != null) return JSON.stringify(value);
      return value ?? null;
    }
    case 'request':
      return request[source.field] ?? null;
    case 'lower': {
      const value = valueAt(source.of, request, event);
      return typeof value === 'string' ? value.toLowerCase() : value;
    }
    case 'coalesce':
      for (const part of source.of) {
        const value = valueAt(part, request, event);
        if (value !== null) return value;
      }
      return null;
    case 'only':
      return event.type === source.type ? valueAt(source.of, request, event) : null;
  }
}

/**
 * An SDK event of a batch record as its row, in TypeScript: what an adapter that maps batch records in
 * SQL must give (test/event-store/batch-records.test.ts holds the DuckDB adapter to it). The event is
 * valid (BatchSchema) and its big numbers are storable (ingestion checks both before logging it).
 */
export function rowOfBatchEvent(request: object, event: object): EventRow {
  const row: Record<string, unknown> = {};
  for (const column of EVENT_COLUMNS) {
    const value = valueAt(
      column.source,
      request as Record<string, unknown>,
      event as Record<string, unknown>,
    );
    row[column.name] = value !== null && column.kind === 'hugeint' ? BigInt(value as string) : value;
  }
  return row as EventRow;
}

/** Nested fields and their engine types: what an engine reads a batch record's JSON into. */
export type Structure = { [key: string]: string | Structure };

/**
 * Every field the sources name in a batch record's event or request, with the engine's type for each
 * JSON type (`types`): the structure DuckDB's `json_transform` and ClickHouse's tuple types are written from.
 */
export function structureOf(
  sources: readonly Source[],
  from: 'event' | 'request',
  types: Record<JsonType, string>,
): Structure {
  const structure: Structure = {};
  const visit = (source: Source) => {
    if (source.from === 'event' && from === 'event') {
      let node = structure;
      source.path.slice(0, -1).forEach((key) => {
        node[key] ??= {};
        node = node[key] as Structure;
      });
      node[source.path.at(-1) as string] = types[source.json];
    } else if (source.from === 'request' && from === 'request') {
      structure[source.field] = types[source.json];
    } else if (source.from === 'lower' || source.from === 'only') {
      visit(source.of);
    } else if (source.from === 'coalesce') {
      source.of.forEach(visit);
    }
  };
  sources.forEach(visit);
  return structure;
}
