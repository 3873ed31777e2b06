import { ZipWatchParams, ZipWatchReply } from '@homereport/contracts';
import { ErrorReply, type ServiceApp, requireUser } from '@homereport/kit';
import { Type } from '@sinclair/typebox';
import type { ZipWatches } from '../../domain/zip-watches.js';

const tags = ['users'];

/** /api/users/zip-watch: the ZIP codes the signed-in user watches (api.md "Beyond the spec"). */
export function registerZipWatchRoutes(app: ServiceApp, deps: { watches: ZipWatches }): void {
  app.get(
    '/api/users/zip-watch',
    { schema: { tags, response: { 200: ZipWatchReply, 401: ErrorReply } } },
    async (req) => ({ zips: await deps.watches.list(requireUser(req).userId) }),
  );

  const change = {
    tags,
    params: ZipWatchParams,
    // 204 carries no body (Fastify sends none); named for the OpenAPI document.
    response: {
      204: Type.Null({ description: 'Done; doing it again changes nothing.' }),
      400: ErrorReply,
      401: ErrorReply,
      404: ErrorReply,
    },
  };

  app.put(
    '/api/users/zip-watch/:zipCode',
    { schema: { ...change, response: { ...change.response, 409: ErrorReply } } },
    async (req, reply) => {
      const user = requireUser(req);
      await deps.watches.watch(user, req.params.zipCode);
      req.log.info({ userId: user.userId, zipCode: req.params.zipCode }, 'ZIP code watched');
      return reply.status(204).send(null);
    },
  );

  app.delete('/api/users/zip-watch/:zipCode', { schema: change }, async (req, reply) => {
    await deps.watches.unwatch(requireUser(req).userId, req.params.zipCode);
    return reply.status(204).send(null);
  });
}
