import type { IntegrationStatus } from '@polyflow/contracts/integration';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { eventTypeLabel } from '../../../components/ui/event-types';
import { Activity, Play, RotateCcw } from '../../../components/ui/icons';
import { formatDateTime } from '../../../lib/format';
import { integrationStatusQueryOptions, useIntegrationStatus } from '../api/get-integration-status';
import { TEST_DURATION_MS, useIntegrationTest } from '../hooks/use-integration-test';

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

function successText(status: IntegrationStatus): string {
  const origin = status.lastEvent?.origin ?? status.origins[0]?.origin ?? 'an unknown origin';
  const last = status.lastEvent?.receivedAt ?? status.origins[0]?.lastReceivedAt;
  return `Received ${plural(status.eventsSince, 'event')} from ${origin}${last ? `, last at ${formatDateTime(last)}` : ''}.`;
}

/** What stands between the project and its first event, in plain words. */
function waitingText(status: IntegrationStatus | null): { tone: 'info' | 'warning'; text: string } {
  if (!status) return { tone: 'info', text: 'Checking the project…' };
  if (!status.hasApiKey)
    return {
      tone: 'warning',
      text: 'No API key yet: create one above, then install the SDK with it. Waiting…',
    };
  if (status.whitelistedDomains.length === 0)
    return {
      tone: 'warning',
      text: 'No whitelisted domain: the server refuses events until you add the domain your dapp runs on. Waiting…',
    };
  return {
    tone: 'info',
    text: `Waiting for events… Open your dapp (${status.whitelistedDomains.join(', ')}) in another tab and use it.`,
  };
}

export function IntegrationTestCard({ projectId }: { projectId: string }) {
  const queryClient = useQueryClient();
  const before = useIntegrationStatus(projectId);
  const test = useIntegrationTest(projectId);
  const secondsLeft = Math.ceil((TEST_DURATION_MS - test.elapsedMs) / 1000);
  const lastEvent = test.status?.lastEvent ?? before.data?.lastEvent ?? null;

  const isWatching = test.phase === 'running' || test.phase === 'receiving';
  useEffect(() => {
    if (test.phase === 'succeeded')
      void queryClient.invalidateQueries(integrationStatusQueryOptions(projectId));
  }, [test.phase, projectId, queryClient]);

  const waiting = waitingText(test.status);
  return (
    <Card aria-labelledby="integration-title">
      <CardHeader
        titleId="integration-title"
        eyebrow="Verification"
        title="Test SDK Integration"
        description="Start the test, then open your dapp in another tab. We watch for its events for 60 seconds."
      />
      <p className="mb-4 flex items-center gap-2 text-sm text-slate-600">
        <Activity aria-hidden="true" className="size-4 text-indigo-600" />
        {lastEvent
          ? `Last event seen: ${eventTypeLabel(lastEvent.type)} from ${lastEvent.origin} at ${formatDateTime(lastEvent.receivedAt)}.`
          : before.isPending
            ? 'Looking for recent events…'
            : before.error
              ? `Could not read recent events: ${before.error.message}`
              : 'No events received yet.'}
      </p>

      {isWatching && (
        <div className="mb-4 flex flex-col gap-3">
          <div
            role="progressbar"
            aria-label="Test progress"
            aria-valuemin={0}
            aria-valuemax={60}
            aria-valuenow={Math.floor(test.elapsedMs / 1000)}
            className="h-2 overflow-hidden rounded-full bg-indigo-100"
          >
            <div
              className="h-full rounded-full bg-indigo-600 transition-[width] duration-200"
              style={{ width: `${(test.elapsedMs / TEST_DURATION_MS) * 100}%` }}
            />
          </div>
          <p className="text-xs font-semibold uppercase tracking-wide text-slate-500">{secondsLeft} s left</p>
          {test.error ? (
            <Alert tone="warning">Could not reach the server ({test.error.message}). Retrying…</Alert>
          ) : test.phase === 'receiving' && test.status ? (
            <Alert tone="success">{successText(test.status)} Still watching for more.</Alert>
          ) : (
            <Alert tone={waiting.tone}>{waiting.text}</Alert>
          )}
        </div>
      )}
      {test.phase === 'succeeded' && test.status && (
        <Alert tone="success" className="mb-4">
          {successText(test.status)}
        </Alert>
      )}
      {test.phase === 'timed-out' && (
        <Alert tone="warning" className="mb-4">
          No events arrived in 60 seconds. Check that the snippet is on the page, that it uses the current API
          key, and that the page's domain is whitelisted.
          {test.status && !test.status.hasApiKey && ' This project has no API key.'}
          {test.status?.hasApiKey &&
            test.status.whitelistedDomains.length === 0 &&
            ' No domain is whitelisted.'}
        </Alert>
      )}
      {test.phase === 'failed' && (
        <Alert tone="error" className="mb-4">
          {test.error?.status === 404
            ? 'The integration status is not available for this project (404).'
            : `The test stopped: ${test.error?.message ?? 'unknown error'}`}
        </Alert>
      )}

      <Button onClick={test.start} disabled={isWatching} isLoading={isWatching}>
        {test.phase === 'idle' ? (
          <Play aria-hidden="true" className="size-4" />
        ) : (
          !isWatching && <RotateCcw aria-hidden="true" className="size-4" />
        )}
        {test.phase === 'idle' ? 'Start test' : isWatching ? 'Testing…' : 'Run the test again'}
      </Button>
    </Card>
  );
}
