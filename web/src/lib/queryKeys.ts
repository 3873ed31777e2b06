/**
 * Every query key of the app in one place, so a feature can invalidate what another shows
 * (viewing a report moves the dashboard counters) without importing that feature.
 */
export const queryKeys = {
  coveredRequests: ['requests', 'covered'] as const,
  myRequests: ['requests', 'mine'] as const,
  report: (id: string) => ['reports', id] as const,
  /** A report opened through a share link: no account, so outside `user` and `report`. */
  sharedReport: (token: string) => ['shared-reports', token] as const,
  /** Everything read about the signed-in user's credits and views. */
  user: ['users'] as const,
  userStats: ['users', 'stats'] as const,
  accessHistory: ['users', 'access-history'] as const,
  /** The signed-in user's saved reports (their ids decide every star shown). */
  savedReports: ['users', 'saved'] as const,
  /** The ZIP codes the signed-in user watches. */
  zipWatches: ['users', 'zip-watch'] as const,
  /** Everything the admin area reads about requests. */
  admin: ['admin'] as const,
  adminDashboard: ['admin', 'dashboard'] as const,
  adminRecentRequests: ['admin', 'recent-requests'] as const,
  adminRequest: (id: string) => ['admin', 'requests', id] as const,
  /** Every ZIP code read (the list's pages and each detail); an admin import changes them all. */
  zipcodes: ['zipcodes'] as const,
};
