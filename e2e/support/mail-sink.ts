import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server the Polyflow server delivers to. Each message is written as `<time>-<n>.eml` into `dir`,
 * where test workers (other processes) read it back with `waitForMail`.
 */
export async function startMailSink(dir: string): Promise<{ port: number; close: () => Promise<void> }> {
  mkdirSync(dir, { recursive: true });
  let count = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        count += 1;
        // Written aside, then renamed: a worker polling the folder never reads a mail half written.
        const file = join(dir, `${Date.now()}-${String(count).padStart(5, '0')}.eml`);
        writeFileSync(`${file}.part`, Buffer.concat(chunks));
        renameSync(`${file}.part`, file);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { port, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
