import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import type { OutboxRow, OutboxStore } from './outbox-store.ts';
import { createSealer } from './sealed.ts';
import type { Email, MailTransport } from './transport.ts';

export type { Email } from './transport.ts';

export type MailService = {
  /**
   * Keeps the email in the outbox (resolves once it is stored) and sends it in the background,
   * retrying until it goes or expires. Callers answer without waiting for SMTP: timing says nothing.
   */
  enqueue(email: Email): Promise<void>;
  /**
   * Stores the email inside the caller's transaction `trx` (it is kept only if that commits: the email
   * and the caller's own change are one write). Call `flush` or wait for the next poll after the commit.
   */
  enqueueWithin(trx: Kysely<Database>, email: Email): Promise<void>;
  /** Sends every email due now and waits for it (tests; a retry after a failure stays scheduled). */
  flush(): Promise<void>;
  /** Emails waiting in the outbox (health). */
  waiting(): Promise<number>;
  /** Stops sending. A send under way is not waited for: its email stays in the outbox for the next start. */
  close(): Promise<void>;
};

export type MailServiceDeps = {
  store: OutboxStore;
  transport: MailTransport;
  /** Encrypts the stored emails (sealed.ts). */
  secret: string;
  clock: Clock;
  logger: FastifyBaseLogger;
  /** First retry after this long, doubling up to `maxRetryDelayMs`. */
  minRetryDelayMs?: number;
  maxRetryDelayMs?: number;
  /** How often the outbox is looked at for retries that came due. */
  pollIntervalMs?: number;
};

/** An email is tried for a day: verification codes expire after 24 hours, reset codes after one. */
const EMAIL_LIFETIME_MS = 24 * 60 * 60 * 1000;
/** Long enough for any send under the SMTP timeouts; a node that died mid-send frees the email after it. */
const CLAIM_MS = 5 * 60 * 1000;
const BATCH = 20;

/**
 * The durable mail outbox (ADR 009): emails are rows of the accounts store, so they survive a restart
 * or a mail server that is down, and every node of a PostgreSQL deployment can send them (each claims
 * its emails). Delivery is at least once: a node that dies after SMTP accepted an email, before it
 * removed the row, sends it again later.
 */
export function createMailService({
  store,
  transport,
  secret,
  clock,
  logger,
  minRetryDelayMs = 30_000,
  maxRetryDelayMs = 15 * 60_000,
  pollIntervalMs = 5_000,
}: MailServiceDeps): MailService {
  const sealer = createSealer(secret);
  /** Emails this node has claimed and not finished with: given back on close. */
  const held = new Set<string>();
  let isClosed = false;
  let running: Promise<void> | undefined;
  let wantsAnotherRun = false;

  async function deliver(row: OutboxRow): Promise<void> {
    let email: Email;
    try {
      email = JSON.parse(sealer.open(row.message)) as Email;
    } catch (error) {
      // Sealed with another JWT secret (it was changed): no one can read it any more.
      logger.error({ err: error, outboxId: row.id }, 'email in the outbox cannot be decrypted; dropped');
      await store.remove(row.id);
      return;
    }
    try {
      await transport.deliver(email);
    } catch (error) {
      if (isClosed) return;
      const now = clock().getTime();
      if (now >= Date.parse(row.expiresAt)) {
        logger.error(
          { err: error, subject: email.subject, attempts: row.attempts },
          'email not sent; gave up after a day of retries',
        );
        await store.remove(row.id);
        return;
      }
      const delay = Math.min(maxRetryDelayMs, minRetryDelayMs * 2 ** (row.attempts - 1));
      const retryAt = new Date(now + delay).toISOString();
      logger.warn(
        { err: error, subject: email.subject, attempts: row.attempts, retryAt },
        'email not sent yet; it stays in the outbox and is retried (check SMTP_URL and the mail server)',
      );
      await store.retryLater(row.id, retryAt, error instanceof Error ? error.message : String(error));
      return;
    }
    // Also after close began: the accounts store usually still answers, and a row left behind would be
    // sent a second time by the next start.
    await store.remove(row.id).catch((error: unknown) => {
      if (!isClosed) throw error;
    });
  }

  async function deliverDue(): Promise<void> {
    do {
      wantsAnotherRun = false;
      const now = clock();
      const rows = await store.claimDue(
        now.toISOString(),
        new Date(now.getTime() + CLAIM_MS).toISOString(),
        BATCH,
      );
      for (const row of rows) held.add(row.id);
      for (const row of rows) {
        if (isClosed) return;
        try {
          await deliver(row);
        } finally {
          held.delete(row.id);
        }
      }
      if (rows.length === BATCH) wantsAnotherRun = true;
    } while (wantsAnotherRun && !isClosed);
  }

  /** One delivery run at a time; a request during a run makes it look once more at the end. */
  function run(): Promise<void> {
    if (isClosed) return Promise.resolve();
    if (running) {
      wantsAnotherRun = true;
      return running;
    }
    running = deliverDue()
      .catch((error: unknown) => logger.error({ err: error }, 'the mail outbox could not be read; retrying'))
      .finally(() => {
        running = undefined;
      });
    return running;
  }

  function outboxRow(email: Email) {
    const now = clock();
    return {
      id: newId(),
      message: sealer.seal(JSON.stringify(email)),
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + EMAIL_LIFETIME_MS).toISOString(),
    };
  }

  const timer = setInterval(() => void run(), pollIntervalMs);
  timer.unref();
  // Emails left by an earlier run (SMTP was down, or the process stopped) go out now.
  void run();

  return {
    async enqueue(email) {
      await store.insert(outboxRow(email));
      void run();
    },

    async enqueueWithin(trx, email) {
      await store.insert(outboxRow(email), trx);
    },

    async flush() {
      await running;
      await run();
    },

    waiting: () => store.countWaiting(),

    async close() {
      isClosed = true;
      clearInterval(timer);
      transport.close();
      // Before the accounts store closes (onClose hooks run last-in first-out): a send that hangs on a
      // stalled server gives its email back, and the next start sends it.
      await store.release([...held]).catch(() => undefined);
    },
  };
}
