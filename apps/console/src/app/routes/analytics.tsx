import { AnalyticsFilterKeys } from '@polyflow/contracts/analytics';
import { useSearchParams } from 'react-router';
import { AnalyticsScreen } from '../../features/analytics/routes/analytics-screen';
import { CohortHeatmapCard } from '../../features/wallets/components/cohort-heatmap-card';
import { FailedCostCard } from '../../features/wallets/components/failed-cost-card';
import { LifecycleCard } from '../../features/wallets/components/lifecycle-card';
import { useConsoleContext } from './console-outlet';

/** The URL parameters a lifecycle count's link carries to the Wallets list: the period and the filters. */
const CARRIED = ['period', 'from', 'to', ...AnalyticsFilterKeys];

export function AnalyticsPage() {
  const { project, basePath } = useConsoleContext();
  const [params] = useSearchParams();
  // The list of a stage over the same period and filters: as many wallets as the count (docs/wallets.md).
  const listPath = (stage: string) => {
    const carried = new URLSearchParams();
    for (const name of CARRIED) for (const value of params.getAll(name)) carried.append(name, value);
    carried.set('stage', stage);
    return `${basePath}/wallets?${carried.toString()}`;
  };
  return (
    <AnalyticsScreen
      project={project}
      configPath={`${basePath}/config`}
      metricsCards={(range) => ({
        leading: (
          <>
            <LifecycleCard range={range} listPath={listPath} />
            <CohortHeatmapCard range={range} />
          </>
        ),
        besideGas: <FailedCostCard range={range} />,
      })}
    />
  );
}
