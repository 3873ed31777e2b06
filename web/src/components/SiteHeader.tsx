import { Link, NavLink } from 'react-router-dom';
import { useSession } from '../session/SessionProvider';
import { Icon, type IconName } from './Icon';
import { Logo } from './Logo';

export type NavItem = {
  to: string;
  label: string;
  kind?: 'link' | 'primary' | 'ghost';
  icon?: IconName;
  /** On a phone only the icon shows (the label stays for screen readers), so the row fits 375 px. */
  compact?: boolean;
};

/** The signed-in visitor's own account (password, their data, deleting it), on every page's header. */
const SETTINGS: NavItem = { to: '/settings', label: 'Settings', icon: 'settings', compact: true };

/** The public navigation of the landing page (spec: Browse Reports, Sign In, Get Started). */
function defaultItems(signedIn: boolean, isAdmin: boolean, loading: boolean): NavItem[] {
  const browse: NavItem = { to: '/properties', label: 'Browse Reports' };
  // While a stored session is checked, offer neither sign-in nor a dashboard: either could be wrong.
  if (loading) return [browse, { to: '/help', label: 'Help' }];
  if (signedIn) {
    return [
      browse,
      { to: '/help', label: 'Help' },
      SETTINGS,
      { to: isAdmin ? '/admin' : '/dashboard', label: isAdmin ? 'Admin' : 'Dashboard', kind: 'primary' },
    ];
  }
  return [
    browse,
    { to: '/login', label: 'Sign In', kind: 'ghost' },
    { to: '/register', label: 'Get Started', kind: 'primary' },
  ];
}

const ACCOUNT_PAGES = new Set(['/login', '/register', '/admin-login']);

/**
 * A page's own links, for whoever is looking: a signed-in visitor gets no Sign In or Get Started
 * (whatever the page listed) but their dashboard.
 */
function linksFor(items: NavItem[], signedIn: boolean, isAdmin: boolean, loading: boolean): NavItem[] {
  if (loading) return items.filter((item) => !ACCOUNT_PAGES.has(item.to));
  if (!signedIn) return items;
  const home = isAdmin ? '/admin' : '/dashboard';
  const kept = items.filter((item) => !ACCOUNT_PAGES.has(item.to) && item.to !== SETTINGS.to);
  const withHome = kept.some((item) => item.to === home)
    ? kept
    : [...kept, { to: home, label: isAdmin ? 'Admin' : 'Dashboard', kind: 'primary' as const }];
  // Settings just before the home button, wherever the page put that.
  const at = withHome.findIndex((item) => item.to === home);
  return [...withHome.slice(0, at), SETTINGS, ...withHome.slice(at)];
}

export function SiteHeader({ items }: { items?: NavItem[] }) {
  const { user, loading } = useSession();
  const signedIn = Boolean(user);
  const isAdmin = user?.role === 'admin';
  const links = items ? linksFor(items, signedIn, isAdmin, loading) : defaultItems(signedIn, isAdmin, loading);

  return (
    <header className="site-header">
      <div className="container site-header-inner">
        <Logo />
        <nav className="site-nav" aria-label="Main">
          {links.map((item) => (
            <NavLink
              key={`${item.to}-${item.label}`}
              to={item.to}
              end
              className={({ isActive }) =>
                [
                  item.kind === 'primary'
                    ? 'btn btn-primary btn-sm'
                    : item.kind === 'ghost'
                      ? 'btn btn-ghost btn-sm'
                      : 'nav-link',
                  isActive && !item.kind ? 'active' : '',
                  item.compact ? 'nav-link-compact' : '',
                ]
                  .filter(Boolean)
                  .join(' ')
              }
            >
              {item.icon && <Icon name={item.icon} size={16} />}
              {item.compact ? <span className="nav-label">{item.label}</span> : item.label}
            </NavLink>
          ))}
        </nav>
      </div>
    </header>
  );
}

export function SiteFooter() {
  const { user, loading, logout } = useSession();
  const year = new Date().getFullYear();
  return (
    <footer className="site-footer">
      <div className="container footer-grid">
        <div className="footer-brand">
          <Logo />
          <p>
            On-demand assessment reports for U.S. residential properties, combining AI-powered analysis with human
            expertise.
          </p>
        </div>
        <div className="footer-col">
          <h2>Product</h2>
          <Link to="/properties">Browse Reports</Link>
          <Link to="/zip">ZIP Code Analysis</Link>
          <Link to="/request">Request Coverage</Link>
        </div>
        <div className="footer-col">
          <h2>Support</h2>
          <Link to="/help">Help Center</Link>
          <Link to="/contact">Contact Us</Link>
          <Link to="/privacy">Privacy Policy</Link>
        </div>
        <div className="footer-col">
          <h2>Account</h2>
          {loading ? null : user ? (
            <>
              <Link to={user.role === 'admin' ? '/admin' : '/dashboard'}>
                {user.role === 'admin' ? 'Admin Dashboard' : 'My Dashboard'}
              </Link>
              <button type="button" className="footer-link-button" onClick={() => void logout()}>
                Sign Out
              </button>
            </>
          ) : (
            <>
              <Link to="/login">Sign In</Link>
              <Link to="/register">Create Account</Link>
            </>
          )}
        </div>
      </div>
      <div className="container footer-bottom">
        <span>© {year} HomeReport. All rights reserved.</span>
        <span className="footer-bottom-links">
          <Link to="/help">Help</Link>
          <Link to="/contact">Contact</Link>
          <Link to="/privacy">Privacy</Link>
        </span>
      </div>
    </footer>
  );
}
