import { expect, test } from '@playwright/test';
import { type DemoInstance, signInAsDemo, startSeededDemo } from '../../support/demo-instance.ts';
import { snap } from '../../support/screenshots.ts';

/**
 * Custom events and identifies sent as a dapp sends them (POST /api/v1/events from a whitelisted origin)
 * to the seeded demo project, then read on the Events screen (docs/custom-events.md): the list, one event's
 * days and its breakdown by a property, at desktop and phone widths.
 */
let demo: DemoInstance;
test.beforeAll(async () => {
  test.setTimeout(180_000);
  demo = await startSeededDemo();
});
test.afterAll(async () => demo?.dispose());

const DAY = 86_400_000;
let counter = 0;
const base = (user: string, daysAgo: number) => ({
  id: `e2e_custom_${(counter++).toString().padStart(5, '0')}`,
  ts: Date.now() - daysAgo * DAY - 3_600_000,
  userId: user,
  sessionId: `${user}-session-${daysAgo}`,
  path: '/swap',
});

async function send(events: object[]) {
  const response = await fetch(`${demo.url}/api/v1/events`, {
    method: 'POST',
    // A browser's User-Agent: the server drops bots' events (Node's own fetch says "node").
    headers: {
      'content-type': 'text/plain',
      origin: 'http://localhost',
      'user-agent':
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36',
    },
    body: JSON.stringify({ apiKey: demo.apiKey, sdkVersion: '2.0.0', release: 'v1.4.0', events }),
  });
  expect(response.status).toBe(200);
  expect((await response.json()).accepted).toBe(events.length);
}

test('custom events and identify show on the Events screen', async ({ page }) => {
  test.setTimeout(120_000);
  const pairs = ['ETH/USDC', 'ETH/USDC', 'WBTC/ETH', 'ETH/DAI'];
  const events: object[] = [];
  for (let user = 0; user < 12; user++) {
    for (let day = 0; day < 6; day += 1 + (user % 3)) {
      events.push({
        ...base(`e2e-user-${user}`, day),
        type: 'custom',
        name: 'swap_quote_shown',
        props: { pair: pairs[(user + day) % pairs.length], amount: 1 + user, fast: user % 2 === 0 },
      });
      if (user % 4 === 0)
        events.push({
          ...base(`e2e-user-${user}`, day),
          type: 'custom',
          name: 'bridge_started',
          props: { route: 'op→arb' },
        });
    }
    if (user < 4)
      events.push({
        ...base(`e2e-user-${user}`, 0),
        type: 'identify',
        appUserId: 'acct-1',
        traits: { plan: 'pro' },
      });
  }
  for (let start = 0; start < events.length; start += 50) await send(events.slice(start, start + 50));

  await page.setViewportSize({ width: 1440, height: 900 });
  await signInAsDemo(page, demo);
  // Acknowledged events reach the store within the loader's few seconds: reload until they are there.
  const table = page.getByTestId('custom-events');
  await expect(async () => {
    await page.goto(`${demo.url}/console/${demo.projectId}/events?period=7d`);
    await expect(table.getByRole('button', { name: 'swap_quote_shown' })).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
  await expect(table.getByRole('button', { name: 'bridge_started' })).toBeVisible();
  // The demo's own custom events come first (more of them): choose this spec's event.
  await table.getByRole('button', { name: 'swap_quote_shown' }).click();
  await expect(page.getByTestId('event-series')).toBeVisible();
  await page.getByRole('textbox', { name: 'Property' }).fill('pair');
  await page.getByRole('button', { name: 'Break down' }).click();
  await expect(page.getByTestId('event-breakdown').getByText('ETH/USDC')).toBeVisible();
  await snap(page, 'events-1440');
  await page.setViewportSize({ width: 390, height: 844 });
  const widest = await page.evaluate(() =>
    [...document.querySelectorAll('body *')]
      .filter((element) => element.getBoundingClientRect().right > 391)
      .map((element) => `${element.tagName}.${element.className}`.slice(0, 80))
      .slice(0, 5),
  );
  expect(widest).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await snap(page, 'events-390');
});
