import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Transporter } from 'nodemailer';

export type Email = { to: string; subject: string; text: string };

export type MailService = {
  /** Resolves once the email is handed to SMTP (or written to the outbox). */
  send(email: Email): Promise<void>;
  /** Sends without making the caller wait; failures are logged. Keeps response times equal. */
  sendInBackground(email: Email): void;
  /** Waits for background sends (shutdown, tests). */
  flush(): Promise<void>;
  close(): Promise<void>;
};

type Deps = { smtpUrl: string | undefined; mailFrom: string; dataDir: string; logger: FastifyBaseLogger };

/** SMTP when SMTP_URL is set; otherwise each email goes to the log and to DATA_DIR/outbox. */
export function createMailService({ smtpUrl, mailFrom, dataDir, logger }: Deps): MailService {
  // nodemailer is loaded on first use only: it adds to start-up time and most dev installs have no SMTP.
  let transport: Promise<Transporter> | undefined;
  const smtp = () => {
    transport ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(smtpUrl));
    return transport;
  };
  const outbox = path.join(dataDir, 'outbox');
  const pending = new Set<Promise<void>>();

  async function send(email: Email): Promise<void> {
    if (smtpUrl) {
      await (await smtp()).sendMail({
        from: mailFrom,
        to: email.to,
        subject: email.subject,
        text: email.text,
      });
      logger.info({ subject: email.subject }, 'email sent over SMTP');
      return;
    }
    await mkdir(outbox, { recursive: true });
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const safeTo = email.to.replace(/[^a-zA-Z0-9@._+-]/g, '_');
    const file = path.join(outbox, `${stamp}-${safeTo}.txt`);
    const content = `From: ${mailFrom}\nTo: ${email.to}\nSubject: ${email.subject}\n\n${email.text}\n`;
    await writeFile(file, content, { mode: 0o600 });
    // No SMTP configured (development): the log is where the person running it reads the link.
    logger.info({ to: email.to, subject: email.subject, file }, `email (no SMTP_URL set)\n${email.text}`);
  }

  return {
    send,
    sendInBackground(email) {
      const task = send(email)
        .catch((error: unknown) => logger.error({ err: error, subject: email.subject }, 'email not sent'))
        .finally(() => pending.delete(task));
      pending.add(task);
    },
    async flush() {
      await Promise.all([...pending]);
    },
    async close() {
      await Promise.all([...pending]);
      if (transport) (await transport).close();
    },
  };
}
