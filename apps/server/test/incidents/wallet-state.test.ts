import { describe, expect, it } from 'vitest';
import { describeWalletState, formatWei, networkName } from '../../src/modules/incidents/wallet-state.ts';

describe('formatWei', () => {
  it.each([
    ['0', '0'],
    ['1000000000000000000', '1'],
    ['1500000000000000000', '1.5'],
    ['123456789000000000000', '123.456789'],
    ['1234567000000000000000', '1,234.567'],
    ['1999999999999999999', '1.999999'],
    ['5000000000', '< 0.000001'],
  ])('%s wei → %s', (wei, expected) => {
    expect(formatWei(wei)).toBe(expected);
  });
});

describe('describeWalletState', () => {
  it('names the network and the unit of known chains', () => {
    const state = { gasBalance: '250000000000000000', nonce: '7', chainId: 137, provider: 'MetaMask' };
    expect(describeWalletState(state)).toEqual({
      gasBalanceWei: '250000000000000000',
      gasBalance: '0.25 POL',
      symbol: 'POL',
      nonce: '7',
      chainId: 137,
      network: 'Polygon',
      walletProvider: 'MetaMask',
    });
    expect(describeWalletState({ ...state, chainId: 56 }).gasBalance).toBe('0.25 BNB');
    expect(describeWalletState({ ...state, chainId: 1 }).network).toBe('Ethereum');
    expect(describeWalletState({ ...state, chainId: 31337 })).toMatchObject({
      gasBalance: '0.25 ETH',
      network: 'Anvil (local)',
    });
  });

  it('keeps unknown chains and missing fields honest', () => {
    expect(
      describeWalletState({
        gasBalance: '2000000000000000000',
        nonce: null,
        chainId: 999999,
        provider: null,
      }),
    ).toEqual({
      gasBalanceWei: '2000000000000000000',
      gasBalance: '2 (native unit)',
      symbol: null,
      nonce: null,
      chainId: 999999,
      network: 'Chain 999999',
      walletProvider: null,
    });
    expect(
      describeWalletState({ gasBalance: null, nonce: null, chainId: null, provider: null }),
    ).toMatchObject({
      gasBalance: null,
      network: null,
    });
    expect(networkName(null)).toBeNull();
  });
});
