import { type FormEvent, useState } from 'react';
import { isApiError } from '../../../api/client';
import { AccountBar } from '../../../components/AccountBar';
import { Alert } from '../../../components/Alert';
import { CardSection } from '../../../components/CardSection';
import { PendingButton, ProblemAlert, useFormFields } from '../../../components/Form';
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
    <CardSection testId="change-password" className="settings-section" icon="lock" title="Change password">
      <p className="muted">
        Choose a new password of at least 8 characters. Every other device signed in to your account is signed out; this
        one stays signed in.
      </p>
      {done && (
        <Alert kind="success" testId="change-password-success">
          <p>{done}</p>
        </Alert>
      )}
      <ProblemAlert problem={problem} id={CHANGE_PROBLEM_ID} testId="change-password-error" />
      <form className="form" onSubmit={handleSubmit}>
        <PasswordField
          id="current-password"
          label="Current Password"
          value={current}
          onChange={setCurrent}
          autoComplete="current-password"
          {...fieldState(problem, 'current', CHANGE_PROBLEM_ID)}
        />
        <NewPasswordFields pair={pair} idPrefix="new" problem={problem} problemId={CHANGE_PROBLEM_ID} />
        <div>
          <PendingButton
            pending={change.isPending}
            pendingLabel="Saving..."
            className="btn btn-primary"
            testId="change-password-submit"
          >
            Change Password
          </PendingButton>
        </div>
      </form>
    </CardSection>
  );
}

function DownloadSection() {
  const download = useDownloadAccountData();
  return (
    <CardSection testId="download-data" className="settings-section" icon="file" title="Download my data">
      <p className="muted">
        A file ({EXPORT_FILE_NAME}) with your account, the properties you asked us to cover, the reports you viewed and
        your credits.
      </p>
      {download.isSuccess && (
        <Alert kind="success" testId="download-data-success">
          <p>Your data was downloaded as {EXPORT_FILE_NAME}.</p>
        </Alert>
      )}
      <ProblemAlert problem={download.error && problemOf(download.error, '')} testId="download-data-error" />
      <div>
        <PendingButton
          type="button"
          pending={download.isPending}
          pendingLabel="Preparing your data..."
          className="btn btn-secondary"
          onClick={() => download.mutate()}
          testId="download-data-button"
        >
          Download My Data
        </PendingButton>
      </div>
    </CardSection>
  );
}

const DELETE_PROBLEM_ID = 'delete-account-problem';

function DeleteSection() {
  const { leave } = useSession();
  const [open, setOpen] = useState(false);
  const [confirmed, setConfirmed] = useState(false);
  const [problem, setProblem] = useState<FormProblem | null>(null);
  const { values, setValues, field } = useFormFields(
    { password: '' },
    { idPrefix: 'delete', problem, problemId: DELETE_PROBLEM_ID },
  );
  const remove = useDeleteAccount();
  const confirmMarks = fieldState(problem, 'confirm', DELETE_PROBLEM_ID);

  function close() {
    setOpen(false);
    setValues({ password: '' });
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
    remove.mutate(values, {
      onSuccess: () => void leave(ACCOUNT_DELETED_MESSAGE),
      onError: (error) => setProblem(problemOf(error, 'password')),
    });
  }

  return (
    <CardSection
      testId="delete-account"
      className="settings-section settings-danger"
      icon="alert"
      title="Delete account"
    >
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
          <ProblemAlert problem={problem} id={DELETE_PROBLEM_ID} testId="delete-account-error" />
          <PasswordField {...field('password')} label="Your Password" autoComplete="current-password" />
          <label className="settings-confirm">
            <input
              type="checkbox"
              checked={confirmed}
              onChange={(event) => setConfirmed(event.target.checked)}
              data-testid="delete-account-confirm"
              aria-invalid={confirmMarks.invalid || undefined}
              aria-describedby={confirmMarks.describedBy}
            />
            <span>I understand that my account and my data are deleted for good.</span>
          </label>
          <div className="settings-actions">
            <PendingButton
              pending={remove.isPending}
              pendingLabel="Deleting..."
              className="btn btn-danger"
              testId="delete-account-submit"
            >
              Delete Account Permanently
            </PendingButton>
            <button type="button" className="btn btn-secondary" onClick={close} disabled={remove.isPending}>
              Cancel
            </button>
          </div>
        </form>
      )}
    </CardSection>
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
