import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ReceivedMail {
  to: string;
  subject: string;
  /** The decoded message (headers and body), enough to find links and codes. */
  raw: string;
}

function decodeQuotedPrintable(text: string): string {
  return text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

/** Each mail file read once: the sink writes a file whole under its final name and never changes it. */
const parsed = new Map<string, ReceivedMail>();

function readMails(): ReceivedMail[] {
  const dir = process.env.POLYFLOW_MAIL_DIR;
  if (!dir) throw new Error('POLYFLOW_MAIL_DIR is not set: run the tests through playwright.config.ts');
  return readdirSync(dir)
    .filter((name) => name.endsWith('.eml'))
    .sort()
    .map((name) => {
      const known = parsed.get(name);
      if (known) return known;
      const raw = decodeQuotedPrintable(readFileSync(join(dir, name), 'utf8'));
      const to = /^To:\s*(.+)$/im.exec(raw)?.[1]?.trim() ?? '';
      const subject = /^Subject:\s*(.+)$/im.exec(raw)?.[1]?.trim() ?? '';
      const mail = { to, subject, raw };
      parsed.set(name, mail);
      return mail;
    });
}

/** Waits for the newest mail to `to` whose subject matches, that was not among `ignore`. */
export async function waitForMail(to: string, subject: RegExp, timeoutMs = 10_000): Promise<ReceivedMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mail = readMails()
      .reverse()
      .find((candidate) => candidate.to.includes(to) && subject.test(candidate.subject));
    if (mail) return mail;
    if (Date.now() > deadline)
      throw new Error(`No mail to ${to} with subject ${subject} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export function countMails(to: string): number {
  return readMails().filter((mail) => mail.to.includes(to)).length;
}

/** The `token` query parameter of the first link to `path` in the mail. */
export function tokenFromLink(mail: ReceivedMail, path: string): string {
  const match = new RegExp(`${path}\\?token=([A-Za-z0-9_-]+)`).exec(mail.raw);
  if (!match?.[1]) throw new Error(`No ${path}?token= link in mail "${mail.subject}"`);
  return match[1];
}

/** The short code of a verification mail (`ABCD-EFGH` on a line of its own). */
export function shortCodeFrom(mail: ReceivedMail): string {
  const match = /^([A-Z2-9]{4}-[A-Z2-9]{4})\r?$/m.exec(mail.raw);
  if (!match?.[1]) throw new Error(`No short code in mail "${mail.subject}"`);
  return match[1];
}
