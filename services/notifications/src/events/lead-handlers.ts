import { LeadReceived, Topics } from '@homereport/contracts';
import { type EventEnvelope, type EventHandler, batchHandler } from '@homereport/kit';
import { Value } from '@sinclair/typebox/value';
import type { Mailer, OutgoingMail, SentEmails } from '../domain/ports.js';
import { type Block, type Brand, type EmailContent, type RenderedEmail, oneLine, renderEmail } from '../mail/layout.js';

/**
 * lead-received (the leads service): the staff inbox hears of every lead an ad platform posted,
 * so someone calls back while the lead is warm. A lead that arrives on its own gets its own
 * email ("New lead: <name>", Reply-To the lead). Leads that arrive together (the kit hands this
 * handler up to MAX_EVENTS_PER_CALL events of one fetched batch at once) share digest emails of
 * at most LEADS_PER_DIGEST leads each: ad platforms post in bursts of thousands a second while
 * one SMTP send takes 5-60 ms, so one email per lead put the service hours behind and buried
 * staff under thousands of emails. Test leads (Google's "send test data", `is_test`) send
 * nothing unless LEAD_ALERTS_FOR_TEST_LEADS is on. Each lead is in one email, even when its
 * event is delivered again or its call fails after some digests went out: the kit's claim on
 * each lead's event records the alert as sent (Effects), and `sent_emails` keeps a row per lead
 * for operators.
 */
interface LeadAlertSettings {
  /** Also email test leads (is_test), e.g. while wiring up a new ad account. */
  includeTestLeads: boolean;
}

interface LeadMailDeps {
  mailer: Mailer;
  sent: SentEmails;
  brand: Brand;
  staffEmail: string;
  leadAlerts?: LeadAlertSettings;
}

/**
 * Most leads one digest lists. 50 typical leads are about 75 KB of HTML: below the 102 KB past
 * which Gmail clips a message (the last leads would hide behind "View entire message"), and
 * still an email one can scan. A full call of the kit's 200 events is then 4 sends, not 200.
 */
export const LEADS_PER_DIGEST = 50;

const fullName = (lead: LeadReceived): string => `${lead.first_name} ${lead.last_name}`.trim();
const adminUrl = (brand: Brand): string => `${brand.publicUrl.replace(/\/+$/, '')}/admin`;

/** The fields staff call a lead back with, the same in the single email and in a digest. */
function leadRows(lead: LeadReceived, name: string): [string, string][] {
  return [
    ['Name', name],
    ['Email', lead.email ?? 'not given'],
    ['Phone', lead.phone ?? 'not given'],
    ['Campaign', lead.campaign_id ?? 'not given'],
    ['Source', lead.key_name],
  ];
}

function leadAlertEmail(lead: LeadReceived, brand: Brand): RenderedEmail {
  const name = fullName(lead) || 'A new lead';
  const content: EmailContent = {
    subject: `${lead.is_test ? '[Test] ' : ''}New lead: ${oneLine(name, 100)}`,
    preheader: `${oneLine(name, 60)} came in through ${oneLine(lead.key_name, 60)}.`,
    heading: lead.is_test ? 'A test lead came in' : 'A new lead came in',
    blocks: [
      { kind: 'fields', rows: leadRows(lead, name) },
      { kind: 'button', label: 'Open the leads', url: adminUrl(brand) },
      { kind: 'note', text: `Lead ${lead.lead_id} (id ${lead.id}), received ${lead.created_at}.` },
    ],
  };
  return renderEmail(content, brand);
}

/**
 * Several leads that came in together, in one email. No Reply-To: it would answer only one of
 * them, so each lead's address is shown instead. The subject names the first two leads, each
 * cut to 40 characters, so it stays one bounded line however many leads there are.
 */
export function leadDigestEmail(leads: LeadReceived[], brand: Brand): RenderedEmail {
  const count = leads.length;
  const tests = leads.filter((lead) => lead.is_test).length;
  const named = leads.slice(0, 2).map((lead) => oneLine(fullName(lead) || 'unnamed lead', 40));
  const more = count - named.length;
  const list = more > 0 ? `${named.join(', ')} and ${more} more` : named.join(' and ');
  const sources = [...new Set(leads.map((lead) => oneLine(lead.key_name, 40)))];
  const otherSources = sources.length - 2;
  const through =
    otherSources > 0 ? `${sources.slice(0, 2).join(', ')} and ${otherSources} more sources` : sources.join(' and ');
  const blocks: Block[] = [
    {
      kind: 'paragraph',
      text: `These ${count} leads came in together, so they share this email. Write to each lead at the address shown: replying to this email reaches nobody.`,
    },
    { kind: 'button', label: 'Open the leads', url: adminUrl(brand) },
  ];
  for (const lead of leads) {
    const rows = leadRows(lead, fullName(lead) || 'not given');
    rows.push(['Lead', `${lead.lead_id} (id ${lead.id})`], ['Received', lead.created_at]);
    if (lead.is_test) rows.push(['Test lead', 'yes']);
    blocks.push({ kind: 'fields', rows });
  }
  const content: EmailContent = {
    subject: `${tests > 0 ? '[Test] ' : ''}${count} new leads: ${list}`,
    preheader: `${count} leads came in through ${through}.`,
    heading: `${count} new leads came in${tests > 0 ? ` (${tests} of them test leads)` : ''}`,
    blocks,
  };
  return renderEmail(content, brand);
}

function checkedLead(event: EventEnvelope): LeadReceived {
  if (!Value.Check(LeadReceived, event.data)) {
    const problem = Value.Errors(LeadReceived, event.data).First();
    throw new Error(`${event.type} data breaks its contract at ${problem?.path || '/'}: ${problem?.message}`);
  }
  return event.data;
}

export function leadNotificationHandlers(deps: LeadMailDeps): Record<string, EventHandler> {
  const to = deps.staffEmail;
  const staff = { name: 'HomeReport Staff', address: to };
  return {
    // All or nothing per call: an invalid event throws before anything is sent, and a failed send
    // throws after the emails before it were sent and recorded. The kit then handles the call's
    // events one at a time, where the recorded ones are skipped.
    [Topics.leadReceived]: batchHandler(async (events, log, effects) => {
      const byEvent = new Map<string, LeadReceived>();
      for (const event of events) byEvent.set(event.id, checkedLead(event));

      let wanted = [...byEvent];
      if (!deps.leadAlerts?.includeTestLeads) {
        wanted = wanted.filter(([, lead]) => !lead.is_test);
        const skipped = byEvent.size - wanted.length;
        if (skipped > 0) {
          log.info({ kind: 'lead-alert', leads: skipped }, 'test lead; no email (LEAD_ALERTS_FOR_TEST_LEADS is off)');
        }
      }
      // Known from the claims, without a lookup: the kit read them when it claimed the events.
      const due = wanted.filter(([eventId]) => !effects.done('lead-alert', eventId));
      if (due.length < wanted.length) {
        log.info({ kind: 'lead-alert', sent: false, leads: wanted.length - due.length }, 'email already sent');
      }

      for (let start = 0; start < due.length; start += LEADS_PER_DIGEST) {
        const group = due.slice(start, start + LEADS_PER_DIGEST);
        const [first] = group;
        if (!first) break;
        const mail: OutgoingMail =
          group.length === 1
            ? {
                to: staff,
                ...(first[1].email ? { replyTo: { address: first[1].email } } : {}),
                ...leadAlertEmail(first[1], deps.brand),
              }
            : {
                to: staff,
                ...leadDigestEmail(
                  group.map(([, lead]) => lead),
                  deps.brand,
                ),
              };
        const { messageId } = await deps.mailer.send({ ...mail, template: 'lead-alert' });
        await effects.record(
          'lead-alert',
          group.map(([eventId]) => eventId),
        );
        const sentAt = new Date();
        await deps.sent.recordMany(
          group.map(([eventId]) => ({ eventId, kind: 'lead-alert', to, sentAt, smtpMessageId: messageId })),
        );
        log.info({ kind: 'lead-alert', sent: true, leads: group.length }, 'email sent');
      }
    }),
  };
}
