import { useState } from 'react';
import { Icon } from '../../components/Icon';
import { useLeadStats } from './api/leads';
import { LeadsTab } from './components/LeadsTab';
import { WebhookKeysTab } from './components/WebhookKeysTab';
import './leads.css';

type Tab = 'keys' | 'leads';

/**
 * The Webhook Management section of /admin (spec section 2): two tabs, Webhook Keys and Leads
 * (with the total count). Loaded lazily by the admin dashboard, which imports this named export.
 * A failed read says so where its figures would be (QueryState); the tab's count is simply left
 * out until the counters are read, never shown as a zero.
 */
export function WebhookManagement() {
  const [tab, setTab] = useState<Tab>('keys');
  const stats = useLeadStats();

  const tabButton = (id: Tab, label: string, extra?: React.ReactNode) => (
    <button
      type="button"
      role="tab"
      id={`webhook-tab-${id}`}
      aria-controls={`webhook-panel-${id}`}
      aria-selected={tab === id}
      tabIndex={tab === id ? 0 : -1}
      className={`tab ${tab === id ? 'tab-active' : ''}`}
      data-testid={`webhook-tab-${id}`}
      onClick={() => setTab(id)}
      onKeyDown={(event) => {
        if (event.key === 'ArrowRight' || event.key === 'ArrowLeft') {
          const next = tab === 'keys' ? 'leads' : 'keys';
          setTab(next);
          document.getElementById(`webhook-tab-${next}`)?.focus();
        }
      }}
    >
      {label}
      {extra}
    </button>
  );

  return (
    <section className="card webhook-management" data-testid="webhook-management">
      <h2 className="card-title">
        <Icon name="send" /> Webhook Management
      </h2>
      <div className="tabs" role="tablist" aria-label="Webhook Management">
        {tabButton('keys', 'Webhook Keys')}
        {tabButton(
          'leads',
          'Leads',
          stats.data && (
            <span className="tab-count" data-testid="leads-total">
              {stats.data.total}
            </span>
          ),
        )}
      </div>
      <div role="tabpanel" id={`webhook-panel-${tab}`} aria-labelledby={`webhook-tab-${tab}`} className="tab-panel">
        {tab === 'keys' ? <WebhookKeysTab /> : <LeadsTab />}
      </div>
    </section>
  );
}
