import { RequestCovered, RequestSubmitted, Topics } from '@homereport/contracts';
import { type Effects, type EventEnvelope, type EventHandler, batchHandler } from '@homereport/kit';
import type { Static, TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { type SendOutcome, sendOnce } from '../domain/notify.js';
import type { MailAddress, Mailer, OutgoingMail, SentEmails } from '../domain/ports.js';
import { type ReceiptFolding, foldOrSend } from '../domain/receipt-digest.js';
import {
  type Block,
  type Brand,
  type EmailContent,
  PRODUCT_NAME,
  type RenderedEmail,
  oneLine,
  renderEmail,
} from '../mail/layout.js';

/**
 * Emails about coverage requests (the requests service's events):
 * - request-submitted: the staff inbox is told of every request (requests that arrive together
 *   share a digest); a requester who was signed in gets a receipt (an anonymous visitor left no
 *   address to write to), the first few of an hour one by one and the further ones in one digest
 *   after the hour (domain/receipt-digest.ts);
 * - request-covered: the signed-in requester learns that the report is ready, with a link to it.
 * Each email is sent once per event, even when the event is delivered again: the kit's claim on
 * the event records it as sent (see sendOnce).
 */
interface RequestMailDeps {
  mailer: Mailer;
  sent: SentEmails;
  brand: Brand;
  staffEmail: string;
  supportEmail: string;
  /** Without it, every receipt goes out on its own. */
  receipts?: ReceiptFolding;
}

const REVIEW_PROMISE = 'Our team reviews new requests within 24 hours.';
const DELIVERY_PROMISE = 'A completed report is usually delivered within 3-5 business days.';

const page = (brand: Brand, path: string) => `${brand.publicUrl.replace(/\/+$/, '')}${path}`;

/** What the staff are told of a request, in its own email and in a digest. */
const requestRows = ({ request, requester }: RequestSubmitted): [string, string][] => [
  ['Address', request.address],
  ['Listing URL', request.url ?? 'not given'],
  ['Requested by', requester ? requester.email : 'Anonymous visitor (not signed in)'],
  ['Requested on', request.created_at],
];

export function requestStaffEmail(data: RequestSubmitted, brand: Brand): RenderedEmail {
  const { request, requester } = data;
  const content: EmailContent = {
    subject: `New coverage request: ${oneLine(request.address, 120)}`,
    preheader: `${requester ? requester.email : 'An anonymous visitor'} asked for a property report.`,
    heading: 'A new property was requested',
    blocks: [
      {
        kind: 'fields',
        rows: requestRows(data),
      },
      ...(request.notes ? [{ kind: 'quote' as const, text: request.notes }] : []),
      {
        kind: 'button',
        label: 'Open the request',
        url: page(brand, `/admin/request/${encodeURIComponent(request.id)}`),
      },
      { kind: 'note', text: `Request id: ${request.id}` },
    ],
  };
  return renderEmail(content, brand);
}

function requestReceiptEmail(data: RequestSubmitted, brand: Brand): RenderedEmail {
  const content: EmailContent = {
    subject: `We received your request for ${oneLine(data.request.address, 120)}`,
    preheader: `${REVIEW_PROMISE} ${DELIVERY_PROMISE}`,
    heading: 'Your coverage request is in',
    blocks: [
      { kind: 'paragraph', text: `Thank you for asking ${PRODUCT_NAME} to assess this property:` },
      { kind: 'fields', rows: [['Address', data.request.address]] },
      { kind: 'paragraph', text: `${REVIEW_PROMISE} ${DELIVERY_PROMISE} We will email you when the report is ready.` },
      { kind: 'button', label: 'Follow it on your dashboard', url: page(brand, '/dashboard') },
      { kind: 'note', text: 'If you did not request this report, you can ignore this email.' },
    ],
  };
  return renderEmail(content, brand);
}

export function reportReadyEmail(data: RequestCovered, brand: Brand): RenderedEmail {
  const content: EmailContent = {
    subject: `Your property report is ready: ${oneLine(data.request.address, 120)}`,
    preheader: 'The report you requested is complete. Open it with your account.',
    heading: 'Your report is ready',
    blocks: [
      { kind: 'paragraph', text: 'Good news: the property report you requested is complete.' },
      { kind: 'fields', rows: [['Address', data.request.address]] },
      { kind: 'button', label: 'View the report', url: page(brand, `/report/${encodeURIComponent(data.request.id)}`) },
      { kind: 'note', text: 'Opening a report uses one of your monthly report credits the first time.' },
    ],
  };
  return renderEmail(content, brand);
}

/** Most requests one staff digest lists (the lead digest's bound, for the same reasons). */
const REQUESTS_PER_DIGEST = 50;

/** Several requests that came in together, for the staff, in one email. No Reply-To (it would answer one). */
function requestDigestEmail(requests: RequestSubmitted[], brand: Brand): RenderedEmail {
  const count = requests.length;
  const named = requests.slice(0, 2).map((r) => oneLine(r.request.address, 40));
  const more = count - named.length;
  const blocks: Block[] = [
    {
      kind: 'paragraph',
      text: `These ${count} coverage requests came in together, so they share this email. Write to each requester at the address shown: replying to this email reaches nobody.`,
    },
    { kind: 'button', label: 'Open all requests', url: page(brand, '/admin/requests') },
  ];
  for (const data of requests) {
    const { request } = data;
    blocks.push({
      kind: 'fields',
      rows: [
        ...requestRows(data),
        ['Notes', request.notes ?? 'none'],
        ['Open', page(brand, `/admin/request/${encodeURIComponent(request.id)}`)],
      ],
    });
  }
  return renderEmail(
    {
      subject: `${count} new coverage requests: ${more > 0 ? `${named.join(', ')} and ${more} more` : named.join(' and ')}`,
      preheader: `${count} properties were requested at about the same time.`,
      heading: `${count} new coverage requests`,
      blocks,
    },
    brand,
  );
}

function checked<S extends TSchema>(schema: S, event: EventEnvelope): Static<S> {
  if (!Value.Check(schema, event.data)) {
    const problem = Value.Errors(schema, event.data).First();
    throw new Error(`${event.type} data breaks its contract at ${problem?.path || '/'}: ${problem?.message}`);
  }
  return event.data;
}

export function requestNotificationHandlers(deps: RequestMailDeps): Record<string, EventHandler> {
  const support: MailAddress = { name: 'HomeReport Support', address: deps.supportEmail };
  const staff: MailAddress = { name: 'HomeReport Staff', address: deps.staffEmail };
  const handle =
    <S extends TSchema>(
      schema: S,
      send: (effects: Effects, eventId: string, data: Static<S>) => Promise<SendOutcome[]>,
    ): EventHandler =>
    async (event, log, effects) => {
      for (const outcome of await send(effects, event.id, checked(schema, event))) {
        log.info({ kind: outcome.kind, sent: outcome.sent }, outcome.sent ? 'email sent' : 'email already sent');
      }
    };

  return {
    // The staff hear of requests that arrive together in one digest (at most REQUESTS_PER_DIGEST
    // each), as of leads: a burst of anonymous requests must not bury the inbox. Receipts go to each
    // signed-in requester, a few an hour one by one, the rest in an hourly digest. All or nothing per call, as for leads: the kit then retries the
    // call's events one at a time, and what was recorded as sent (or folded) is skipped.
    [Topics.requestSubmitted]: batchHandler(async (events, log, effects) => {
      const submitted = events.map((event) => [event.id, checked(RequestSubmitted, event)] as const);
      const due = submitted.filter(([eventId]) => !effects.done('request-staff', eventId));
      for (let start = 0; start < due.length; start += REQUESTS_PER_DIGEST) {
        const group = due.slice(start, start + REQUESTS_PER_DIGEST);
        const [first] = group;
        if (!first) break;
        const requester = first[1].requester;
        const mail: OutgoingMail =
          group.length === 1
            ? {
                to: staff,
                ...(requester ? { replyTo: { address: requester.email } } : {}),
                ...requestStaffEmail(first[1], deps.brand),
              }
            : {
                to: staff,
                ...requestDigestEmail(
                  group.map(([, data]) => data),
                  deps.brand,
                ),
              };
        const { messageId } = await deps.mailer.send({ ...mail, template: 'request-staff' });
        await effects.record(
          'request-staff',
          group.map(([eventId]) => eventId),
        );
        const sentAt = new Date();
        await deps.sent.recordMany(
          group.map(([eventId]) => ({
            eventId,
            kind: 'request-staff',
            to: staff.address,
            sentAt,
            smtpMessageId: messageId,
          })),
        );
        log.info({ kind: 'request-staff', sent: true, requests: group.length }, 'email sent');
      }
      for (const [eventId, data] of submitted) {
        if (!data.requester) continue;
        const decision = await foldOrSend(deps.receipts, effects, eventId, data.requester, data.request);
        if (decision === 'folded') log.info({ kind: 'request-receipt' }, 'receipt folded into the hourly digest');
        if (decision !== 'send') continue;
        const outcome = await sendOnce(deps, effects, eventId, 'request-receipt', {
          to: { address: data.requester.email },
          replyTo: support,
          ...requestReceiptEmail(data, deps.brand),
        });
        log.info({ kind: outcome.kind, sent: outcome.sent }, outcome.sent ? 'email sent' : 'email already sent');
      }
    }),
    [Topics.requestCovered]: handle(RequestCovered, async (effects, eventId, data) => {
      if (!data.requester) return [];
      return [
        await sendOnce(deps, effects, eventId, 'report-ready', {
          to: { address: data.requester.email },
          replyTo: support,
          ...reportReadyEmail(data, deps.brand),
        }),
      ];
    }),
  };
}
