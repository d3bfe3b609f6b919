import type { FastifyInstance } from 'fastify';
import { AppError } from '../../errors.ts';
import type { ProjectAccess } from '../../lib/access.ts';
import { type Clock, systemClock } from '../../lib/clock.ts';
import { bearerToken, requireUser } from '../auth/guard.ts';
import type { LiveFeed } from './feed.ts';

export type LiveRoutesOptions = {
  feed: LiveFeed;
  /** Membership (others: 404), at the stream's start and at each heartbeat (a removal ends it). */
  projects: ProjectAccess & { isMember(userId: string, projectId: string): Promise<boolean> };
  /** The server's clock (the streams' session expiry). */
  clock?: Clock;
};

/**
 * The Live screen's stream, `GET /api/v1/projects/:id/live` (docs/live.md). The console reads it with
 * fetch() (EventSource cannot send the Authorization header, and a session token must not travel in a URL,
 * where logs and history keep it).
 */
export async function liveRoutes(
  app: FastifyInstance,
  { feed, projects, clock = systemClock }: LiveRoutesOptions,
): Promise<void> {
  app.addHook('preClose', async () => {
    feed.closeAll({ reason: 'SHUTDOWN', message: 'The server is restarting; reconnect in a moment.' });
  });
  app.get<{ Params: { id: string } }>(
    '/api/v1/projects/:id/live',
    {
      config: {
        docs: {
          summary: 'The live stream of a project (Server-Sent Events)',
          description:
            'See "Live view" in the documentation for the messages; read it with fetch (a session header).',
          tag: 'Live',
          auth: 'session',
          responses: {
            200: { description: 'An event stream that stays open.', contentTypes: ['text/event-stream'] },
          },
        },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const projectId = request.params.id;
      // Membership (others: 404) and the caps (429), checked before the route writes the stream's head.
      await projects.getProjectFor(user.id, projectId);
      feed.assertRoom(user.id, projectId);
      const token = bearerToken(request) ?? '';
      const sessions = request.server.sessions;
      const session = await sessions.describe(token);
      if (!session) throw new AppError(401, 'BAD_AUTHENTICATION', 'Sign in again to watch live.');
      reply.hijack();
      const response = reply.raw;
      response.writeHead(200, {
        ...(reply.getHeaders() as Record<string, string>),
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        // nginx would otherwise buffer the stream.
        'x-accel-buffering': 'no',
      });
      // A first comment: proxies forward the head at once, and the client knows the stream is open.
      response.write(': connected\n\n');
      request.socket.setNoDelay(true);
      feed.open(
        session,
        projectId,
        response,
        async () =>
          (await sessions.verify(token))?.id === user.id && (await projects.isMember(user.id, projectId)),
        clock().getTime(),
      );
    },
  );
}
