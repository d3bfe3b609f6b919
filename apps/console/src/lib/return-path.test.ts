import { describe, expect, it } from 'vitest';
import { loginPathFor, noteLogin, noteLogout, safeReturnPath } from './return-path';

describe('safeReturnPath', () => {
  it('keeps a console path of this app with its query and hash', () => {
    expect(safeReturnPath('/console/p1/wallets')).toBe('/console/p1/wallets');
    expect(safeReturnPath('/console/p1/wallets?sort=lastSeen&page=2#top')).toBe(
      '/console/p1/wallets?sort=lastSeen&page=2#top',
    );
  });

  it('refuses anything else: no open redirect', () => {
    for (const value of [
      null,
      '',
      'https://evil.example/console/p1',
      '//evil.example/console/p1',
      '/\\evil.example/console',
      '\\\\evil.example',
      '/console/../evil',
      '/console/%2e%2e/evil',
      '/consoleevil',
      '/verify?email=a',
      'javascript:alert(1)',
      '/console/p1\n/wallets',
      ' /console/p1',
    ]) {
      expect(safeReturnPath(value), String(value)).toBeNull();
    }
  });
});

describe('loginPathFor', () => {
  it('sends to the root with the page to come back to, except the default landing', () => {
    expect(loginPathFor('/console/p1/wallets', '?sort=lastSeen')).toBe(
      '/?next=%2Fconsole%2Fp1%2Fwallets%3Fsort%3DlastSeen',
    );
    expect(loginPathFor('/console/analytics', '')).toBe('/');
    expect(loginPathFor('/console', '')).toBe('/');
  });

  it("keeps a logout's mark until the next login or page load", () => {
    noteLogout();
    expect(loginPathFor('/console/p1/wallets', '')).toBe('/');
    noteLogin();
    expect(loginPathFor('/console/p1/wallets', '')).toBe('/?next=%2Fconsole%2Fp1%2Fwallets');
    // Left set: the test setup clears it before the next test, as a page load does (a module's state).
    noteLogout();
  });
});
