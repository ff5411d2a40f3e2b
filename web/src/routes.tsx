import { lazy, Suspense, type ComponentType } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { RequireSession } from './ui/require-session';
import { Layout } from './ui/layout';
import { RouteError } from './ui/route-error';

// Every page is its own chunk: the first page loads only the shell and itself.
function page(load: () => Promise<{ default: ComponentType }>): RouteObject['element'] {
  const Page = lazy(load);
  return (
    <Suspense
      fallback={
        <p className="loading" role="status">
          Loading…
        </p>
      }
    >
      <Page />
    </Suspense>
  );
}

export function createAppRouter() {
  return createBrowserRouter([
    { path: '/setup', element: page(() => import('./pages/setup.page')), errorElement: <RouteError /> },
    { path: '/sign-in', element: page(() => import('./pages/sign-in.page')), errorElement: <RouteError /> },
    { path: '/reset-password', element: page(() => import('./pages/reset-password.page')) },
    { path: '/accept-invitation', element: page(() => import('./pages/accept-invitation.page')) },
    {
      element: (
        <RequireSession>
          <Layout />
        </RequireSession>
      ),
      errorElement: <RouteError />,
      children: [
        { path: '/', element: page(() => import('./pages/overview.page')) },
        { path: '/monitors', element: page(() => import('./pages/monitors.page')) },
        { path: '/monitors/new', element: page(() => import('./pages/monitor-edit.page')) },
        { path: '/monitors/:id', element: page(() => import('./pages/monitor-detail.page')) },
        { path: '/monitors/:id/edit', element: page(() => import('./pages/monitor-edit.page')) },
        { path: '/incidents', element: page(() => import('./pages/incidents.page')) },
        { path: '/incidents/:id', element: page(() => import('./pages/incident-detail.page')) },
        { path: '/status-pages', element: page(() => import('./pages/status-pages.page')) },
        { path: '/status-pages/new', element: page(() => import('./pages/status-page-edit.page')) },
        { path: '/status-pages/:id', element: page(() => import('./pages/status-page-edit.page')) },
        { path: '/status-pages/:id/notices', element: page(() => import('./pages/status-page-notices.page')) },
        { path: '/status-pages/:id/notices/new', element: page(() => import('./pages/notice-edit.page')) },
        { path: '/status-pages/:id/notices/:nid', element: page(() => import('./pages/notice-edit.page')) },
        { path: '/maintenance-windows', element: page(() => import('./pages/maintenance-windows.page')) },
        { path: '/maintenance-windows/new', element: page(() => import('./pages/maintenance-window-edit.page')) },
        { path: '/maintenance-windows/:id', element: page(() => import('./pages/maintenance-window-edit.page')) },
        { path: '/destinations', element: page(() => import('./pages/destinations.page')) },
        { path: '/destinations/new', element: page(() => import('./pages/destination-edit.page')) },
        { path: '/destinations/:id', element: page(() => import('./pages/destination-edit.page')) },
        { path: '/members', element: page(() => import('./pages/members.page')) },
        { path: '/api-keys', element: page(() => import('./pages/api-keys.page')) },
        { path: '/api-keys/:id', element: page(() => import('./pages/api-key-detail.page')) },
        { path: '/imports', element: page(() => import('./pages/import.page')) },
        { path: '/imports/openapi', element: page(() => import('./pages/import-openapi.page')) },
        { path: '/imports/grpc', element: page(() => import('./pages/import-grpc.page')) },
        { path: '/intelligence', element: page(() => import('./pages/intelligence.page')) },
        { path: '/reports', element: page(() => import('./pages/reports.page')) },
        { path: '/reports/availability', element: page(() => import('./pages/report-availability.page')) },
        { path: '/reports/performance', element: page(() => import('./pages/report-performance.page')) },
        { path: '/reports/sla', element: page(() => import('./pages/report-sla.page')) },
        { path: '/reports/incidents', element: page(() => import('./pages/report-incidents.page')) },
        { path: '/reports/intelligence', element: page(() => import('./pages/report-intelligence.page')) },
        { path: '/reports/monitor-health', element: page(() => import('./pages/report-monitor-health.page')) },
        { path: '/sla-targets', element: page(() => import('./pages/sla-targets.page')) },
        { path: '/sla-targets/new', element: page(() => import('./pages/sla-target-edit.page')) },
        { path: '/sla-targets/:id', element: page(() => import('./pages/sla-target-edit.page')) },
        { path: '/custom-reports', element: page(() => import('./pages/custom-reports.page')) },
        { path: '/custom-reports/new', element: page(() => import('./pages/custom-report-edit.page')) },
        { path: '/custom-reports/:id', element: page(() => import('./pages/custom-report.page')) },
        { path: '/custom-reports/:id/edit', element: page(() => import('./pages/custom-report-edit.page')) },
        { path: '/scheduled-reports', element: page(() => import('./pages/scheduled-reports.page')) },
        { path: '/scheduled-reports/new', element: page(() => import('./pages/scheduled-report-edit.page')) },
        { path: '/scheduled-reports/:id', element: page(() => import('./pages/scheduled-report-edit.page')) },
        { path: '/silences', element: page(() => import('./pages/silences.page')) },
        { path: '/settings', element: page(() => import('./pages/settings.page')) },
        { path: '/settings/audit-log', element: page(() => import('./pages/audit-log.page')) },
        { path: '/profile', element: page(() => import('./pages/profile.page')) },
      ],
    },
    // Outside the sign-in guard: an unknown address says so to anyone (the server answers it with 404 too),
    // rather than sending a signed-out visitor to sign in first.
    { path: '*', element: page(() => import('./pages/not-found.page')) },
  ]);
}
