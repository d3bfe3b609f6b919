import { LiveScreen } from '../../features/live/routes/live-screen';
import { useConsoleContext } from './console-outlet';

export function LivePage() {
  const { project, basePath } = useConsoleContext();
  return <LiveScreen project={project} configPath={`${basePath}/config`} />;
}
