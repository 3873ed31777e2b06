import type { CoverageRequest, ShareLinkReply } from '@homereport/contracts';
import { AppError, type Identity, businessMetrics, forbidden, notFound } from '@homereport/kit';
import { periodAt } from './credit-period.js';
import type { ActivityStore, LinkSigner, PropertyStore, RequestStore } from './ports.js';
import { Messages, toApi } from './requests.js';
import { newShareId, signShareToken, verifyShareToken } from './share-token.js';

/** One share link as stored: whose, of which report, and the revocation epoch it was made in. */
export interface ShareRecord {
  id: string;
  userId: string;
  requestId: string;
  /** The user's revocation count for this report when the link was made (see ShareStore.revoke). */
  epoch: number;
  created_at: Date;
  expires_at: Date;
}

export interface ShareStore {
  /** How many times the user revoked their links to this report (0 if never). */
  epoch(userId: string, requestId: string): Promise<number>;
  insert(share: ShareRecord): Promise<void>;
  find(shareId: string): Promise<ShareRecord | null>;
  /**
   * Ends every link the user made to this report so far, in one atomic write: the epoch goes up,
   * and a link made in an earlier epoch answers 410 on every replica from then on.
   */
  revoke(userId: string, requestId: string): Promise<void>;
  /** Erases every link of a deleted account (they then answer 404); how many there were. */
  forget(userId: string): Promise<number>;
}

/** Which reports a user opened in a credit period (the period's `opened` list). */
export interface OpenedReports {
  wasOpened(userId: string, periodIndex: number, requestId: string): Promise<boolean>;
  /** Notes a free open (no credit spent), so the report counts as opened this period too. */
  markOpened(userId: string, periodIndex: number, requestId: string): Promise<void>;
}

interface SharesDeps {
  requests: RequestStore;
  /** The report's headline figures are its property's (decision 024). */
  properties: Pick<PropertyStore, 'find'>;
  activity: ActivityStore;
  opened: OpenedReports;
  shares: ShareStore;
  signer: LinkSigner;
  tokenKey: Buffer;
  /** PUBLIC_URL: where the web app's /shared/<token> page is. */
  publicUrl: string;
  lifetimeDays: number;
  now?: () => Date;
}

export const SHARE_GONE = 'SHARE_LINK_GONE';
export const NOT_OPENED = 'REPORT_NOT_OPENED';

export const ShareMessages = {
  notOpened: 'Open this report first: you can share a report you have opened in this credit period.',
  unknownLink: 'This share link does not exist. Check that it was copied whole.',
  gone: 'This link was revoked or has expired. Ask the person who shared it for a new one.',
} as const;

const DAY_MS = 24 * 60 * 60 * 1000;
const gone = () => new AppError(410, SHARE_GONE, ShareMessages.gone);

/**
 * Share links of reports: a user who opened a report this period hands it to someone without an
 * account (a partner, a lender). Opening a link spends no credit and records no view: the viewer
 * is nobody's user, and the sharer paid when they opened it.
 */
export class Shares {
  private readonly now: () => Date;
  private readonly base: string;

  constructor(private readonly deps: SharesDeps) {
    this.now = deps.now ?? (() => new Date());
    this.base = deps.publicUrl.replace(/\/+$/, '');
  }

  async create(requestId: string, user: Identity): Promise<ShareLinkReply> {
    const request = await this.deps.requests.find(requestId);
    if (!request || request.status !== 'covered') throw notFound(Messages.reportNotFound);
    const now = this.now();
    if (!(await this.openedThisPeriod(user.userId, requestId, now)))
      throw forbidden(ShareMessages.notOpened, NOT_OPENED);
    const share: ShareRecord = {
      id: newShareId(),
      userId: user.userId,
      requestId,
      epoch: await this.deps.shares.epoch(user.userId, requestId),
      created_at: now,
      // Whole seconds, as the token carries it: the record, the token and the answer agree.
      expires_at: new Date(Math.floor((now.getTime() + this.deps.lifetimeDays * DAY_MS) / 1000) * 1000),
    };
    await this.deps.shares.insert(share);
    businessMetrics.shareCreated();
    const token = signShareToken(this.deps.tokenKey, share.id, share.expires_at);
    return { share_url: `${this.base}/shared/${token}`, expires_at: share.expires_at.toISOString() };
  }

  /**
   * The report behind a link, with signed file links and without the requester's notes. A token
   * we did not sign is unknown (404), never an error; a signed one past its time, revoked, or whose
   * record says it expired is gone (410).
   */
  async open(token: string): Promise<CoverageRequest> {
    const check = verifyShareToken(this.deps.tokenKey, token, this.now());
    if (check.outcome === 'forged') throw notFound(ShareMessages.unknownLink);
    if (check.outcome === 'expired') throw gone();
    const share = await this.deps.shares.find(check.shareId);
    if (!share) throw notFound(ShareMessages.unknownLink);
    if (share.expires_at.getTime() <= this.now().getTime()) throw gone();
    if (share.epoch < (await this.deps.shares.epoch(share.userId, share.requestId))) throw gone();
    const request = await this.deps.requests.find(share.requestId);
    if (!request || request.status !== 'covered') throw notFound(Messages.reportNotFound);
    const property = request.propertyId ? await this.deps.properties.find(request.propertyId) : null;
    return toApi(request, this.deps.signer, { withNotes: false }, property);
  }

  /** Ends every link the user made to this report; a later share makes a new, working one. */
  async revoke(requestId: string, user: Identity): Promise<void> {
    if (!(await this.deps.requests.find(requestId))) throw notFound(Messages.reportNotFound);
    await this.deps.shares.revoke(user.userId, requestId);
  }

  /** The report is in the `opened` list of the user's credit period now (reports.ts records it). */
  private async openedThisPeriod(userId: string, requestId: string, now: Date): Promise<boolean> {
    const anchor = (await this.deps.activity.find(userId))?.anchor;
    if (!anchor) return false;
    return this.deps.opened.wasOpened(userId, periodAt(anchor, now).index, requestId);
  }
}
