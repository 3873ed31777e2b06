import { randomUUID } from 'node:crypto';
import {
  type AccessHistoryEntry,
  REPORT_FILE_TYPES,
  type ReportViewReply,
  type UserStats,
  reportFileFormat,
} from '@homereport/contracts';
import { AppError, type Identity, businessMetrics, notFound } from '@homereport/kit';
import { reportViewed } from '../events/published.js';
import { CREDITS_PER_PERIOD, noCreditsMessage, periodAt, periodFromNow } from './credit-period.js';
import type {
  ActivityStore,
  CreditStore,
  LinkSigner,
  PropertyStore,
  RequestStore,
  StatsStore,
  ViewLedger,
  ViewRecord,
  WarningLog,
  ZipContext,
} from './ports.js';
import { zipOfKey } from './property-key.js';
import { Messages, toApi } from './requests.js';
import type { OpenedReports } from './shares.js';

interface ReportsDeps {
  requests: RequestStore;
  properties: PropertyStore;
  activity: ActivityStore;
  credits: CreditStore;
  ledger: ViewLedger;
  stats: StatsStore;
  signer: LinkSigner;
  opened: OpenedReports;
  /** The ZIP code analyses a report is shown beside. */
  zipContext: ZipContext;
  now?: () => Date;
}

export const NO_CREDITS = 'NO_CREDITS';

/**
 * Opening reports with credits, and what a user's dashboard reads. Every count here is kept in a
 * document updated atomically, never counted by a scan.
 */
export class Reports {
  private readonly now: () => Date;

  constructor(private readonly deps: ReportsDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  /**
   * A report is a property's: the first view of a property in a credit period spends a credit,
   * whichever of its requests' ids is opened; later ones are free. The spend and the "already
   * opened" mark are one conditional write of the period's document, so concurrent opens never
   * spend twice for one property nor go below zero (see data/credits.ts). Admins and anyone who
   * requested the property open it without spending credits.
   *
   * With the report comes its ZIP code's analysis (`zip_analysis`), asked for while the view
   * is recorded; null when there is none or it cannot be had now (ZipContext never throws).
   */
  async view(
    requestId: string,
    user: Identity,
    context: { requestId: string; log: WarningLog },
  ): Promise<ReportViewReply> {
    const correlationId = context.requestId;
    const asked = await this.deps.requests.find(requestId);
    if (!asked) throw notFound(Messages.reportNotFound);
    const property = asked.propertyId ? await this.deps.properties.find(asked.propertyId) : null;
    // A request of a covered property that is itself open (set back by an admin) still opens the
    // property's report.
    const request =
      asked.status !== 'covered' && property?.report ? await this.deps.requests.find(property.report) : asked;
    if (!request || request.status !== 'covered') throw notFound(Messages.reportNotFound);
    // Credits, "opened" and "unique reports" count properties; a request stored before them counts alone.
    const unit = property?.id ?? request.id;
    const now = this.now();
    let charged = false;
    const own = property
      ? property.requests.some((e) => e.user === user.userId)
      : request.requester?.userId === user.userId;
    // Free: to admins, to the requester (the report is theirs), and while a report covered before
    // files were required has no report file (nothing to read yet).
    if (user.role !== 'admin' && !own && request.files.report) {
      const anchor = await this.deps.activity.ensureAnchor(user.userId, now);
      const period = periodAt(anchor, now);
      const outcome = await this.deps.credits.charge(user.userId, period.index, unit);
      if (outcome === 'no-credits') throw new AppError(402, NO_CREDITS, noCreditsMessage(period.end));
      charged = outcome === 'charged';
      if (charged) businessMetrics.creditSpent();
      // Opened this period by this id too: sharing it checks the id (shares.ts).
      if (property) await this.deps.opened.markOpened(user.userId, period.index, requestId);
    } else if (own || user.role === 'admin') {
      // Spends nothing, but counts as opened this period: the requester may then share it (shares.ts).
      const anchor = await this.deps.activity.ensureAnchor(user.userId, now);
      await this.deps.opened.markOpened(user.userId, periodAt(anchor, now).index, requestId);
    }
    // Asked for once the view is allowed (a refused one asks nothing), while the view is recorded.
    const zipCode = zipOfKey(property?.key ?? request.addressKey);
    const zipAnalysis = zipCode ? this.deps.zipContext.headline(zipCode, context) : Promise.resolve(null);
    const view: ViewRecord = {
      viewId: randomUUID(),
      userId: user.userId,
      requestId,
      ...(property ? { propertyId: property.id } : {}),
      address: request.address,
      at: now,
      charged,
      pending: true,
    };
    const event = reportViewed(
      { viewId: view.viewId, userId: user.userId, requestId, charged, viewedAt: now.toISOString() },
      correlationId,
    );
    await this.deps.ledger.record(view, [event]);
    await this.afterView(view);
    return {
      request: toApi(request, this.deps.signer, { withNotes: own || user.role === 'admin' }, property),
      documents: REPORT_FILE_TYPES.flatMap((type) => {
        const file = request.files[type];
        return file ? [{ type, format: reportFileFormat(file.contentType, file.name), size: file.size ?? 0 }] : [];
      }),
      zip_analysis: await zipAnalysis,
    };
  }

  /**
   * The view's counters and history entry. The admin counter is idempotent per view id; the
   * user's side is applied by whoever takes the view's pending mark (this call, or the
   * report-viewed consumer if this call died before), so it is applied once.
   */
  async afterView(view: ViewRecord): Promise<void> {
    await this.deps.stats.applyRequestDelta(view.viewId, { totalAccess: 1 });
    if (!(await this.deps.ledger.claimPending(view.viewId))) return;
    const unit = view.propertyId ?? view.requestId;
    const firstEver = await this.deps.activity.firstView(view.userId, unit, view.viewId, view.at);
    await this.deps.activity.addView(
      view.userId,
      {
        id: view.viewId,
        request_id: view.requestId,
        ...(view.propertyId ? { property_id: view.propertyId } : {}),
        address: view.address,
        accessed_at: view.at,
      },
      firstEver,
    );
  }

  async stats(userId: string): Promise<UserStats> {
    const now = this.now();
    const activity = await this.deps.activity.find(userId);
    const period = activity?.anchor ? periodAt(activity.anchor, now) : periodFromNow(now);
    const credits = activity?.anchor ? await this.deps.credits.creditsLeft(userId, period.index) : CREDITS_PER_PERIOD;
    return {
      credits,
      totalAccess: activity?.totalAccess ?? 0,
      uniqueReports: activity?.uniqueReports ?? 0,
      subscription_status: 'free',
      next_refresh_at: period.end.toISOString(),
    };
  }

  /** The user's most recent views, newest first (a bounded list kept with each view). */
  async history(userId: string): Promise<AccessHistoryEntry[]> {
    const activity = await this.deps.activity.find(userId);
    return [...(activity?.history ?? [])].reverse().map((entry) => ({
      id: entry.id,
      request_id: entry.request_id,
      ...(entry.property_id ? { property_id: entry.property_id } : {}),
      address: entry.address,
      accessed_at: entry.accessed_at.toISOString(),
    }));
  }
}
