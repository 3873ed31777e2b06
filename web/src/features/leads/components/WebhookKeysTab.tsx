import { type CreateWebhookKeyReply, KEY_NAME_MAX_LENGTH } from '@homereport/contracts';
import { type FormEvent, useState } from 'react';
import { CopyButton } from '../../../components/CopyButton';
import { TextField } from '../../../components/Field';
import { PendingButton, ProblemAlert } from '../../../components/Form';
import { QueryState } from '../../../components/QueryState';
import { formatAdminDateTime } from '../../../lib/dates';
import { useCreateWebhookKey, useToggleWebhookKey, useWebhookKeys } from '../api/webhookKeys';

export const KEY_WARNING = "Save this key securely. It won't be shown again.";

/** The Webhook Keys tab: create a key (its secret shown once), see and switch keys. */
export function WebhookKeysTab() {
  const keys = useWebhookKeys();
  const create = useCreateWebhookKey();
  const toggle = useToggleWebhookKey();
  const [name, setName] = useState('');
  const [created, setCreated] = useState<CreateWebhookKeyReply | null>(null);
  const webhookUrl = created?.webhook_url ?? keys.data?.webhook_url ?? `${window.location.origin}/api/webhooks/leads`;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const keyName = name.trim();
    if (!keyName || create.isPending) return;
    create.mutate(keyName, {
      onSuccess: (reply) => {
        setCreated(reply);
        setName('');
      },
    });
  };

  return (
    <div className="webhook-keys" data-testid="webhook-keys-tab">
      <form className="key-form" onSubmit={submit}>
        <TextField
          id="webhook-key-name"
          label="Key name"
          fieldClassName="key-form-field"
          value={name}
          maxLength={KEY_NAME_MAX_LENGTH}
          invalid={create.isError}
          describedBy={create.isError ? 'webhook-key-problem' : undefined}
          placeholder="e.g. Google Ads – Spring campaign"
          autoComplete="off"
          onChange={(next) => {
            setName(next);
            if (create.isError) create.reset();
          }}
        />
        <PendingButton
          pending={create.isPending}
          pendingLabel="Creating…"
          disabled={name.trim() === ''}
          className="btn btn-primary"
          testId="create-webhook-key"
        >
          Create Key
        </PendingButton>
      </form>
      <ProblemAlert problem={create.error} id="webhook-key-problem" testId="webhook-key-error" />

      {created && (
        <div className="created-key" data-testid="created-key">
          <h3>Key “{created.key.key_name}” created</h3>
          <div className="secret-row">
            <span className="secret-label">Webhook URL</span>
            <code data-testid="created-webhook-url">{created.webhook_url}</code>
            <CopyButton text={created.webhook_url} label="webhook URL" testId="copy-webhook-url" />
          </div>
          <div className="secret-row">
            <span className="secret-label">Webhook key</span>
            <code data-testid="created-webhook-key">{created.webhook_key}</code>
            <CopyButton text={created.webhook_key} label="webhook key" testId="copy-webhook-key" />
          </div>
          <p className="key-warning" data-testid="webhook-key-warning">
            {KEY_WARNING}
          </p>
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => setCreated(null)}>
            Done
          </button>
        </div>
      )}

      <div className="webhook-url-hint">
        <span className="muted">Ad platforms post leads to</span> <code data-testid="webhook-url">{webhookUrl}</code>
        <CopyButton text={webhookUrl} label="webhook URL" />
        <p className="muted small">
          Send the key in the <code>x-webhook-key</code> header, or as the lead form's key in Google Ads.
        </p>
      </div>

      <ProblemAlert problem={toggle.error} testId="webhook-toggle-error" />
      <QueryState
        query={keys}
        what="the webhook keys"
        testId="webhook-keys-failed"
        isEmpty={(reply) => reply.keys.length === 0}
        empty={
          <p className="muted empty-text" data-testid="webhook-keys-empty">
            No webhook keys created yet.
          </p>
        }
      >
        {(reply) => (
          <ul className="list-rows" data-testid="webhook-keys">
            {reply.keys.map((key) => (
              <li key={key.key_name} className="list-row" data-testid="webhook-key-row" data-key-name={key.key_name}>
                <div className="list-row-main">
                  <p className="list-row-title">{key.key_name}</p>
                  <p className="list-row-meta">
                    Created {formatAdminDateTime(key.created_at)} · Last used{' '}
                    {key.last_used ? formatAdminDateTime(key.last_used) : 'never'}
                  </p>
                </div>
                <div className="list-row-side">
                  <span className={`key-state ${key.is_active ? 'key-state-on' : 'key-state-off'}`}>
                    {key.is_active ? 'Active' : 'Inactive'}
                  </span>
                  <button
                    type="button"
                    role="switch"
                    aria-checked={key.is_active}
                    aria-label={`${key.key_name} active`}
                    className={`toggle ${key.is_active ? 'toggle-on' : ''}`}
                    data-testid="webhook-key-toggle"
                    disabled={toggle.isPending && toggle.variables === key.key_name}
                    onClick={() => toggle.mutate(key.key_name)}
                  >
                    <span className="toggle-knob" />
                  </button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </QueryState>
    </div>
  );
}
