import type { Role } from '@polyflow/contracts/members';
import { NavLink } from 'react-router';
import { cn } from '../../components/ui/cn';
import {
  BarChart3,
  BellRing,
  Blocks,
  Braces,
  Code2,
  Filter,
  History,
  type IconComponent,
  MousePointerClick,
  Radio,
  ShieldAlert,
  UserCog,
  Users,
  Wallet,
} from '../../components/ui/icons';
import { canManage } from '../../lib/roles';

const links: Array<{ to: string; label: string; Icon: IconComponent; forManagers?: boolean }> = [
  { to: 'analytics', label: 'Analytics', Icon: BarChart3 },
  { to: 'live', label: 'Live', Icon: Radio },
  { to: 'wallets', label: 'Wallets', Icon: Wallet },
  { to: 'events', label: 'Events', Icon: MousePointerClick },
  { to: 'funnels', label: 'Funnels', Icon: Filter },
  { to: 'acquisition', label: 'User Acquisition', Icon: Users },
  { to: 'errorlogs', label: 'Incident Tracking', Icon: ShieldAlert },
  { to: 'alerts', label: 'Alerts', Icon: BellRing },
  { to: 'config', label: 'SDK', Icon: Code2 },
  { to: 'members', label: 'Members', Icon: UserCog },
  // Admins and the owner read the audit log; viewers do not see the link.
  { to: 'audit-log', label: 'Audit log', Icon: History, forManagers: true },
  { to: 'uicomponents', label: 'Components', Icon: Blocks },
  { to: 'graphiql', label: 'GraphQL API', Icon: Braces },
];

/**
 * A 14 rem indigo-800 column on wide screens; on narrow ones the same links wrap onto a second line
 * rather than scroll, so that none is cut off at the edge of a phone.
 * `analytics` is also the shell's index route, so it is active there too.
 */
export function Sidebar({
  basePath,
  isIndex,
  role,
}: {
  basePath: string;
  isIndex: boolean;
  role: Role | null;
}) {
  return (
    <nav
      aria-label="Console"
      className="shrink-0 rounded-2xl bg-indigo-800 p-2 shadow-md lg:sticky lg:top-4 lg:w-56 lg:self-start lg:p-3"
    >
      <ul className="flex flex-wrap gap-1 lg:flex-col lg:flex-nowrap">
        {links
          .filter(({ forManagers }) => !forManagers || (role !== null && canManage(role)))
          .map(({ to, label, Icon }) => (
            <li key={to} className="shrink-0">
              <NavLink
                to={`${basePath}/${to}`}
                className={({ isActive }) =>
                  cn(
                    'flex items-center gap-2.5 rounded-xl px-3 py-2 text-sm font-semibold whitespace-nowrap transition-colors',
                    'focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-white',
                    isActive || (isIndex && to === 'analytics')
                      ? 'bg-white text-indigo-800 shadow-sm'
                      : 'text-indigo-100 hover:bg-indigo-700 hover:text-white',
                  )
                }
              >
                <Icon aria-hidden="true" className="size-4 shrink-0" />
                {label}
              </NavLink>
            </li>
          ))}
      </ul>
    </nav>
  );
}
