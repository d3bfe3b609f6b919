import http from 'node:http';

/** One parsed text/event-stream message; comments (heartbeats) are counted apart. */
export type SseMessage = { event: string; id: string | undefined; data: string };

/** A live stream read by a real HTTP client over a socket, the way the console's fetch() reads it. */
export type Stream = {
  status: number;
  headers: http.IncomingHttpHeaders;
  messages: SseMessage[];
  comments: string[];
  ended: Promise<void>;
  response: http.IncomingMessage;
  request: http.ClientRequest;
  next(count: number, timeoutMs?: number): Promise<SseMessage[]>;
};

/** Opens `GET /api/v1/projects/:id/live` on a listening server. */
export function openLiveStream(baseUrl: string, projectId: string, token: string): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${baseUrl}/api/v1/projects/${projectId}/live`, {
      headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
    });
    request.on('error', reject);
    request.on('response', (response) => {
      const messages: SseMessage[] = [];
      const comments: string[] = [];
      const waiters: Array<() => void> = [];
      let buffer = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        buffer += chunk;
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const fields = { event: 'message', id: undefined as string | undefined, data: '' };
          let isComment = true;
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) comments.push(line.slice(1).trim());
            else {
              isComment = false;
              const [name, ...rest] = line.split(': ');
              const value = rest.join(': ');
              if (name === 'event') fields.event = value;
              if (name === 'id') fields.id = value;
              if (name === 'data') fields.data += value;
            }
          }
          if (!isComment) messages.push(fields);
          for (const wake of waiters.splice(0)) wake();
          end = buffer.indexOf('\n\n');
        }
      });
      const ended = new Promise<void>((done) => {
        response.on('close', done);
        response.on('error', () => done());
      });
      resolve({
        status: response.statusCode ?? 0,
        headers: response.headers,
        messages,
        comments,
        ended,
        response,
        request,
        async next(count, timeoutMs = 5_000) {
          const deadline = Date.now() + timeoutMs;
          while (messages.length < count) {
            if (Date.now() > deadline)
              throw new Error(`only ${messages.length} of ${count} messages arrived`);
            await new Promise<void>((wake) => {
              waiters.push(wake);
              setTimeout(wake, 50);
            });
          }
          return messages.slice(0, count);
        },
      });
    });
  });
}
