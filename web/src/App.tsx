import { useEffect } from 'react';
import { Route, Routes, useLocation } from 'react-router-dom';
import { HelpButton } from './help/HelpButton';
import { AdminDashboardPage } from './pages/AdminDashboardPage';
import { AdminLoginPage } from './pages/AdminLoginPage';
import { AdminRequestPage } from './pages/AdminRequestPage';
import { ContactPage } from './pages/ContactPage';
import { DashboardPage } from './pages/DashboardPage';
import { ForgotPasswordPage } from './pages/ForgotPasswordPage';
import { HelpPage } from './pages/HelpPage';
import { LandingPage } from './pages/LandingPage';
import { LoginPage } from './pages/LoginPage';
import { NotFoundPage } from './pages/NotFoundPage';
import { PrivacyPage } from './pages/PrivacyPage';
import { PropertiesPage } from './pages/PropertiesPage';
import { RegisterPage } from './pages/RegisterPage';
import { ReportPage } from './pages/ReportPage';
import { RequestPage } from './pages/RequestPage';
import { ResetPasswordPage } from './pages/ResetPasswordPage';
import { VerifyEmailPage } from './pages/VerifyEmailPage';
import { ZipDetailPage } from './pages/ZipDetailPage';
import { ZipListPage } from './pages/ZipListPage';
import { SessionProvider } from './session/SessionProvider';
import { RequireAdmin, RequireUser } from './session/guards';

/** A new page starts at its top unless the address points at an anchor in it. */
function ScrollToTop() {
  const { pathname, hash } = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the effect must run on every change of page
  useEffect(() => {
    if (!hash) window.scrollTo(0, 0);
  }, [pathname, hash]);
  return null;
}

export function App() {
  return (
    <SessionProvider>
      <ScrollToTop />
      <Routes>
        <Route path="/" element={<LandingPage />} />
        <Route path="/request" element={<RequestPage />} />
        <Route path="/login" element={<LoginPage />} />
        <Route path="/register" element={<RegisterPage />} />
        <Route path="/forgot-password" element={<ForgotPasswordPage />} />
        <Route path="/reset-password" element={<ResetPasswordPage />} />
        <Route path="/verify-email" element={<VerifyEmailPage />} />
        <Route path="/admin-login" element={<AdminLoginPage />} />
        <Route path="/properties" element={<PropertiesPage />} />
        <Route path="/zip" element={<ZipListPage />} />
        <Route path="/zip/:zipCode" element={<ZipDetailPage />} />
        <Route path="/help" element={<HelpPage />} />
        <Route path="/contact" element={<ContactPage />} />
        <Route path="/privacy" element={<PrivacyPage />} />
        <Route
          path="/dashboard"
          element={
            <RequireUser>
              <DashboardPage />
            </RequireUser>
          }
        />
        <Route
          path="/report/:id"
          element={
            <RequireUser>
              <ReportPage />
            </RequireUser>
          }
        />
        <Route
          path="/admin"
          element={
            <RequireAdmin>
              <AdminDashboardPage />
            </RequireAdmin>
          }
        />
        <Route
          path="/admin/request/:id"
          element={
            <RequireAdmin>
              <AdminRequestPage />
            </RequireAdmin>
          }
        />
        <Route path="*" element={<NotFoundPage />} />
      </Routes>
      <HelpButton />
    </SessionProvider>
  );
}
