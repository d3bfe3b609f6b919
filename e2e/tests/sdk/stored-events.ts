import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';

/**
 * A stored event, read back from the event store's wide `events` row (`apps/server/src/modules/event-store/
 * event-row.ts`) into the wire names of `@polyflow/contracts/events`, so assertions read like what the
 * SDK sent. Big numbers come back as decimal strings; absent fields are undefined.
 */
export interface StoredEvent {
  id: string;
  type: string;
  ts: string;
  receivedAt: string;
  userId: string;
  sessionId: string;
  /** Host of the page that sent it. */
  origin: string;
  /** `polyflow/<version>` or `polyflow-legacy/1.0.25`. */
  sdk?: string;
  path?: string;
  referrer?: string;
  title?: string;
  utm: { source?: string; medium?: string; campaign?: string; content?: string; term?: string };
  wallet: { address?: string; provider?: string; rdns?: string; chainId?: number };
  browser?: string;
  os?: string;
  device?: string;
  country?: string;
  // tx
  txId?: string;
  stage?: string;
  hash?: string;
  from?: string;
  to?: string;
  value?: string;
  selector?: string;
  kind?: string;
  chainId?: number;
  gasLimit?: string;
  gasPrice?: string;
  maxFeePerGas?: string;
  maxPriorityFeePerGas?: string;
  nonce?: string;
  gasUsed?: string;
  effectiveGasPrice?: string;
  blockNumber?: string;
  replacedBy?: string;
  // signature
  signatureId?: string;
  method?: string;
  // error (and the RPC error of a rejected or failed tx / signature)
  source?: string;
  message?: string;
  stack?: string;
  code?: number;
  error?: { code?: number; message?: string };
  walletState: { gasBalance?: string; nonce?: string; chainId?: number; provider?: string };
}

type Row = Record<string, unknown>;
const str = (value: unknown) => (value === null || value === undefined ? undefined : String(value));
const int = (value: unknown) => (value === null || value === undefined ? undefined : Number(value));
/** Drops undefined fields, so `toMatchObject` and `toEqual` compare what is there. */
const clean = <T extends object>(value: T): T =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;

function toStored(row: Row): StoredEvent {
  const isTxOrSignature = row.type === 'tx' || row.type === 'signature';
  return clean({
    id: String(row.id),
    type: String(row.type),
    ts: String(row.ts),
    receivedAt: String(row.received_at),
    userId: String(row.user_id),
    sessionId: String(row.session_id),
    origin: String(row.origin),
    sdk: str(row.sdk),
    path: str(row.path),
    referrer: str(row.referrer),
    title: str(row.title),
    utm: clean({
      source: str(row.utm_source),
      medium: str(row.utm_medium),
      campaign: str(row.utm_campaign),
      content: str(row.utm_content),
      term: str(row.utm_term),
    }),
    wallet: clean({
      address: str(row.wallet_address),
      provider: str(row.wallet_provider),
      rdns: str(row.wallet_rdns),
      chainId: int(row.chain_id),
    }),
    browser: str(row.browser),
    os: str(row.os),
    device: str(row.device),
    country: str(row.country),
    txId: str(row.tx_id),
    stage: str(row.tx_stage ?? row.sig_stage),
    hash: str(row.tx_hash),
    from: str(row.tx_from),
    to: str(row.tx_to),
    value: str(row.tx_value),
    selector: str(row.selector),
    kind: str(row.tx_kind),
    chainId: row.type === 'tx' ? int(row.chain_id) : undefined,
    gasLimit: str(row.gas_limit),
    gasPrice: str(row.gas_price),
    maxFeePerGas: str(row.max_fee_per_gas),
    maxPriorityFeePerGas: str(row.max_priority_fee_per_gas),
    nonce: str(row.nonce),
    gasUsed: str(row.gas_used),
    effectiveGasPrice: str(row.effective_gas_price),
    blockNumber: str(row.block_number),
    replacedBy: str(row.replaced_by),
    signatureId: str(row.signature_id),
    method: str(row.sig_method ?? row.rpc_method),
    source: str(row.error_source),
    message: str(row.error_message),
    stack: str(row.error_stack),
    code: int(row.error_code),
    error:
      isTxOrSignature && (row.error_code !== null || row.error_message !== null)
        ? clean({ code: int(row.error_code), message: str(row.error_message) })
        : undefined,
    walletState: clean({
      gasBalance: str(row.gas_balance),
      nonce: str(row.wallet_nonce),
      chainId: int(row.chain_id),
      provider: str(row.wallet_provider),
    }),
  });
}

/**
 * Every stored event of the project, oldest first, read straight from `DATA_DIR/events.duckdb` in
 * read-only mode. Call it only after the server stopped: DuckDB lets one process hold the file.
 */
export async function readStoredEvents(dataDir: string, projectId: string): Promise<StoredEvent[]> {
  const file = join(dataDir, 'events.duckdb');
  if (!existsSync(file)) return [];
  const instance = await DuckDBInstance.create(file, { access_mode: 'READ_ONLY' });
  try {
    const connection = await instance.connect();
    try {
      const reader = await connection.runAndReadAll(
        'SELECT * FROM events WHERE project_id = $project ORDER BY received_at, ts',
        { project: projectId },
      );
      return reader.getRowObjectsJson().map((row) => toStored(row as Row));
    } finally {
      connection.closeSync();
    }
  } finally {
    instance.closeSync();
  }
}

/** The events of one type, optionally narrowed by a predicate. */
export function eventsOf(
  events: StoredEvent[],
  type: string,
  where: (event: StoredEvent) => boolean = () => true,
): StoredEvent[] {
  return events.filter((event) => event.type === type && where(event));
}
