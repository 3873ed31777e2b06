import { Topics, type ZipMeasure, type ZipMeasureChange, ZipWatchAlerted } from '@homereport/contracts';
import type { EventHandler } from '@homereport/kit';
import { Value } from '@sinclair/typebox/value';
import { sendOnce } from '../domain/notify.js';
import type { Mailer, SentEmails } from '../domain/ports.js';
import { type Block, type Brand, PRODUCT_NAME, type RenderedEmail, renderEmail } from '../mail/layout.js';
import { wholeDollars } from '../mail/money.js';

/**
 * zip-watch-alerted (the zipcodes service): an import changed ZIP codes the user watches; one
 * email lists every one of them with what moved, old -> new. Sent once per event (sendOnce),
 * and the event is one per watcher per import, so a watcher gets one email per import.
 */
interface ZipWatchMailDeps {
  mailer: Mailer;
  sent: SentEmails;
  brand: Brand;
  supportEmail: string;
}

const LABELS: Record<ZipMeasure, string> = {
  price: 'Median sale price',
  rent: 'Average rent (2 bedrooms)',
  appreciation: 'Appreciation (1 year)',
  risk: 'Risk level',
};

function show(measure: ZipMeasure, value: ZipMeasureChange['from']): string {
  if (value === null) return 'not given';
  if (typeof value === 'string') return value;
  if (measure === 'appreciation') return `${(value * 100).toFixed(1)}%`;
  if (measure === 'rent') return `${wholeDollars(value)}/month`;
  return wholeDollars(value);
}

export function zipWatchAlertEmail(data: ZipWatchAlerted, brand: Brand): RenderedEmail {
  const base = brand.publicUrl.replace(/\/+$/, '');
  const [first] = data.zips;
  const count = data.zips.length;
  const blocks: Block[] = [
    {
      kind: 'paragraph',
      text: `New figures came in for ${count === 1 ? 'a ZIP code' : `${count} ZIP codes`} you watch. What changed:`,
    },
  ];
  for (const zip of data.zips) {
    blocks.push({
      kind: 'fields',
      rows: [
        ['ZIP code', `${zip.zipCode} (${zip.place})`],
        ...zip.changes.map((c): [string, string] => [
          LABELS[c.measure],
          `${show(c.measure, c.from)} -> ${show(c.measure, c.to)}`,
        ]),
        ['Open', `${base}/zip/${encodeURIComponent(zip.zipCode)}`],
      ],
    });
  }
  if (first && count === 1)
    blocks.push({ kind: 'button', label: 'See the analysis', url: `${base}/zip/${encodeURIComponent(first.zipCode)}` });
  blocks.push({
    kind: 'note',
    text: `You get this email because you watch these ZIP codes on ${PRODUCT_NAME}. Stop watching one on its page to hear no more about it.`,
  });
  return renderEmail(
    {
      subject:
        count === 1 && first
          ? `ZIP ${first.zipCode} changed: ${first.changes.map((c) => LABELS[c.measure].toLowerCase()).join(', ')}`
          : `${count} ZIP codes you watch changed`,
      preheader: 'New market figures for ZIP codes you watch.',
      heading: count === 1 ? 'A ZIP code you watch changed' : 'ZIP codes you watch changed',
      blocks,
    },
    brand,
  );
}

export function zipWatchNotificationHandlers(deps: ZipWatchMailDeps): Record<string, EventHandler> {
  return {
    [Topics.zipWatchAlerted]: async (event, log, effects) => {
      if (!Value.Check(ZipWatchAlerted, event.data)) {
        const problem = Value.Errors(ZipWatchAlerted, event.data).First();
        throw new Error(`${event.type} data breaks its contract at ${problem?.path || '/'}: ${problem?.message}`);
      }
      const outcome = await sendOnce(deps, effects, event.id, 'zip-watch-alert', {
        to: { address: event.data.email },
        replyTo: { name: 'HomeReport Support', address: deps.supportEmail },
        ...zipWatchAlertEmail(event.data, deps.brand),
      });
      log.info({ kind: outcome.kind, sent: outcome.sent, zips: event.data.zips.length }, 'zip watch alert');
    },
  };
}
