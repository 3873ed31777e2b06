import { SavedReportParams, SavedReportsReply } from '@homereport/contracts';
import { type ServicePlugin, requireUser, userSetSchemas } from '@homereport/kit';
import type { SavedReports } from '../../domain/saved-reports.js';

const routes = userSetSchemas(SavedReportParams, SavedReportsReply, {
  list: 'The signed-in user’s saved reports, oldest first',
  add: 'Save a report',
  remove: 'Forget a saved report',
});

/** /api/users/saved: the signed-in user's saved reports (api.md "Beyond the spec"). */
export const savedRoutes: ServicePlugin<{ saved: SavedReports }> = async (app, deps) => {
  app.get('/api/users/saved', routes.list, async (req) => ({
    saved: await deps.saved.list(requireUser(req).userId),
  }));

  app.put('/api/users/saved/:requestId', routes.add, async (req, reply) => {
    await deps.saved.save(requireUser(req).userId, req.params.requestId);
    return reply.status(204).send(null);
  });

  app.delete('/api/users/saved/:requestId', routes.remove, async (req, reply) => {
    await deps.saved.remove(requireUser(req).userId, req.params.requestId);
    return reply.status(204).send(null);
  });
};
