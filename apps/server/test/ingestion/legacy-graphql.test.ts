import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/harness.ts';
import { seed } from '../support/seed.ts';
import { CHROME_UA, GB_IP, storedEvents } from './support.ts';

/**
 * The mutation documents exactly as @polyflow/sdk@1.0.25 sends them, read from its shipped source (installed
 * under the alias `polyflow-sdk-legacy`: `@polyflow/sdk` is now this repository's SDK 2.x workspace).
 */
function publishedDocuments(): Record<string, string> {
  const packageJson = createRequire(import.meta.url).resolve('polyflow-sdk-legacy/package.json');
  const source = readFileSync(
    path.join(path.dirname(packageJson), 'src/core/middleware/provider.ts'),
    'utf8',
  );
  const documents: Record<string, string> = {};
  for (const match of source.matchAll(/const (\w+) = `\s*(mutation[\s\S]*?)`/g)) {
    documents[match[1] as string] = match[2] as string;
  }
  return documents;
}

const documents = publishedDocuments();
const harness = useTestApp('sqlite');
let apiKey = '';
let projectId = '';

beforeAll(async () => {
  const { project } = await seed(harness.services)
    .user()
    .verified()
    .project('Legacy')
    .apiKey()
    .domain('legacy.example.com');
  apiKey = project.apiKey as string;
  projectId = project.id;
});

type GraphqlAnswer = {
  data?: Record<string, { id: string; tracker: { userId: string } }> | null;
  errors?: { message: string; extensions?: { code?: string } }[];
};

async function send(document: string | undefined, variables: unknown, headers: Record<string, string> = {}) {
  if (!document) throw new Error('document not found in the published SDK');
  const response = await harness.app.inject({
    method: 'POST',
    url: '/api/graphql',
    headers: {
      'content-type': 'application/json',
      'x-api-key': apiKey,
      origin: 'https://legacy.example.com',
      'user-agent': CHROME_UA,
      ...headers,
    },
    payload: JSON.stringify({ query: document, variables }),
    remoteAddress: GB_IP,
  });
  return { response, body: response.json() as GraphqlAnswer };
}

// What the SDK builds (provider.ts): hostname as origin, nulls for what it does not know, decimal strings.
const tracker = (eventTracker: string) => ({
  eventTracker,
  userId: 'legacy-user',
  sessionId: 'legacy-session',
  origin: 'legacy.example.com',
  referrer: null,
  path: '/mint',
  query: 'utm_source=x',
  sdkVersion: '1.0.25',
  utmSource: 'newsletter',
  utmCampaign: 'spring',
});
const device = {
  os: 'Linux',
  browser: 'Chrome',
  country: 'Croatia',
  screen: { w: 1280, h: 720 },
  walletType: 'injected',
  walletProvider: 'metamask',
};
const wallet = {
  walletAddress: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
  gasBalance: '10000000000000000000000',
  nonce: '5',
  networkId: 31337,
};
const network = { chainId: 31337, gasPrice: '1875000000', blockHeight: '12' };
const hash = `0x${'cd'.repeat(32)}`;

describe('GraphQL mutations of the published @polyflow/sdk@1.0.25', () => {
  it('found all six documents in the package', () => {
    for (const name of [
      'CreateUserLandedEvent',
      'CreateWalletConnectedEvent',
      'CreateTxRequestEvent',
      'UpdateTxRequestEventTxStatus',
      'CreateErrorEvent',
      'CreateSdkErrorEvent',
    ]) {
      expect(documents[name], name).toContain('mutation');
    }
  });

  it('stores landed, wallet connected, tx request + status update, error and SDK error events', async () => {
    const landed = await send(documents.CreateUserLandedEvent, {
      event: { tracker: tracker('USER_LANDED'), device },
    });
    expect(landed.response.statusCode).toBe(200);
    expect(landed.body.errors).toBeUndefined();
    expect(landed.body.data?.createUserLandedEvent?.tracker.userId).toBe('legacy-user');
    expect(landed.response.headers['access-control-allow-origin']).toBe('https://legacy.example.com');

    const connected = await send(documents.CreateWalletConnectedEvent, {
      event: { tracker: tracker('WALLET_CONNECT'), device, wallet, network },
    });
    expect(connected.body.errors).toBeUndefined();

    const tx = {
      from: wallet.walletAddress,
      to: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
      value: '1000000000000000',
      input: '0xa9059cbb0000',
      nonce: '5',
      gas: '21000',
      gasPrice: '1875000000',
      maxFeePerGas: null,
      maxPriorityFeePerGas: null,
      v: '0x1',
      r: '0x2',
      s: '0x3',
      hash,
      status: 'PENDING',
    };
    const requested = await send(documents.CreateTxRequestEvent, {
      event: { tracker: tracker('TX_REQUEST'), device, wallet, network, tx },
    });
    expect(requested.body.errors).toBeUndefined();
    const txEventId = requested.body.data?.createTxRequestEvent?.id as string;
    expect(txEventId).toMatch(/^[0-9a-f-]{36}$/);
    const updated = await send(documents.UpdateTxRequestEventTxStatus, {
      id: txEventId,
      newStatus: 'FAILURE',
    });
    expect(updated.body.errors).toBeUndefined();
    expect(updated.body.data?.updateTxRequestEventTxStatus?.tracker.userId).toBe('legacy-user');

    const cancelled = await send(documents.CreateTxRequestEvent, {
      event: {
        tracker: tracker('TX_REQUEST'),
        device,
        wallet,
        network,
        tx: {
          from: wallet.walletAddress,
          to: tx.to,
          value: '0',
          input: undefined,
          nonce: null,
          gas: null,
          gasPrice: null,
          maxFeePerGas: null,
          maxPriorityFeePerGas: null,
          v: null,
          r: null,
          s: null,
          hash: null,
          status: 'CANCELLED',
        },
      },
    });
    expect(cancelled.body.errors).toBeUndefined();

    const error = await send(documents.CreateErrorEvent, {
      event: {
        tracker: tracker('GENERIC_ERROR'),
        device,
        errors: ['boom', 'Error: boom\n    at main.js:1:1'],
      },
    });
    expect(error.body.errors).toBeUndefined();
    // The SDK sends its own failure reports without the `event` wrapper.
    const sdkError = await send(documents.CreateSdkErrorEvent, {
      tracker: {
        eventTracker: 'SDK_ERROR',
        userId: 'legacy-user',
        sessionId: 'legacy-session',
        sdkVersion: '1.0.25',
      },
      metadata: '{"exception":"{}"}',
    });
    expect(sdkError.body.errors).toBeUndefined();

    const rows = await storedEvents(harness.services, projectId);
    expect(rows.map((row) => `${row.type}:${row.tx_stage ?? ''}`).sort()).toEqual(
      [
        'error:',
        'page_view:',
        'sdk_error:',
        'tx:rejected',
        'tx:reverted',
        'tx:submitted',
        'wallet_connected:',
      ].sort(),
    );
    for (const row of rows) {
      expect(row).toMatchObject({
        origin: 'legacy.example.com',
        user_id: 'legacy-user',
        session_id: 'legacy-session',
        sdk: 'polyflow-legacy/1.0.25',
        country: 'GB',
        browser: 'Chrome',
      });
    }
    const byStage = Object.fromEntries(
      rows.filter((row) => row.type === 'tx').map((row) => [row.tx_stage, row]),
    );
    expect(byStage.submitted).toMatchObject({
      tx_id: txEventId,
      tx_hash: hash,
      tx_kind: 'contract',
      selector: '0xa9059cbb',
      tx_value: 10n ** 15n,
      gas_limit: 21000n,
      gas_price: 1875000000n,
      nonce: 5n,
      chain_id: 31337,
      wallet_address: wallet.walletAddress,
      wallet_provider: 'metamask',
      gas_balance: 10n ** 22n,
      utm_source: 'newsletter',
      utm_campaign: 'spring',
      path: '/mint',
    });
    expect(byStage.reverted).toMatchObject({
      tx_id: txEventId,
      tx_hash: hash,
      tx_from: wallet.walletAddress,
    });
    expect(byStage.rejected).toMatchObject({ tx_kind: 'coin', tx_hash: null });
    expect(rows.find((row) => row.type === 'error')).toMatchObject({
      error_message: 'boom',
      error_stack: 'Error: boom\n    at main.js:1:1',
      error_source: 'window',
    });
  });

  it('refuses a wrong key or Origin with an error code and stores nothing', async () => {
    const before = (await storedEvents(harness.services, projectId)).length;
    const event = { event: { tracker: tracker('USER_LANDED'), device } };
    const wrongKey = await send(documents.CreateUserLandedEvent, event, {
      'x-api-key': 'pf_00000000000000000000000000000000',
    });
    expect(wrongKey.body.data).toBeNull();
    expect(wrongKey.body.errors?.[0]?.extensions?.code).toBe('NON_EXISTENT_API_KEY');
    const wrongOrigin = await send(documents.CreateUserLandedEvent, event, {
      origin: 'https://phish.example.net',
    });
    expect(wrongOrigin.body.errors?.[0]?.extensions?.code).toBe('ORIGIN_NOT_WHITELISTED');
    expect(wrongOrigin.response.headers['access-control-allow-origin']).toBeUndefined();
    const unknownTx = await send(documents.UpdateTxRequestEventTxStatus, {
      id: '123e4567-e89b-12d3-a456-426614174000',
      newStatus: 'SUCCESS',
    });
    expect(unknownTx.body.errors?.[0]?.extensions?.code).toBe('RESOURCE_NOT_FOUND');
    const hugeString = await send(documents.CreateUserLandedEvent, {
      event: { tracker: { ...tracker('USER_LANDED'), path: 'x'.repeat(100_000) }, device },
    });
    expect(hugeString.body.errors?.[0]?.extensions?.code).toBe('INVALID_REQUEST_BODY');
    const badType = await send(documents.CreateUserLandedEvent, { event: { tracker: { userId: 1 } } });
    expect(badType.response.statusCode, JSON.stringify(badType.body)).toBe(400);
    expect(badType.body.errors?.[0]?.message).not.toMatch(/\.ts:\d+/);
    expect(await storedEvents(harness.services, projectId)).toHaveLength(before);
  });

  it('refuses with INGESTION_BACKLOG, and stores nothing, while the backlog refuses the project', async () => {
    const before = (await storedEvents(harness.services, projectId)).length;
    const events = harness.services.events;
    const backlog = events.backlog;
    events.backlog = () => 'full';
    try {
      const refused = await send(documents.CreateUserLandedEvent, {
        event: { tracker: tracker('USER_LANDED'), device },
      });
      expect(refused.body.data).toBeNull();
      expect(refused.body.errors?.[0]?.extensions?.code).toBe('INGESTION_BACKLOG');
      expect(refused.response.headers['retry-after']).toBe('5');
    } finally {
      events.backlog = backlog;
    }
    expect(await storedEvents(harness.services, projectId)).toHaveLength(before);
  });

  it('refuses a mutation whose body carries a Content-Encoding (415), compressed or not, and stores nothing', async () => {
    const before = (await storedEvents(harness.services, projectId)).length;
    const body = JSON.stringify({
      query: documents.CreateUserLandedEvent,
      variables: { event: { tracker: tracker('USER_LANDED'), device } },
    });
    for (const payload of [gzipSync(body), body]) {
      const response = await harness.app.inject({
        method: 'POST',
        url: '/api/graphql',
        headers: {
          'content-type': 'application/json',
          'content-encoding': 'gzip',
          'x-api-key': apiKey,
          origin: 'https://legacy.example.com',
          'user-agent': CHROME_UA,
        },
        payload,
        remoteAddress: GB_IP,
      });
      expect(response.statusCode).toBe(415);
      expect(response.headers['accept-encoding']).toBe('identity');
      const answer = response.json() as { errorCode?: string; errors?: GraphqlAnswer['errors'] };
      expect(answer.errorCode).toBe('UNSUPPORTED_CONTENT_ENCODING');
      expect(answer.errors?.[0]?.extensions?.code).toBe('UNSUPPORTED_CONTENT_ENCODING');
    }
    expect(await storedEvents(harness.services, projectId)).toHaveLength(before);
  });

  it('answers the CORS preflight the SDK triggers with X-API-KEY (never Authorization)', async () => {
    const response = await harness.app.inject({
      method: 'OPTIONS',
      url: '/api/graphql',
      headers: {
        origin: 'https://legacy.example.com',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,x-api-key',
      },
    });
    expect(response.statusCode).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe('https://legacy.example.com');
    expect(response.headers['access-control-allow-headers']).toBe('content-type, x-api-key');
  });
});
