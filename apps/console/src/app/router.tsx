import { lazy, type ReactNode, Suspense } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { useDocumentTitle } from '../hooks/use-document-title';
import { useRouteFocus } from '../hooks/use-route-focus';
import { RouteErrorBoundary } from './routes/route-error-boundary';

// Declarative routes rather than a data router: the data APIs would add ~17 KB gzip to the first
// screen (budget: 150 KB), and nothing here needs loaders. Every screen is its own chunk.
const AuthRoute = lazy(() =>
  import('../features/auth/routes/auth-route').then((m) => ({ default: m.AuthRoute })),
);
const VerifyRoute = lazy(() =>
  import('../features/auth/routes/verify-route').then((m) => ({ default: m.VerifyRoute })),
);
const ForgotPasswordRoute = lazy(() =>
  import('../features/auth/routes/forgot-password-route').then((m) => ({ default: m.ForgotPasswordRoute })),
);
const ConsoleLayout = lazy(() =>
  import('./routes/console-layout').then((m) => ({ default: m.ConsoleLayout })),
);
const AnalyticsPage = lazy(() => import('./routes/analytics').then((m) => ({ default: m.AnalyticsPage })));
const LivePage = lazy(() => import('./routes/live').then((m) => ({ default: m.LivePage })));
const AcquisitionPage = lazy(() =>
  import('./routes/acquisition').then((m) => ({ default: m.AcquisitionPage })),
);
const IncidentsPage = lazy(() => import('./routes/incidents').then((m) => ({ default: m.IncidentsPage })));
const IncidentPage = lazy(() => import('./routes/incident').then((m) => ({ default: m.IncidentPage })));
const MembersPage = lazy(() => import('./routes/members').then((m) => ({ default: m.MembersPage })));
const AlertsPage = lazy(() => import('./routes/alerts').then((m) => ({ default: m.AlertsPage })));
const AuditLogPage = lazy(() => import('./routes/audit-log').then((m) => ({ default: m.AuditLogPage })));
const InviteRoute = lazy(() =>
  import('../features/members/routes/invite-route').then((m) => ({ default: m.InviteRoute })),
);
const FunnelsPage = lazy(() => import('./routes/funnels').then((m) => ({ default: m.FunnelsPage })));
const EventsPage = lazy(() => import('./routes/events').then((m) => ({ default: m.EventsPage })));
const WalletsPage = lazy(() => import('./routes/wallets').then((m) => ({ default: m.WalletsPage })));
const WalletPage = lazy(() => import('./routes/wallet').then((m) => ({ default: m.WalletPage })));
const ConfigPage = lazy(() => import('./routes/config').then((m) => ({ default: m.ConfigPage })));
const UiComponentsPage = lazy(() =>
  import('./routes/ui-components').then((m) => ({ default: m.UiComponentsPage })),
);
// GraphiQL and its editors are the console's largest chunk; nothing but this route loads them.
const GraphiqlPage = lazy(() => import('./routes/graphiql').then((m) => ({ default: m.GraphiqlPage })));
const NotFoundRoute = lazy(() => import('./routes/not-found').then((m) => ({ default: m.NotFoundRoute })));

function RouteFocus() {
  useRouteFocus();
  return null;
}

/** A page title for a screen of a feature that does not set its own. */
function Titled({ title, children }: { title: string; children: ReactNode }) {
  useDocumentTitle(title);
  return children;
}

/**
 * Spec §2 routes. A `console/analytics` URL (after login, before a project is chosen) matches
 * `:projectID` with a value that is not a project; the shell then opens the project switcher.
 */
export function AppRoutes() {
  return (
    <RouteErrorBoundary>
      <RouteFocus />
      <Suspense fallback={null}>
        <Routes>
          <Route path="/" element={<AuthRoute />} />
          <Route path="/verify" element={<VerifyRoute />} />
          <Route path="/forgot-password" element={<ForgotPasswordRoute />} />
          <Route
            path="/invite"
            element={
              <Titled title="Join a project">
                <InviteRoute />
              </Titled>
            }
          />
          <Route path="/console" element={<Navigate to="/console/analytics" replace />} />
          <Route path="/console/:projectID" element={<ConsoleLayout />}>
            <Route index element={<AnalyticsPage />} />
            <Route path="analytics" element={<AnalyticsPage />} />
            <Route path="live" element={<LivePage />} />
            <Route path="acquisition" element={<AcquisitionPage />} />
            <Route path="errorlogs" element={<IncidentsPage />} />
            <Route path="errorlogs/:id" element={<IncidentPage />} />
            <Route path="events" element={<EventsPage />} />
            <Route path="funnels" element={<FunnelsPage />} />
            <Route path="wallets" element={<WalletsPage />} />
            <Route path="wallets/:address" element={<WalletPage />} />
            <Route path="config" element={<ConfigPage />} />
            <Route path="alerts" element={<AlertsPage />} />
            <Route path="members" element={<MembersPage />} />
            <Route path="audit-log" element={<AuditLogPage />} />
            <Route path="uicomponents" element={<UiComponentsPage />} />
            <Route path="graphiql" element={<GraphiqlPage />} />
          </Route>
          <Route path="*" element={<NotFoundRoute />} />
        </Routes>
      </Suspense>
    </RouteErrorBoundary>
  );
}
