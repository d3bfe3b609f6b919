import { IncidentsScreen } from '../../features/incidents/routes/incidents-screen';
import { useConsoleContext } from './console-outlet';

export function IncidentsPage() {
  const { project, basePath } = useConsoleContext();
  return <IncidentsScreen project={project} configPath={`${basePath}/config`} />;
}
