import { ZIP_WATCHES_MAX, type ZipChange, type ZipWatchAlerted } from '@homereport/contracts';
import { type UserSetLimit, notFound } from '@homereport/kit';
import type { AnalysisStore } from './ports.js';

/** A user who watches ZIP codes, as the alert fan-out reads them. */
export interface Watcher {
  userId: string;
  email: string;
  zips: string[];
}

export const ZIP_WATCHES_LIMIT: UserSetLimit = {
  max: ZIP_WATCHES_MAX,
  full: `You can watch up to ${ZIP_WATCHES_MAX} ZIP codes. Stop watching one to watch another.`,
};

/** Where watches are kept: per user, the watched ZIP codes, oldest first, each once. */
export interface WatchStore {
  list(userId: string): Promise<string[]>;
  /** Adds the ZIP code at the end unless it is there (409 past ZIP_WATCHES_LIMIT); keeps the user's current address. */
  add(userId: string, email: string, zipCode: string): Promise<void>;
  remove(userId: string, zipCode: string): Promise<void>;
  /** Account deleted: every watch and pending alert of the user goes. */
  forget(userId: string): Promise<void>;
  /** Every watcher, read in pages as the caller goes: never all of them in memory at once. */
  watchers(): AsyncIterable<Watcher>;
}

/** Where the alerts of one import go: recorded with their events, published by the outbox. */
export interface AlertSink {
  record(alerts: ZipWatchAlerted[]): Promise<void>;
}

/** Alerts written together: one outbox batch (one marker, one insert) per this many watchers. */
export const ALERT_BATCH = 200;

/**
 * ZIP watches (api.md "Beyond the spec"): a signed-in user watches ZIP codes that have an
 * analysis, and hears by email when an import changes one of them.
 */
export class ZipWatches {
  constructor(private readonly deps: { watches: WatchStore; analyses: Pick<AnalysisStore, 'find'> }) {}

  /** Most recently watched first. */
  async list(userId: string): Promise<string[]> {
    return [...(await this.deps.watches.list(userId))].reverse();
  }

  async watch(user: { userId: string; email: string }, zipCode: string): Promise<void> {
    if (!(await this.deps.analyses.find(zipCode))) throw notFound(`We have no analysis of ZIP code ${zipCode}.`);
    await this.deps.watches.add(user.userId, user.email, zipCode);
  }

  /** Idempotent; a ZIP code without an analysis answers 404 unless it was watched (its analysis may be gone). */
  async unwatch(userId: string, zipCode: string): Promise<void> {
    const zips = await this.deps.watches.list(userId);
    if (!zips.includes(zipCode) && !(await this.deps.analyses.find(zipCode)))
      throw notFound(`We have no analysis of ZIP code ${zipCode}.`);
    await this.deps.watches.remove(userId, zipCode);
  }
}

/**
 * After an import: one alert per watcher of a changed ZIP code, listing all of their ZIP codes
 * that changed, so each watcher gets one email per import. Watchers are read page by page and
 * their alerts written ALERT_BATCH at a time, so a large audience never sits in memory whole.
 * Each alert's id is `zip-watch-alert:<importId>:<userId>`: written twice, it is stored and
 * emailed once.
 */
export async function alertWatchers(
  importId: string,
  changes: ZipChange[],
  deps: { watches: Pick<WatchStore, 'watchers'>; alerts: AlertSink },
): Promise<number> {
  const byZip = new Map(changes.map((c) => [c.zipCode, c]));
  let pending: ZipWatchAlerted[] = [];
  let sent = 0;
  for await (const watcher of deps.watches.watchers()) {
    const zips = watcher.zips.flatMap((zip) => {
      const change = byZip.get(zip);
      return change ? [change] : [];
    });
    if (zips.length === 0) continue;
    pending.push({ importId, userId: watcher.userId, email: watcher.email, zips });
    if (pending.length >= ALERT_BATCH) {
      await deps.alerts.record(pending);
      sent += pending.length;
      pending = [];
    }
  }
  if (pending.length > 0) await deps.alerts.record(pending);
  return sent + pending.length;
}
