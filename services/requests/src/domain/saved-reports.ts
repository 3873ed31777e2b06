import { type CoverageRequest, SAVED_REPORTS_MAX } from '@homereport/contracts';
import { type UserSetLimit, notFound } from '@homereport/kit';
import type { PropertyStore, RequestStore } from './ports.js';
import { Messages, toApi } from './requests.js';

export const SAVED_REPORTS_LIMIT: UserSetLimit = {
  max: SAVED_REPORTS_MAX,
  full: `You can keep up to ${SAVED_REPORTS_MAX} saved reports. Remove one to save another.`,
};

/** Where a user's saved reports are kept: request ids, oldest saved first, each once. */
export interface SavedReportStore {
  list(userId: string): Promise<string[]>;
  /** Adds the id at the end unless it is there already; 409 past SAVED_REPORTS_LIMIT. */
  add(userId: string, requestId: string): Promise<void>;
  /** True when the id was in the list. */
  remove(userId: string, requestId: string): Promise<boolean>;
  /** Account deleted: the whole list goes. */
  forget(userId: string): Promise<void>;
}

/**
 * Saved reports (api.md "Beyond the spec"): a user keeps covered reports at hand. Saving and
 * removing are idempotent; only a covered request can be saved. The list shows the saved reports
 * that are still covered, newest saved first, without file links (opening one goes through the
 * report call, which counts credits), and is bounded by SAVED_REPORTS_MAX, so one read answers it.
 */
export class SavedReports {
  constructor(
    private readonly deps: {
      saved: SavedReportStore;
      requests: RequestStore;
      /** The reports' headline figures are their properties' (decision 024). */
      properties: Pick<PropertyStore, 'findMany'>;
    },
  ) {}

  async list(userId: string): Promise<CoverageRequest[]> {
    const ids = [...(await this.deps.saved.list(userId))].reverse();
    if (ids.length === 0) return [];
    const records = await this.deps.requests.findMany(ids);
    const byId = new Map(records.map((r) => [r.id, r]));
    const properties = await this.deps.properties.findMany(
      records.flatMap((r) => (r.propertyId ? [r.propertyId] : [])),
    );
    const byProperty = new Map(properties.map((p) => [p.id, p]));
    return ids.flatMap((id) => {
      const record = byId.get(id);
      if (record?.status !== 'covered') return [];
      return [toApi(record, null, { withNotes: false }, byProperty.get(record.propertyId) ?? null)];
    });
  }

  async save(userId: string, requestId: string): Promise<void> {
    await this.coveredOr404(requestId);
    await this.deps.saved.add(userId, requestId);
  }

  /** A saved report leaves the list even when it is no longer covered; otherwise 404 as for saving. */
  async remove(userId: string, requestId: string): Promise<void> {
    if (await this.deps.saved.remove(userId, requestId)) return;
    await this.coveredOr404(requestId);
  }

  private async coveredOr404(requestId: string): Promise<void> {
    const record = await this.deps.requests.find(requestId);
    if (record?.status !== 'covered') throw notFound(Messages.reportNotFound);
  }
}
