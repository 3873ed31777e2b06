import type { ReactNode } from 'react';
import { Icon, type IconName } from './Icon';
import { ResultPanel } from './ResultPanel';
import { AuthLayout } from './SiteLayout';

/** The heading of an account screen: an optional badge, the title, a line under it. */
export function AuthHeading({
  icon,
  dark = false,
  title,
  children,
}: { icon?: IconName; dark?: boolean; title: string; children: ReactNode }) {
  return (
    <div className="auth-heading">
      {icon && (
        <span className={dark ? 'icon-badge icon-badge-lg icon-badge-dark' : 'icon-badge icon-badge-lg'}>
          <Icon name={icon} size={26} />
        </span>
      )}
      <h1>{title}</h1>
      <p className="muted">{children}</p>
    </div>
  );
}

/** How an account screen's form went, alone on the screen, with the way on to sign in (`signIn` is its label). */
export function AuthResult({
  signIn,
  children,
  ...panel
}: { testId: string; icon: IconName; title: string; signIn: string; children: ReactNode }) {
  return (
    <AuthLayout>
      <ResultPanel {...panel} link={{ to: '/login', label: signIn }}>
        {children}
      </ResultPanel>
    </AuthLayout>
  );
}
