import { useParams } from 'react-router';
import { IncidentScreen } from '../../features/incidents/routes/incident-screen';
import { useConsoleContext } from './console-outlet';

export function IncidentPage() {
  const { project, basePath } = useConsoleContext();
  const { id = '' } = useParams();
  return (
    <IncidentScreen
      project={project}
      incidentId={id}
      listPath={`${basePath}/errorlogs`}
      configPath={`${basePath}/config`}
    />
  );
}
