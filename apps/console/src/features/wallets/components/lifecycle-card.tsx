import type { LifecycleCounts, LifecycleStageName } from '@polyflow/contracts/wallets';
import { LifecycleStageLabels, LifecycleStages } from '@polyflow/contracts/wallets';
import { Link } from 'react-router';
import { ChangeBadge } from '../../../components/ui/change-badge';
import { ChartCard } from '../../../components/ui/chart-card';
import { DownloadCsvButton } from '../../../components/ui/download-csv-button';
import { StatTile } from '../../../components/ui/stat-tile';
import { compare } from '../../../lib/comparison';
import { formatDate } from '../../../lib/format';
import { useWalletLifecycle } from '../api/get-wallet-lifecycle';
import type { WalletRange } from '../api/wallet-keys';
import { formatCount } from '../lib/format';
import { FilteredNote } from './filtered-note';

const FIELD: Record<LifecycleStageName, keyof LifecycleCounts> = {
  NEW: 'new',
  RESURRECTED: 'resurrected',
  POWER: 'power',
  ACTIVE: 'active',
  AT_RISK: 'atRisk',
  CHURNED: 'churned',
};
const BETTER: Record<LifecycleStageName, 'up' | 'down'> = {
  NEW: 'up',
  RESURRECTED: 'up',
  POWER: 'up',
  ACTIVE: 'up',
  AT_RISK: 'down',
  CHURNED: 'down',
};
const HINT: Record<LifecycleStageName, string> = {
  NEW: 'First seen in the last 7 days',
  RESURRECTED: 'Back after 28 quiet days',
  POWER: 'Top tenth by active days',
  ACTIVE: 'Active in the last 14 days',
  AT_RISK: 'Quiet for 14 days',
  CHURNED: 'Quiet for 28 days',
};

/** Wallets per lifecycle stage (docs/wallets.md) as of the period's last day, against the previous period. */
export function LifecycleCard({
  range,
  listPath,
}: {
  range: WalletRange;
  listPath: (stage: string) => string;
}) {
  const lifecycle = useWalletLifecycle(range);
  const data = lifecycle.data;
  return (
    <ChartCard
      title="Wallet lifecycle"
      eyebrow={data ? `As of ${formatDate(data.current.asOf, 'UTC')}` : 'Wallets'}
      status={lifecycle.status}
      errorText={lifecycle.error ? `Could not load the stages: ${lifecycle.error.message}` : undefined}
      onRetry={() => void lifecycle.refetch()}
      heightClass="min-h-0"
      className="xl:col-span-2"
      actions={
        <DownloadCsvButton
          table="Wallet lifecycle"
          disabled={!data}
          build={() => ({
            header: ['Stage', `Wallets (${data?.current.asOf})`, `Previous (${data?.previous.asOf})`],
            rows: LifecycleStages.map((stage) => [
              LifecycleStageLabels[stage],
              data?.current[FIELD[stage]] as number,
              data?.previous[FIELD[stage]] as number,
            ]),
          })}
        />
      }
    >
      <FilteredNote range={range} card="lifecycle" />
      {data && (
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 xl:grid-cols-6" data-testid="lifecycle-counts">
          {LifecycleStages.map((stage) => {
            const current = data.current[FIELD[stage]] as number;
            const previous = data.previous[FIELD[stage]] as number;
            return (
              <StatTile
                key={stage}
                label={LifecycleStageLabels[stage]}
                value={
                  <Link to={listPath(stage)} className="hover:underline">
                    {formatCount(current)}
                  </Link>
                }
                change={
                  <ChangeBadge comparison={compare(current, previous, 'relative')} better={BETTER[stage]} />
                }
                hint={`${HINT[stage]} · was ${formatCount(previous)}`}
              />
            );
          })}
        </dl>
      )}
    </ChartCard>
  );
}
