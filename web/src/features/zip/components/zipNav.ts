import type { NavItem } from '../../../components/SiteHeader';

/** Navigation of the ZIP screens (spec: Property Reports, Sign In, Get Started). */
export function zipNav(signedIn: boolean, isAdmin: boolean): NavItem[] {
  const reports: NavItem = { to: '/properties', label: 'Property Reports' };
  if (signedIn) return [reports, { to: isAdmin ? '/admin' : '/dashboard', label: 'Dashboard', kind: 'primary' }];
  return [
    reports,
    { to: '/login', label: 'Sign In', kind: 'ghost' },
    { to: '/register', label: 'Get Started', kind: 'primary' },
  ];
}
