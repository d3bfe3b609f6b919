import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';

const dir = join(import.meta.dirname, '..', 'screenshots');

/** Saves a full-page screenshot under e2e/screenshots/ for people to look at (not compared automatically). */
export async function snap(page: Page, name: string): Promise<void> {
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage: true });
}
