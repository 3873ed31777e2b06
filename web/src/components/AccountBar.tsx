import type { ReactNode } from 'react';
import { useSession } from '../session/SessionProvider';
import { SiteLayout } from './SiteLayout';

/** Heading row of a signed-in page: eyebrow and heading on the left, Sign Out on the right. */
export function AccountBar({ eyebrow, children }: { eyebrow: string; children: ReactNode }) {
  const { logout } = useSession();
  return (
    <div className="page-heading-row">
      <div>
        <p className="eyebrow">{eyebrow}</p>
        {children}
      </div>
      <button type="button" className="btn btn-secondary" onClick={() => void logout()} data-testid="sign-out">
        Sign Out
      </button>
    </div>
  );
}

/** A signed-in page: the site's layout, its AccountBar (`eyebrow`, `heading`), then `children`. */
export function AccountPage({
  eyebrow,
  heading,
  children,
}: { eyebrow: string; heading: ReactNode; children: ReactNode }) {
  return (
    <SiteLayout>
      <section className="section section-tight">
        <div className="container">
          <AccountBar eyebrow={eyebrow}>{heading}</AccountBar>
          {children}
        </div>
      </section>
    </SiteLayout>
  );
}
