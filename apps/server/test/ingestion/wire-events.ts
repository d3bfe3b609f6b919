import type { IngestEventInput } from '@polyflow/contracts/events';

const ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const HASH = `0x${'Ab'.repeat(32)}`;
const base = (id: string) => ({
  id,
  ts: 1_767_225_600_000,
  userId: 'user-1',
  sessionId: 'session-1',
  path: '/swap?x=1',
});
const wallet = { address: ADDRESS, provider: 'MetaMask', rdns: 'io.metamask', chainId: 8453 };
const utm = { source: 'twitter', medium: 'social', campaign: 'launch', content: 'banner', term: 'dex' };

/**
 * Every event type of the wire format, once with every optional field (mixed-case hex, big numbers)
 * and once with only the required ones: the corpus the validator and the stored-row mapping are
 * checked on.
 */
export function everyEventShape(): IngestEventInput[] {
  return [
    { ...base('page_full1'), type: 'page_view', title: 'Swap', referrer: 'https://google.com/', utm, wallet },
    { ...base('page_min01'), type: 'page_view' },
    { ...base('detected01'), type: 'wallet_detected', wallet: { provider: 'Rabby', rdns: 'io.rabby' } },
    { ...base('connect001'), type: 'wallet_connected', wallet, utm },
    { ...base('disconn001'), type: 'wallet_disconnected', wallet: { address: ADDRESS } },
    { ...base('chain00001'), type: 'chain_changed', wallet: { address: ADDRESS, chainId: 1 } },
    {
      ...base('tx_full001'),
      type: 'tx',
      wallet,
      utm,
      txId: 'tx-1',
      stage: 'replaced',
      kind: 'contract',
      hash: HASH,
      from: ADDRESS,
      to: '0x1111111111111111111111111111111111111111',
      value: '1000000000000000000000',
      selector: '0xA9059CBB',
      chainId: 10,
      gasLimit: '65000',
      gasPrice: '7',
      maxFeePerGas: '30000000000',
      maxPriorityFeePerGas: '1500000000',
      nonce: '42',
      gasUsed: '51234',
      effectiveGasPrice: '25000000000',
      blockNumber: '19000000',
      replacedBy: `0x${'CD'.repeat(32)}`,
      error: { code: -32000, message: 'replacement transaction underpriced' },
    },
    { ...base('tx_min0001'), type: 'tx', txId: 'tx-2', stage: 'requested', kind: 'coin' },
    {
      ...base('sig_full01'),
      type: 'signature',
      wallet,
      signatureId: 'sig-1',
      stage: 'rejected',
      method: 'eth_signTypedData_v4',
      error: { code: 4001, message: 'User rejected the request.' },
    },
    {
      ...base('sig_min001'),
      type: 'signature',
      signatureId: 'sig-2',
      stage: 'signed',
      method: 'personal_sign',
    },
    {
      ...base('error_full'),
      type: 'error',
      wallet: { address: ADDRESS },
      source: 'wallet',
      message: 'insufficient funds for gas * price + value',
      stack: 'Error: insufficient funds\n    at send (app.js:10:5)',
      code: -32003,
      method: 'eth_sendTransaction',
      walletState: {
        gasBalance: '123456789012345678',
        nonce: '7',
        chainId: 137,
        provider: 'Coinbase Wallet',
      },
    },
    { ...base('error_min1'), type: 'error', source: 'window', message: 'TypeError: x is undefined' },
    {
      ...base('custom_f01'),
      type: 'custom',
      name: 'swap_quote_shown',
      props: { pair: 'ETH/USDC', amount: 1.5, 'quote "fast"': true, empty: '' },
    },
    { ...base('custom_m01'), type: 'custom', name: 'bridge_started' },
    { ...base('ident_f001'), type: 'identify', appUserId: 'acct-42', traits: { plan: 'pro', seats: 3 } },
    { ...base('ident_m001'), type: 'identify', appUserId: 'acct-43' },
  ] as IngestEventInput[];
}
