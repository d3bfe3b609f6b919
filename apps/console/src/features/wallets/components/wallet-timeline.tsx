import type { Wallet, WalletSession, WalletTimelineEvent } from '@polyflow/contracts/wallets';
import { useState } from 'react';
import { Link } from 'react-router';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { cn } from '../../../components/ui/cn';
import { eventTypeLabel } from '../../../components/ui/event-types';
import {
  AlertTriangle,
  ArrowRightLeft,
  FileSignature,
  Link2,
  MousePointerClick,
  Sparkles,
} from '../../../components/ui/icons';
import { formatDateTime, formatTimeOfDay, shortenAddress } from '../../../lib/format';
import { useOlderSessions } from '../api/get-wallet';
import { chainName, formatNative, nativeSymbol } from '../lib/format';

const STAGE_TONE: Record<string, string> = {
  confirmed: 'text-emerald-700',
  reverted: 'text-red-700',
  failed: 'text-red-700',
  rejected: 'text-amber-700',
};

/** A page view, a wallet or network change, a signature, a custom event (by its name), in words. */
export function describeOtherEvent(event: WalletTimelineEvent): string {
  const provider = event.walletProvider;
  switch (event.type) {
    case 'page_view':
      return `Viewed ${event.path ?? 'a page'}`;
    case 'wallet_detected':
      return provider ? `Wallet detected: ${provider}` : 'Wallet detected';
    case 'wallet_connected':
      return `Connected${provider ? ` with ${provider}` : ''} on ${chainName(event.chainId)}`;
    case 'wallet_disconnected':
      return `Disconnected${provider ? ` from ${provider}` : ''}`;
    case 'chain_changed':
      return event.chainId === null ? 'Network changed' : `Switched to ${chainName(event.chainId)}`;
    case 'custom':
      return event.eventName ? `Custom event ${event.eventName}` : 'Custom event';
    case 'signature':
      return ['Signature', event.sigStage, event.sigMethod && `(${event.sigMethod})`]
        .filter(Boolean)
        .join(' ');
    default:
      return eventTypeLabel(event.type);
  }
}

function EventLine({
  event,
  incidentPath,
}: {
  event: WalletTimelineEvent;
  incidentPath: (id: string) => string;
}) {
  const at = (
    <span className="w-16 shrink-0 font-mono text-xs text-slate-500">{formatTimeOfDay(event.time)}</span>
  );
  if (event.type === 'tx') {
    const fee =
      event.gasUsed && event.effectiveGasPrice
        ? (BigInt(event.gasUsed) * BigInt(event.effectiveGasPrice)).toString()
        : null;
    return (
      <li className="flex gap-3 py-1.5">
        {at}
        <ArrowRightLeft aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-indigo-600" />
        <div className="min-w-0 text-sm">
          <span className="font-semibold text-slate-900">Transaction </span>
          <span className={cn('font-semibold', STAGE_TONE[event.txStage ?? ''] ?? 'text-slate-700')}>
            {event.txStage ?? 'stage?'}
          </span>
          <span className="text-slate-600">
            {' '}
            on {chainName(event.chainId)}
            {event.txTo && (
              <>
                {' '}
                to <span className="font-mono">{shortenAddress(event.txTo)}</span>
              </>
            )}
            {event.selector && (
              <>
                {' '}
                · <span className="font-mono">{event.selector}</span>
              </>
            )}
          </span>
          {event.txHash && <div className="font-mono text-xs break-all text-slate-500">{event.txHash}</div>}
          {fee && (
            <div className="text-xs text-slate-600">
              Gas used {BigInt(event.gasUsed ?? '0').toLocaleString('en-US')}, paid {formatNative(fee)}{' '}
              {nativeSymbol(event.chainId)}
              {event.txStage === 'reverted' && <span className="font-semibold text-red-700"> (burned)</span>}
            </div>
          )}
          {event.errorMessage && <div className="text-xs text-red-700">{event.errorMessage}</div>}
        </div>
      </li>
    );
  }
  if (event.type === 'error') {
    return (
      <li className="flex gap-3 py-1.5">
        {at}
        <AlertTriangle aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-red-600" />
        <div className="min-w-0 text-sm">
          <span className="font-semibold text-red-800">
            {event.errorSource === 'wallet' ? 'Wallet error' : 'Error'}
          </span>
          {event.rpcMethod && <span className="font-mono text-xs text-slate-600"> {event.rpcMethod}</span>}
          {event.errorCode !== null && (
            <span className="text-xs text-slate-600"> (code {event.errorCode})</span>
          )}
          <div className="break-words text-slate-700">{event.errorMessage}</div>
          {(event.gasBalance !== null || event.walletNonce !== null) && (
            <div className="text-xs text-slate-600">
              Wallet state:{' '}
              {event.gasBalance !== null && (
                <>
                  balance {formatNative(event.gasBalance)} {nativeSymbol(event.chainId)}
                </>
              )}
              {event.walletNonce !== null && <>, nonce {event.walletNonce}</>}
              {event.chainId !== null && <>, {chainName(event.chainId)}</>}
            </div>
          )}
          {event.incidentId && (
            <Link
              to={incidentPath(event.incidentId)}
              className="text-xs font-semibold text-indigo-700 underline"
            >
              Open its incident
            </Link>
          )}
        </div>
      </li>
    );
  }
  const Icon =
    event.type === 'signature'
      ? FileSignature
      : event.type === 'page_view'
        ? MousePointerClick
        : event.type === 'custom'
          ? Sparkles
          : Link2;
  const label = describeOtherEvent(event);
  return (
    <li className="flex gap-3 py-1.5">
      {at}
      <Icon aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-slate-500" />
      <span className="min-w-0 break-words text-sm text-slate-700">{label}</span>
    </li>
  );
}

export function WalletTimeline({
  projectId,
  wallet,
  incidentPath,
}: {
  projectId: string;
  wallet: Wallet;
  incidentPath: (id: string) => string;
}) {
  // The page answers the newest sessions; older ones come 10 at a time, on demand (docs/wallets.md).
  const [asked, setAsked] = useState(false);
  const older = useOlderSessions(projectId, wallet.address, wallet.olderSessions, asked);
  const sessions: WalletSession[] = [
    ...wallet.sessions,
    ...(older.data?.pages.flatMap((page) => page.sessions) ?? []),
  ];
  const more = asked ? older.hasNextPage : wallet.olderSessions !== null;
  const loading = older.isFetching;
  return (
    <Card aria-labelledby="wallet-sessions">
      <CardHeader
        titleId="wallet-sessions"
        eyebrow="Timeline"
        title="Sessions"
        description={`The latest ${sessions.length} of ${wallet.sessionCount} sessions, newest first.`}
      />
      <ol className="flex flex-col gap-4">
        {sessions.map((session) => (
          <SessionItem key={session.sessionId} session={session} incidentPath={incidentPath} />
        ))}
      </ol>
      {older.isError && (
        <div className="mt-4">
          <Alert tone="error">Could not load older sessions: {older.error.message}</Alert>
        </div>
      )}
      {more && (
        <div className="mt-4 flex justify-center">
          <Button
            variant="secondary"
            disabled={loading}
            onClick={() => (asked ? older.fetchNextPage() : setAsked(true))}
          >
            {loading ? 'Loading…' : 'Older sessions'}
          </Button>
        </div>
      )}
    </Card>
  );
}

function SessionItem({
  session,
  incidentPath,
}: {
  session: WalletSession;
  incidentPath: (id: string) => string;
}) {
  return (
    <li className="rounded-xl bg-slate-50 p-3 ring-1 ring-inset ring-slate-200 sm:p-4">
      <p className="text-xs font-semibold uppercase tracking-wide text-slate-600">
        {formatDateTime(session.startedAt)}
        <span className="font-normal normal-case text-slate-500"> · {session.events.length} events</span>
      </p>
      <ul
        className="mt-1 divide-y divide-slate-200"
        aria-label={`Session of ${formatDateTime(session.startedAt)}`}
      >
        {session.events.map((event) => (
          <EventLine key={event.eventId} event={event} incidentPath={incidentPath} />
        ))}
      </ul>
    </li>
  );
}
