import { type FormEvent, useState } from 'react';
import { AccountBar } from '../../../components/AccountBar';
import { Alert } from '../../../components/Alert';
import { TextField } from '../../../components/Field';
import { Icon } from '../../../components/Icon';
import type { NavItem } from '../../../components/SiteHeader';
import { SiteLayout } from '../../../components/SiteLayout';
import { useDocumentTitle } from '../../../hooks/useDocumentTitle';
import { useMfaActivate, useMfaEnrol, useMfaStatus } from '../api/mfa';
import '../admin.css';
import '../security.css';

const nav: NavItem[] = [{ to: '/admin', label: 'Back to Dashboard', icon: 'arrowLeft' }];

/**
 * /admin/security: an admin turns on two-step sign-in (TOTP). Set up gives a secret for the
 * authenticator app; a code from the app confirms it; the recovery codes are shown this once.
 * Where ADMIN_MFA_REQUIRED is on, an admin without it is sent here after signing in.
 */
export function AdminSecurityPage() {
  useDocumentTitle('Admin Security');
  const status = useMfaStatus();
  const enrol = useMfaEnrol();
  const activate = useMfaActivate();
  const [code, setCode] = useState('');

  function confirm(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    activate.mutate(code.replace(/\s/g, ''));
  }

  const recoveryCodes = activate.data?.recovery_codes;
  return (
    <SiteLayout nav={nav}>
      <section className="section section-tight">
        <div className="container">
          <AccountBar eyebrow="Admin">
            <h1>Admin Security</h1>
          </AccountBar>
          <section className="card" aria-labelledby="mfa-title" data-testid="mfa-section">
            <h2 className="card-title" id="mfa-title">
              <Icon name="shield" /> Two-step sign-in
            </h2>
            {status.isPending && <p className="muted">Loading...</p>}
            {status.error && <Alert kind="error">{status.error.message}</Alert>}
            {recoveryCodes ? (
              <div data-testid="mfa-enabled-now">
                <Alert kind="success">Two-step sign-in is on. From now on, signing in asks for a code.</Alert>
                <p>
                  Save these recovery codes somewhere safe. Each one signs you in once if you lose your phone. They are
                  shown only now.
                </p>
                <ul className="mfa-recovery-codes" data-testid="mfa-recovery-codes">
                  {recoveryCodes.map((c) => (
                    <li key={c}>
                      <code>{c}</code>
                    </li>
                  ))}
                </ul>
              </div>
            ) : status.data?.enabled ? (
              <p data-testid="mfa-status-on">Two-step sign-in is on for your account.</p>
            ) : status.data ? (
              <>
                {status.data.required && (
                  <Alert kind="info" testId="mfa-required-notice">
                    Admin accounts must use two-step sign-in. Set it up to use the admin pages.
                  </Alert>
                )}
                <p data-testid="mfa-status-off">
                  Two-step sign-in is off. With it on, signing in asks for a code from an authenticator app after your
                  password.
                </p>
                {!enrol.data ? (
                  <button
                    type="button"
                    className="btn btn-dark"
                    data-testid="mfa-enrol"
                    disabled={enrol.isPending}
                    onClick={() => enrol.mutate()}
                  >
                    Set Up Two-Step Sign-In
                  </button>
                ) : (
                  <form className="form" onSubmit={confirm}>
                    <p>
                      In your authenticator app, add an account with this key (or open the link on your phone), then
                      enter the 6-digit code it shows.
                    </p>
                    <p>
                      Key: <code data-testid="mfa-secret">{enrol.data.secret}</code>
                    </p>
                    <p className="muted link-sm">
                      <a href={enrol.data.otpauth_url} data-testid="mfa-otpauth-link">
                        Open in authenticator app
                      </a>
                    </p>
                    {activate.error && (
                      <Alert kind="error" testId="mfa-activate-error" id="mfa-activate-problem">
                        {activate.error.message}
                      </Alert>
                    )}
                    <TextField
                      id="mfa-activate-code"
                      label="Code from the app"
                      value={code}
                      onChange={setCode}
                      autoComplete="one-time-code"
                      inputMode="numeric"
                      maxLength={12}
                      required
                      invalid={Boolean(activate.error)}
                      describedBy={activate.error ? 'mfa-activate-problem' : undefined}
                    />
                    <button
                      type="submit"
                      className="btn btn-dark"
                      data-testid="mfa-activate-submit"
                      disabled={activate.isPending || code.trim() === ''}
                    >
                      Turn On
                    </button>
                  </form>
                )}
              </>
            ) : null}
          </section>
        </div>
      </section>
    </SiteLayout>
  );
}
