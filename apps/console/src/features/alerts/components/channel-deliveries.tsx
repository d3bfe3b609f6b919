import type { AlertDelivery as Delivery } from '@polyflow/contracts/alert-channels';
import { Alert } from '../../../components/ui/alert';
import { cn } from '../../../components/ui/cn';
import { Spinner } from '../../../components/ui/spinner';
import { formatDateTime } from '../../../lib/format';
import { useChannelDeliveries } from '../api/get-channel-deliveries';

const NOTICE_LABELS: Record<string, string> = {
  'alert.triggered': 'Triggered',
  'alert.resolved': 'Resolved',
  test: 'Test',
};

const STATE_TONES: Record<Delivery['state'], string> = {
  pending: 'bg-amber-50 text-amber-900 ring-amber-300',
  delivered: 'bg-emerald-50 text-emerald-800 ring-emerald-200',
  failed: 'bg-red-50 text-red-800 ring-red-200',
};
const STATE_LABELS: Record<Delivery['state'], string> = {
  pending: 'Pending',
  delivered: 'Delivered',
  failed: 'Failed',
};

/** Each attempt to deliver a notice to the channel, newest first: when, which notice, the answer, how long. */
export function ChannelDeliveries({
  projectId,
  channelId,
  channelName,
}: {
  projectId: string;
  channelId: string;
  channelName: string;
}) {
  const deliveries = useChannelDeliveries(projectId, channelId);
  if (deliveries.isPending) {
    return (
      <p className="flex items-center gap-2 text-sm text-slate-600">
        <Spinner /> Loading the delivery log…
      </p>
    );
  }
  if (deliveries.isError) {
    return <Alert tone="error">Could not load the delivery log: {deliveries.error.message}</Alert>;
  }
  if (deliveries.data.deliveries.length === 0) {
    return (
      <p className="text-sm text-slate-600">
        Nothing sent to this channel yet. "Send test" sends a test notice.
      </p>
    );
  }
  const rows = deliveries.data.deliveries;
  return (
    <>
      {/* A phone gets one card per attempt; the six columns would not fit 390 px. */}
      <ol aria-label={`Deliveries to ${channelName}`} className="flex flex-col gap-2 sm:hidden">
        {rows.map((delivery) => (
          <li
            key={delivery.id}
            className="flex flex-col gap-1 rounded-lg px-3 py-2 text-xs text-slate-800 ring-1 ring-inset ring-slate-200"
          >
            <span className="flex flex-wrap items-center gap-2">
              <StateBadge delivery={delivery} />
              <span className="font-semibold">
                {NOTICE_LABELS[delivery.noticeType] ?? delivery.noticeType}
              </span>
              <span className="font-mono text-slate-600">{delivery.noticeId.slice(0, 8)}</span>
            </span>
            <span>{formatDateTime(delivery.at)}</span>
            <span className="text-slate-700">
              Attempt {delivery.attempt} · status {delivery.statusCode ?? '—'} ·{' '}
              {delivery.latencyMs === null ? 'no answer' : `${delivery.latencyMs} ms`}
            </span>
            {delivery.error && <span className="break-words text-red-800">{delivery.error}</span>}
          </li>
        ))}
      </ol>
      <div className="hidden overflow-x-auto rounded-lg ring-1 ring-inset ring-slate-200 sm:block">
        <table className="w-full min-w-[40rem] text-left text-xs">
          <caption className="sr-only">Delivery log of {channelName}</caption>
          <thead className="bg-slate-50 text-slate-600">
            <tr>
              <th scope="col" className="px-3 py-2 font-semibold">
                Time
              </th>
              <th scope="col" className="px-3 py-2 font-semibold">
                Notice
              </th>
              <th scope="col" className="px-3 py-2 font-semibold">
                Attempt
              </th>
              <th scope="col" className="px-3 py-2 font-semibold">
                Status
              </th>
              <th scope="col" className="px-3 py-2 font-semibold">
                Latency
              </th>
              <th scope="col" className="px-3 py-2 font-semibold">
                Error
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 text-slate-800">
            {rows.map((delivery) => (
              <tr key={delivery.id}>
                <td className="whitespace-nowrap px-3 py-2">{formatDateTime(delivery.at)}</td>
                <td className="px-3 py-2">
                  {NOTICE_LABELS[delivery.noticeType] ?? delivery.noticeType}{' '}
                  <span className="font-mono text-slate-600" title={delivery.noticeId}>
                    {delivery.noticeId.slice(0, 8)}
                  </span>
                </td>
                <td className="px-3 py-2 tabular-nums">{delivery.attempt}</td>
                <td className="whitespace-nowrap px-3 py-2">
                  <StateBadge delivery={delivery} />{' '}
                  <span className="tabular-nums">{delivery.statusCode ?? '—'}</span>
                </td>
                <td className="px-3 py-2 tabular-nums">
                  {delivery.latencyMs === null ? '—' : `${delivery.latencyMs} ms`}
                </td>
                <td className="max-w-[16rem] break-words px-3 py-2 text-slate-700">
                  {delivery.error ?? '—'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

function StateBadge({ delivery }: { delivery: Delivery }) {
  return (
    <span
      className={cn('rounded-full px-2 py-0.5 font-semibold ring-1 ring-inset', STATE_TONES[delivery.state])}
    >
      {STATE_LABELS[delivery.state]}
    </span>
  );
}
