import { AnalyticsScreen } from '../../features/analytics/routes/analytics-screen';
import { useConsoleContext } from './console-outlet';

export function AnalyticsPage() {
  const { project, basePath } = useConsoleContext();
  return <AnalyticsScreen project={project} configPath={`${basePath}/config`} />;
}
