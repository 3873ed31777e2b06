import { AccessHistoryReply, UserStats } from '@homereport/contracts';
import { ErrorReply, type ServiceApp, requireUser } from '@homereport/kit';
import type { Reports } from '../../domain/reports.js';

const tags = ['users'];

/** /api/users/stats and /api/users/access-history: kept counters and a bounded recent list. */
export function registerUserRoutes(app: ServiceApp, deps: { reports: Reports }): void {
  app.get('/api/users/stats', { schema: { tags, response: { 200: UserStats, 401: ErrorReply } } }, async (req) =>
    deps.reports.stats(requireUser(req).userId),
  );

  app.get(
    '/api/users/access-history',
    { schema: { tags, response: { 200: AccessHistoryReply, 401: ErrorReply } } },
    async (req) => ({ history: await deps.reports.history(requireUser(req).userId) }),
  );
}
