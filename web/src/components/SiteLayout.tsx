import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Logo } from './Logo';
import { type NavItem, SiteFooter, SiteHeader } from './SiteHeader';

/** Header, main and footer shared by the public and signed-in pages. */
export function SiteLayout({ children, nav }: { children: ReactNode; nav?: NavItem[] }) {
  return (
    <div className="site">
      <SiteHeader items={nav} />
      <main id="main" tabIndex={-1} className="site-main">
        {children}
      </main>
      <SiteFooter />
    </div>
  );
}

/** The quieter frame of the sign-in and account screens: logo, one centred card, footer links. */
export function AuthLayout({ children, wide = false }: { children: ReactNode; wide?: boolean }) {
  return (
    <div className="auth-page">
      <header className="auth-top">
        <Logo />
      </header>
      <main id="main" tabIndex={-1} className={`auth-card card${wide ? ' auth-card-wide' : ''}`}>
        {children}
      </main>
      <footer className="auth-footer">
        <Link to="/help">Help Center</Link>
        <Link to="/contact">Contact</Link>
        <Link to="/privacy">Privacy Policy</Link>
      </footer>
    </div>
  );
}

export function BackLink({ to = '/', label = 'Back to Home' }: { to?: string; label?: string }) {
  return (
    <Link to={to} className="back-link">
      <span aria-hidden="true">←</span> {label}
    </Link>
  );
}
