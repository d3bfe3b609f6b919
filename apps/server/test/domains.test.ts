import { describe, expect, it } from 'vitest';
import { normaliseDomain } from '../src/modules/projects/domains.ts';

describe('normaliseDomain', () => {
  it.each([
    ['example.com', 'example.com'],
    ['  Example.COM  ', 'example.com'],
    ['https://www.example.com/path?q=1#top', 'www.example.com'],
    ['http://example.com:8080', 'example.com'],
    ['example.com:443/', 'example.com'],
    ['example.com.', 'example.com'],
    ['app.example.co.uk', 'app.example.co.uk'],
    ['localhost', 'localhost'],
    ['http://localhost:5173/', 'localhost'],
    ['127.0.0.1', '127.0.0.1'],
    ['http://192.168.1.20:3000', '192.168.1.20'],
    ['*.example.com', '*.example.com'],
    ['*.Example.com.', '*.example.com'],
    ['münchen.de', 'xn--mnchen-3ya.de'],
    ['https://Bücher.example/shop', 'xn--bcher-kva.example'],
    ['例え.テスト', 'xn--r8jz45g.xn--zckzah'],
    ['xn--mnchen-3ya.de', 'xn--mnchen-3ya.de'],
    ['my-dapp.xyz', 'my-dapp.xyz'],
  ])('%j → %j', (input, expected) => {
    expect(normaliseDomain(input)).toEqual({ ok: true, domain: expected });
  });

  it.each([
    '',
    'intranet',
    'exa mple.com',
    'exa_mple.com',
    '-example.com',
    'example-.com',
    'example..com',
    '.example.com',
    'foo.*.example.com',
    '*example.com',
    '*.*.example.com',
    '*',
    '*.127.0.0.1',
    'user@example.com',
    'http://user:pw@example.com',
    '[::1]',
    '1.2.3',
    '256.1.1.1',
    'example.123',
    `${'a'.repeat(64)}.com`,
    `${'a.'.repeat(127)}com`,
    'exam\u0000ple.com',
    '<script>.com',
    "example.com'; DROP TABLE projects;--",
  ])('rejects %j', (input) => {
    expect(normaliseDomain(input).ok).toBe(false);
  });
});
