import { AcquisitionScreen } from '../../features/acquisition/routes/acquisition-screen';
import { useConsoleContext } from './console-outlet';

export function AcquisitionPage() {
  const { project, basePath } = useConsoleContext();
  return <AcquisitionScreen project={project} configPath={`${basePath}/config`} />;
}
