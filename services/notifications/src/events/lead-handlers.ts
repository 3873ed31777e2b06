import { LeadReceived, Topics } from '@homereport/contracts';
import type { EventHandler } from '@homereport/kit';
import { Value } from '@sinclair/typebox/value';
import type { Mailer, SentEmails } from '../domain/ports.js';
import { type Brand, type EmailContent, type RenderedEmail, oneLine, renderEmail } from '../mail/layout.js';

/**
 * lead-received (the leads service): the staff inbox gets a short summary of every lead an ad
 * platform posted, so someone calls back while the lead is warm. Test leads (Google's "send test
 * data", `is_test`) send nothing unless LEAD_ALERTS_FOR_TEST_LEADS is on. One email per event,
 * even when the event is delivered again.
 */
export interface LeadAlertSettings {
  /** Also email test leads (is_test), e.g. while wiring up a new ad account. */
  includeTestLeads: boolean;
}

export interface LeadMailDeps {
  mailer: Mailer;
  sent: SentEmails;
  brand: Brand;
  staffEmail: string;
  leadAlerts?: LeadAlertSettings;
}

export function leadAlertEmail(lead: LeadReceived, brand: Brand): RenderedEmail {
  const name = `${lead.first_name} ${lead.last_name}`.trim() || 'A new lead';
  const content: EmailContent = {
    subject: `${lead.is_test ? '[Test] ' : ''}New lead: ${oneLine(name, 100)}`,
    preheader: `${oneLine(name, 60)} came in through ${oneLine(lead.key_name, 60)}.`,
    heading: lead.is_test ? 'A test lead came in' : 'A new lead came in',
    blocks: [
      {
        kind: 'fields',
        rows: [
          ['Name', name],
          ['Email', lead.email ?? 'not given'],
          ['Phone', lead.phone ?? 'not given'],
          ['Campaign', lead.campaign_id ?? 'not given'],
          ['Source', lead.key_name],
        ],
      },
      { kind: 'button', label: 'Open the leads', url: `${brand.publicUrl.replace(/\/+$/, '')}/admin` },
      { kind: 'note', text: `Lead ${lead.lead_id} (id ${lead.id}), received ${lead.created_at}.` },
    ],
  };
  return renderEmail(content, brand);
}

export function leadNotificationHandlers(deps: LeadMailDeps): Record<string, EventHandler> {
  return {
    [Topics.leadReceived]: async (event, log) => {
      if (!Value.Check(LeadReceived, event.data)) {
        const problem = Value.Errors(LeadReceived, event.data).First();
        throw new Error(`${event.type} data breaks its contract at ${problem?.path || '/'}: ${problem?.message}`);
      }
      const lead = event.data;
      if (lead.is_test && !deps.leadAlerts?.includeTestLeads) {
        log.info({ kind: 'lead-alert' }, 'test lead; no email (LEAD_ALERTS_FOR_TEST_LEADS is off)');
        return;
      }
      if (await deps.sent.wasSent(event.id, 'lead-alert')) {
        log.info({ kind: 'lead-alert', sent: false }, 'email already sent');
        return;
      }
      const to = deps.staffEmail;
      const { messageId } = await deps.mailer.send({
        to: { name: 'HomeReport Staff', address: to },
        ...(lead.email ? { replyTo: { address: lead.email } } : {}),
        ...leadAlertEmail(lead, deps.brand),
      });
      await deps.sent.record({
        eventId: event.id,
        kind: 'lead-alert',
        to,
        sentAt: new Date(),
        smtpMessageId: messageId,
      });
      log.info({ kind: 'lead-alert', sent: true }, 'email sent');
    },
  };
}
