import { RequestIdParams, ShareLinkReply, SharedReportReply, SharedTokenParams } from '@homereport/contracts';
import { ErrorReply, type ServicePlugin, requireUser } from '@homereport/kit';
import { Type } from '@sinclair/typebox';
import type { Shares } from '../../domain/shares.js';

const tags = ['shares'];

/** Share links of reports, as in api.md "Beyond the spec". */
export const shareRoutes: ServicePlugin<{ shares: Shares }> = async (app, deps) => {
  app.post(
    '/api/requests/:id/share',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'Create a link anyone can open to see this report (the caller opened it this credit period)',
        params: RequestIdParams,
        response: { 201: ShareLinkReply, 403: ErrorReply, 404: ErrorReply },
      },
    },
    async (req, reply) => {
      const user = requireUser(req);
      const link = await deps.shares.create(req.params.id, user);
      req.log.info({ requestId: req.params.id, userId: user.userId, expiresAt: link.expires_at }, 'report shared');
      return reply.status(201).send(link);
    },
  );

  app.delete(
    '/api/requests/:id/share',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'Revoke every share link the caller made to this report',
        params: RequestIdParams,
        response: {
          204: Type.Null({ description: 'Every earlier link now answers 410' }),
          404: ErrorReply,
        },
      },
    },
    async (req, reply) => {
      const user = requireUser(req);
      await deps.shares.revoke(req.params.id, user);
      req.log.info({ requestId: req.params.id, userId: user.userId }, 'report share links revoked');
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/api/shared/:token',
    {
      schema: {
        tags,
        summary: 'A shared report, without an account: no credit spent, no view recorded',
        params: SharedTokenParams,
        response: { 200: SharedReportReply, 400: ErrorReply, 404: ErrorReply, 410: ErrorReply },
      },
    },
    async (req, reply) => {
      const request = await deps.shares.open(req.params.token);
      // Never kept by a browser or proxy: a revoked link must stop showing the report at once.
      reply.header('cache-control', 'no-store');
      return { request };
    },
  );
};
