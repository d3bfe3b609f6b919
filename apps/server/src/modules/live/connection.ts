import type { ServerResponse } from 'node:http';
import type { LiveClosing } from '@polyflow/contracts/live';

export type LiveConnectionOptions = {
  /** Messages waiting while the client reads slower than events arrive; one more closes the stream. */
  maxQueuedMessages: number;
  /** A comment line this often keeps proxies and load balancers from closing an idle stream. */
  heartbeatMs: number;
  /**
   * After the closing message, a client that has not read up to it is checked once per grace, and cut
   * after 12 graces (1 minute by default): one that reads, however slowly, gets its closing message and
   * its reason; one that reads nothing holds a socket and its buffers that long at most.
   */
  closeGraceMs: number;
  /** Asked at each heartbeat: false ends the stream (the session was ended or expired). */
  isStillAllowed(): Promise<boolean>;
  /** Called once, whatever ended the stream (client gone, slow, shut down). */
  onEnd(): void;
};

export type LiveConnection = ReturnType<typeof openLiveConnection>;

/** A slow reader gets at most this many graces to read up to its closing message. */
const MAX_CLOSE_GRACES = 12;
/** Queued messages are written about this many characters at a time. */
const WRITE_BYTES = 64 * 1024;

/** One text/event-stream message: its event name and JSON data on a line each. */
export const sseMessage = (event: string, data: object, id?: string): string =>
  `${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/**
 * One client's stream. Memory is bounded: messages are written to the socket while it takes them;
 * once Node's buffer for it is full (write() answers false) they wait in a queue of at most
 * `maxQueuedMessages`, and a client that lets it overflow is sent a last `closing` message and
 * disconnected, rather than held in memory or slowing anyone else.
 */
export function openLiveConnection(response: ServerResponse, options: LiveConnectionOptions) {
  let queue: string[] = [];
  let isWaitingForDrain = false;
  let isEnded = false;
  let peakQueued = 0;
  let graceTimer: NodeJS.Timeout | undefined;

  function end(): void {
    if (isEnded) return;
    isEnded = true;
    queue = [];
    clearInterval(heartbeat);
    response.off('drain', drain);
    options.onEnd();
  }

  function write(text: string): void {
    if (!response.write(text) && !isWaitingForDrain) {
      isWaitingForDrain = true;
      response.once('drain', drain);
    }
  }

  function drain(): void {
    isWaitingForDrain = false;
    while (queue.length > 0 && !isWaitingForDrain && !isEnded) {
      // Messages in writes of about 64 KB: few syscalls, and what waits in Node's buffer (ahead of a
      // closing message) stays small, the rest in the queue, which a close drops.
      let bytes = 0;
      let count = 0;
      while (count < queue.length && bytes < WRITE_BYTES) bytes += (queue[count++] as string).length;
      const pending = queue.slice(0, count).join('');
      queue = queue.slice(count);
      write(pending);
    }
  }

  /** Sends a last message and ends the stream; a client that reads nothing is cut after the grace. */
  function close(closing: LiveClosing): void {
    if (isEnded) return;
    const wasBlocked = isWaitingForDrain;
    end();
    // Written even when the buffer is full: one bounded message more, so the client learns why.
    response.end(sseMessage('closing', closing));
    if (wasBlocked || response.writableLength > 0) {
      // What the kernel still holds for the client is out of sight: the stream is checked once a grace
      // until Node has handed everything on (the closing message last), then left to the client.
      let graces = 0;
      const check = () => {
        if (response.writableLength === 0 || response.destroyed) return;
        if (++graces >= MAX_CLOSE_GRACES) {
          response.destroy();
          return;
        }
        graceTimer = setTimeout(check, options.closeGraceMs);
        graceTimer.unref();
      };
      graceTimer = setTimeout(check, options.closeGraceMs);
      graceTimer.unref();
      response.once('close', () => clearTimeout(graceTimer));
    }
  }

  const heartbeat = setInterval(() => {
    if (isEnded) return;
    void options.isStillAllowed().then(
      (isAllowed) => {
        if (!isAllowed) {
          close({ reason: 'SESSION_ENDED', message: 'The session ended; sign in again to watch live.' });
        } else if (!isWaitingForDrain) {
          write(': keep-alive\n\n');
        }
      },
      () => undefined, // the accounts store could not answer: try again at the next heartbeat
    );
  }, options.heartbeatMs);
  heartbeat.unref();

  response.once('close', end);
  // The client may have gone while its ownership was checked: 'close' fired before anyone listened.
  if (response.destroyed) queueMicrotask(end);

  return {
    /** Pre-encoded messages (sseMessage), in order. */
    send(messages: readonly string[]): void {
      if (isEnded || messages.length === 0) return;
      if (!isWaitingForDrain) {
        write(messages.join(''));
        return;
      }
      if (queue.length + messages.length > options.maxQueuedMessages) {
        close({
          reason: 'SLOW_CONSUMER',
          message: `The stream was closed: more than ${options.maxQueuedMessages} events waited for this client to read them. Reconnect to continue.`,
        });
        return;
      }
      queue.push(...messages);
      peakQueued = Math.max(peakQueued, queue.length);
    },
    close,
    /** The most messages that ever waited in the queue (tests of the bound, metrics). */
    peakQueued: () => peakQueued,
    isEnded: () => isEnded,
  };
}
