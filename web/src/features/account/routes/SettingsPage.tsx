import { type FormEvent, useState } from 'react';
import { isApiError } from '../../../api/client';
import { AccountBar } from '../../../components/AccountBar';
import { Alert } from '../../../components/Alert';
import { Icon } from '../../../components/Icon';
import { NewPasswordFields } from '../../../components/NewPasswordFields';
import { PasswordField } from '../../../components/PasswordField';
import { SiteLayout } from '../../../components/SiteLayout';
import { SavedReportsCard, WatchedZipsCard } from '../../../components/WatchLists';
import { useDocumentTitle } from '../../../hooks/useDocumentTitle';
import { usePasswordPair } from '../../../hooks/usePasswordPair';
import { useSession } from '../../../session/SessionProvider';
import { type FormProblem, fieldState } from '../../../session/formProblem';
import { EXPORT_FILE_NAME, useChangePassword, useDeleteAccount, useDownloadAccountData } from '../api/account';
import '../account.css';

/** Shown on the landing page once the account is gone. */
export const ACCOUNT_DELETED_MESSAGE = 'Your account has been deleted, and with it the data we held about you.';

/**
 * What a failed call is about: a wrong password is about the field it was typed in (`field`);
 * a weak new password (400 naming `new_password`) about the new password; anything else about
 * nothing in particular.
 */
function problemOf(error: unknown, passwordField: string): FormProblem {
  if (!isApiError(error)) return { message: 'Something went wrong. Please try again.', fields: [] };
  if (error.code === 'WRONG_PASSWORD') return { message: error.message, fields: [passwordField] };
  if (error.fields.includes('new_password')) return { message: error.message, fields: ['password'] };
  return { message: error.message, fields: [] };
}

const CHANGE_PROBLEM_ID = 'change-password-problem';
const SAME_PASSWORD_MESSAGE = 'Your new password must be different from your current one.';

function ChangePasswordSection() {
  const [current, setCurrent] = useState('');
  const pair = usePasswordPair();
  const [problem, setProblem] = useState<FormProblem | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const change = useChangePassword();

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setDone(null);
    const check = pair.problem();
    if (check) {
      setProblem({ message: check.message, fields: [check.field] });
      return;
    }
    // The server refuses it too, in the same words.
    if (pair.password === current) {
      setProblem({ message: SAME_PASSWORD_MESSAGE, fields: ['password'] });
      return;
    }
    setProblem(null);
    change.mutate(
      { current_password: current, new_password: pair.password },
      {
        onSuccess: (reply) => {
          setDone(reply.message);
          setCurrent('');
          pair.clear();
        },
        onError: (error) => setProblem(problemOf(error, 'current')),
      },
    );
  }

  return (
    <section className="card settings-section" aria-labelledby="change-password-title" data-testid="change-password">
      <h2 className="card-title" id="change-password-title">
        <Icon name="lock" /> Change password
      </h2>
      <p className="muted">
        Choose a new password of at least 8 characters. Every other device signed in to your account is signed out; this
        one stays signed in.
      </p>
      {done && (
        <Alert kind="success" testId="change-password-success">
          <p>{done}</p>
        </Alert>
      )}
      {problem && (
        <Alert kind="error" testId="change-password-error" id={CHANGE_PROBLEM_ID}>
          <p>{problem.message}</p>
        </Alert>
      )}
      <form className="form" onSubmit={handleSubmit}>
        <PasswordField
          id="current-password"
          label="Current Password"
          value={current}
          onChange={setCurrent}
          autoComplete="current-password"
          testId="current-password"
          {...fieldState(problem, 'current', CHANGE_PROBLEM_ID)}
        />
        <NewPasswordFields
          pair={pair}
          passwordId="new-password"
          passwordLabel="New Password"
          confirmationId="confirm-new-password"
          confirmationLabel="Confirm New Password"
          confirmationPlaceholder="Repeat your new password"
          problem={problem}
          problemId={CHANGE_PROBLEM_ID}
        />
        <div>
          <button
            type="submit"
            className="btn btn-primary"
            disabled={change.isPending}
            data-testid="change-password-submit"
          >
            {change.isPending ? 'Saving...' : 'Change Password'}
          </button>
        </div>
      </form>
    </section>
  );
}

function DownloadSection() {
  const download = useDownloadAccountData();
  return (
    <section className="card settings-section" aria-labelledby="download-title" data-testid="download-data">
      <h2 className="card-title" id="download-title">
        <Icon name="file" /> Download my data
      </h2>
      <p className="muted">
        A file ({EXPORT_FILE_NAME}) with your account, the properties you asked us to cover, the reports you viewed and
        your credits.
      </p>
      {download.isSuccess && (
        <Alert kind="success" testId="download-data-success">
          <p>Your data was downloaded as {EXPORT_FILE_NAME}.</p>
        </Alert>
      )}
      {download.isError && (
        <Alert kind="error" testId="download-data-error">
          <p>{problemOf(download.error, '').message}</p>
        </Alert>
      )}
      <div>
        <button
          type="button"
          className="btn btn-secondary"
          onClick={() => download.mutate()}
          disabled={download.isPending}
          data-testid="download-data-button"
        >
          {download.isPending ? 'Preparing your data...' : 'Download My Data'}
        </button>
      </div>
    </section>
  );
}

const DELETE_PROBLEM_ID = 'delete-account-problem';

function DeleteSection() {
  const { leave } = useSession();
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [confirmed, setConfirmed] = useState(false);
  const [problem, setProblem] = useState<FormProblem | null>(null);
  const remove = useDeleteAccount();

  function close() {
    setOpen(false);
    setPassword('');
    setConfirmed(false);
    setProblem(null);
  }

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!confirmed) {
      setProblem({ message: 'Tick the box to confirm that you want your account deleted.', fields: ['confirm'] });
      return;
    }
    setProblem(null);
    remove.mutate(
      { password },
      {
        onSuccess: () => void leave(ACCOUNT_DELETED_MESSAGE),
        onError: (error) => setProblem(problemOf(error, 'password')),
      },
    );
  }

  return (
    <section
      className="card settings-section settings-danger"
      aria-labelledby="delete-account-title"
      data-testid="delete-account"
    >
      <h2 className="card-title" id="delete-account-title">
        <Icon name="alert" /> Delete account
      </h2>
      <p className="muted">
        Deleting your account signs you out everywhere and erases your email address, credits and report history. The
        properties you asked us to cover stay in our list without your name. This cannot be undone.
      </p>
      {!open ? (
        <div>
          <button
            type="button"
            className="btn btn-danger"
            onClick={() => setOpen(true)}
            data-testid="delete-account-start"
          >
            Delete My Account
          </button>
        </div>
      ) : (
        <form className="form" onSubmit={handleSubmit} data-testid="delete-account-form">
          {problem && (
            <Alert kind="error" testId="delete-account-error" id={DELETE_PROBLEM_ID}>
              <p>{problem.message}</p>
            </Alert>
          )}
          <PasswordField
            id="delete-password"
            label="Your Password"
            value={password}
            onChange={setPassword}
            autoComplete="current-password"
            testId="delete-password"
            {...fieldState(problem, 'password', DELETE_PROBLEM_ID)}
          />
          <label className="settings-confirm">
            <input
              type="checkbox"
              checked={confirmed}
              onChange={(event) => setConfirmed(event.target.checked)}
              data-testid="delete-account-confirm"
              aria-invalid={problem?.fields.includes('confirm') || undefined}
              aria-describedby={problem?.fields.includes('confirm') ? DELETE_PROBLEM_ID : undefined}
            />
            <span>I understand that my account and my data are deleted for good.</span>
          </label>
          <div className="settings-actions">
            <button
              type="submit"
              className="btn btn-danger"
              disabled={remove.isPending}
              data-testid="delete-account-submit"
            >
              {remove.isPending ? 'Deleting...' : 'Delete Account Permanently'}
            </button>
            <button type="button" className="btn btn-secondary" onClick={close} disabled={remove.isPending}>
              Cancel
            </button>
          </div>
        </form>
      )}
    </section>
  );
}

/**
 * /settings: the signed-in user's own account (issue 19): password, what they keep an eye on
 * (issue 40: the same lists as the dashboard's), their data, deleting the account.
 */
export function SettingsPage() {
  useDocumentTitle('Settings');
  const { user } = useSession();
  return (
    <SiteLayout>
      <section className="section section-tight">
        <div className="container settings">
          <AccountBar eyebrow="Your account">
            <h1>Settings</h1>
            <p className="muted" data-testid="settings-email">
              Signed in as {user?.email}
            </p>
          </AccountBar>
          <ChangePasswordSection />
          <div className="settings-lists" data-testid="settings-watch-lists">
            <SavedReportsCard />
            <WatchedZipsCard />
          </div>
          <DownloadSection />
          <DeleteSection />
        </div>
      </section>
    </SiteLayout>
  );
}
