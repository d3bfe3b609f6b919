import PostalMime from 'postal-mime';
import { SMTPServer } from 'smtp-server';

export type ReceivedEmail = {
  to: string[];
  subject: string;
  /** The plain text (the text/plain part of a multipart email). */
  text: string;
  /** The text/html part, when the email has one (reports). */
  html?: string;
  /** Every header, names lower-cased (the last of repeated ones). */
  headers: Record<string, string>;
};

/** A real SMTP server on a free port that keeps what it receives, for reading codes out of emails. */
export type SmtpSink = {
  url: string;
  messages: ReceivedEmail[];
  /** The next email to `to` received after the call (or already waiting and not yet taken). */
  waitFor(to: string, options?: { subject?: RegExp; timeoutMs?: number }): Promise<ReceivedEmail>;
  /** Emails to `to` received so far and not yet taken by waitFor. */
  pendingFor(to: string): ReceivedEmail[];
  close(): Promise<void>;
};

function decodeBody(headers: string, body: string): string {
  const encoding = /^content-transfer-encoding:\s*(\S+)/im.exec(headers)?.[1]?.toLowerCase();
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') {
    const bytes = body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

async function parse(raw: string, recipients: string[]): Promise<ReceivedEmail> {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const body = raw.slice(split + 4);
  const subject = /^subject:\s*(.*)$/im.exec(head)?.[1]?.trim() ?? '';
  // postal-mime reads what the line parser above cannot: multipart bodies, encoded headers.
  const parsed = await PostalMime.parse(raw);
  const headers = Object.fromEntries(
    parsed.headers.map((header) => [header.key.toLowerCase(), header.value]),
  );
  if (/^content-type:\s*multipart\//im.test(head)) {
    return {
      to: recipients,
      subject: parsed.subject ?? subject,
      text: (parsed.text ?? '').replace(/\r\n/g, '\n'),
      html: parsed.html,
      headers,
    };
  }
  return { to: recipients, subject, text: decodeBody(head, body).replace(/\r\n/g, '\n'), headers };
}

/** On `port`, or on a free one (0). */
export async function startSmtpSink(port = 0): Promise<SmtpSink> {
  const messages: ReceivedEmail[] = [];
  const taken = new Set<ReceivedEmail>();
  const waiters = new Set<() => void>();

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const recipients = session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase());
        void parse(Buffer.concat(chunks).toString('utf8'), recipients).then(
          (message) => {
            messages.push(message);
            for (const wake of waiters) wake();
            callback();
          },
          (error: Error) => callback(error),
        );
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.server.address();
  const boundPort = typeof address === 'object' && address ? address.port : 0;

  const pendingFor = (to: string) =>
    messages.filter((message) => !taken.has(message) && message.to.includes(to.toLowerCase()));

  return {
    url: `smtp://127.0.0.1:${boundPort}`,
    messages,
    pendingFor,
    waitFor(to, { subject, timeoutMs = 5000 } = {}) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const match = pendingFor(to).find((message) => !subject || subject.test(message.subject));
          if (!match) return false;
          taken.add(match);
          waiters.delete(check);
          clearTimeout(timer);
          resolve(match);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`No email to ${to} within ${timeoutMs} ms`));
        }, timeoutMs);
        if (!check()) waiters.add(check);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The code in a verification or reset email (the `token=` of its link). */
export function codeFrom(email: ReceivedEmail): string {
  const code = /[?&]token=([A-Za-z0-9_-]+)/.exec(email.text)?.[1];
  if (!code) throw new Error(`No token link in email:\n${email.text}`);
  return code;
}

/** The short code of a verification email (`ABCD-EFGH` on a line of its own). */
export function shortCodeFrom(email: ReceivedEmail): string {
  const code = /^([A-Z2-9]{4}-[A-Z2-9]{4})$/m.exec(email.text)?.[1];
  if (!code) throw new Error(`No short code in email:\n${email.text}`);
  return code;
}
