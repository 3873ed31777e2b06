import type { ComponentType } from 'react';
import { Outlet, type RouteObject, createBrowserRouter } from 'react-router-dom';
import { PageSpinner } from '../components/Spinner';
import { RequireAdmin, RequireUser } from '../session/guards';
import { RootLayout } from './RootLayout';
import { RootError, RouteError } from './RouteError';

function PageFallback() {
  return <PageSpinner label="Loading page" />;
}

/**
 * One route whose page arrives in its own chunk when first visited (React Router `lazy`), with
 * a spinner while the first page loads and an error boundary of its own: a page that fails to
 * load or throws shows a readable error page, the rest of the app keeps working.
 */
function page(path: string, load: () => Promise<ComponentType>): RouteObject {
  return {
    path,
    lazy: async () => ({ Component: await load() }),
    HydrateFallback: PageFallback,
    errorElement: <RouteError />,
  };
}

/**
 * Every route of the app (spec section 2). Adding a screen: one `page(...)` line here, the page
 * itself under src/features/<feature>/routes/. Nothing here imports a page module statically,
 * so the landing page ships only its own code.
 */
export const routes: RouteObject[] = [
  {
    id: 'root',
    element: <RootLayout />,
    errorElement: <RootError />,
    children: [
      page('/', () => import('../pages/LandingPage').then((m) => m.LandingPage)),
      page('/request', () => import('../features/requests/routes/RequestPage').then((m) => m.RequestPage)),
      page('/login', () => import('../pages/LoginPage').then((m) => m.LoginPage)),
      page('/register', () => import('../pages/RegisterPage').then((m) => m.RegisterPage)),
      page('/forgot-password', () => import('../pages/ForgotPasswordPage').then((m) => m.ForgotPasswordPage)),
      page('/reset-password', () => import('../pages/ResetPasswordPage').then((m) => m.ResetPasswordPage)),
      page('/verify-email', () => import('../pages/VerifyEmailPage').then((m) => m.VerifyEmailPage)),
      page('/admin-login', () => import('../pages/AdminLoginPage').then((m) => m.AdminLoginPage)),
      page('/properties', () => import('../features/requests/routes/PropertiesPage').then((m) => m.PropertiesPage)),
      page('/zip', () => import('../features/zip/routes/ZipListPage').then((m) => m.ZipListPage)),
      page('/zip/:zipCode', () => import('../features/zip/routes/ZipDetailPage').then((m) => m.ZipDetailPage)),
      page('/help', () => import('../pages/HelpPage').then((m) => m.HelpPage)),
      page('/contact', () => import('../pages/ContactPage').then((m) => m.ContactPage)),
      page('/privacy', () => import('../pages/PrivacyPage').then((m) => m.PrivacyPage)),
      page('/shared/:token', () =>
        import('../features/reports/routes/SharedReportPage').then((m) => m.SharedReportPage),
      ),
      {
        element: (
          <RequireUser>
            <Outlet />
          </RequireUser>
        ),
        errorElement: <RouteError />,
        children: [
          page('/dashboard', () => import('../features/dashboard/routes/DashboardPage').then((m) => m.DashboardPage)),
          page('/report/:id', () => import('../features/reports/routes/ReportPage').then((m) => m.ReportPage)),
          page('/settings', () => import('../features/account/routes/SettingsPage').then((m) => m.SettingsPage)),
        ],
      },
      {
        element: (
          <RequireAdmin>
            <Outlet />
          </RequireAdmin>
        ),
        errorElement: <RouteError />,
        children: [
          page('/admin', () => import('../features/admin/routes/AdminDashboardPage').then((m) => m.AdminDashboardPage)),
          page('/admin/requests', () =>
            import('../features/admin/routes/AdminRequestsPage').then((m) => m.AdminRequestsPage),
          ),
          page('/admin/request/:id', () =>
            import('../features/admin/routes/AdminRequestPage').then((m) => m.AdminRequestPage),
          ),
          page('/admin/zip-import', () =>
            import('../features/admin/routes/ZipImportPage').then((m) => m.ZipImportPage),
          ),
          page('/admin/security', () =>
            import('../features/admin/routes/AdminSecurityPage').then((m) => m.AdminSecurityPage),
          ),
        ],
      },
      page('*', () => import('../pages/NotFoundPage').then((m) => m.NotFoundPage)),
    ],
  },
];

export function createRouter() {
  return createBrowserRouter(routes);
}
