import { SavedReportParams, SavedReportsReply } from '@homereport/contracts';
import { ErrorReply, type ServiceApp, requireUser } from '@homereport/kit';
import { Type } from '@sinclair/typebox';
import type { SavedReports } from '../../domain/saved-reports.js';

const tags = ['users'];

/** /api/users/saved: the signed-in user's saved reports (api.md "Beyond the spec"). */
export function registerSavedRoutes(app: ServiceApp, deps: { saved: SavedReports }): void {
  app.get(
    '/api/users/saved',
    { schema: { tags, response: { 200: SavedReportsReply, 401: ErrorReply } } },
    async (req) => ({ saved: await deps.saved.list(requireUser(req).userId) }),
  );

  const change = {
    tags,
    params: SavedReportParams,
    // 204 carries no body (Fastify sends none); named for the OpenAPI document.
    response: {
      204: Type.Null({ description: 'Done; doing it again changes nothing.' }),
      400: ErrorReply,
      401: ErrorReply,
      404: ErrorReply,
    },
  };

  app.put(
    '/api/users/saved/:requestId',
    { schema: { ...change, response: { ...change.response, 409: ErrorReply } } },
    async (req, reply) => {
      await deps.saved.save(requireUser(req).userId, req.params.requestId);
      return reply.status(204).send(null);
    },
  );

  app.delete('/api/users/saved/:requestId', { schema: change }, async (req, reply) => {
    await deps.saved.remove(requireUser(req).userId, req.params.requestId);
    return reply.status(204).send(null);
  });
}
