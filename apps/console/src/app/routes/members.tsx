import { useNavigate } from 'react-router';
import { MembersScreen } from '../../features/members/routes/members-screen';
import { useSession } from '../../lib/session';
import { useConsoleContext } from './console-outlet';

export function MembersPage() {
  const { project } = useConsoleContext();
  const session = useSession();
  const navigate = useNavigate();
  return (
    <MembersScreen
      project={project}
      email={session?.email ?? ''}
      // Leaving clears the current project; the shell then reopens another or the switcher.
      onLeft={() => navigate('/console/analytics')}
    />
  );
}
