import type { CoverageRequest } from '@homereport/contracts';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../api/client';
import { SharedReportBody, type SharedReportQuery } from './SharedReportPage';

const failure = (status: number, networkError = false) =>
  new ApiError({ ok: false, status, error: 'server words', networkError });

const report: CoverageRequest = {
  id: 'r1',
  address: '12 Shared Way, Austin, TX',
  url: null,
  notes: null,
  status: 'covered',
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-02T00:00:00.000Z',
  report_path: '/api/files/r1/report?expires=1&signature=s',
  strategy_path: null,
  school_report_path: null,
  neighborhood_report_path: null,
  property_id: 'p1',
};

function render(state: Partial<SharedReportQuery>) {
  const shared = { data: undefined, error: null, isPending: false, isFetching: false, refetch: vi.fn(), ...state };
  return renderToStaticMarkup(
    <MemoryRouter>
      <SharedReportBody shared={shared} />
    </MemoryRouter>,
  );
}

describe('the shared report page', () => {
  it('shows the report and its documents once loaded', () => {
    const html = render({ data: report });
    expect(html).toContain('data-testid="shared-report"');
    expect(html).toContain('12 Shared Way, Austin, TX');
    expect(html).toContain('href="/api/files/r1/report?expires=1&amp;signature=s"');
  });

  it('says a revoked or expired link (410) is so, apart from an unknown one (404)', () => {
    const gone = render({ error: failure(410) });
    expect(gone).toContain('This link was revoked or has expired');
    expect(gone).not.toContain('Shared Report Not Found');
    const unknown = render({ error: failure(404) });
    expect(unknown).toContain('Shared Report Not Found');
    expect(unknown).not.toContain('revoked');
  });

  it('tells an outage apart from a dead link, with Retry, and loading apart from both', () => {
    for (const error of [failure(503), failure(0, true)]) {
      const html = render({ error });
      expect(html).toContain('We could not load this shared report.');
      expect(html).toContain('data-testid="shared-report-load-failed-retry"');
      expect(html).not.toContain('revoked');
    }
    const loading = render({ isPending: true, isFetching: true });
    expect(loading).toContain('Loading shared report');
    expect(loading).not.toContain('We could not load');
  });
});
