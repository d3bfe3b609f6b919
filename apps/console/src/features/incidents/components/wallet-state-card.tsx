import type { IncidentOccurrence } from '@polyflow/contracts/incidents';
import { Card, CardHeader } from '../../../components/ui/card';
import { DownloadCsvButton } from '../../../components/ui/download-csv-button';
import { walletStateCsv } from '../lib/incident-csv';

/** The wallet as the SDK read it when the error happened (gas balance in the chain's own unit). */
export function WalletStateCard({ occurrence }: { occurrence: IncidentOccurrence }) {
  const state = occurrence.walletState;
  const facts: Array<[string, string, string?]> = [
    ['Gas balance', state.gasBalance ?? '—', state.gasBalanceWei ? `${state.gasBalanceWei} wei` : undefined],
    ['Nonce', state.nonce ?? '—'],
    ['Network', state.network ?? '—', state.chainId === null ? undefined : `Chain ID ${state.chainId}`],
    ['Wallet provider', state.walletProvider ?? '—'],
  ];
  return (
    <Card aria-labelledby="wallet-state-title">
      <CardHeader
        titleId="wallet-state-title"
        eyebrow="At the time of the error"
        title="Wallet state"
        actions={<DownloadCsvButton table="Wallet state" build={() => walletStateCsv(occurrence)} />}
      />
      <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        {facts.map(([label, value, detail]) => (
          <div key={label} className="min-w-0 rounded-xl bg-slate-50 p-3.5 ring-1 ring-inset ring-slate-200">
            <dt className="text-[0.7rem] font-semibold uppercase tracking-wide text-indigo-700">{label}</dt>
            <dd className="mt-1 text-lg font-bold wrap-anywhere text-slate-900">{value}</dd>
            {detail && <dd className="text-xs wrap-anywhere text-slate-600">{detail}</dd>}
          </div>
        ))}
      </dl>
    </Card>
  );
}
