import { useParams } from 'react-router';
import { IncidentScreen } from '../../features/incidents/routes/incident-screen';
import { useSession } from '../../lib/session';
import { useConsoleContext } from './console-outlet';

export function IncidentPage() {
  const { project, basePath } = useConsoleContext();
  const { id = '' } = useParams();
  const session = useSession();
  return (
    <IncidentScreen
      project={project}
      incidentId={id}
      email={session?.email ?? ''}
      listPath={`${basePath}/errorlogs`}
      configPath={`${basePath}/config`}
    />
  );
}
