import type { Effects } from '@homereport/kit';
import { type Brand, PRODUCT_NAME, type RenderedEmail, oneLine, renderEmail } from '../mail/layout.js';
import type { DueDigest, FoldedReceipt, MailAddress, Mailer, ReceiptWindows, SentEmails } from './ports.js';

/**
 * Request receipts in a burst (decision 027): the first few receipts of an account in a clock hour
 * go out one by one; the further ones of that hour are folded into one digest email, sent once the
 * hour is over. The window is the hour the request was made in (its `created_at`, in the event), so
 * a redelivery, a retry or another replica puts a receipt in the same window.
 */

export const HOUR_MS = 60 * 60 * 1000;

/** After its hour, how long a digest waits for receipts consumed late (a consumer catching up). */
export const DIGEST_GRACE_MS = 2 * 60 * 1000;

/** The receipts of one account's hour: the window's id, its hour, and when its digest is due. */
export function receiptWindow(userId: string, at: Date): { id: string; hour: Date; dueAt: Date } {
  const hour = new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS);
  return {
    id: `${userId}:${hour.toISOString().slice(0, 13)}`,
    hour,
    dueAt: new Date(hour.getTime() + HOUR_MS + DIGEST_GRACE_MS),
  };
}

/** The folding of receipts: where windows are kept, and how many receipts an hour go out one by one. */
export interface ReceiptFolding {
  windows: ReceiptWindows;
  /** Receipts per account and hour sent one by one; the further ones wait in the digest. 0: none folded. */
  oneByOnePerHour: number;
}

/** Effects on the event's claim (see the kit's Effects): decided to go out on its own, or folded. */
const ONE_BY_ONE = 'request-receipt-one-by-one';
const FOLDED = 'request-receipt-folded';

/**
 * What to do with a signed-in requester's receipt: `send` it now, or nothing (`folded` into the
 * digest now, or `done` by an earlier attempt at the event). Counting a receipt twice must not
 * happen on a retry (an SMTP outage retries the event several times), so the decision is recorded
 * on the event's claim as soon as it is made; a crash between the count and that record counts one
 * receipt twice, which folds a later receipt one early and loses nothing.
 */
export async function foldOrSend(
  folding: ReceiptFolding | undefined,
  effects: Effects,
  eventId: string,
  requester: { userId: string; email: string },
  request: { id: string; address: string; created_at: string },
): Promise<'send' | 'folded' | 'done'> {
  if (effects.done('request-receipt', eventId) || effects.done(FOLDED, eventId)) return 'done';
  if (!folding || folding.oneByOnePerHour <= 0 || effects.done(ONE_BY_ONE, eventId)) return 'send';
  const at = new Date(request.created_at);
  if (Number.isNaN(at.getTime())) return 'send';
  const window = receiptWindow(requester.userId, at);
  const count = await folding.windows.count(window.id, {
    userId: requester.userId,
    to: requester.email,
    hour: window.hour,
  });
  if (count <= folding.oneByOnePerHour) {
    await effects.record(ONE_BY_ONE, [eventId]);
    return 'send';
  }
  const receipt: FoldedReceipt = { eventId, requestId: request.id, address: request.address };
  if ((await folding.windows.fold(window.id, receipt, window.dueAt)) === 'taken') {
    // Consumed after its hour's digest went out: on its own, or nobody would tell of it.
    await effects.record(ONE_BY_ONE, [eventId]);
    return 'send';
  }
  await effects.record(FOLDED, [eventId]);
  return 'folded';
}

export interface DigestDeps {
  windows: ReceiptWindows;
  mailer: Mailer;
  sent: SentEmails;
  brand: Brand;
  supportEmail: string;
}

/** What one pass over the due digests did. */
export interface DigestPass {
  due: number;
  sent: number;
  failed: number;
}

/** A failed digest is tried again after these waits (the last one from then on). */
const RETRY_MS = [15_000, 60_000, 5 * 60_000];

/**
 * Sends every digest due at `now` that no other replica holds (at most `limit`). Each is taken
 * with a lease, sent with a Message-ID made of its window, then marked sent: at least once, and a
 * repeat after a crash is the same message (decision 016).
 */
export async function sendDueDigests(
  deps: DigestDeps,
  owner: string,
  now: () => Date,
  { leaseMs = 60_000, limit = 100 } = {},
): Promise<DigestPass> {
  const pass: DigestPass = { due: 0, sent: 0, failed: 0 };
  const support: MailAddress = { name: 'HomeReport Support', address: deps.supportEmail };
  for (let i = 0; i < limit; i++) {
    const digest = await deps.windows.takeDue(now(), owner, leaseMs);
    if (!digest) break;
    pass.due++;
    let messageId: string;
    try {
      ({ messageId } = await deps.mailer.send({
        to: { address: digest.to },
        replyTo: support,
        key: `request-receipt-digest.${digest.id.replace(/[^A-Za-z0-9.-]/g, '-')}`,
        template: 'request-receipt-digest',
        ...receiptDigestEmail(digest, deps.brand),
      }));
    } catch (err) {
      pass.failed++;
      const wait = RETRY_MS[Math.min(digest.attempts, RETRY_MS.length - 1)] ?? HOUR_MS;
      const retryAt = new Date(now().getTime() + wait);
      await deps.windows
        .release(digest.id, owner, retryAt, String((err as Error)?.message ?? err))
        .catch(() => undefined); // its lease runs out instead
      continue;
    }
    pass.sent++;
    // Sent: never released now. If MongoDB does not take this, the lease runs out and the digest
    // goes again with the same Message-ID, the at-least-once window of decision 016.
    const sentAt = now();
    await deps.windows.markSent(digest.id, owner, sentAt);
    await deps.sent.recordMany(
      digest.folded.map((r) => ({
        eventId: r.eventId,
        kind: 'request-receipt-digest' as const,
        to: digest.to,
        sentAt,
        smtpMessageId: messageId,
      })),
    );
  }
  return pass;
}

const hourLabel = (hour: Date) => `${hour.toISOString().slice(11, 16)} UTC`;

/** The folded receipts of one account's hour, in one email. */
export function receiptDigestEmail(digest: DueDigest, brand: Brand): RenderedEmail {
  const count = digest.foldedCount;
  const unlisted = count - digest.folded.length;
  const from = hourLabel(digest.hour);
  const to = hourLabel(new Date(digest.hour.getTime() + HOUR_MS));
  const dashboard = `${brand.publicUrl.replace(/\/+$/, '')}/dashboard`;
  return renderEmail(
    {
      subject: `We received ${count} more coverage ${count === 1 ? 'request' : 'requests'} from you`,
      preheader: `Between ${from} and ${to} you asked ${PRODUCT_NAME} to assess ${count} more properties.`,
      heading: `${count} more coverage ${count === 1 ? 'request' : 'requests'} received`,
      blocks: [
        {
          kind: 'paragraph',
          text: `Between ${from} and ${to} you asked ${PRODUCT_NAME} to assess more properties than we write about one by one, so the rest are listed here together. Our team reviews new requests within 24 hours, and we will email you when each report is ready.`,
        },
        {
          kind: 'fields',
          rows: digest.folded.map((r, i): [string, string] => [`Request ${i + 1}`, oneLine(r.address, 120)]),
        },
        ...(unlisted > 0
          ? [{ kind: 'paragraph' as const, text: `And ${unlisted} more: your dashboard lists every request.` }]
          : []),
        { kind: 'button', label: 'Follow them on your dashboard', url: dashboard },
        { kind: 'note', text: 'If you did not request these reports, please tell us by replying to this email.' },
      ],
    },
    brand,
  );
}
