import { blankRow, type EventRow } from '../../src/modules/event-store/event-row.ts';

/**
 * The hand-made wallet set of the wallet suites. Every expected figure is derived by hand from this
 * timeline with the definitions of docs/wallets.md (the comments give the derivations). All times UTC.
 *
 * Active days (a `wallet_connected` event carrying the wallet at 09:00, or as noted):
 *   WN  05-28                                    first seen 05-28
 *   WR  03-01, 05-20                             back after 80 quiet days
 *   WP  04-01, 04-15, 05-20, 05-22, 05-24, 05-26, 05-30
 *   WA1 04-01, 04-20, 05-25
 *   WA2 05-10, 05-30
 *   WK  04-10, 05-10                             (country FR)
 *   WC  03-15, 04-20
 *   WX  04-02
 * Transactions (each on an active day of its sender, after its connection):
 *   tx-a WP  chain 1   C1 0xa9059cbb  05-22 confirmed  50,000 gas × 20 gwei = 1e15 wei
 *   tx-b WP  chain 1   C1 0xa9059cbb  05-24 reverted   30,000 gas × 10 gwei = 3e14
 *   tx-e WP  chain 137 C1 0x095ea7b3  05-26 confirmed 100,000 gas × 150 gwei = 1.5e16
 *   tx-f WA1 chain 1   C2 0x12345678  05-25 failed (never submitted)
 *   tx-c WA2 chain 1   C2 0x12345678  05-30 reverted   40,000 gas × 25 gwei = 1e15
 *   tx-d WA2 chain 137 C1 0x095ea7b3  05-30 reverted  100,000 gas × 50 gwei = 5e15
 * WP's first session landed on /swap from discord.com with utm source discord, medium social, campaign launch.
 */
export const WN = `0x${'a1'.repeat(20)}`;
export const WR = `0x${'b2'.repeat(20)}`;
export const WP = `0x${'c3'.repeat(20)}`;
export const WA1 = `0x${'d4'.repeat(20)}`;
export const WA2 = `0x${'e5'.repeat(20)}`;
export const WK = `0x${'f6'.repeat(20)}`;
export const WC = `0x${'07'.repeat(20)}`;
export const WX = `0x${'18'.repeat(20)}`;
export const C1 = `0x${'c1'.repeat(20)}`;
export const C2 = `0x${'c2'.repeat(20)}`;
const GWEI = 1_000_000_000n;

const ACTIVE_DAYS: [string, string[]][] = [
  [WN, ['2024-05-28']],
  [WR, ['2024-03-01', '2024-05-20']],
  [WP, ['2024-04-01', '2024-04-15', '2024-05-20', '2024-05-22', '2024-05-24', '2024-05-26', '2024-05-30']],
  [WA1, ['2024-04-01', '2024-04-20', '2024-05-25']],
  [WA2, ['2024-05-10', '2024-05-30']],
  [WK, ['2024-04-10', '2024-05-10']],
  [WC, ['2024-03-15', '2024-04-20']],
  [WX, ['2024-04-02']],
];

/** WA2 connects at 12:00 on 05-30, after WP's 09:00, so that the last-seen order is known. */
const TIME_OF: Record<string, string> = { [`${WA2}/2024-05-30`]: '12:00:00' };

type TxSpec = {
  id: string;
  wallet: string;
  chainId: number;
  to: string;
  selector: string;
  day: string;
  outcome: 'confirmed' | 'reverted' | 'failed';
  gasUsed?: bigint;
  gwei?: bigint;
};

const TRANSACTIONS: TxSpec[] = [
  {
    id: 'tx-a',
    wallet: WP,
    chainId: 1,
    to: C1,
    selector: '0xa9059cbb',
    day: '2024-05-22',
    outcome: 'confirmed',
    gasUsed: 50_000n,
    gwei: 20n,
  },
  {
    id: 'tx-b',
    wallet: WP,
    chainId: 1,
    to: C1,
    selector: '0xa9059cbb',
    day: '2024-05-24',
    outcome: 'reverted',
    gasUsed: 30_000n,
    gwei: 10n,
  },
  {
    id: 'tx-e',
    wallet: WP,
    chainId: 137,
    to: C1,
    selector: '0x095ea7b3',
    day: '2024-05-26',
    outcome: 'confirmed',
    gasUsed: 100_000n,
    gwei: 150n,
  },
  {
    id: 'tx-f',
    wallet: WA1,
    chainId: 1,
    to: C2,
    selector: '0x12345678',
    day: '2024-05-25',
    outcome: 'failed',
  },
  {
    id: 'tx-c',
    wallet: WA2,
    chainId: 1,
    to: C2,
    selector: '0x12345678',
    day: '2024-05-30',
    outcome: 'reverted',
    gasUsed: 40_000n,
    gwei: 25n,
  },
  {
    id: 'tx-d',
    wallet: WA2,
    chainId: 137,
    to: C1,
    selector: '0x095ea7b3',
    day: '2024-05-30',
    outcome: 'reverted',
    gasUsed: 100_000n,
    gwei: 50n,
  },
];

export function walletEvents(projectId: string): EventRow[] {
  let counter = 0;
  const row = (at: string, wallet: string, type: string, extra: Partial<EventRow> = {}): EventRow => {
    const ts = Date.parse(at);
    const session = `${wallet.slice(2, 6)}-${at.slice(0, 10)}`;
    return {
      ...blankRow({
        project_id: projectId,
        id: `wev_${(counter++).toString().padStart(5, '0')}`,
        type,
        ts,
        received_at: ts + 100,
        user_id: `user-${wallet.slice(2, 6)}`,
        session_id: session,
        origin: 'app.example.com',
      }),
      path: '/swap',
      country: wallet === WK ? 'FR' : 'DE',
      browser: 'Chrome',
      os: 'Linux',
      device: 'desktop',
      wallet_provider: 'MetaMask',
      wallet_address: wallet,
      chain_id: 1,
      ...extra,
    };
  };
  const rows: EventRow[] = [];
  for (const [wallet, days] of ACTIVE_DAYS) {
    for (const day of days) {
      const at = `${day}T${TIME_OF[`${wallet}/${day}`] ?? '09:00:00'}Z`;
      const landing =
        wallet === WP && day === '2024-04-01'
          ? { utm_source: 'discord', utm_medium: 'social', utm_campaign: 'launch' }
          : {};
      // The session's landing page view comes first (it carries no wallet yet).
      rows.push(
        row(new Date(Date.parse(at) - 60_000).toISOString(), wallet, 'page_view', {
          wallet_address: null,
          referrer: wallet === WP && day === '2024-04-01' ? 'https://discord.com/' : null,
          ...landing,
        }),
        row(at, wallet, 'wallet_connected', landing),
      );
    }
  }
  for (const tx of TRANSACTIONS) {
    const base = tx.day === '2024-05-30' && tx.wallet === WA2 ? '12' : '09';
    const common = {
      tx_id: tx.id,
      tx_from: tx.wallet,
      tx_to: tx.to,
      selector: tx.selector,
      tx_kind: 'contract',
      chain_id: tx.chainId,
    };
    const at = (minute: string) => `${tx.day}T${base}:${minute}:00Z`;
    rows.push(row(at(tx.id === 'tx-d' ? '20' : '10'), tx.wallet, 'tx', { ...common, tx_stage: 'requested' }));
    if (tx.outcome === 'failed') {
      rows.push(
        row(at('11'), tx.wallet, 'tx', {
          ...common,
          tx_stage: 'failed',
          error_code: -32603,
          error_message: 'insufficient funds',
        }),
      );
      continue;
    }
    const hash = `0x${tx.id.charCodeAt(3).toString(16).padStart(2, '0').repeat(32)}`;
    rows.push(
      row(at(tx.id === 'tx-d' ? '21' : '11'), tx.wallet, 'tx', {
        ...common,
        tx_stage: 'submitted',
        tx_hash: hash,
      }),
      row(at(tx.id === 'tx-d' ? '22' : '12'), tx.wallet, 'tx', {
        ...common,
        tx_stage: tx.outcome,
        tx_hash: hash,
        gas_used: tx.gasUsed ?? null,
        effective_gas_price: (tx.gwei ?? 0n) * GWEI,
      }),
    );
  }
  return rows;
}
