import type { IntegrationStatus } from '@polyflow/contracts/integration';
import { useCallback, useEffect, useRef, useState } from 'react';
import { type ApiError, isApiError } from '../../../lib/api-client';
import { getIntegrationStatus } from '../api/get-integration-status';

export const TEST_DURATION_MS = 60_000;
export const POLL_INTERVAL_MS = 2_000;

/** `receiving`: events arrived and the watch goes on to its end; `succeeded`: it ended with events. */
export type TestPhase = 'idle' | 'running' | 'receiving' | 'succeeded' | 'timed-out' | 'failed';

export interface IntegrationTest {
  phase: TestPhase;
  elapsedMs: number;
  /** The latest answer of the test; null before the first one arrives. */
  status: IntegrationStatus | null;
  /** The latest failed poll. While running, a network failure is retried; a 4xx ends the test. */
  error: ApiError | null;
  start: () => void;
}

/**
 * Polls the integration status every 2 s for 60 s, counting only events received after the test
 * started. The first event says the integration works; the watch goes on for the whole 60 s it announced,
 * so later batches keep the count and "last event seen" moving.
 */
export function useIntegrationTest(projectId: string): IntegrationTest {
  const [phase, setPhase] = useState<TestPhase>('idle');
  const [elapsedMs, setElapsedMs] = useState(0);
  const [status, setStatus] = useState<IntegrationStatus | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const run = useRef<{ stop: () => void } | null>(null);

  const stopRun = useCallback(() => {
    run.current?.stop();
    run.current = null;
  }, []);

  useEffect(() => stopRun, [stopRun]);
  // A different project is a different test.
  // biome-ignore lint/correctness/useExhaustiveDependencies: projectId is the trigger, not an input.
  useEffect(() => {
    stopRun();
    setPhase('idle');
    setStatus(null);
    setError(null);
    setElapsedMs(0);
  }, [projectId, stopRun]);

  const start = useCallback(() => {
    stopRun();
    const since = new Date();
    const startedAt = Date.now();
    const controller = new AbortController();
    let pollTimer: ReturnType<typeof setTimeout> | undefined;
    let isActive = true;
    let hasEvents = false;
    const ticker = setInterval(() => setElapsedMs(Math.min(Date.now() - startedAt, TEST_DURATION_MS)), 250);
    const deadline = setTimeout(() => finish(hasEvents ? 'succeeded' : 'timed-out'), TEST_DURATION_MS);

    function finish(final: TestPhase) {
      if (!isActive) return;
      stop();
      setElapsedMs(Math.min(Date.now() - startedAt, TEST_DURATION_MS));
      setPhase(final);
    }
    function stop() {
      isActive = false;
      controller.abort();
      clearTimeout(pollTimer);
      clearTimeout(deadline);
      clearInterval(ticker);
    }
    async function poll() {
      try {
        const answer = await getIntegrationStatus(projectId, since, controller.signal);
        if (!isActive) return;
        setStatus(answer);
        setError(null);
        if (answer.eventsSince > 0 && !hasEvents) {
          hasEvents = true;
          setPhase('receiving');
        }
      } catch (failure) {
        if (!isActive) return;
        const apiError = isApiError(failure) ? failure : null;
        setError(apiError);
        // 404: the project is gone (or the server has no such route); retrying will not help.
        if (apiError && apiError.status >= 400 && apiError.status < 500) return finish('failed');
      }
      pollTimer = setTimeout(poll, POLL_INTERVAL_MS);
    }

    run.current = { stop };
    setPhase('running');
    setStatus(null);
    setError(null);
    setElapsedMs(0);
    void poll();
  }, [projectId, stopRun]);

  return { phase, elapsedMs, status, error, start };
}
