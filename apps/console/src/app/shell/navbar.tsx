import { DOCS } from '../../components/docs-links';
import { BookOpen, ChevronsUpDown, FolderKanban, LogOut, UserRound } from '../../components/ui/icons';
import { Logo } from '../../components/ui/logo';

interface NavbarProps {
  email: string;
  projectName: string | null;
  onToggleSwitcher: () => void;
  onLogOut: () => void;
}

const chip =
  'inline-flex min-w-0 max-w-full items-center gap-1.5 rounded-full bg-white/80 px-3 py-1 text-xs font-semibold text-indigo-900 ring-1 ring-inset ring-indigo-200';

/**
 * The logo, then who and which project, then the account's links: in that order in the page as on the
 * screen, so Tab follows what a person sees (WCAG 2.4.3). Below 768 px the logo has the first row to
 * itself and the rest shares the second, rather than CSS `order` moving the chips under the account links
 * while Tab still reached them first.
 */
export function Navbar({ email, projectName, onToggleSwitcher, onLogOut }: NavbarProps) {
  return (
    <header className="flex flex-wrap items-center gap-x-4 gap-y-3 px-4 py-3 sm:px-6">
      <div className="flex w-full items-center gap-2 text-indigo-800 md:w-auto">
        <Logo />
        <span className="text-lg font-bold tracking-tight">Polyflow</span>
        <span className="rounded-md bg-indigo-800 px-1.5 py-0.5 text-[0.65rem] font-semibold tracking-widest text-white">
          CONSOLE
        </span>
      </div>
      <div className="flex min-w-0 flex-1 items-center gap-2">
        <span className={`${chip} shrink`} title="Logged in as">
          <UserRound aria-hidden="true" className="size-3.5 shrink-0" />
          <span className="sr-only">Logged in as </span>
          <span className="truncate">{email}</span>
        </span>
        <button
          type="button"
          onClick={onToggleSwitcher}
          aria-label={projectName ? `Switch project (current: ${projectName})` : 'Choose a project'}
          className={`${chip} max-w-[55%] shrink-0 hover:bg-indigo-50 focus-visible:outline-2 focus-visible:outline-indigo-600`}
        >
          <FolderKanban aria-hidden="true" className="size-3.5 shrink-0" />
          <span className="truncate">{projectName ?? 'No project'}</span>
          <ChevronsUpDown aria-hidden="true" className="size-3.5 shrink-0" />
        </button>
      </div>
      <nav aria-label="Account" className="flex shrink-0 items-center gap-1">
        <a
          href={DOCS.home}
          target="_blank"
          rel="noreferrer"
          className="inline-flex h-9 items-center gap-1.5 rounded-lg px-3 text-sm font-semibold text-indigo-800 hover:bg-white/70"
        >
          <BookOpen aria-hidden="true" className="size-4" />
          {/* Icon-only on phones; the text stays the accessible name. */}
          <span className="sr-only sm:not-sr-only">Read the Docs</span>
        </a>
        <button
          type="button"
          onClick={onLogOut}
          className="inline-flex h-9 items-center gap-1.5 rounded-lg px-3 text-sm font-semibold text-indigo-800 hover:bg-white/70 focus-visible:outline-2 focus-visible:outline-indigo-600"
        >
          <LogOut aria-hidden="true" className="size-4" />
          <span className="sr-only sm:not-sr-only">Log Out</span>
        </button>
      </nav>
    </header>
  );
}
