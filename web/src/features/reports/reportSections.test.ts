import type { CoverageRequest } from '@homereport/contracts';
import { describe, expect, it } from 'vitest';
import { availableSections } from './reportSections';

const base: CoverageRequest = {
  id: 'r1',
  address: '1 Main St',
  url: null,
  notes: null,
  status: 'covered',
  created_at: '2025-01-01T00:00:00.000Z',
  updated_at: '2025-01-02T00:00:00.000Z',
  report_path: null,
  strategy_path: null,
  school_report_path: null,
  neighborhood_report_path: null,
  property_id: 'p1',
};

describe('report sections', () => {
  it('shows only the sections whose document exists, in the spec order', () => {
    const sections = availableSections({
      ...base,
      neighborhood_report_path: '/api/files/n?sig',
      report_path: '/api/files/r?sig',
    });
    expect(sections.map((s) => [s.title, s.href])).toEqual([
      ['Comprehensive Property Analysis', '/api/files/r?sig'],
      ['Neighborhood Insights', '/api/files/n?sig'],
    ]);
  });

  it('shows none when no document exists', () => {
    expect(availableSections(base)).toEqual([]);
  });
});
