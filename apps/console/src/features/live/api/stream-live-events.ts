import {
  type LiveClosing,
  LiveClosingSchema,
  type LiveEvent,
  LiveEventSchema,
} from '@polyflow/contracts/live';
import { ApiError } from '../../../lib/api-client';
import { getActiveSession } from '../../../lib/session';
import { clearStoredSession } from '../../../lib/storage';
import { parseSseChunk, type SseParser } from '../lib/sse';

export interface LiveStreamHandlers {
  /** The server accepted the stream (200): events follow as they arrive. */
  onOpen(): void;
  onEvent(event: LiveEvent): void;
  /** The server's last message before it closed the stream itself. */
  onClosing(closing: LiveClosing): void;
}

/**
 * `GET /api/v1/projects/:id/live`, read with fetch() rather than EventSource: EventSource cannot send the
 * Authorization header, and the session token must not go into the URL. Resolves when the stream ends;
 * rejects with an ApiError when the server refuses it (404, 429…) or the network fails.
 */
export async function streamLiveEvents(
  projectId: string,
  handlers: LiveStreamHandlers,
  signal: AbortSignal,
): Promise<void> {
  const session = getActiveSession();
  if (!session) throw new ApiError('NOT_LOGGED_IN', 'Not logged in');
  let response: Response;
  try {
    response = await fetch(`/api/v1/projects/${encodeURIComponent(projectId)}/live`, {
      headers: { Accept: 'text/event-stream', Authorization: `Bearer ${session.token}` },
      credentials: 'same-origin',
      cache: 'no-store',
      signal,
    });
  } catch (error) {
    if (signal.aborted) throw error;
    throw new ApiError('NETWORK_ERROR', 'Could not reach the Polyflow server. Check your connection.');
  }
  if (!response.ok || !response.body) {
    const body = (await response.json().catch(() => undefined)) as
      | { errorCode?: string; message?: string }
      | undefined;
    if (response.status === 401) clearStoredSession();
    throw new ApiError(
      body?.errorCode ?? 'HTTP_ERROR',
      body?.message ?? `The server answered ${response.status}`,
      response.status,
    );
  }
  handlers.onOpen();
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  const parser: SseParser = { buffer: '' };
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    for (const message of parseSseChunk(parser, value)) {
      if (message.event === 'event') {
        const parsed = LiveEventSchema.safeParse(JSON.parse(message.data));
        if (parsed.success) handlers.onEvent(parsed.data);
      } else if (message.event === 'closing') {
        const parsed = LiveClosingSchema.safeParse(JSON.parse(message.data));
        if (parsed.success) handlers.onClosing(parsed.data);
      }
    }
  }
}
