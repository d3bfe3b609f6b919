import { describe, expect, it } from 'vitest';
import {
  fingerprintOf,
  INCIDENT_ID_PATTERN,
  incidentIdOf,
  normaliseMessage,
  topFrame,
} from '../../src/modules/incidents/fingerprint.ts';

describe('normaliseMessage', () => {
  it.each([
    ['Uncaught TypeError: x is undefined', 'TypeError: x is undefined'],
    ['Uncaught (in promise) Error: boom', 'Error: boom'],
    ['Request to https://rpc.example.com/v1/abc?key=1 failed', 'Request to <url> failed'],
    ['insufficient funds for 0x1111111111111111111111111111111111111111', 'insufficient funds for <address>'],
    ['tx 0xdeadbeef12 not found', 'tx <hex> not found'],
    ['Token "USDC" not supported', 'Token <str> not supported'],
    ["Token 'DAI' not supported", 'Token <str> not supported'],
    ["Can't read property of undefined", "Can't read property of undefined"],
    ['Timeout after 3000ms (attempt 2)', 'Timeout after <n>ms (attempt <n>)'],
    ['Price 1.25 too low', 'Price <n> too low'],
    ['session 123e4567-e89b-12d3-a456-426614174000 expired', 'session <id> expired'],
    ['hash a3f2b9c8d7e6f5a4b3c2 unknown', 'hash <hex> unknown'],
    ['eth_signTypedData_v4 is not supported by ERC20', 'eth_signTypedData_v4 is not supported by ERC20'],
    ['  many   spaces\nand lines ', 'many spaces and lines'],
  ])('%s → %s', (input, expected) => {
    expect(normaliseMessage(input)).toBe(expected);
  });

  it('gives the same text for occurrences that differ only in their data', () => {
    expect(normaliseMessage('Swap of 12.5 ETH to 0xabcdefabcdefabcdefabcdefabcdefabcdefabcd failed')).toBe(
      normaliseMessage('Swap of 3 ETH to 0x1234567890123456789012345678901234567890 failed'),
    );
  });

  it('caps the length', () => {
    expect(normaliseMessage('x'.repeat(5000))).toHaveLength(300);
  });
});

describe('topFrame', () => {
  it('reads a V8 frame without line and column, path only, bundle hash removed', () => {
    const stack = [
      'TypeError: Cannot read properties of undefined (reading "amount")',
      '    at submitSwap (https://app.example.com/assets/index-D8dJ0v3k.js:12:3456)',
      '    at HTMLButtonElement.onClick (https://app.example.com/assets/index-D8dJ0v3k.js:40:12)',
    ].join('\n');
    expect(topFrame(stack)).toBe('/assets/index.js:submitSwap');
  });

  it('reads anonymous, async and constructor frames', () => {
    expect(topFrame('Error: x\n    at https://a.example/app.js:1:2')).toBe('/app.js:<anonymous>');
    expect(topFrame('Error: x\n    at async Vault.deposit (https://a.example/vault.js?v=3:9:1)')).toBe(
      '/vault.js:Vault.deposit',
    );
    expect(topFrame('Error: x\n    at new Pool (webpack-internal:///./src/pool.ts:5:7)')).toBe(
      '/src/pool.ts:Pool',
    );
  });

  it('reads Firefox and Safari frames', () => {
    expect(
      topFrame('submitSwap@https://app.example.com/assets/main.3f2a9b1c.js:12:34\n@https://x/y.js:1:1'),
    ).toBe('/assets/main.js:submitSwap');
    expect(topFrame('@https://app.example.com/app.js:1:1')).toBe('/app.js:<anonymous>');
  });

  it('keeps file names that are not hashes', () => {
    expect(topFrame('    at run (https://x.example/polyfill.js:1:1)')).toBe('/polyfill.js:run');
  });

  it('is null without a parsable frame', () => {
    expect(topFrame(undefined)).toBeNull();
    expect(topFrame('')).toBeNull();
    expect(topFrame('Error: only a message')).toBeNull();
  });
});

describe('fingerprintOf', () => {
  const frontend = (message: string, line: number) => ({
    source: 'window',
    message,
    stack: `Error: ${message}\n    at pay (https://app.example/assets/index-Ab12Cd34.js:${line}:9)`,
  });

  it('groups frontend errors by normalised message and top frame, ignoring line, column and data', () => {
    expect(fingerprintOf(frontend('Order 17 failed', 10))).toBe(
      fingerprintOf(frontend('Order 9000 failed', 99)),
    );
    expect(fingerprintOf(frontend('Order 17 failed', 10))).toBe(
      'window|Order <n> failed|/assets/index.js:pay',
    );
  });

  it('separates different messages, frames and sources', () => {
    const base = frontend('Order 17 failed', 10);
    expect(fingerprintOf(base)).not.toBe(fingerprintOf(frontend('Order cancelled', 10)));
    expect(fingerprintOf(base)).not.toBe(
      fingerprintOf({ ...base, stack: base.stack.replace('pay', 'refund') }),
    );
    expect(fingerprintOf(base)).not.toBe(fingerprintOf({ ...base, source: 'promise' }));
  });

  it('groups wallet errors by RPC code and method, whatever the message says', () => {
    const a = {
      source: 'wallet',
      message: 'Internal JSON-RPC error.',
      code: -32603,
      method: 'eth_sendTransaction',
    };
    const b = { ...a, message: 'execution reverted: 0x08c379a0' };
    expect(fingerprintOf(a)).toBe('wallet|code=-32603|method=eth_sendTransaction');
    expect(fingerprintOf(a)).toBe(fingerprintOf(b));
    expect(fingerprintOf(a)).not.toBe(fingerprintOf({ ...a, method: 'wallet_switchEthereumChain' }));
    expect(fingerprintOf(a)).not.toBe(fingerprintOf({ ...a, code: 4100 }));
  });

  it('falls back to the message for wallet errors without a code', () => {
    expect(
      fingerprintOf({ source: 'wallet', message: 'nonce 5 too low', method: 'eth_sendTransaction' }),
    ).toBe('wallet|nonce <n> too low||method=eth_sendTransaction');
  });
});

describe('incidentIdOf', () => {
  it('is stable, well-formed and differs between projects and fingerprints', () => {
    const id = incidentIdOf('project-a', 'window|boom|');
    expect(id).toMatch(INCIDENT_ID_PATTERN);
    expect(incidentIdOf('project-a', 'window|boom|')).toBe(id);
    expect(incidentIdOf('project-b', 'window|boom|')).not.toBe(id);
    expect(incidentIdOf('project-a', 'window|bang|')).not.toBe(id);
  });
});
