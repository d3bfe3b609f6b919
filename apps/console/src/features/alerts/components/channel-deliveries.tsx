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
  return (
    <div className="overflow-x-auto rounded-lg ring-1 ring-inset ring-slate-200">
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
          {deliveries.data.deliveries.map((delivery) => (
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
                <span
                  className={cn(
                    'rounded-full px-2 py-0.5 font-semibold ring-1 ring-inset',
                    STATE_TONES[delivery.state],
                  )}
                >
                  {STATE_LABELS[delivery.state]}
                </span>{' '}
                <span className="tabular-nums">{delivery.statusCode ?? '—'}</span>
              </td>
              <td className="px-3 py-2 tabular-nums">
                {delivery.latencyMs === null ? '—' : `${delivery.latencyMs} ms`}
              </td>
              <td className="max-w-[16rem] break-words px-3 py-2 text-slate-700">{delivery.error ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
