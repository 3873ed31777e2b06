import type { ZipAnalysis, ZipListItem } from '@homereport/contracts';
import { describe, expect, it } from 'vitest';
import { generateAnalysis } from '../../tools/generator.js';
import { toListItem } from './analyses.js';
import { importAnalyses } from './import.js';
import { measuresOf } from './measures.js';
import type { AnalysisStore, ListInvalidation } from './ports.js';

class MemoryStore implements AnalysisStore {
  readonly records = new Map<string, ZipAnalysis>();
  failFor = new Set<string>();
  async replace(analysis: ZipAnalysis) {
    if (this.failFor.has(analysis.zipCode)) throw new Error('write failed');
    const before = this.records.get(analysis.zipCode);
    this.records.set(analysis.zipCode, structuredClone(analysis));
    return before ? measuresOf(before) : null;
  }
  async find(zip: string) {
    return this.records.get(zip) ?? null;
  }
  async listItems(): Promise<ZipListItem[]> {
    return [...this.records.values()].map(toListItem);
  }
  async isEmpty() {
    return this.records.size === 0;
  }
}

const counting = (): ListInvalidation & { count: number } => ({
  count: 0,
  async invalidate() {
    this.count++;
  },
});

const analysis = (zip: string) =>
  generateAnalysis({ zip, city: 'Dayton', state: 'OH', neighborhood: 'Oregon District', tier: 3, price: 200_000 });

describe('importAnalyses', () => {
  it('stores the valid records, refuses the rest with their index and ZIP code, and invalidates the list once', async () => {
    const store = new MemoryStore();
    const list = counting();
    const bad = { ...analysis('45402'), zipCode: '4540' };
    const report = await importAnalyses([analysis('45401'), bad, analysis('45403')], store, list);
    expect(report.imported).toEqual(['45401', '45403']);
    expect(report.refused).toEqual([{ index: 1, zipCode: '4540', errors: [expect.stringMatching(/^zipCode:/)] }]);
    expect([...store.records.keys()].sort()).toEqual(['45401', '45403']);
    expect(list.count).toBe(1);
  });

  it('does not touch the list when nothing was stored', async () => {
    const list = counting();
    const report = await importAnalyses([{}, 42], new MemoryStore(), list);
    expect(report.imported).toEqual([]);
    expect(report.refused.map((r) => r.index)).toEqual([0, 1]);
    expect(list.count).toBe(0);
  });

  it('reports a record the database refused, and still stores the others', async () => {
    const store = new MemoryStore();
    store.failFor.add('45402');
    const report = await importAnalyses([analysis('45401'), analysis('45402'), analysis('45403')], store, counting());
    expect(report.imported).toEqual(['45401', '45403']);
    expect(report.refused).toEqual([
      { index: 1, zipCode: '45402', errors: [expect.stringMatching(/could not be stored/)] },
    ]);
  });

  it('keeps imported ZIP codes in the order they were sent, whatever order the writes finish in', async () => {
    const zips = Array.from({ length: 40 }, (_, i) => String(10000 + i));
    const store = new MemoryStore();
    const slow: AnalysisStore = {
      ...store,
      replace: async (a) => {
        await new Promise((r) => setTimeout(r, Number(a.zipCode) % 7));
        return store.replace(a);
      },
      find: store.find.bind(store),
      listItems: store.listItems.bind(store),
      isEmpty: store.isEmpty.bind(store),
    };
    const report = await importAnalyses(zips.map(analysis), slow, counting());
    expect(report.imported).toEqual(zips);
  });

  it('tells onChanges which stored analyses moved in a watched measure, old and new values, and nothing else', async () => {
    const store = new MemoryStore();
    await importAnalyses([analysis('45401'), analysis('45402')], store, counting());
    const seen: unknown[] = [];
    const onChanges = async (changes: unknown[]) => {
      seen.push(changes);
    };
    const moved = analysis('45401');
    (moved.executiveSummary as { riskLevel: string }).riskLevel = 'high';
    const before = measuresOf(analysis('45401'));
    await importAnalyses([analysis('45402'), moved, analysis('45403')], store, counting(), { onChanges });
    expect(seen).toEqual([
      [{ zipCode: '45401', place: 'Dayton, OH', changes: [{ measure: 'risk', from: before.risk, to: 'high' }] }],
    ]);
    // The same import again changes nothing: onChanges is not called.
    await importAnalyses([moved], store, counting(), { onChanges });
    expect(seen).toHaveLength(1);
  });

  it('a failed onChanges goes to onChangesError; the analyses stay stored and the report is whole', async () => {
    const store = new MemoryStore();
    await importAnalyses([analysis('45401')], store, counting());
    const moved = analysis('45401');
    (moved.marketFundamentals.medianSalePrice as { value: number }).value = 1;
    const errors: unknown[] = [];
    const report = await importAnalyses([moved], store, counting(), {
      onChanges: async () => {
        throw new Error('kafka away');
      },
      onChangesError: (err) => errors.push(err),
    });
    expect(report.imported).toEqual(['45401']);
    expect(errors).toHaveLength(1);
    expect(store.records.get('45401')?.marketFundamentals.medianSalePrice?.value).toBe(1);
  });
});
