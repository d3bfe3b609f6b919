import type { Project } from '@polyflow/contracts/projects';
import { Suspense, useEffect, useState } from 'react';
import { Navigate, Outlet, useLocation, useNavigate, useParams } from 'react-router';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { EmptyState } from '../../components/ui/empty-state';
import { FolderKanban, FolderX } from '../../components/ui/icons';
import { Spinner } from '../../components/ui/spinner';
import { logout } from '../../features/auth/api/logout';
import { useProjects } from '../../features/projects/api/get-projects';
import { ProjectSwitcher } from '../../features/projects/components/project-switcher';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { setDisplayTimeZone } from '../../lib/format';
import { loginPathFor, noteLogout } from '../../lib/return-path';
import { useSession } from '../../lib/session';
import {
  clearUserData,
  readCurrentProject,
  readLastProjectId,
  readPendingInvitation,
  type StoredSession,
  writeCurrentProject,
  writeLastProjectId,
} from '../../lib/storage';
import { CONSOLE_SCREENS, consoleScreenTitle } from '../shell/console-screens';
import { Navbar } from '../shell/navbar';
import { PromoBanner } from '../shell/promo-banner';
import { Sidebar } from '../shell/sidebar';
import { MAIN_ID, SkipLink } from '../shell/skip-link';
import { UnverifiedWarning } from '../shell/unverified-warning';
import { UpsellModal } from '../shell/upsell-modal';
import type { ConsoleOutletContext } from './console-outlet';

/** Every screen of a project (the sidebar's list): the ones another project can be opened on. */
const SCREENS = new Set(CONSOLE_SCREENS.map((screen) => screen.path));

/**
 * The screen to show another project on: the same screen with its filters, but a detail (an incident,
 * a wallet) goes back to its list: incident ids and wallets belong to one project.
 */
function sameScreenPath(projectID: string, screenPath: string, search: string): string {
  const screen = SCREENS.has(projectID) ? projectID : screenPath.split('/')[0] || 'analytics';
  return SCREENS.has(screen) ? `${screen}${search}` : 'analytics';
}

function projectToReopen(projects: readonly Project[], email: string): Project | null {
  const byId = (id: string | null | undefined) => projects.find((project) => project.id === id) ?? null;
  const only = projects.length === 1 ? (projects[0] ?? null) : null;
  return byId(readCurrentProject()?.id) ?? byId(readLastProjectId(email)) ?? only;
}

/** Guarded `console/:projectID`: visitors without a live session go to the root route. */
export function ConsoleLayout() {
  const session = useSession();
  const { pathname, search } = useLocation();
  // The page asked for goes along, so that logging in opens it (lib/return-path.ts).
  if (!session) return <Navigate to={loginPathFor(pathname, search)} replace />;
  // An invitation link opened before logging in (or signing up and verifying) is accepted now.
  const pendingInvitation = readPendingInvitation();
  if (pendingInvitation) return <Navigate to={`/invite?token=${pendingInvitation}`} replace />;
  return <ConsoleShell session={session} />;
}

function ConsoleShell({ session }: { session: StoredSession }) {
  const { projectID = '' } = useParams();
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const projects = useProjects();
  const [isSwitcherToggled, setIsSwitcherToggled] = useState(false);
  const [isUpsellOpen, setIsUpsellOpen] = useState(false);

  const basePath = `/console/${projectID}`;
  const screenPath = pathname.slice(basePath.length).replace(/^\//, '');
  const currentProject = projects.data?.find((project) => project.id === projectID) ?? null;
  // Every date, period and chart below is written in the project's time zone (src/lib/format.ts): set
  // before the screens render, so the first render already has it.
  setDisplayTimeZone(currentProject?.timeZone);
  // PF_CURRENT_PROJECT follows the project in the URL (and its latest answer from the server).
  useEffect(() => {
    if (!currentProject) return;
    writeCurrentProject(currentProject);
    writeLastProjectId(session.email, currentProject.id);
  }, [currentProject, session.email]);

  // A URL without a project (`console/analytics` after login, after deleting one): reopen the stored
  // current project, else the one this account opened last, else its only project; the switcher asks
  // only when there is a real choice to make. A URL naming a project this user cannot open says so
  // instead of showing another project.
  const isUnknownProject =
    projects.isSuccess && !currentProject && projectID !== '' && !SCREENS.has(projectID);
  // "Wallets · Shop · Polyflow" (WCAG 2.4.2). A URL without a project names its screen in place of one.
  useDocumentTitle(
    isUnknownProject
      ? 'Project not found'
      : projects.isSuccess && !currentProject
        ? 'Choose a project'
        : consoleScreenTitle(SCREENS.has(projectID) && screenPath === '' ? projectID : screenPath),
    currentProject?.name,
  );
  if (projects.data && !currentProject && !isUnknownProject) {
    const reopen = projectToReopen(projects.data, session.email);
    if (reopen) {
      const screen = screenPath || (SCREENS.has(projectID) ? projectID : 'analytics');
      return <Navigate to={`/console/${reopen.id}/${screen}`} replace />;
    }
  }
  const mustChoose = projects.isSuccess && !currentProject && !isUnknownProject;

  const chooseProject = (project: Project) => {
    writeCurrentProject(project);
    setIsSwitcherToggled(false);
    navigate(`/console/${project.id}/${sameScreenPath(projectID, screenPath, search)}`);
  };
  const logOut = () => {
    void logout();
    // A logout has no page to come back to: the guard's `next` is for deep links opened without a session.
    noteLogout();
    clearUserData();
    navigate('/');
  };

  const context: ConsoleOutletContext | null = currentProject ? { project: currentProject, basePath } : null;
  return (
    <div className="min-h-screen">
      <SkipLink />
      <PromoBanner onOpen={() => setIsUpsellOpen(true)} />
      <Navbar
        email={session.email}
        projectName={currentProject?.name ?? null}
        onToggleSwitcher={() => setIsSwitcherToggled((isOpen) => !isOpen)}
        onLogOut={logOut}
      />
      <div className="mx-auto flex w-full max-w-screen-2xl flex-col gap-4 px-4 pb-10 sm:px-6 lg:flex-row lg:gap-6">
        <Sidebar basePath={basePath} isIndex={screenPath === ''} role={currentProject?.role ?? null} />
        <main id={MAIN_ID} className="flex min-w-0 flex-1 flex-col gap-4">
          {session.verified === false && <UnverifiedWarning />}
          {context ? (
            <Suspense
              fallback={
                <Card role="status" className="flex items-center gap-2 text-sm text-slate-600">
                  <Spinner /> Loading…
                </Card>
              }
            >
              <Outlet context={context} />
            </Suspense>
          ) : projects.error ? (
            <Alert tone="error">
              Could not load your projects: {projects.error.message}{' '}
              <Button size="sm" variant="secondary" onClick={() => projects.refetch()}>
                Try again
              </Button>
            </Alert>
          ) : projects.isPending ? (
            <Card role="status" className="flex items-center gap-2 text-sm text-slate-600">
              <Spinner /> Loading your projects…
            </Card>
          ) : isUnknownProject ? (
            <Card>
              <EmptyState icon={<FolderX className="size-6" />} title="Project not found" isPageHeading>
                <span className="block">
                  There is no project <code className="font-mono break-all">{projectID}</code> among yours: it
                  does not exist, was deleted, or belongs to another account.
                </span>
                <Button className="mt-4" onClick={() => setIsSwitcherToggled(true)}>
                  Choose one of your projects
                </Button>
              </EmptyState>
            </Card>
          ) : (
            <Card>
              <EmptyState icon={<FolderKanban className="size-6" />} title="Choose a project" isPageHeading>
                Open one of your projects or create a new one to see its analytics and settings.
              </EmptyState>
            </Card>
          )}
        </main>
      </div>
      {(isSwitcherToggled || mustChoose) && (
        <ProjectSwitcher
          isOpen
          currentProjectId={currentProject?.id ?? null}
          onChoose={chooseProject}
          onClose={mustChoose ? undefined : () => setIsSwitcherToggled(false)}
        />
      )}
      <UpsellModal isOpen={isUpsellOpen} onClose={() => setIsUpsellOpen(false)} />
    </div>
  );
}
