import type { AdminStats } from '@homereport/contracts';

/** What the counters show when the statistics could not be read (spec section 8: zeros). */
export const EMPTY_ADMIN_STATS: AdminStats = {
  total: 0,
  requested: 0,
  inProgress: 0,
  covered: 0,
  totalUsers: 0,
  verifiedUsers: 0,
  totalAccess: 0,
};
