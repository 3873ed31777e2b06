import { RequestCovered, RequestSubmitted, Topics } from '@homereport/contracts';
import type { EventHandler } from '@homereport/kit';
import type { Static, TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { EmailKind, MailAddress, Mailer, OutgoingMail, SentEmails } from '../domain/ports.js';
import {
  type Brand,
  type EmailContent,
  PRODUCT_NAME,
  type RenderedEmail,
  oneLine,
  renderEmail,
} from '../mail/layout.js';

/**
 * Emails about coverage requests (the requests service's events):
 * - request-submitted: the staff inbox is told of every request; a requester who was signed in
 *   gets a receipt (an anonymous visitor left no address to write to);
 * - request-covered: the signed-in requester learns that the report is ready, with a link to it.
 * Each email is sent once per event, even when the event is delivered again.
 */
export interface RequestMailDeps {
  mailer: Mailer;
  sent: SentEmails;
  brand: Brand;
  staffEmail: string;
  supportEmail: string;
}

export const REVIEW_PROMISE = 'Our team reviews new requests within 24 hours.';
export const DELIVERY_PROMISE = 'A completed report is usually delivered within 3-5 business days.';

const page = (brand: Brand, path: string) => `${brand.publicUrl.replace(/\/+$/, '')}${path}`;

export function requestStaffEmail(data: RequestSubmitted, brand: Brand): RenderedEmail {
  const { request, requester } = data;
  const content: EmailContent = {
    subject: `New coverage request: ${oneLine(request.address, 120)}`,
    preheader: `${requester ? requester.email : 'An anonymous visitor'} asked for a property report.`,
    heading: 'A new property was requested',
    blocks: [
      {
        kind: 'fields',
        rows: [
          ['Address', request.address],
          ['Listing URL', request.url ?? 'not given'],
          ['Requested by', requester ? requester.email : 'Anonymous visitor (not signed in)'],
          ['Requested on', request.created_at],
        ],
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

export function requestReceiptEmail(data: RequestSubmitted, brand: Brand): RenderedEmail {
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

async function sendOnce(deps: RequestMailDeps, eventId: string, kind: EmailKind, mail: OutgoingMail) {
  if (await deps.sent.wasSent(eventId, kind)) return { kind, sent: false };
  const { messageId } = await deps.mailer.send(mail);
  await deps.sent.record({ eventId, kind, to: mail.to.address, sentAt: new Date(), smtpMessageId: messageId });
  return { kind, sent: true };
}

export function requestNotificationHandlers(deps: RequestMailDeps): Record<string, EventHandler> {
  const support: MailAddress = { name: 'HomeReport Support', address: deps.supportEmail };
  const handle =
    <S extends TSchema>(
      schema: S,
      send: (eventId: string, data: Static<S>) => Promise<{ kind: EmailKind; sent: boolean }[]>,
    ): EventHandler =>
    async (event, log) => {
      if (!Value.Check(schema, event.data)) {
        const problem = Value.Errors(schema, event.data).First();
        throw new Error(`${event.type} data breaks its contract at ${problem?.path || '/'}: ${problem?.message}`);
      }
      for (const outcome of await send(event.id, event.data)) {
        log.info({ kind: outcome.kind, sent: outcome.sent }, outcome.sent ? 'email sent' : 'email already sent');
      }
    };

  return {
    [Topics.requestSubmitted]: handle(RequestSubmitted, async (eventId, data) => {
      const outcomes = [
        await sendOnce(deps, eventId, 'request-staff', {
          to: { name: 'HomeReport Staff', address: deps.staffEmail },
          ...(data.requester ? { replyTo: { address: data.requester.email } } : {}),
          ...requestStaffEmail(data, deps.brand),
        }),
      ];
      if (data.requester) {
        outcomes.push(
          await sendOnce(deps, eventId, 'request-receipt', {
            to: { address: data.requester.email },
            replyTo: support,
            ...requestReceiptEmail(data, deps.brand),
          }),
        );
      }
      return outcomes;
    }),
    [Topics.requestCovered]: handle(RequestCovered, async (eventId, data) => {
      if (!data.requester) return [];
      return [
        await sendOnce(deps, eventId, 'report-ready', {
          to: { address: data.requester.email },
          replyTo: support,
          ...reportReadyEmail(data, deps.brand),
        }),
      ];
    }),
  };
}
