import { FunnelsScreen } from '../../features/funnels/routes/funnels-screen';
import { useConsoleContext } from './console-outlet';

export function FunnelsPage() {
  const { project } = useConsoleContext();
  return <FunnelsScreen project={project} />;
}
