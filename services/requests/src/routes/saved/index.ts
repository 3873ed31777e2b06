import { SavedReportParams, SavedReportsReply } from '@homereport/contracts';
import { type ServiceApp, requireUser, userSetSchemas } from '@homereport/kit';
import type { SavedReports } from '../../domain/saved-reports.js';

const schemas = userSetSchemas(SavedReportParams, SavedReportsReply);

/** /api/users/saved: the signed-in user's saved reports (api.md "Beyond the spec"). */
export function registerSavedRoutes(app: ServiceApp, deps: { saved: SavedReports }): void {
  app.get('/api/users/saved', { schema: schemas.list }, async (req) => ({
    saved: await deps.saved.list(requireUser(req).userId),
  }));

  app.put('/api/users/saved/:requestId', { schema: schemas.add }, async (req, reply) => {
    await deps.saved.save(requireUser(req).userId, req.params.requestId);
    return reply.status(204).send(null);
  });

  app.delete('/api/users/saved/:requestId', { schema: schemas.remove }, async (req, reply) => {
    await deps.saved.remove(requireUser(req).userId, req.params.requestId);
    return reply.status(204).send(null);
  });
}
