import { AlertsScreen } from '../../features/alerts/routes/alerts-screen';
import { useSession } from '../../lib/session';
import { useConsoleContext } from './console-outlet';

export function AlertsPage() {
  const { project } = useConsoleContext();
  const session = useSession();
  return <AlertsScreen project={project} email={session?.email ?? ''} />;
}
