import type { LiveEvent } from '@polyflow/contracts/live';
import { useEffect, useRef, useState } from 'react';
import { isApiError } from '../../../lib/api-client';
import { streamLiveEvents } from '../api/stream-live-events';

/** The newest events kept on screen; older ones drop off the end. */
export const KEPT_EVENTS = 50;
const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 30_000;

export type LiveStatus =
  /** Opening the first stream. */
  | 'connecting'
  | 'open'
  /** The stream ended or failed; another attempt follows after a delay. */
  | 'reconnecting'
  /** Refused for good (no such project, session ended): no retry. */
  | 'failed';

export interface LiveEvents {
  status: LiveStatus;
  /** Newest first. */
  events: LiveEvent[];
  /** Why the last stream ended or was refused, for people. */
  problem: string | null;
  /** Events received since the screen opened (the list keeps only the newest). */
  received: number;
  retry(): void;
}

const isFinal = (error: unknown) =>
  isApiError(error) && (error.status === 401 || error.status === 404 || error.errorCode === 'NOT_LOGGED_IN');

/**
 * Follows the project's live stream while mounted: reconnects with a growing delay (1 s … 30 s) after a
 * dropped or closed stream, and stops for good on a refusal that a retry cannot fix.
 */
export function useLiveEvents(projectId: string): LiveEvents {
  const [status, setStatus] = useState<LiveStatus>('connecting');
  const [events, setEvents] = useState<LiveEvent[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const [received, setReceived] = useState(0);
  const delay = useRef(FIRST_RETRY_MS);
  const restart = useRef<() => void>(() => undefined);

  useEffect(() => {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let isStopped = false;

    const connect = () => {
      let finalClosing: string | null = null;
      streamLiveEvents(
        projectId,
        {
          onOpen() {
            delay.current = FIRST_RETRY_MS;
            setStatus('open');
            setProblem(null);
          },
          onEvent(event) {
            setEvents((current) => [event, ...current].slice(0, KEPT_EVENTS));
            setReceived((count) => count + 1);
          },
          onClosing(closing) {
            if (closing.reason === 'SESSION_ENDED')
              finalClosing = 'Your session ended. Log in again to watch live.';
            if (closing.reason === 'ACCESS_ENDED') finalClosing = closing.message;
            setProblem(closing.message);
          },
        },
        controller.signal,
      ).then(
        () => (finalClosing === null ? retryLater() : stop(finalClosing)),
        (error: unknown) => {
          if (controller.signal.aborted) return;
          const message = error instanceof Error ? error.message : 'The live stream failed.';
          if (isFinal(error)) stop(message);
          else {
            setProblem(message);
            retryLater();
          }
        },
      );
    };
    const stop = (message: string) => {
      isStopped = true;
      setProblem(message);
      setStatus('failed');
    };
    const retryLater = () => {
      if (isStopped || controller.signal.aborted) return;
      setStatus('reconnecting');
      timer = setTimeout(connect, delay.current);
      delay.current = Math.min(delay.current * 2, MAX_RETRY_MS);
    };

    // Another project's events never show under this one.
    setEvents([]);
    setReceived(0);
    setStatus('connecting');
    connect();
    restart.current = () => {
      clearTimeout(timer);
      isStopped = false;
      delay.current = FIRST_RETRY_MS;
      setStatus('connecting');
      connect();
    };
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [projectId]);

  return { status, events, problem, received, retry: () => restart.current() };
}
