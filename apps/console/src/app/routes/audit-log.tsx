import { Navigate } from 'react-router';
import { AuditLogScreen } from '../../features/audit-log/routes/audit-log-screen';
import { canManage } from '../../lib/roles';
import { useConsoleContext } from './console-outlet';

/** Admins and the owner only: a viewer following an old link lands on the members instead. */
export function AuditLogPage() {
  const { project, basePath } = useConsoleContext();
  if (!canManage(project.role)) return <Navigate to={`${basePath}/members`} replace />;
  return <AuditLogScreen project={project} />;
}
