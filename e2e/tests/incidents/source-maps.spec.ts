import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, type Page, test } from '@playwright/test';
import { build } from 'esbuild';
import {
  type Account,
  createProject,
  createVerifiedAccount,
  PolyflowApi,
  type Project,
  signInAs,
} from '../../support/api.ts';
import { snap } from '../../support/screenshots.ts';

// A dapp built with esbuild (minified, with source maps) loads the SDK with a release and throws in
// Chromium; its maps are uploaded with the CLI as CI would; the incident then shows the original frame and
// its source, a second build of the same code groups into the same incident, and "resolve in next release"
// is reopened by a new release only.
test.describe.configure({ mode: 'serial' });

const repoRoot = join(import.meta.dirname, '..', '..', '..');
const CLI = join(repoRoot, 'packages', 'cli', 'bin', 'polyflow.mjs');
/** Where this journey's screens are also saved for review (outside the repository), when set. */
const SCREENS = process.env.SOURCEMAPS_SCREENS_DIR;

const WALLET_SOURCE = `export type Order = { token: string; amount?: number };

export function formatAmount(order: Order): string {
  if (order.amount === undefined) {
    throw new TypeError('amount missing for ' + order.token);
  }
  return order.amount.toFixed(2);
}

export function sendTokens(order: Order): string {
  return 'sending ' + formatAmount(order);
}
`;
const MAIN_SOURCE = (extra: string) => `import { attach } from '@polyflow/sdk';
import { sendTokens } from './wallet';
${extra}
const polyflow = attach(API_KEY, { host: POLYFLOW_HOST, release: RELEASE });
(window as any).polyflow = polyflow;
document.querySelector('#send')?.addEventListener('click', () => {
  document.querySelector('#out')!.textContent = sendTokens({ token: 'USDC' });
});
`;
/** The second build has more code first: every minified name and column of the bundle moves. */
const EXTRA = `const banner = ['polyflow', 'build', 'two'].map((word) => word.toUpperCase()).join('-');
document.title = banner;`;

type Build = { dir: string; assets: string; file: string; release: string };

let root: string;
let account: Account;
let project: Project;
let writeToken: string;
let dapp: Server;
let dappUrl: string;
/** What the dapp server serves now. */
let current: Build;

async function buildDapp(name: string, release: string, extra: string): Promise<Build> {
  const dir = join(root, name);
  mkdirSync(join(dir, 'src'), { recursive: true });
  writeFileSync(join(dir, 'src', 'wallet.ts'), WALLET_SOURCE);
  writeFileSync(join(dir, 'src', 'main.ts'), MAIN_SOURCE(extra));
  const assets = join(dir, 'dist', 'assets');
  const result = await build({
    entryPoints: [join(dir, 'src', 'main.ts')],
    bundle: true,
    minify: true,
    sourcemap: true,
    format: 'esm',
    entryNames: '[name]-[hash]',
    outdir: assets,
    absWorkingDir: dir,
    nodePaths: [join(repoRoot, 'node_modules')],
    define: {
      API_KEY: JSON.stringify(project.apiKey),
      POLYFLOW_HOST: JSON.stringify(process.env.POLYFLOW_URL),
      RELEASE: JSON.stringify(release),
    },
    metafile: true,
    logLevel: 'silent',
  });
  const file = Object.keys(result.metafile.outputs)
    .find((output) => output.endsWith('.js'))
    ?.split('/')
    .pop() as string;
  return { dir, assets, file, release };
}

/** `polyflow sourcemaps upload` as a CI job runs it. */
async function uploadWithCli(bundle: Build): Promise<string> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      CLI,
      'sourcemaps',
      'upload',
      '--release',
      bundle.release,
      '--url-prefix',
      '~/assets',
      '--url',
      process.env.POLYFLOW_URL as string,
      '--project',
      project.id,
      bundle.assets,
    ],
    { env: { PATH: process.env.PATH ?? '', POLYFLOW_TOKEN: writeToken } },
  );
  return stdout;
}

/** The page of the build now served; a click on Send throws in the dapp's own (minified) code. */
async function throwInChromium(page: Page, bundle: Build): Promise<void> {
  current = bundle;
  await page.goto(`${dappUrl}/`);
  await page.getByRole('button', { name: 'Send' }).click();
  await page.evaluate(() => (window as unknown as { polyflow: { flush(): Promise<void> } }).polyflow.flush());
}

/** The incident rows whose message is the dapp's error, read again until `count` are there. */
async function openIncidentList(page: Page, count: number) {
  const rows = page.getByRole('row').filter({ hasText: 'amount missing for USDC' });
  await expect(async () => {
    await page.goto(`/console/${project.id}/errorlogs?status=open`);
    await expect(page.getByRole('table')).toBeVisible({ timeout: 3_000 });
    expect(await rows.count()).toBe(count);
  }).toPass({ timeout: 30_000 });
  return rows;
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  root = mkdtempSync(join(tmpdir(), 'polyflow-sourcemaps-e2e-'));
  account = await createVerifiedAccount('sourcemaps');
  project = await createProject(account, 'Mapped dapp', ['localhost']);
  const created = await new PolyflowApi(account.token).expectOk<{ token: string }>(
    'POST',
    `/projects/${project.id}/write-tokens`,
    { name: 'CI' },
  );
  writeToken = created.token;
  dapp = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname.startsWith('/assets/')) {
      try {
        const body = readFileSync(join(current.assets, url.pathname.slice('/assets/'.length)));
        response.writeHead(200, { 'content-type': 'text/javascript' }).end(body);
      } catch {
        response.writeHead(404).end();
      }
      return;
    }
    response
      .writeHead(200, { 'content-type': 'text/html' })
      .end(
        `<!doctype html><html><head><title>Dapp</title></head><body><button id="send">Send</button><p id="out"></p><script type="module" src="/assets/${current.file}"></script></body></html>`,
      );
  });
  await new Promise<void>((resolve) => dapp.listen(0, '127.0.0.1', resolve));
  dappUrl = `http://localhost:${(dapp.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  await new Promise((resolve) => dapp?.close(resolve));
  if (root) rmSync(root, { recursive: true, force: true });
});

test('a minified bundle throws in Chromium; after the CLI uploads its maps the incident shows the original frame', async ({
  page,
}) => {
  test.setTimeout(180_000);
  // Signed in without the form (ADR 106; logging in has journeys of its own): the context keeps the session
  // the account's verification gave, so the console opens signed in after each visit to the dapp.
  await signInAs(page, account);
  const first = await buildDapp('build-1', '1.0.0', '');
  const output = await uploadWithCli(first);
  expect(output).toContain('Uploading 1 source map');
  expect(output).toContain('Done: release 1.0.0 holds');
  await throwInChromium(page, first);

  // The second build of the same code, in the next release, maps uploaded the same way.
  const second = await buildDapp('build-2', '1.0.1', EXTRA);
  expect(second.file).not.toBe(first.file);
  await uploadWithCli(second);
  await throwInChromium(page, second);

  // The second occurrence may still be on its way to the store: read the list again until its row counts 2
  // (the Occurrences column), so that the detail shows the second build's frame.
  let rows = await openIncidentList(page, 1);
  await expect(async () => {
    rows = await openIncidentList(page, 1);
    await expect(rows.first().getByRole('cell').nth(4)).toHaveText('2', { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await rows
    .first()
    .getByRole('link', { name: /Inspect/ })
    .click();

  const top = page.getByTestId('stack-frame').first();
  await expect(top).toContainText('formatAmount');
  await expect(top).toContainText('src/wallet.ts:5:');
  await expect(top.locator('[aria-current="true"]')).toContainText(
    "throw new TypeError('amount missing for ' + order.token);",
  );
  // The minified frame is one click away.
  const minified = top.locator('details');
  await expect(minified).not.toHaveAttribute('open', '');
  await minified.getByText('Minified frame').click();
  await expect(minified).toContainText(`${dappUrl}/assets/${second.file}:1:`);
  await expect(page.getByTestId('stack-frame').nth(1)).toContainText('sendTokens');
  await expect(page.getByText('1.0.0 → 1.0.1')).toBeVisible();

  await page.setViewportSize({ width: 1440, height: 900 });
  if (SCREENS) await page.screenshot({ path: join(SCREENS, 'incident-mapped-1440.png'), fullPage: true });
  await snap(page, 'incident-mapped-1440');
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  if (SCREENS) await page.screenshot({ path: join(SCREENS, 'incident-mapped-390.png'), fullPage: true });
  await snap(page, 'incident-mapped-390');
});

test('resolve in next release: the old release does not reopen it, a new one does', async ({ page }) => {
  test.setTimeout(180_000);
  await signInAs(page, account);
  const rows = await openIncidentList(page, 1);
  await rows
    .first()
    .getByRole('link', { name: /Inspect/ })
    .click();
  await page.getByRole('button', { name: 'Resolve in next release' }).click();
  await expect(page.getByText(/in the release after 1\.0\.1/)).toBeVisible();

  // An old tab of release 1.0.0 throws again: still resolved.
  await throwInChromium(page, await buildDapp('build-1-again', '1.0.0', ''));
  await page.goto(`/console/${project.id}/errorlogs?status=resolved`);
  await expect(page.getByRole('row').filter({ hasText: 'amount missing for USDC' })).toHaveCount(1);

  // Release 1.0.2 ships (its maps uploaded first) and throws: a regression, open again.
  const third = await buildDapp('build-3', '1.0.2', EXTRA);
  await uploadWithCli(third);
  await throwInChromium(page, third);
  const reopened = await openIncidentList(page, 1);
  await expect(reopened.first()).toContainText('Regression');
  // The release filter keeps it: it occurred in 1.0.2.
  await page.getByRole('textbox', { name: 'Release' }).fill('1.0.2');
  await page.getByRole('textbox', { name: 'Release' }).press('Enter');
  await expect(page).toHaveURL(/release=1\.0\.2/);
  // Until the filtered answer arrives the table shows the previous one, dimmed and `aria-busy`: the count
  // and the contrast check below are of the filtered list (a check during the dimming read 4.19:1).
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  await expect(reopened).toHaveCount(1);
  await page.setViewportSize({ width: 1440, height: 900 });
  if (SCREENS)
    await page.screenshot({ path: join(SCREENS, 'incidents-release-filter-1440.png'), fullPage: true });
  await snap(page, 'incidents-release-filter-1440');
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  if (SCREENS)
    await page.screenshot({ path: join(SCREENS, 'incidents-release-filter-390.png'), fullPage: true });

  // The CI's write token, as the SDK screen lists it.
  await page.goto(`/console/${project.id}/config`);
  const tokens = page.locator('section', { has: page.getByRole('heading', { name: 'Write tokens' }) });
  await expect(tokens.getByRole('list', { name: 'Write tokens' })).toContainText('CI');
  await tokens.scrollIntoViewIfNeeded();
  await page.setViewportSize({ width: 1440, height: 900 });
  if (SCREENS) await page.screenshot({ path: join(SCREENS, 'sdk-write-tokens-1440.png'), fullPage: true });
  await snap(page, 'sdk-write-tokens-1440');
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  if (SCREENS) await page.screenshot({ path: join(SCREENS, 'sdk-write-tokens-390.png'), fullPage: true });
});

test("the SDK screen's Source maps card lists the uploaded releases and deletes one after a confirm", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signInAs(page, account);
  await page.goto(`/console/${project.id}/config`);
  const card = page.locator('section', { has: page.getByRole('heading', { name: 'Source maps' }) });
  const releases = card.getByRole('list', { name: 'Releases with source maps' });
  // The three releases the CLI uploaded above, latest upload first, each with its one map.
  await expect(releases.getByRole('listitem')).toHaveCount(3);
  await expect(releases.getByRole('listitem').first()).toContainText('1.0.2');
  await expect(releases.getByRole('listitem').first()).toContainText('1 file ·');
  await expect(card).toContainText(/ of 5 GB used across your projects/);
  await card.scrollIntoViewIfNeeded();
  await snap(page, 'sdk-source-maps-1280');

  // By keyboard: the Delete button of 1.0.0, the confirm, and focus on the release that took its place.
  const remove = releases.getByRole('button', { name: 'Delete the source maps of 1.0.0' });
  await remove.focus();
  await page.keyboard.press('Enter');
  const confirm = page.getByRole('dialog', { name: 'Delete these source maps?' });
  await expect(confirm).toContainText('The 1 map of release 1.0.0');
  await confirm.getByRole('button', { name: 'Delete source maps' }).click();
  await expect(confirm).toBeHidden();
  await expect(releases.getByRole('listitem')).toHaveCount(2);
  await expect(releases).not.toContainText('1.0.0');
  await expect(releases.getByRole('button', { name: 'Delete the source maps of 1.0.1' })).toBeFocused();

  // The server no longer holds them.
  const listed = await new PolyflowApi(account.token).expectOk<{ releases: { release: string }[] }>(
    'GET',
    `/projects/${project.id}/releases/sourcemaps`,
  );
  expect(listed.releases.map((release) => release.release)).toEqual(['1.0.2', '1.0.1']);

  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await card.scrollIntoViewIfNeeded();
  await snap(page, 'sdk-source-maps-390');

  // The audit log names the release whose maps were deleted (quoted when blank or unclear, as the card does).
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/console/${project.id}/audit-log`);
  const entries = page.getByRole('list', { name: 'Audit log entries' });
  await expect(
    entries
      .getByRole('listitem')
      .filter({ hasText: /Deleted the source maps of release 1\.0\.0 \(files 1, bytes \d+\)/ }),
  ).toHaveCount(1);
  await snap(page, 'audit-log-source-maps-1280');
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await snap(page, 'audit-log-source-maps-390');
});
