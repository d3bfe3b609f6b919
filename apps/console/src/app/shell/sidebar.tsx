import type { Role } from '@polyflow/contracts/members';
import { Link, NavLink } from 'react-router';
import { cn } from '../../components/ui/cn';
import { canManage } from '../../lib/roles';
import { CONSOLE_SCREENS } from './console-screens';

// A white ring, 2 px clear of the link: on the indigo-800 column (10:1) and around the current screen's white
// pill alike (WCAG 1.4.11, 2.4.7).
const linkClass = (isCurrent: boolean) =>
  cn(
    'flex items-center gap-2.5 rounded-xl px-3 py-2 text-sm font-semibold whitespace-nowrap transition-colors',
    'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white',
    isCurrent ? 'bg-white text-indigo-800 shadow-sm' : 'text-indigo-100 hover:bg-indigo-700 hover:text-white',
  );

/**
 * A 14 rem indigo-800 column on wide screens; on narrow ones the same links wrap onto a second line
 * rather than scroll, so that none is cut off at the edge of a phone.
 * `analytics` is also the shell's index route, so it is the current page there too.
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
        {CONSOLE_SCREENS.filter(({ forManagers }) => !forManagers || (role !== null && canManage(role))).map(
          ({ path, label, Icon }) => {
            const content = (
              <>
                <Icon aria-hidden="true" className="size-4 shrink-0" />
                {label}
              </>
            );
            return (
              <li key={path} className="shrink-0">
                {/* NavLink only marks a link whose own path is the URL: at the index it would leave Analytics
                    highlighted but not "current page" for a screen reader. */}
                {isIndex && path === 'analytics' ? (
                  <Link to={`${basePath}/${path}`} aria-current="page" className={linkClass(true)}>
                    {content}
                  </Link>
                ) : (
                  <NavLink to={`${basePath}/${path}`} className={({ isActive }) => linkClass(isActive)}>
                    {content}
                  </NavLink>
                )}
              </li>
            );
          },
        )}
      </ul>
    </nav>
  );
}
