import { describe, expect, it } from 'vitest';
import { feeOf, receiptsOf, toTransactionDetail } from '../../src/modules/analytics/transaction-record.ts';
import type { TransactionStageEvent } from '../../src/modules/event-store/analytics-questions.ts';

/**
 * A transaction's fee in its own record (docs/analytics.md, "Transaction history and a single transaction"):
 * the sum of its receipts' fees, each receipt hash once at its latest report.
 */
const HASH_A = `0x${'a1'.repeat(32)}`;
const HASH_B = `0x${'b2'.repeat(32)}`;

let time = Date.UTC(2024, 5, 1, 12);
function stage(
  stage: string,
  fields: Partial<Pick<TransactionStageEvent, 'hash' | 'gasUsed' | 'effectiveGasPrice'>> = {},
): TransactionStageEvent {
  time += 1_000;
  return {
    txId: 'tx-batch',
    stage,
    timeMs: time,
    hash: null,
    from: `0x${'11'.repeat(20)}`,
    wallet: null,
    to: `0x${'22'.repeat(20)}`,
    value: '0',
    selector: '0xa9059cbb',
    kind: 'contract',
    chainId: 10,
    gasLimit: null,
    gasPrice: null,
    maxFeePerGas: null,
    maxPriorityFeePerGas: null,
    nonce: null,
    gasUsed: null,
    effectiveGasPrice: null,
    blockNumber: null,
    errorCode: null,
    errorMessage: null,
    walletProvider: 'MetaMask',
    country: 'DE',
    browser: 'Chrome',
    os: 'Linux',
    path: '/',
    sessionId: 's1',
    ...fields,
  };
}

describe('a transaction’s fee', () => {
  it('is gas used × effective gas price of its one receipt', () => {
    const events = [
      stage('requested'),
      stage('submitted', { hash: HASH_A }),
      stage('confirmed', { hash: HASH_A, gasUsed: '50000', effectiveGasPrice: '20000000000' }),
    ];
    expect(toTransactionDetail(events)).toMatchObject({
      gasUsed: '50000',
      effectiveGasPrice: '20000000000',
      fee: '1000000000000000',
    });
  });

  it('sums the receipts of a batch mined as two transactions at different prices; the outcome stage is no receipt', () => {
    const events = [
      stage('requested'),
      stage('requested'),
      stage('submitted'),
      stage('confirmed', { hash: HASH_A, gasUsed: '46000', effectiveGasPrice: '1000000007' }),
      stage('confirmed', { hash: HASH_B, gasUsed: '21000', effectiveGasPrice: '875000011' }),
      // The batch's outcome: the total gas, no price.
      stage('confirmed', { gasUsed: '67000' }),
    ];
    const detail = toTransactionDetail(events);
    // 46,000 × 1,000,000,007 + 21,000 × 875,000,011, not 67,000 × the last price (58,625,000,737,000).
    expect(detail?.fee).toBe((46_000n * 1_000_000_007n + 21_000n * 875_000_011n).toString());
    expect(detail?.fee).toBe('64375000553000');
    expect(detail).toMatchObject({ gasUsed: '67000', effectiveGasPrice: '875000011', hash: HASH_B });
    // Each of its two receipts, with its own price, fee and explorer link (Optimism).
    expect(detail?.receipts).toEqual([
      {
        hash: HASH_A,
        status: 'confirmed',
        time: new Date(events[3]?.timeMs ?? 0).toISOString(),
        blockNumber: null,
        gasUsed: '46000',
        effectiveGasPrice: '1000000007',
        fee: '46000000322000',
        explorerUrl: `https://optimistic.etherscan.io/tx/${HASH_A}`,
      },
      {
        hash: HASH_B,
        status: 'confirmed',
        time: new Date(events[4]?.timeMs ?? 0).toISOString(),
        blockNumber: null,
        gasUsed: '21000',
        effectiveGasPrice: '875000011',
        fee: '18375000231000',
        explorerUrl: `https://optimistic.etherscan.io/tx/${HASH_B}`,
      },
    ]);
  });

  it('counts a receipt reported twice once, at its latest report, and a reverted receipt beside a confirmed one', () => {
    const events = [
      stage('requested'),
      stage('submitted'),
      stage('reverted', { hash: HASH_A, gasUsed: '30000', effectiveGasPrice: '100' }),
      stage('confirmed', { hash: HASH_B, gasUsed: '21000', effectiveGasPrice: '90' }),
      // The same receipt again (a reorg moved it): the later report counts, in place of the first.
      stage('confirmed', {
        hash: HASH_B.toUpperCase().replace('0X', '0x'),
        gasUsed: '21000',
        effectiveGasPrice: '95',
      }),
      stage('reverted', { gasUsed: '51000' }),
    ];
    expect(feeOf(events)).toBe(String(30_000 * 100 + 21_000 * 95));
    // The receipts in the order of their latest reports: the reverted one, then B at its second report.
    expect(
      receiptsOf(events).map(({ status, effectiveGasPrice, fee }) => [status, effectiveGasPrice, fee]),
    ).toEqual([
      ['reverted', '100', '3000000'],
      ['confirmed', '95', '1995000'],
    ]);
  });

  it('is null without a receipt: refused, pending, or a receipt without a price', () => {
    expect(feeOf([stage('requested'), stage('failed')])).toBeNull();
    expect(feeOf([stage('requested'), stage('submitted', { hash: HASH_A })])).toBeNull();
    expect(feeOf([stage('requested'), stage('confirmed', { hash: HASH_A, gasUsed: '21000' })])).toBeNull();
    expect(toTransactionDetail([stage('requested'), stage('failed')])?.receipts).toEqual([]);
  });

  it('stays exact beyond 2^64 wei', () => {
    const events = [
      stage('confirmed', {
        hash: HASH_A,
        gasUsed: '281474976710655',
        effectiveGasPrice: '4722366482869645213695',
      }),
    ];
    expect(feeOf(events)).toBe((281_474_976_710_655n * 4_722_366_482_869_645_213_695n).toString());
  });
});
