import { AnalyticsScreen } from '../../features/analytics/routes/analytics-screen';
import { CohortHeatmapCard } from '../../features/wallets/components/cohort-heatmap-card';
import { FailedCostCard } from '../../features/wallets/components/failed-cost-card';
import { LifecycleCard } from '../../features/wallets/components/lifecycle-card';
import { useConsoleContext } from './console-outlet';

export function AnalyticsPage() {
  const { project, basePath } = useConsoleContext();
  return (
    <AnalyticsScreen
      project={project}
      configPath={`${basePath}/config`}
      metricsCards={(range) => ({
        leading: (
          <>
            <LifecycleCard range={range} listPath={(stage) => `${basePath}/wallets?stage=${stage}`} />
            <CohortHeatmapCard range={range} />
          </>
        ),
        besideGas: <FailedCostCard range={range} />,
      })}
    />
  );
}
