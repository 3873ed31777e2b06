import { Counter } from 'prom-client';
import { registry } from './registry.js';

/**
 * What the business watches (api.md, "Business metrics"), counted in the process where it
 * happens: requests, covers, credits and shares in requests; leads in leads; emails in
 * notifications. Each process's registry carries its `service` label, so a sum over processes
 * needs no double counting: only one process ever moves each counter.
 */
const requestsSubmitted = new Counter({
  name: 'homereport_requests_submitted_total',
  help: 'Coverage requests accepted (a new request stored), by whether the requester was signed in.',
  labelNames: ['signed_in'] as const,
  registers: [registry],
});

const reportsCovered = new Counter({
  name: 'homereport_reports_covered_total',
  help: 'Requests an admin moved to covered (their report readable), its duplicates covered with it not counted.',
  registers: [registry],
});

const creditsSpent = new Counter({
  name: 'homereport_report_credits_spent_total',
  help: 'Report credits spent: first views of a report in a credit period by a user who did not request it.',
  registers: [registry],
});

const leadsReceived = new Counter({
  name: 'homereport_leads_received_total',
  help: 'New leads stored (a repeat of a known lead not counted), by source: webhook, google or meta.',
  labelNames: ['source'] as const,
  registers: [registry],
});

const emailsSent = new Counter({
  name: 'homereport_emails_sent_total',
  help: 'Emails handed to SMTP, by template and outcome (sent, or failed: the send will be retried).',
  labelNames: ['template', 'outcome'] as const,
  registers: [registry],
});

const sharesCreated = new Counter({
  name: 'homereport_shares_created_total',
  help: 'Share links created for a report.',
  registers: [registry],
});

export type LeadSource = 'webhook' | 'google' | 'meta';

/** The business counters, one call per event at the place it happens. */
export const businessMetrics = {
  requestSubmitted(signedIn: boolean): void {
    requestsSubmitted.inc({ signed_in: signedIn ? 'true' : 'false' });
  },
  reportCovered(): void {
    reportsCovered.inc();
  },
  creditSpent(): void {
    creditsSpent.inc();
  },
  leadReceived(source: LeadSource): void {
    leadsReceived.inc({ source });
  },
  emailSent(template: string, outcome: 'sent' | 'failed'): void {
    emailsSent.inc({ template, outcome });
  },
  shareCreated(): void {
    sharesCreated.inc();
  },
};
