import type { ZipAnalysis, ZipChange, ZipImportReport } from '@homereport/contracts';
import { checkAnalysis } from './analyses.js';
import { measureChanges, measuresOf } from './measures.js';
import type { AnalysisStore, ListInvalidation } from './ports.js';

/** Writes in flight at once: enough to keep the database busy, few enough not to swamp it. */
const WRITE_CONCURRENCY = 8;

export const NOT_STORED =
  'could not be stored just now (database error); nothing of it was written, please import it again';

interface ImportOptions {
  /** Told about a record the database refused, so an operator can see why. */
  onWriteError?: (zipCode: string, err: unknown) => void;
  /**
   * Told, once the writes are done, which stored analyses this import changed in a measure a
   * watcher hears about (measures.ts), in import order; not called when none changed. Its failure
   * goes to `onChangesError` (the analyses are stored whatever happens to the alerts); without
   * one it is thrown.
   */
  onChanges?: (changes: ZipChange[]) => Promise<void>;
  onChangesError?: (err: unknown) => void;
}

/**
 * Imports analyses: each record is checked on its own, and each valid one replaces the stored
 * analysis of its ZIP code in one whole-document write, so a bad record never stops the good ones
 * and nothing is ever half-written. A ZIP code given twice in one import is kept the first time
 * and refused the second, so the result never depends on write order. The cached list is
 * invalidated once, after the writes, if anything was stored.
 */
export async function importAnalyses(
  records: readonly unknown[],
  store: AnalysisStore,
  list: ListInvalidation,
  options: ImportOptions = {},
): Promise<ZipImportReport> {
  const refused: ZipImportReport['refused'] = [];
  const valid: { index: number; analysis: ZipAnalysis }[] = [];
  const firstIndexOf = new Map<string, number>();

  records.forEach((record, index) => {
    const checked = checkAnalysis(record);
    const zipCode = zipCodeOf(record);
    if (!checked.ok) {
      refused.push({ index, ...(zipCode ? { zipCode } : {}), errors: checked.errors });
      return;
    }
    const earlier = firstIndexOf.get(checked.analysis.zipCode);
    if (earlier !== undefined) {
      refused.push({
        index,
        zipCode: checked.analysis.zipCode,
        errors: [`zipCode: ${checked.analysis.zipCode} is already given at index ${earlier} of this import`],
      });
      return;
    }
    firstIndexOf.set(checked.analysis.zipCode, index);
    valid.push({ index, analysis: checked.analysis });
  });

  const stored = new Set<number>();
  const changed: { index: number; change: ZipChange }[] = [];
  let next = 0;
  const worker = async () => {
    while (next < valid.length) {
      const item = valid[next++];
      if (!item) break;
      try {
        const before = await store.replace(item.analysis);
        stored.add(item.index);
        const changes = before ? measureChanges(before, measuresOf(item.analysis)) : [];
        if (changes.length > 0) {
          const { city, state } = item.analysis.reportMetadata.location;
          changed.push({
            index: item.index,
            change: { zipCode: item.analysis.zipCode, place: `${city}, ${state}`, changes },
          });
        }
      } catch (err) {
        options.onWriteError?.(item.analysis.zipCode, err);
        refused.push({
          index: item.index,
          zipCode: item.analysis.zipCode,
          errors: [NOT_STORED],
        });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(WRITE_CONCURRENCY, valid.length) }, worker));

  if (stored.size > 0) await list.invalidate();
  if (changed.length > 0 && options.onChanges) {
    changed.sort((a, b) => a.index - b.index);
    try {
      await options.onChanges(changed.map((c) => c.change));
    } catch (err) {
      if (!options.onChangesError) throw err;
      options.onChangesError(err);
    }
  }
  refused.sort((a, b) => a.index - b.index);
  return {
    imported: valid.filter((v) => stored.has(v.index)).map((v) => v.analysis.zipCode),
    refused,
  };
}

function zipCodeOf(record: unknown): string | undefined {
  const value = (record as { zipCode?: unknown } | null)?.zipCode;
  return typeof value === 'string' && value.length <= 10 ? value : undefined;
}
