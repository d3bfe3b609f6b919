import net from 'node:net';
import type { AlertNotice } from '@polyflow/contracts/alert-channels';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { refusedAddressReason } from '../../src/modules/alert-channels/address-guard.ts';
import { discordMessage, emailMessage, slackMessage } from '../../src/modules/alert-channels/formats.ts';
import { MAX_RESPONSE_BYTES, postBounded } from '../../src/modules/alert-channels/sender.ts';
import { type Receiver, startReceiver } from './receiver.ts';

/** One delivery's bounds against hostile receivers on loopback (docs/alerts.md, "Delivery"). */
describe('a bounded delivery', () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver.close());
  afterEach(() => {
    receiver.next = [];
    receiver.otherwise = { status: 200 };
  });

  const post = (
    path: string,
    options: { timeoutMs?: number; allowPrivateNetworks?: boolean; url?: string } = {},
  ) =>
    postBounded({
      url: options.url ?? `${receiver.url}${path}`,
      headers: { 'content-type': 'application/json' },
      body: '{"a":1}',
      allowPrivateNetworks: options.allowPrivateNetworks ?? true,
      timeoutMs: options.timeoutMs,
    });

  it('delivers on a 2xx answer', async () => {
    receiver.next = [{ status: 204 }];
    expect(await post('/ok')).toEqual({ statusCode: 204, latencyMs: expect.any(Number), error: null });
    expect(receiver.to('/ok')[0]?.body).toBe('{"a":1}');
  });

  it('does not follow a redirect: a 302 is an answer that did not deliver', async () => {
    receiver.next = [{ status: 302, headers: { location: `${receiver.url}/elsewhere` } }];
    expect(await post('/moved')).toMatchObject({ statusCode: 302, error: 'the receiver answered 302' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(receiver.to('/elsewhere')).toHaveLength(0);
  });

  it('gives up on a receiver that never answers after its bound', async () => {
    receiver.next = [{ hang: true }];
    const started = Date.now();
    const result = await post('/hang', { timeoutMs: 300 });
    expect(result).toMatchObject({ statusCode: null, error: 'no answer within 0.3 s' });
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('counts a slow answer past the bound as none', async () => {
    receiver.next = [{ slowMs: 800, status: 200 }];
    expect(await post('/slow', { timeoutMs: 300 })).toMatchObject({ statusCode: null });
  });

  it('reads at most 64 KB of a huge answer and drops the connection', async () => {
    receiver.next = [{ hugeBodyBytes: 200 * 1024 * 1024 }];
    const result = await post('/huge');
    expect(result).toMatchObject({ statusCode: 200, error: null });
    await new Promise((resolve) => setTimeout(resolve, 200));
    // The receiver stopped well short of its 200 MB: the socket was closed after the first 64 KB.
    expect(receiver.bytesWritten).toBeLessThan(32 * 1024 * 1024);
    expect(MAX_RESPONSE_BYTES).toBe(64 * 1024);
  });

  it('reports a refused connection', async () => {
    const free = await new Promise<number>((resolve) => {
      const server = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as net.AddressInfo;
        server.close(() => resolve(port));
      });
    });
    expect(await post('', { url: `http://127.0.0.1:${free}/x` })).toMatchObject({
      statusCode: null,
      error: 'connection refused',
    });
  });

  it.each([
    ['127.0.0.1', (r: Receiver) => r.url],
    ['localhost (checked by the socket’s lookup)', (r: Receiver) => r.url.replace('127.0.0.1', 'localhost')],
    ['[::ffff:127.0.0.1]', (r: Receiver) => r.url.replace('127.0.0.1', '[::ffff:127.0.0.1]')],
  ])('refuses %s at connection time when private networks are not allowed', async (_, base) => {
    const before = receiver.received.length;
    const result = await post('', { url: `${base(receiver)}/inside`, allowPrivateNetworks: false });
    expect(result.statusCode).toBeNull();
    expect(result.error).toMatch(/is a (loopback|ipv4Mapped) address; only public addresses can be reached/);
    expect(receiver.received.length).toBe(before);
  });
});

describe('which addresses may be reached', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['0.0.0.0', 'unspecified'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'linkLocal'],
    ['fd00:ec2::254', 'uniqueLocal'],
    ['::ffff:10.0.0.1', 'ipv4Mapped'],
    ['224.0.0.1', 'multicast'],
  ])('refuses %s (%s)', (address, range) => {
    expect(refusedAddressReason(address)).toBe(`is a ${range} address`);
  });

  it.each(['93.184.215.14', '8.8.8.8', '2606:4700:4700::1111'])('allows %s', (address) => {
    expect(refusedAddressReason(address)).toBeNull();
  });
});

describe('message formats', () => {
  const notice: AlertNotice = {
    id: '7d0f6a52-3c1e-4a7b-9d51-2f4e8c0b1a93',
    type: 'alert.triggered',
    project: { id: 'p1', name: 'Shop <prod>' },
    rule: { id: 'r1', name: 'Checkout *failures*', kind: 'tx_fail_rate' },
    at: '2026-11-29T04:10:00.000Z',
    subject: { kind: 'incident', id: 'i1', title: 'Error: @everyone reverted' },
    figures: { failRatePercent: 42.5, transactions: 1234, windowMinutes: 15 },
    url: 'https://polyflow.example.com/console/p1/errorlogs/i1',
  };
  const zone = 'America/New_York';

  it('Slack: bold headline, figures, a link, markup in names kept as text', () => {
    expect(slackMessage(notice, zone).text).toBe(
      [
        '*Triggered: Checkout *failures* (Shop &lt;prod&gt;)*',
        'Incident: Error: @everyone reverted',
        'At: 28 Nov 2026, 23:10 (America/New_York, UTC−5)',
        '• Fail rate (%): 42.5',
        '• Transactions: 1,234',
        '• Window minutes: 15',
        '<https://polyflow.example.com/console/p1/errorlogs/i1|Open in Polyflow>',
      ].join('\n'),
    );
  });

  it('Discord: markdown with names escaped, no mentions', () => {
    const message = discordMessage(notice, zone);
    expect(message.allowed_mentions).toEqual({ parse: [] });
    expect(message.content.split('\n')).toEqual([
      '**Triggered\\: Checkout \\*failures\\* \\(Shop \\<prod\\>\\)**',
      'Incident\\: Error\\: \\@everyone reverted',
      'At\\: 28 Nov 2026, 23\\:10 \\(America/New\\_York, UTC−5\\)',
      '- Fail rate \\(%\\)\\: 42.5',
      '- Transactions\\: 1,234',
      '- Window minutes\\: 15',
      'Open in Polyflow: https://polyflow.example.com/console/p1/errorlogs/i1',
    ]);
  });

  it('email: subject and text with figures and the link; a test notice says so', () => {
    const email = emailMessage(notice, zone);
    expect(email.subject).toBe('[Polyflow] Triggered: Checkout *failures* (Shop <prod>)');
    expect(email.text).toContain('Fail rate (%): 42.5\nTransactions: 1,234\nWindow minutes: 15');
    expect(email.text).toContain('Open in Polyflow: https://polyflow.example.com/console/p1/errorlogs/i1');
    const test = emailMessage({ ...notice, type: 'test', rule: null, figures: {} }, zone);
    expect(test.subject).toBe('[Polyflow] Test notice from Polyflow for Shop <prod>');
  });

  it("readable messages print times on the project's clock, with the offset that tells a repeated hour apart", () => {
    const silent: AlertNotice = {
      ...notice,
      rule: { id: 'r2', name: 'SDK silent', kind: 'no_events' },
      subject: { kind: 'project', id: 'p1' },
      // 04:10 UTC on 29 Nov is 23:10 the day before in New York (EST, UTC−5). New York's clocks went back
      // at 06:00 UTC on 1 Nov: 05:30 UTC was 01:30 EDT (UTC−4), 06:30 UTC the second 01:30 (EST).
      figures: { hours: 6, lastEventAt: '2026-11-01T05:30:00.000Z' },
    };
    expect(emailMessage(silent, zone).text).toContain(
      'At: 28 Nov 2026, 23:10 (America/New_York, UTC−5)\n\nHours: 6\nLast event at: 1 Nov 2026, 01:30 (America/New_York, UTC−4)',
    );
    const later = { ...silent, figures: { lastEventAt: '2026-11-01T06:30:00.000Z' } };
    expect(emailMessage(later, zone).text).toContain(
      'Last event at: 1 Nov 2026, 01:30 (America/New_York, UTC−5)',
    );
    expect(emailMessage(silent, 'Asia/Kolkata').text).toContain(
      'At: 29 Nov 2026, 09:40 (Asia/Kolkata, UTC+5:30)',
    );
    expect(slackMessage(silent, 'UTC').text).toContain('• Last event at: 1 Nov 2026, 05:30 (UTC)');
    expect(discordMessage(silent, zone).content).toContain(
      '- Last event at\\: 1 Nov 2026, 01\\:30 \\(America/New\\_York, UTC−4\\)',
    );
  });
});
