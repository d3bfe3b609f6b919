import { expect, type Page } from '@playwright/test';

/** One entry of `window.demoLog`, what the demo dapp saw. */
export interface DemoLogEntry {
  seq: number;
  action: string;
  outcome: 'ok' | 'error' | 'info';
  detail: string;
  data: Record<string, unknown>;
}

export function demoLog(page: Page): Promise<DemoLogEntry[]> {
  return page.evaluate(() => (window as unknown as { demoLog: DemoLogEntry[] }).demoLog);
}

/** The newest log entry for `action`, waiting for one to appear after `afterSeq`. */
export async function lastLog(
  page: Page,
  action: string,
  afterSeq = 0,
  stage?: string,
): Promise<DemoLogEntry> {
  let found: DemoLogEntry | undefined;
  await expect
    .poll(
      async () => {
        const entries = (await demoLog(page)).filter(
          (entry) =>
            entry.action === action &&
            entry.seq > afterSeq &&
            entry.outcome !== 'info' &&
            (stage === undefined || entry.data.stage === stage),
        );
        found = entries.at(-1);
        return Boolean(found);
      },
      { message: `the dapp logs a result for ${action}`, timeout: 15_000, intervals: [50, 100, 200] },
    )
    .toBe(true);
  return found as DemoLogEntry;
}

/** Approves the request the test wallet is showing. */
export async function approveNext(page: Page): Promise<void> {
  const prompt = page.getByRole('alertdialog');
  await expect(prompt).toBeVisible();
  await prompt.getByRole('button', { name: 'Approve' }).click();
}

/** Rejects the request the test wallet is showing (the wallet answers 4001). */
export async function rejectNext(page: Page): Promise<void> {
  const prompt = page.getByRole('alertdialog');
  await expect(prompt).toBeVisible();
  await prompt.getByRole('button', { name: 'Reject' }).click();
}

/** Clicks a demo button (approving the wallet prompt if asked) and returns the dapp's final log entry. */
export async function clickAndWaitForLog(
  page: Page,
  button: string,
  action: string,
  options: { approve?: boolean; reject?: boolean; stage?: string } = {},
): Promise<DemoLogEntry> {
  const before = (await demoLog(page)).length;
  await page.getByRole('button', { name: button, exact: true }).click();
  if (options.approve) await approveNext(page);
  if (options.reject) await rejectNext(page);
  return lastLog(page, action, before, options.stage);
}
