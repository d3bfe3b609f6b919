/**
 * The floor of `npm run bench:floor`: a server that does only what every ingestion server must do with a
 * batch: read the request, parse its JSON body and answer 200 with the counts, storing nothing. With
 * `fastify` as the first argument it does the same through Fastify (the framework Polyflow's server runs
 * on), with the same text/plain parser as the ingestion route; otherwise through node:http alone.
 * Prints "ready" once listening on the port given as the second argument.
 */
import http from 'node:http';
import Fastify from 'fastify';

type Batch = { events: unknown[] };

function answer(batch: Batch): string {
  return JSON.stringify({ accepted: batch.events.length, duplicates: 0 });
}

async function listenWithFastify(port: number): Promise<void> {
  const app = Fastify({ logger: false });
  app.addContentTypeParser(
    ['text/plain', 'application/json'],
    { parseAs: 'string' },
    (_request, body, done) => {
      done(null, JSON.parse(body as string));
    },
  );
  app.post('/api/v1/events', (request, reply) => {
    reply.header('content-type', 'application/json').send(answer(request.body as Batch));
  });
  await app.listen({ port, host: '127.0.0.1' });
}

function listenWithNodeHttp(port: number): Promise<void> {
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = answer(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Batch);
      response.writeHead(200, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
      });
      response.end(body);
    });
  });
  server.keepAliveTimeout = 60_000;
  return new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
}

const [framework, port] = process.argv.slice(2);
await (framework === 'fastify' ? listenWithFastify(Number(port)) : listenWithNodeHttp(Number(port)));
console.log('ready');
