import { describe, expect, it } from 'vitest';
import { REQUEST_STATUS_OPTIONS, statusBadge } from './requestStatus';

describe('status badges', () => {
  it('colours Requested yellow, In Progress blue and Covered green', () => {
    expect(statusBadge('requested')).toEqual({ label: 'Requested', tone: 'yellow' });
    expect(statusBadge('in_progress')).toEqual({ label: 'In Progress', tone: 'blue' });
    expect(statusBadge('covered')).toEqual({ label: 'Covered', tone: 'green' });
  });

  it('shows any other value as it is on a grey badge', () => {
    expect(statusBadge('archived')).toEqual({ label: 'archived', tone: 'grey' });
    expect(statusBadge('')).toEqual({ label: 'Unknown', tone: 'grey' });
    expect(statusBadge('toString')).toEqual({ label: 'toString', tone: 'grey' });
  });

  it('offers the three statuses in order', () => {
    expect(REQUEST_STATUS_OPTIONS.map((o) => o.label)).toEqual(['Requested', 'In Progress', 'Covered']);
  });
});
