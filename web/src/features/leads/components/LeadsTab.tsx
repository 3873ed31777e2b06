import type { LeadStats } from '@homereport/contracts';
import { useState } from 'react';
import { Field } from '../../../components/Field';
import { PendingButton, ProblemAlert } from '../../../components/Form';
import { LoadFailed, QueryState } from '../../../components/QueryState';
import { StatCard } from '../../../components/StatCard';
import { formatAdminDateTime } from '../../../lib/dates';
import { useExportLeads, useLeadStats, useLeads, useSetLeadStatus } from '../api/leads';
import type { LeadFilter } from '../api/queryKeys';
import { useWebhookKeys } from '../api/webhookKeys';
import { LEAD_STATUS_OPTIONS, isLeadStatus, leadName } from '../leadStatus';
import { LeadStatusBadge } from './LeadStatusBadge';

/** The four counters; while they load (no stats yet) each shows a dash, never a zero. */
function LeadStatGrid({ stats }: { stats: LeadStats | undefined }) {
  return (
    <div className="stat-grid stat-grid-4 lead-stats" aria-busy={stats === undefined}>
      <StatCard label="Total Leads" value={stats?.total} icon="users" tone="blue" testId="lead-stat-total" />
      <StatCard label="New" value={stats?.new} icon="sparkle" tone="yellow" testId="lead-stat-new" />
      <StatCard label="Qualified" value={stats?.qualified} icon="check" tone="teal" testId="lead-stat-qualified" />
      <StatCard
        label="Converted"
        value={stats?.converted}
        icon="checkCircle"
        tone="green"
        testId="lead-stat-converted"
      />
    </div>
  );
}

/**
 * The Leads tab: counters, filters, CSV download, and every lead with its status control. Opening
 * the tab reads the counters again (the section may have been open while leads arrived).
 */
export function LeadsTab() {
  const [filter, setFilter] = useState<LeadFilter>({});
  const statsQuery = useLeadStats();
  const leads = useLeads(filter);
  const keys = useWebhookKeys();
  const setStatus = useSetLeadStatus();
  const exportCsv = useExportLeads();
  const filtered = Boolean(filter.status || filter.key_name);

  return (
    <div className="leads-tab" data-testid="leads-tab">
      <QueryState
        query={statsQuery}
        what="the lead counters"
        testId="lead-stats-failed"
        loading={<LeadStatGrid stats={undefined} />}
      >
        {(stats) => <LeadStatGrid stats={stats} />}
      </QueryState>

      <div className="lead-toolbar">
        <Field id="lead-status-filter" label="Status">
          {(control) => (
            <select
              {...control}
              data-testid="lead-status-filter"
              value={filter.status ?? ''}
              onChange={(event) => {
                const value = event.target.value;
                setFilter((f) => ({ ...f, status: isLeadStatus(value) ? value : undefined }));
              }}
            >
              <option value="">All statuses</option>
              {LEAD_STATUS_OPTIONS.map((o) => (
                <option key={o.status} value={o.status}>
                  {o.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field id="lead-key-filter" label="Source key">
          {(control) => (
            <select
              {...control}
              data-testid="lead-key-filter"
              value={filter.key_name ?? ''}
              onChange={(event) => {
                const value = event.target.value;
                setFilter((f) => ({ ...f, key_name: value || undefined }));
              }}
            >
              <option value="">All keys</option>
              {(keys.data?.keys ?? []).map((k) => (
                <option key={k.key_name} value={k.key_name}>
                  {k.key_name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <PendingButton
          type="button"
          pending={exportCsv.isPending}
          pendingLabel="Preparing CSV…"
          className="btn btn-secondary lead-export"
          onClick={() => exportCsv.mutate(filter)}
          testId="lead-export"
        >
          Download CSV
        </PendingButton>
      </div>
      <ProblemAlert problem={exportCsv.error} testId="lead-export-error" />
      <ProblemAlert problem={setStatus.error} testId="lead-status-error" />

      <QueryState
        query={leads}
        what="the leads"
        testId="leads-failed"
        isEmpty={(rows) => rows.length === 0}
        empty={
          <p className="muted empty-text" data-testid="leads-empty">
            {filtered ? 'No leads match these filters.' : 'No leads received yet.'}
          </p>
        }
      >
        {(rows) => (
          <ul className="list-rows lead-rows" data-testid="leads">
            {rows.map((lead) => (
              <li key={lead.id} className="list-row lead-row" data-testid="lead-row" data-lead-id={lead.lead_id}>
                <div className="list-row-main">
                  <p className="list-row-title">
                    <span data-testid="lead-name">{leadName(lead)}</span>
                    {lead.is_test && (
                      <span className="status-badge status-badge-grey lead-test-badge" data-testid="lead-test">
                        Test
                      </span>
                    )}
                  </p>
                  <p className="list-row-meta lead-contact">
                    {lead.email ? <a href={`mailto:${lead.email}`}>{lead.email}</a> : <span>No email</span>}
                    {lead.phone ? <a href={`tel:${lead.phone.replace(/[^\d+]/g, '')}`}>{lead.phone}</a> : null}
                  </p>
                  <dl className="lead-facts">
                    <div>
                      <dt>Received</dt>
                      <dd>{formatAdminDateTime(lead.created_at)}</dd>
                    </div>
                    <div>
                      <dt>Source</dt>
                      <dd>{lead.key_name}</dd>
                    </div>
                    <div>
                      <dt>Campaign</dt>
                      <dd>{lead.campaign_id ?? '—'}</dd>
                    </div>
                    <div>
                      <dt>Ad group</dt>
                      <dd>{lead.ad_group_id ?? '—'}</dd>
                    </div>
                    <div>
                      <dt>Lead ID</dt>
                      <dd className="lead-id">{lead.lead_id}</dd>
                    </div>
                    <div>
                      <dt>No.</dt>
                      <dd data-testid="lead-number">{lead.id}</dd>
                    </div>
                    {lead.status_changed_at && (
                      <div>
                        <dt>Status set</dt>
                        <dd>
                          {formatAdminDateTime(lead.status_changed_at)}
                          {lead.status_changed_by ? ` by ${lead.status_changed_by}` : ''}
                        </dd>
                      </div>
                    )}
                  </dl>
                </div>
                <div className="list-row-side lead-status">
                  <LeadStatusBadge status={lead.lead_status} />
                  <label className="visually-hidden" htmlFor={`lead-status-${lead.id}`}>
                    Status of {leadName(lead)}
                  </label>
                  <select
                    id={`lead-status-${lead.id}`}
                    className="lead-status-select"
                    data-testid="lead-status-select"
                    value={isLeadStatus(lead.lead_status) ? lead.lead_status : ''}
                    disabled={setStatus.isPending && setStatus.variables?.id === lead.id}
                    onChange={(event) => {
                      const status = event.target.value;
                      if (isLeadStatus(status)) setStatus.mutate({ id: lead.id, status });
                    }}
                  >
                    {!isLeadStatus(lead.lead_status) && <option value="">{lead.lead_status || 'Unknown'}</option>}
                    {LEAD_STATUS_OPTIONS.map((o) => (
                      <option key={o.status} value={o.status}>
                        {o.label}
                      </option>
                    ))}
                  </select>
                </div>
              </li>
            ))}
          </ul>
        )}
      </QueryState>
      {leads.isFetchNextPageError ? (
        <LoadFailed
          what="more leads"
          error={leads.error}
          onRetry={() => void leads.fetchNextPage()}
          retrying={leads.isFetchingNextPage}
          testId="leads-more-failed"
        />
      ) : (
        leads.hasNextPage && (
          <div className="actions center">
            <PendingButton
              type="button"
              pending={leads.isFetchingNextPage}
              pendingLabel="Loading…"
              className="btn btn-secondary"
              onClick={() => void leads.fetchNextPage()}
              testId="leads-load-more"
            >
              Load more leads
            </PendingButton>
          </div>
        )
      )}
    </div>
  );
}
