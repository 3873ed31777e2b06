import { isApiError } from '../../../api/client';
import { CopyButton } from '../../../components/CopyButton';
import { PendingButton, ProblemAlert } from '../../../components/Form';
import { Icon } from '../../../components/Icon';
import { formatLongDate } from '../../../lib/dates';
import { useCreateShareLink, useRevokeShareLinks } from '../api/share';
import './share.css';

const errorText = (error: unknown) => (isApiError(error) ? error.message : 'Something went wrong. Please try again.');

const ShareLabel = ({ text }: { text: string }) => (
  <>
    <Icon name="send" size={16} /> {text}
  </>
);

/**
 * Share on the report page: makes a link anyone can open without an account (no credit spent),
 * shows it with Copy, and Revoke, which ends every link the reader made to this report.
 */
export function ShareReport({ requestId }: { requestId: string }) {
  const create = useCreateShareLink(requestId);
  const revoke = useRevokeShareLinks(requestId);
  const link = create.data;

  if (!link) {
    return (
      <div className="share-report" data-testid="share-report">
        <PendingButton
          type="button"
          pending={create.isPending}
          pendingLabel={<ShareLabel text="Creating link…" />}
          className="btn btn-secondary btn-sm"
          onClick={() => create.mutate()}
          testId="share-create"
        >
          <ShareLabel text="Share" />
        </PendingButton>
        {revoke.isSuccess && (
          <output className="muted share-note" data-testid="share-revoked">
            Your links to this report were revoked: they now say so to whoever opens them.
          </output>
        )}
        <ProblemAlert problem={create.error && errorText(create.error)} testId="share-error" />
      </div>
    );
  }

  return (
    <div className="share-report share-panel" data-testid="share-report">
      <label className="share-label" htmlFor={`share-url-${requestId}`}>
        Anyone with this link can see this report and its documents, without an account, until{' '}
        {formatLongDate(link.expires_at)}.
      </label>
      <div className="share-link-row">
        <input
          id={`share-url-${requestId}`}
          className="share-url"
          value={link.share_url}
          readOnly
          onFocus={(event) => event.currentTarget.select()}
          data-testid="share-url"
        />
        <CopyButton text={link.share_url} label="share link" testId="share-copy" />
        <PendingButton
          type="button"
          pending={revoke.isPending}
          pendingLabel="Revoking…"
          className="btn btn-secondary btn-sm share-revoke"
          onClick={() =>
            revoke.mutate(undefined, {
              // The link on screen is dead now: back to the Share button, with the word that it was revoked.
              onSuccess: () => create.reset(),
            })
          }
          testId="share-revoke"
        >
          Revoke
        </PendingButton>
      </div>
      <ProblemAlert problem={revoke.error && errorText(revoke.error)} testId="share-revoke-error" />
    </div>
  );
}
