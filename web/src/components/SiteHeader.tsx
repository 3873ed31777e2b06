import { Link, NavLink } from 'react-router-dom';
import { useSession } from '../session/SessionProvider';
import { Icon, type IconName } from './Icon';
import { Logo } from './Logo';

export type NavItem = {
  to: string;
  label: string;
  kind?: 'link' | 'primary' | 'ghost';
  icon?: IconName;
};

/** The public navigation of the landing page (spec: Browse Reports, Sign In, Get Started). */
function defaultItems(signedIn: boolean, isAdmin: boolean): NavItem[] {
  const browse: NavItem = { to: '/properties', label: 'Browse Reports' };
  if (signedIn) {
    return [
      browse,
      { to: '/help', label: 'Help' },
      { to: isAdmin ? '/admin' : '/dashboard', label: isAdmin ? 'Admin' : 'Dashboard', kind: 'primary' },
    ];
  }
  return [
    browse,
    { to: '/login', label: 'Sign In', kind: 'ghost' },
    { to: '/register', label: 'Get Started', kind: 'primary' },
  ];
}

export function SiteHeader({ items }: { items?: NavItem[] }) {
  const { user } = useSession();
  const links = items ?? defaultItems(Boolean(user), user?.role === 'admin');

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
                ]
                  .filter(Boolean)
                  .join(' ')
              }
            >
              {item.icon && <Icon name={item.icon} size={16} />}
              {item.label}
            </NavLink>
          ))}
        </nav>
      </div>
    </header>
  );
}

export function SiteFooter() {
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
          <Link to="/login">Sign In</Link>
          <Link to="/register">Create Account</Link>
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
