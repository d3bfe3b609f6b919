import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Transporter } from 'nodemailer';

export type Email = {
  to: string;
  subject: string;
  text: string;
  /** An HTML alternative of `text` (reports); clients without HTML show the text. */
  html?: string;
  /** Extra headers, e.g. `List-Unsubscribe` (reports). */
  headers?: Record<string, string>;
};

/** Where an email goes: an SMTP server, or (no SMTP_URL, development) the log and DATA_DIR/outbox. */
export type MailTransport = {
  deliver(email: Email): Promise<void>;
  /** Drops open connections without waiting for a send under way. */
  close(): void;
};

type SmtpOptions = { smtpUrl: string; mailFrom: string; timeoutMs: number; logger: FastifyBaseLogger };

/**
 * SMTP with every wait bounded: connecting, the server's greeting, and silence on the socket each give
 * up after `timeoutMs` (nodemailer's defaults are 2 minutes and 10 minutes), so a mail server that
 * accepts connections and never answers costs one retry, not a stuck queue.
 */
export function createSmtpTransport({ smtpUrl, mailFrom, timeoutMs, logger }: SmtpOptions): MailTransport {
  // nodemailer is loaded on first use only: it adds to start-up time and most dev installs have no SMTP.
  let transport: Promise<Transporter> | undefined;
  const smtp = () => {
    transport ??= import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport({
        url: smtpUrl,
        connectionTimeout: timeoutMs,
        greetingTimeout: timeoutMs,
        socketTimeout: timeoutMs,
        dnsTimeout: timeoutMs,
      }),
    );
    return transport;
  };
  return {
    async deliver(email) {
      await (await smtp()).sendMail({
        from: mailFrom,
        to: email.to,
        subject: email.subject,
        text: email.text,
        ...(email.html ? { html: email.html } : {}),
        ...(email.headers ? { headers: email.headers } : {}),
      });
      logger.info({ subject: email.subject }, 'email sent over SMTP');
    },
    close() {
      void transport?.then((smtpTransport) => smtpTransport.close());
    },
  };
}

/** No SMTP configured (development): the log is where the person running it reads the link. */
export function createFileTransport({
  dataDir,
  mailFrom,
  logger,
}: {
  dataDir: string;
  mailFrom: string;
  logger: FastifyBaseLogger;
}): MailTransport {
  const outbox = path.join(dataDir, 'outbox');
  return {
    async deliver(email) {
      await mkdir(outbox, { recursive: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const safeTo = email.to.replace(/[^a-zA-Z0-9@._+-]/g, '_');
      const file = path.join(outbox, `${stamp}-${safeTo}.txt`);
      const headers = Object.entries(email.headers ?? {}).map(([name, value]) => `${name}: ${value}\n`);
      const content = `From: ${mailFrom}\nTo: ${email.to}\nSubject: ${email.subject}\n${headers.join('')}\n${email.text}\n`;
      await writeFile(file, content, { mode: 0o600 });
      // The HTML alternative beside it, to open in a browser.
      if (email.html) await writeFile(file.replace(/\.txt$/, '.html'), email.html, { mode: 0o600 });
      logger.info({ to: email.to, subject: email.subject, file }, `email (no SMTP_URL set)\n${email.text}`);
    },
    close() {},
  };
}
