import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/harness.ts';
import { seed } from '../support/seed.ts';
import { CHROME_UA, eventId, IPHONE_UA, pageView, postBatch, storedEvents } from './support.ts';

const harness = useTestApp('sqlite');

async function project(domain = 'app.example.com') {
  return seed(harness.services).user().verified().project('Shop').apiKey().domain(domain);
}

describe('POST /api/v1/events', () => {
  it('stores every event type with its fields and the server-side enrichment', async () => {
    const { project: p } = await project();
    const wallet = {
      address: '0xAbCdEf0123456789aBcDeF0123456789ABCDEF01',
      provider: 'MetaMask',
      rdns: 'io.metamask',
      chainId: 1,
    };
    const hash = `0x${'ab'.repeat(32)}`;
    const events = [
      pageView({
        utm: { source: 'twitter', campaign: 'launch' },
        referrer: 'https://t.co/x',
        title: 'Swap',
      } as never),
      pageView({ type: 'wallet_detected', wallet } as never),
      pageView({ type: 'wallet_connected', wallet } as never),
      pageView({
        type: 'tx',
        txId: 'tx-1',
        stage: 'confirmed',
        hash,
        kind: 'contract',
        selector: '0xA9059CBB',
        from: wallet.address,
        to: '0x1111111111111111111111111111111111111111',
        value: '1000000000000000000',
        chainId: 1,
        gasLimit: '21000',
        maxFeePerGas: '30000000000',
        gasUsed: '21000',
        effectiveGasPrice: '25000000000',
        blockNumber: '19000000',
        nonce: '7',
      } as never),
      pageView({
        type: 'signature',
        signatureId: 'sig-1',
        stage: 'rejected',
        method: 'personal_sign',
        error: { code: 4001, message: 'User rejected' },
      } as never),
      pageView({
        type: 'error',
        source: 'wallet',
        message: 'insufficient funds',
        code: -32000,
        method: 'eth_sendTransaction',
        walletState: { gasBalance: '12345', nonce: '3', chainId: 137, provider: 'Rabby' },
      } as never),
    ];
    const response = await postBatch(harness.app, {
      apiKey: p.apiKey as string,
      sdkVersion: '1.2.0',
      events,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ accepted: 6, duplicates: 0 });

    const rows = await storedEvents(harness.services, p.id);
    expect(rows).toHaveLength(6);
    const byType = Object.fromEntries(rows.map((row) => [row.type, row]));
    for (const row of rows) {
      expect(row).toMatchObject({
        origin: 'app.example.com',
        country: 'GB',
        browser: 'Chrome',
        os: 'Linux',
        device: 'desktop',
        sdk: 'polyflow/1.2.0',
        user_id: 'user-1',
        session_id: 'session-1',
      });
    }
    expect(byType.page_view).toMatchObject({
      utm_source: 'twitter',
      utm_campaign: 'launch',
      utm_medium: null,
      referrer: 'https://t.co/x',
      title: 'Swap',
      path: '/swap',
    });
    expect(byType.wallet_connected).toMatchObject({
      wallet_address: wallet.address.toLowerCase(),
      wallet_provider: 'MetaMask',
      wallet_rdns: 'io.metamask',
      chain_id: 1,
    });
    expect(byType.tx).toMatchObject({
      tx_id: 'tx-1',
      tx_stage: 'confirmed',
      tx_hash: hash,
      tx_kind: 'contract',
      selector: '0xa9059cbb',
      tx_value: 10n ** 18n,
      gas_limit: 21000n,
      max_fee_per_gas: 30000000000n,
      gas_used: 21000n,
      effective_gas_price: 25000000000n,
      block_number: 19000000n,
      nonce: 7n,
    });
    expect(byType.signature).toMatchObject({
      signature_id: 'sig-1',
      sig_stage: 'rejected',
      sig_method: 'personal_sign',
      error_code: 4001,
    });
    expect(byType.error).toMatchObject({
      error_source: 'wallet',
      error_message: 'insufficient funds',
      error_code: -32000,
      rpc_method: 'eth_sendTransaction',
      gas_balance: 12345n,
      wallet_nonce: 3n,
      chain_id: 137,
      wallet_provider: 'Rabby',
    });
    // Client clock and server clock are both kept.
    expect(Number(byType.page_view?.ts)).toBe(events[0]?.ts);
    expect(Math.abs(Number(byType.page_view?.received_at) - Date.now())).toBeLessThan(10_000);
  });

  it('answers duplicates by (project, id): a retry stores nothing twice', async () => {
    const { project: p } = await project();
    const batch = { apiKey: p.apiKey as string, events: [pageView(), pageView()] };
    expect((await postBatch(harness.app, batch)).json()).toEqual({ accepted: 2, duplicates: 0 });
    const retry = { ...batch, events: [...batch.events, pageView()] };
    expect((await postBatch(harness.app, retry)).json()).toEqual({ accepted: 1, duplicates: 2 });
    const sameIdTwice = pageView();
    expect(
      (await postBatch(harness.app, { ...batch, events: [sameIdTwice, { ...sameIdTwice }] })).json(),
    ).toEqual({
      accepted: 1,
      duplicates: 1,
    });
    expect(await storedEvents(harness.services, p.id)).toHaveLength(4);
  });

  it('commits concurrent requests in groups and answers each with its own counts', async () => {
    const { project: p } = await project();
    const shared = pageView();
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        postBatch(harness.app, {
          apiKey: p.apiKey as string,
          events: [pageView({ userId: `u${i}` }), shared],
        }),
      ),
    );
    const bodies = responses.map((response) => response.json() as { accepted: number; duplicates: number });
    expect(bodies.reduce((sum, body) => sum + body.accepted, 0)).toBe(31);
    expect(bodies.reduce((sum, body) => sum + body.duplicates, 0)).toBe(29);
    expect(await storedEvents(harness.services, p.id)).toHaveLength(31);
  });

  it('parses mobile user agents, drops known bots, keeps headless Chromium (our e2e browser)', async () => {
    const { project: p } = await project();
    const key = p.apiKey as string;
    expect(
      (
        await postBatch(
          harness.app,
          { apiKey: key, events: [pageView({ path: '/mobile' })] },
          { userAgent: IPHONE_UA },
        )
      ).json(),
    ).toEqual({ accepted: 1, duplicates: 0 });
    const bot = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
    expect(
      (
        await postBatch(
          harness.app,
          { apiKey: key, events: [pageView({ path: '/bot' })] },
          { userAgent: bot },
        )
      ).json(),
    ).toEqual({ accepted: 0, duplicates: 0 });
    const headless = CHROME_UA.replace('Chrome/', 'HeadlessChrome/');
    expect(
      (
        await postBatch(
          harness.app,
          { apiKey: key, events: [pageView({ path: '/headless' })] },
          { userAgent: headless },
        )
      ).json(),
    ).toEqual({ accepted: 1, duplicates: 0 });
    const rows = await storedEvents(harness.services, p.id);
    expect(rows.map((row) => row.path).sort()).toEqual(['/headless', '/mobile']);
    expect(rows.find((row) => row.path === '/mobile')).toMatchObject({
      browser: 'Mobile Safari',
      os: 'iOS',
      device: 'mobile',
    });
  });

  it('takes the client IP from X-Forwarded-For only when proxies are trusted (here: not)', async () => {
    const { project: p } = await project();
    const response = await harness.app.inject({
      method: 'POST',
      url: '/api/v1/events',
      headers: {
        'content-type': 'text/plain',
        origin: 'https://app.example.com',
        'user-agent': CHROME_UA,
        'x-forwarded-for': '81.2.69.160',
      },
      payload: JSON.stringify({ apiKey: p.apiKey, events: [pageView({ id: eventId() })] }),
      remoteAddress: '127.0.0.1',
    });
    expect(response.statusCode).toBe(200);
    expect((await storedEvents(harness.services, p.id))[0]?.country).toBeNull();
  });
});
