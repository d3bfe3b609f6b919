import type { DuckDBConnection } from '@duckdb/node-api';
import { INCIDENT_SOURCES, sqlList } from '../../src/modules/event-store/domain.ts';
import { FILL_EVENT_KEYS } from '../../src/modules/event-store/duckdb/schema.ts';

/**
 * 10 million events shaped like real ones, generated inside DuckDB (no row goes through JS): "units"
 * (a page view, a wallet connection, a transaction, a signature, an error…) spread evenly over the
 * period in arrival order, each unnested into its stage rows. Project sizes are skewed (the largest has
 * ~15 % of all events), users within a project too; a user keeps one country, browser, wallet, chain and
 * campaign. Deterministic: every random draw is a hash of the unit number.
 */

export const BENCH_PROJECTS = 300;
/** Stage rows per unit on average (see the kind and outcome weights below). */
const ROWS_PER_UNIT = 1.457;

/** Project number → a UUID-shaped id, as real project ids are. */
export const projectIdSql = (n: string) =>
  `(SELECT substr(m, 1, 8) || '-' || substr(m, 9, 4) || '-4' || substr(m, 14, 3) || '-8' || substr(m, 18, 3) || '-' || substr(m, 21, 12) FROM (SELECT md5('bench-project-' || ${n}) AS m))`;

const list = (items: string[]) => items;
const COUNTRIES = list([
  'US',
  'US',
  'US',
  'DE',
  'GB',
  'IN',
  'NG',
  'BR',
  'FR',
  'CA',
  'TR',
  'VN',
  'KR',
  'JP',
  'SG',
  'NL',
  'ES',
  'PL',
]);
const BROWSERS = list([
  'Chrome',
  'Chrome',
  'Chrome',
  'Chrome',
  'Brave',
  'Firefox',
  'Safari',
  'Edge',
  'Opera',
]);
const SYSTEMS = list(['Windows', 'Windows', 'Mac OS', 'Mac OS', 'Linux', 'Android', 'iOS']);
const PROVIDERS = list([
  'MetaMask',
  'MetaMask',
  'MetaMask',
  'Coinbase Wallet',
  'Rabby Wallet',
  'Phantom',
  'Trust Wallet',
  'Brave Wallet',
]);
const CAMPAIGNS = list(['TwitterAds-1', 'DiscordReferals-1', 'AdWords-3', 'Organic-1', '', '', '']);
const SOURCES = list(['twitter', 'discord', 'google', 'google', '', '', '']);
const MEDIUMS = list(['cpc', 'referral', 'cpc', 'organic', '', '', '']);
const PATHS = list(['/', '/', '/swap', '/pool', '/stake', '/portfolio', '/bridge']);
const CONTRACTS = list([
  '0x7a250d5630b4cf539739df2c5dacb4c659f2488d',
  '0x68b3465833fb72a70ecdf485e0e4c7bd8665fc45',
  '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
  '0x3d9819210a31b4961b30ef54be2aed79b9c9cd3b',
]);
const SELECTORS = list([
  '0x7ff36ab5',
  '0x38ed1739',
  '0x414bf389',
  '0x095ea7b3',
  '0xa9059cbb',
  '0xa694fc3a',
  '0x9a2b8c41',
]);
const ERRORS = list([
  "TypeError: Cannot read properties of undefined (reading 'balance')",
  'Error: Failed to fetch price quote (HTTP 502)',
  'insufficient funds for gas * price + value',
  'ReferenceError: Buffer is not defined',
]);

// CASE rather than a list literal: DuckDB builds a list literal again for every row (20x slower).
const pick = (items: string[], h: string) =>
  `CASE ((${h}) % ${items.length})::INTEGER ${items
    .map((item, index) => `WHEN ${index} THEN ${item === '' ? 'NULL' : `'${item.replaceAll("'", "''")}'`}`)
    .join(' ')} END`;

/** Fills `events` (already created with the store's schema) with about `total` rows ending at `endMs`. */
export async function generateBenchEvents(
  connection: DuckDBConnection,
  options: { total: number; days: number; endMs: number; customEvents?: boolean },
): Promise<void> {
  const units = Math.ceil((options.total / ROWS_PER_UNIT) * 1.01);
  const startMs = options.endMs - options.days * 86_400_000;
  const stepMs = (options.days * 86_400_000) / units;
  const draw = (salt: number) => `((hash(i, ${salt}) % 1000003) / 1000003.0)`;
  await connection.run(`CREATE TEMP TABLE bench_projects AS
    SELECT p, ${projectIdSql('p')} AS project_id FROM range(${BENCH_PROJECTS}) t(p)`);
  await connection.run(`CREATE TEMP TABLE bench_units AS
    SELECT i,
           floor(${BENCH_PROJECTS} * pow(${draw(1)}, 3))::INTEGER AS p,
           floor(20000 * pow(${draw(2)}, 2))::INTEGER AS u,
           ${draw(3)} AS r_kind,
           ${draw(4)} AS r_outcome,
           ${draw(5)} AS r_misc,
           ${startMs}::BIGINT + floor(i * ${stepMs})::BIGINT AS t0
      FROM range(${units}) t(i)`);
  // What stays the same for a user: wallet, provider, chain, country, browser, system, campaign.
  await connection.run(`CREATE TEMP TABLE bench_users AS
    SELECT p, u, uh,
           CASE WHEN uh % 4 = 0 THEN NULL
                ELSE '0x' || md5('wallet-' || p || '-' || u) || substr(md5('w' || u), 1, 8) END AS wallet,
           CASE WHEN uh % 4 = 0 THEN NULL ELSE ${pick(PROVIDERS, '(uh // 7)')} END AS provider,
           [1, 1, 137, 8453, 42161, 10][((uh // 11) % 6)::BIGINT + 1] AS chain_id,
           [22, 22, 60, 0.08, 0.02, 0.05][((uh // 11) % 6)::BIGINT + 1] AS gwei,
           CASE WHEN uh % 53 = 0 THEN NULL ELSE ${pick(COUNTRIES, '(uh // 13)')} END AS country,
           ${pick(BROWSERS, '(uh // 17)')} AS browser,
           ${pick(SYSTEMS, '(uh // 19)')} AS os,
           CASE WHEN (uh // 19) % 7 >= 5 THEN 'mobile' ELSE 'desktop' END AS device,
           ${pick(SOURCES, 'uh')} AS utm_source,
           ${pick(MEDIUMS, 'uh')} AS utm_medium,
           ${pick(CAMPAIGNS, 'uh')} AS utm_campaign,
           'user-' || p || '-' || u AS user_id
      FROM (SELECT DISTINCT p, u, hash(p, u) AS uh FROM bench_units)`);
  await connection.run(`CREATE TEMP TABLE bench_rows AS
    WITH typed AS (
      SELECT *,
             CASE WHEN r_kind < 0.55 THEN 'page_view' WHEN r_kind < 0.63 THEN 'wallet_detected'
                  WHEN r_kind < 0.70 THEN 'wallet_connected' WHEN r_kind < 0.92 THEN 'tx'
                  WHEN r_kind < 0.97 THEN 'signature' WHEN r_kind < 0.99 THEN 'error'
                  ELSE 'wallet_disconnected' END AS kind,
             CASE WHEN r_outcome < 0.74 THEN 'confirmed' WHEN r_outcome < 0.86 THEN 'rejected'
                  WHEN r_outcome < 0.92 THEN 'reverted' WHEN r_outcome < 0.95 THEN 'failed'
                  WHEN r_outcome < 0.98 THEN 'dropped' ELSE 'replaced' END AS outcome,
        FROM bench_units
    ),
    staged AS (
      SELECT *,
             CASE kind WHEN 'tx' THEN (CASE WHEN outcome IN ('rejected', 'failed') THEN ['requested', outcome]
                                            ELSE ['requested', 'submitted', outcome] END)
                       WHEN 'signature' THEN ['requested', 'signed']
                       ELSE [kind] END AS stages
        FROM typed
    )
    SELECT * FROM (SELECT *, unnest(range(len(stages))) AS k FROM staged)
     ORDER BY i, k
     LIMIT ${options.total}`);
  await connection.run(`INSERT INTO events (
      project_id, id, type, ts, received_at, user_id, session_id, path, utm_source, utm_medium, utm_campaign,
      origin, sdk, wallet_address, wallet_provider, chain_id, country, browser, os, device,
      tx_id, tx_stage, tx_hash, tx_from, tx_to, tx_value, selector, tx_kind, gas_limit, max_fee_per_gas,
      gas_used, effective_gas_price, block_number, signature_id, sig_stage, sig_method,
      error_source, error_message, error_code, rpc_method)
    SELECT bp.project_id,
           (i * 4 + k)::VARCHAR,
           CASE kind WHEN 'wallet_detected' THEN 'wallet_detected' ELSE kind END,
           make_timestamp((t0 + k * 20000) * 1000),
           make_timestamp((t0 + k * 20000 + 300) * 1000),
           user_id,
           user_id || '-' || (t0 // 86400000),
           ${pick(PATHS, 'hash(i, 6)')},
           utm_source, utm_medium, utm_campaign,
           'app' || p || '.example.com',
           'polyflow/0.1.0',
           CASE WHEN kind = 'wallet_detected' THEN NULL
                WHEN kind IN ('page_view', 'error') AND r_misc < 0.5 THEN NULL
                ELSE wallet END,
           provider, chain_id, country, browser, os, device,
           CASE WHEN kind = 'tx' THEN 'tx_' || i END,
           CASE WHEN kind = 'tx' THEN stages[k + 1] END,
           CASE WHEN kind = 'tx' AND stages[k + 1] NOT IN ('requested', 'rejected', 'failed') THEN '0x' || md5(i::VARCHAR) || md5((-i)::VARCHAR) END,
           CASE WHEN kind = 'tx' THEN wallet END,
           CASE WHEN kind = 'tx' THEN (CASE WHEN r_misc < 0.25 THEN '0x' || substr(md5('to' || i), 1, 40) ELSE ${pick(CONTRACTS, 'hash(i, 7)')} END) END,
           CASE WHEN kind = 'tx' THEN (CASE WHEN r_misc < 0.25 THEN 100000000000000000 ELSE 0 END)::HUGEINT END,
           CASE WHEN kind = 'tx' AND r_misc >= 0.25 THEN ${pick(SELECTORS, 'hash(i, 8)')} END,
           CASE WHEN kind = 'tx' THEN (CASE WHEN r_misc < 0.25 THEN 'coin' ELSE 'contract' END) END,
           CASE WHEN kind = 'tx' THEN 180000::HUGEINT END,
           CASE WHEN kind = 'tx' THEN 60000000000::HUGEINT END,
           CASE WHEN kind = 'tx' AND stages[k + 1] IN ('confirmed', 'reverted') THEN (60000 + hash(i, 9) % 100000)::HUGEINT END,
           CASE WHEN kind = 'tx' AND stages[k + 1] IN ('confirmed', 'reverted')
                THEN (gwei * 1e9 * (0.6 + r_misc * 0.9))::HUGEINT END,
           CASE WHEN kind = 'tx' AND stages[k + 1] IN ('confirmed', 'reverted') THEN (19000000 + i // 10)::HUGEINT END,
           CASE WHEN kind = 'signature' THEN 'sig_' || i END,
           CASE WHEN kind = 'signature' THEN stages[k + 1] END,
           CASE WHEN kind = 'signature' THEN 'personal_sign' END,
           CASE WHEN kind = 'error' THEN (CASE WHEN r_outcome < 0.5 THEN 'window' ELSE 'wallet' END) END,
           CASE WHEN kind = 'error' THEN ${pick(ERRORS, 'hash(i, 10)')}
                WHEN kind = 'tx' AND stages[k + 1] = 'rejected' THEN 'User rejected the request.' END,
           CASE WHEN kind = 'error' AND r_outcome >= 0.5 THEN -32603
                WHEN kind = 'tx' AND stages[k + 1] = 'rejected' THEN 4001 END,
           CASE WHEN kind = 'error' AND r_outcome >= 0.5 THEN 'eth_sendTransaction' END
      FROM bench_rows JOIN bench_projects bp USING (p) JOIN bench_users USING (p, u)`);
  await connection.run('DROP TABLE bench_rows');
  await connection.run('DROP TABLE bench_units');
  await connection.run('DROP TABLE bench_users');
  await stampIncidents(connection);
  if (options.customEvents) await addCustomEvents(connection);
  // The session's and user's keys, as the store's loads compute them (ADR 093).
  await connection.run(FILL_EVENT_KEYS);
}

const CUSTOM_NAMES = [
  'swap_quote_shown',
  'bridge_started',
  'settings_opened',
  'pool_viewed',
  'limit_order_set',
];
const PAIRS = ['ETH/USDC', 'WBTC/ETH', 'ETH/DAI', 'USDC/DAI', 'ARB/ETH', 'OP/ETH'];

/**
 * `--custom-events`: beside every fifth page view, a custom event of one of five names with two or three
 * properties, a second later (about 11 % more rows); and an identify for every tenth user, on its first day
 * (docs/custom-events.md). Added after the other rows, so their figures stay as without the flag.
 */
async function addCustomEvents(connection: DuckDBConnection): Promise<void> {
  await connection.run(`INSERT INTO events (project_id, id, type, ts, received_at, user_id, session_id, path, origin,
      sdk, country, browser, os, device, event_name, props)
    SELECT project_id, id || 'c', 'custom', ts + INTERVAL 1 SECOND, received_at + INTERVAL 1 SECOND, user_id,
           session_id, path, origin, sdk, country, browser, os, device,
           ${pick(CUSTOM_NAMES, 'hash(id, 11)')},
           json_object('pair', ${pick(PAIRS, 'hash(id, 12)')}, 'amount', (hash(id, 13) % 1000) / 10.0,
                       'fast', hash(id, 14) % 2 = 0)::VARCHAR
      FROM events WHERE type = 'page_view' AND hash(id, 10) % 5 = 0`);
  await connection.run(`INSERT INTO events (project_id, id, type, ts, received_at, user_id, session_id, path, origin,
      sdk, app_user_id, props)
    SELECT project_id, 'identify-' || user_id, 'identify', min(ts), min(received_at), user_id,
           arg_min(session_id, ts), '/', any_value(origin), any_value(sdk),
           'acct-' || (hash(user_id) % 100000), '{"plan":"pro"}'
      FROM events WHERE hash(user_id, 15) % 10 = 0 GROUP BY project_id, user_id`);
}

/**
 * Production rows get `incident_id` from the event store on write (modules/incidents/fingerprint.ts); the
 * generated ones get an id per (project, source, code + method or message): the fingerprint's grouping on
 * the generator's messages. Stamped here, before anything else reads the rows (derived tables included).
 */
async function stampIncidents(connection: DuckDBConnection): Promise<void> {
  const fingerprint = `project_id || '|' || error_source || '|' || coalesce(error_code::VARCHAR || rpc_method, error_message)`;
  await connection.run(
    `UPDATE events SET incident_id = 'inc_' || substr(md5(${fingerprint}), 1, 24)
      WHERE type = 'error' AND error_source IN ${sqlList(INCIDENT_SOURCES)}`,
  );
}
