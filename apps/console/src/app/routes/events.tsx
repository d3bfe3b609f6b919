import { EventsScreen } from '../../features/custom-events/routes/events-screen';
import { useConsoleContext } from './console-outlet';

export function EventsPage() {
  const { project } = useConsoleContext();
  return <EventsScreen project={project} />;
}
