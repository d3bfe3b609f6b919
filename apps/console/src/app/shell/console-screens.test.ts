import { describe, expect, it } from 'vitest';
import { consoleScreenTitle } from './console-screens';

describe('consoleScreenTitle', () => {
  it('names a screen by its sidebar name, the index as Analytics', () => {
    expect(consoleScreenTitle('')).toBe('Analytics');
    expect(consoleScreenTitle('errorlogs')).toBe('Incident Tracking');
  });

  it('names a detail after the one thing it shows, and a wallet URL without an address as the screen does', () => {
    const address = `0x${'ab'.repeat(20)}`;
    expect(consoleScreenTitle(`wallets/${address}`)).toBe(`Wallet ${address}`);
    expect(consoleScreenTitle('errorlogs/inc_42')).toBe('Incident inc_42');
    // The screen says "Not a wallet address"; the title said "Wallet 0xnotawallet".
    expect(consoleScreenTitle('wallets/0xnotawallet')).toBe('Not a wallet address');
    expect(consoleScreenTitle('wallets/%E0%A4%A')).toBe('Not a wallet address');
  });
});
