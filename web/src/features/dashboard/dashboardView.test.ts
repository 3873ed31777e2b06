import { describe, expect, it } from 'vitest';
import { RECENT_ACTIVITY_LIMIT, planName, recentActivity } from './dashboardView';

const entry = (n: number) => ({
  id: `h${n}`,
  request_id: `r${n}`,
  address: `${n} Main St`,
  accessed_at: '2025-01-01T00:00:00.000Z',
});

describe('dashboard view', () => {
  it('shows at most the first 5 history entries, in the order given', () => {
    const history = Array.from({ length: 8 }, (_, i) => entry(i));
    expect(RECENT_ACTIVITY_LIMIT).toBe(5);
    expect(recentActivity(history).map((e) => e.id)).toEqual(['h0', 'h1', 'h2', 'h3', 'h4']);
    expect(recentActivity(undefined)).toEqual([]);
  });

  it('shows each property once, at its latest view, whichever request id opened it', () => {
    const views = [
      { ...entry(1), property_id: 'p1' },
      { ...entry(2), property_id: 'p1' },
      { ...entry(3), property_id: 'p2' },
      entry(4),
      { ...entry(5), property_id: 'p2' },
    ];
    expect(recentActivity(views).map((e) => e.id)).toEqual(['h1', 'h3', 'h4']);
  });

  it("names the plan 'Free' by default", () => {
    expect(planName(undefined)).toBe('Free');
    expect(planName('')).toBe('Free');
    expect(planName('free')).toBe('Free');
    expect(planName('premium')).toBe('Premium');
  });
});
