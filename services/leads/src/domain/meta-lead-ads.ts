import type { MetaHandshakeQuery, MetaWebhookBody } from '@homereport/contracts';
import { AppError, type Logger, badRequest, forbidden } from '@homereport/kit';
import type { Leads } from './leads.js';
import { type LeadgenNotice, handshakeChallenge, leadgenNotices, readMetaLead, signatureMatches } from './meta-lead.js';
import type { LeadFormSource } from './ports.js';

export interface MetaSettings {
  appSecret: string;
  verifyToken: string;
  /** The webhook key Meta's leads are stored under. */
  keyName: string;
}

export const MetaMessages = {
  notConfigured: 'Meta Lead Ads is not set up on this server (META_APP_SECRET is empty).',
  badHandshake: 'The verify token does not match, or this is not a subscribe request.',
  badSignature: 'The X-Hub-Signature-256 header is missing or does not match the body.',
  keyInactive: 'The Meta Lead Ads source is switched off (its webhook key is inactive).',
  retryLater: 'Some leads of this delivery could not be read from the Graph API yet; deliver it again.',
} as const;

/** Graph reads in flight at once for one delivery (Meta batches up to 1000 changes). */
const READS_AT_ONCE = 4;

/** What became of each lead of a delivery. */
export interface DeliveryOutcome {
  stored: string[];
  duplicate: string[];
  skipped: string[];
  retry: string[];
}

/**
 * Meta Lead Ads: the handshake, the signature, and each announced lead read from the Graph API and
 * stored like any other inbound lead (same store, same lead-received event, idempotent by
 * leadgen_id). A lead the Graph API cannot give now is not lost: the delivery is answered 503 and
 * Meta delivers it again (it retries failed deliveries); leads it did store are then duplicates.
 */
export class MetaLeadAds {
  constructor(
    private readonly leads: Leads,
    private readonly graph: LeadFormSource,
    private readonly settings: MetaSettings,
  ) {}

  /** The challenge to echo as text/plain; a 403 unless Meta's handshake names our verify token. */
  handshake(query: MetaHandshakeQuery): string {
    const challenge = handshakeChallenge(query, this.settings.verifyToken);
    if (challenge === null) throw forbidden(MetaMessages.badHandshake, 'VERIFY_TOKEN_MISMATCH');
    return challenge;
  }

  /** Whether the delivery's bytes carry the app secret's signature. */
  signed(rawBody: Buffer, header: string | undefined): boolean {
    return signatureMatches(this.settings.appSecret, rawBody, header);
  }

  /** Stores every lead a (signed) delivery announces; throws a 503 when some must come again. */
  async receive(body: MetaWebhookBody, requestId: string, log: Logger): Promise<DeliveryOutcome> {
    const read = leadgenNotices(body);
    if (!read.ok) {
      throw badRequest(`${read.field} must be a lead id.`, [{ field: read.field, message: 'must be a lead id' }]);
    }
    const outcome: DeliveryOutcome = { stored: [], duplicate: [], skipped: [], retry: [] };
    if (read.notices.length === 0) return outcome;

    const key = await this.leads.sourceKey(this.settings.keyName);
    // Like the generic webhook's 401 for an inactive key: the source is refused, and Meta's
    // delivery log shows it (Meta retries, then gives up on those leads).
    if (!key.is_active) throw forbidden(MetaMessages.keyInactive, 'SOURCE_INACTIVE');

    const take = async (notice: LeadgenNotice) => {
      const id = notice.leadgen_id;
      const answer = await this.graph.readLead(id);
      if (answer.kind === 'retry') {
        log.warn(
          { leadgenId: id, reason: answer.reason },
          'Meta lead not read from the Graph API; Meta will deliver it again',
        );
        outcome.retry.push(id);
        return;
      }
      if (answer.kind !== 'found') {
        log.warn({ leadgenId: id, reason: answer.reason }, 'Meta lead skipped: the Graph API has no lead to give');
        outcome.skipped.push(id);
        return;
      }
      const lead = readMetaLead(notice, answer.lead);
      if (!lead.ok) {
        log.warn(
          { leadgenId: id, reason: lead.message },
          'Meta lead skipped: its form gave no way to reach the person',
        );
        outcome.skipped.push(id);
        return;
      }
      const stored = await this.leads.store(key.key_name, lead.lead, requestId, 'meta');
      (stored === 'created' ? outcome.stored : outcome.duplicate).push(id);
    };

    const queue = [...read.notices];
    const worker = async () => {
      for (let notice = queue.shift(); notice; notice = queue.shift()) await take(notice);
    };
    await Promise.all(Array.from({ length: Math.min(READS_AT_ONCE, queue.length) }, worker));

    log.info(
      {
        stored: outcome.stored.length,
        duplicate: outcome.duplicate.length,
        skipped: outcome.skipped.length,
        retry: outcome.retry.length,
      },
      'Meta lead delivery handled',
    );
    if (outcome.retry.length > 0) throw new AppError(503, 'GRAPH_UNAVAILABLE', MetaMessages.retryLater);
    return outcome;
  }
}
