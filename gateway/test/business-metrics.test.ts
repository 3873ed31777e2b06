import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../infra/local/servers.mjs';
import { coveredRequest, session, submit, uniqueAddress, useAdmin } from '../../services/requests/test/support.js';
import { api, eventually } from '../../test/support/api.js';
import { metricValue, scrapeMetrics } from '../../test/support/metrics.js';

/*
 * The business counters (api.md, "Business metrics"), each in the process where its event
 * happens: after a signed-in and an anonymous request, a cover, a view that spends a credit, a
 * share, a lead of each kind and the emails these cause, each counter has moved by exactly as
 * much (read before and after on the process's own Prometheus port; other test files' events
 * happen before or after this one, never during it: files run one at a time).
 */

const COUNTS = [
  'submittedSignedIn',
  'submittedAnonymous',
  'covered',
  'creditsSpent',
  'shares',
  'webhookLeads',
  'googleLeads',
  'receiptsSent',
  'readySent',
] as const;
type Reading = Record<(typeof COUNTS)[number], number>;

async function read(): Promise<Reading> {
  const [requests, leads, notifications] = await Promise.all(['requests', 'leads', 'notifications'].map(scrapeMetrics));
  return {
    submittedSignedIn: metricValue(requests ?? '', 'homereport_requests_submitted_total', { signed_in: 'true' }),
    submittedAnonymous: metricValue(requests ?? '', 'homereport_requests_submitted_total', { signed_in: 'false' }),
    covered: metricValue(requests ?? '', 'homereport_reports_covered_total'),
    creditsSpent: metricValue(requests ?? '', 'homereport_report_credits_spent_total'),
    shares: metricValue(requests ?? '', 'homereport_shares_created_total'),
    webhookLeads: metricValue(leads ?? '', 'homereport_leads_received_total', { source: 'webhook' }),
    googleLeads: metricValue(leads ?? '', 'homereport_leads_received_total', { source: 'google' }),
    receiptsSent: metricValue(notifications ?? '', 'homereport_emails_sent_total', {
      template: 'request-receipt',
      outcome: 'sent',
    }),
    readySent: metricValue(notifications ?? '', 'homereport_emails_sent_total', {
      template: 'report-ready',
      outcome: 'sent',
    }),
  };
}

const admin = useAdmin();

describe('business metrics', () => {
  it('count requests, covers, credits, shares, leads by source and emails by template', async () => {
    const before = await read();
    const requester = await session('user');
    const reader = await session('user');

    // A signed-in request (its receipt email) covered by an admin (its ready email), an anonymous one.
    const id = await coveredRequest(admin, {}, requester.token);
    await submit({ address: uniqueAddress() });
    // Another user opens the report (a credit spent), opens it again (free), and shares it.
    expect((await api('GET', `/api/requests/${id}/view`, { token: reader.token })).status).toBe(200);
    expect((await api('GET', `/api/requests/${id}/view`, { token: reader.token })).status).toBe(200);
    expect((await api('POST', `/api/requests/${id}/share`, { token: reader.token })).status).toBe(201);
    // A lead through the generic webhook (posted twice: one lead) and one in Google Ads' shape.
    const key = await api('POST', '/api/admin/webhook-keys', {
      token: admin.token,
      body: { key_name: `metrics ${randomUUID().slice(0, 8)}` },
    });
    expect(key.status).toBe(201);
    const secret = key.body.webhook_key as string;
    const lead = {
      lead_id: `metrics-${randomUUID()}`,
      first_name: 'Ana',
      last_name: 'Ruiz',
      email: 'ana@lead.example',
    };
    for (let i = 0; i < 2; i++)
      expect(
        (await api('POST', '/api/webhooks/leads', { body: lead, headers: { 'x-webhook-key': secret } })).status,
      ).toBe(200);
    const google = {
      lead_id: `metrics-google-${randomUUID()}`,
      google_key: secret,
      user_column_data: [
        { column_name: 'Full Name', string_value: 'Morgan Lee', column_id: 'FULL_NAME' },
        { column_name: 'User Email', string_value: 'morgan@lead.example', column_id: 'EMAIL' },
      ],
    };
    expect((await api('POST', '/api/webhooks/leads', { body: google })).status).toBe(200);

    // Emails go out once the events reach notifications.
    const after = await eventually(
      async () => {
        const now = await read();
        return now.receiptsSent > before.receiptsSent && now.readySent > before.readySent ? now : undefined;
      },
      30_000,
      'the receipt and the report-ready email counted',
    );
    expect(Object.fromEntries(COUNTS.map((name) => [name, after[name] - before[name]]))).toEqual({
      submittedSignedIn: 1,
      submittedAnonymous: 1,
      covered: 1,
      creditsSpent: 1,
      shares: 1,
      webhookLeads: 1,
      googleLeads: 1,
      receiptsSent: 1,
      readySent: 1,
    });
  });

  it('shows every business counter on the dashboard', () => {
    const dashboard = readFileSync(join(repoRoot, 'infra/k8s/monitoring/dashboard.json'), 'utf8');
    for (const name of [
      'homereport_requests_submitted_total',
      'homereport_reports_covered_total',
      'homereport_report_credits_spent_total',
      'homereport_leads_received_total',
      'homereport_emails_sent_total',
      'homereport_shares_created_total',
    ])
      expect(dashboard).toContain(name);
  });
});
