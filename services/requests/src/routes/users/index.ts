import { AccessHistoryReply, UserStats } from '@homereport/contracts';
import { type ServicePlugin, requireUser } from '@homereport/kit';
import type { Reports } from '../../domain/reports.js';

const tags = ['users'];

/** /api/users/stats and /api/users/access-history: kept counters and a bounded recent list. */
export const userRoutes: ServicePlugin<{ reports: Reports }> = async (app, deps) => {
  app.get(
    '/api/users/stats',
    {
      config: { auth: 'user' },
      schema: { tags, summary: 'The signed-in user’s report credits and counts', response: { 200: UserStats } },
    },
    async (req) => deps.reports.stats(requireUser(req).userId),
  );

  app.get(
    '/api/users/access-history',
    {
      config: { auth: 'user' },
      schema: { tags, summary: 'Reports the signed-in user opened lately', response: { 200: AccessHistoryReply } },
    },
    async (req) => ({ history: await deps.reports.history(requireUser(req).userId) }),
  );
};
