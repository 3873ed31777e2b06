import { ZipWatchParams, ZipWatchReply } from '@homereport/contracts';
import { type ServicePlugin, requireUser, userSetSchemas } from '@homereport/kit';
import type { ZipWatches } from '../../domain/zip-watches.js';

const routes = userSetSchemas(ZipWatchParams, ZipWatchReply, {
  list: 'The ZIP codes the signed-in user watches',
  add: 'Watch a ZIP code: an email when its analysis changes',
  remove: 'Stop watching a ZIP code',
});

/** /api/users/zip-watch: the ZIP codes the signed-in user watches (api.md "Beyond the spec"). */
export const zipWatchRoutes: ServicePlugin<{ watches: ZipWatches }> = async (app, deps) => {
  app.get('/api/users/zip-watch', routes.list, async (req) => ({
    zips: await deps.watches.list(requireUser(req).userId),
  }));

  app.put('/api/users/zip-watch/:zipCode', routes.add, async (req, reply) => {
    const user = requireUser(req);
    await deps.watches.watch(user, req.params.zipCode);
    req.log.info({ userId: user.userId, zipCode: req.params.zipCode }, 'ZIP code watched');
    return reply.status(204).send(null);
  });

  app.delete('/api/users/zip-watch/:zipCode', routes.remove, async (req, reply) => {
    await deps.watches.unwatch(requireUser(req).userId, req.params.zipCode);
    return reply.status(204).send(null);
  });
};
