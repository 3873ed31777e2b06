import type { ZipAnalysis, ZipListItem } from '@homereport/contracts';
import { describe, expect, it } from 'vitest';
import { generateAnalysis } from '../sample/generator.js';
import { toListItem } from './analyses.js';
import { importAnalyses } from './import.js';
import type { AnalysisStore, ListInvalidation } from './ports.js';

class MemoryStore implements AnalysisStore {
  readonly records = new Map<string, ZipAnalysis>();
  failFor = new Set<string>();
  async replace(analysis: ZipAnalysis) {
    if (this.failFor.has(analysis.zipCode)) throw new Error('write failed');
    this.records.set(analysis.zipCode, structuredClone(analysis));
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
        await store.replace(a);
      },
      find: store.find.bind(store),
      listItems: store.listItems.bind(store),
      isEmpty: store.isEmpty.bind(store),
    };
    const report = await importAnalyses(zips.map(analysis), slow, counting());
    expect(report.imported).toEqual(zips);
  });
});
