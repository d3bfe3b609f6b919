import type { ReportSubscription } from '@polyflow/contracts/reports';
import { useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Spinner } from '../../../components/ui/spinner';
import { useReportSubscriptions } from '../api/get-report-subscriptions';
import { useUpdateMyReportSubscription } from '../api/update-my-report-subscription';

type Period = 'weekly' | 'monthly';
const PERIOD_LABELS: Record<Period, string> = { weekly: 'Weekly report', monthly: 'Monthly report' };

function Choice({ isOn }: { isOn: boolean }) {
  return (
    <span className={isOn ? 'font-semibold text-emerald-800' : 'text-slate-600'}>{isOn ? 'On' : 'Off'}</span>
  );
}

/**
 * Who gets the weekly (Mondays) and monthly (the 1st) email reports. Everyone sees everyone's choice; each
 * member, viewers included, turns their own on or off.
 */
export function ReportSubscriptions({ projectId, email }: { projectId: string; email: string }) {
  const subscriptions = useReportSubscriptions(projectId);
  const update = useUpdateMyReportSubscription();
  // The choice being saved, set in the same event as the click: the mutation's own pending state reaches
  // React a tick later, and a controlled checkbox would spring back for that tick.
  const [saving, setSaving] = useState<Pick<ReportSubscription, Period> | null>(null);

  if (subscriptions.isPending) {
    return (
      <p className="flex items-center gap-2 text-sm text-slate-600">
        <Spinner /> Loading the report subscriptions…
      </p>
    );
  }
  if (subscriptions.isError) {
    return <Alert tone="error">Could not load the report subscriptions: {subscriptions.error.message}</Alert>;
  }

  const change = (own: Pick<ReportSubscription, Period>, period: Period, isOn: boolean) => {
    const choice = { weekly: own.weekly, monthly: own.monthly, [period]: isOn };
    setSaving(choice);
    update.mutate({ projectId, ...choice }, { onSettled: () => setSaving(null) });
  };

  return (
    <div className="flex flex-col gap-3">
      {update.isError && <Alert tone="error">{update.error.message}</Alert>}
      <ul
        aria-label="Report subscriptions"
        className="flex flex-col divide-y divide-slate-100 rounded-lg ring-1 ring-inset ring-slate-200"
      >
        {subscriptions.data.reportSubscriptions.map((subscription) => {
          const isSelf = subscription.email === email;
          const shown = isSelf && saving ? saving : subscription;
          return (
            <li
              key={subscription.userId}
              className="flex flex-wrap items-center justify-between gap-3 px-3 py-2.5"
            >
              <span className="flex min-w-0 items-center gap-2 text-sm font-medium text-slate-800">
                <span className="truncate">{subscription.email}</span>
                {isSelf && <span className="shrink-0 text-xs font-normal text-slate-600">(you)</span>}
              </span>
              <span className="flex flex-wrap items-center gap-4 text-sm">
                {(['weekly', 'monthly'] as const).map((period) =>
                  isSelf ? (
                    <label key={period} className="flex cursor-pointer items-center gap-2 text-slate-800">
                      <input
                        type="checkbox"
                        className="size-4 accent-indigo-700"
                        checked={shown[period]}
                        disabled={saving !== null}
                        onChange={(event) => change(shown, period, event.target.checked)}
                      />
                      {PERIOD_LABELS[period]}
                    </label>
                  ) : (
                    <span key={period} className="flex items-center gap-1.5 text-slate-700">
                      {PERIOD_LABELS[period]}: <Choice isOn={subscription[period]} />
                    </span>
                  ),
                )}
              </span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
