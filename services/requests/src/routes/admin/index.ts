import {
  AdminDashboardReply,
  AdminRequestReply,
  AdminRequestsQuery,
  AdminRequestsReply,
  RecentRequestsReply,
  RequestIdParams,
  UpdateStatusBody,
  UpdateStatusReply,
} from '@homereport/contracts';
import { ErrorReply, type ServiceApp, badRequest, requireAdmin } from '@homereport/kit';
import { ADMIN_PAGE_DEFAULT, ADMIN_PAGE_MAX, type Requests } from '../../domain/requests.js';

const tags = ['admin'];

/**
 * /api/admin/* calls about requests. The gateway refuses non-admins before routing; the check
 * here is the second line, should the service ever be reached another way.
 */
export function registerAdminRoutes(app: ServiceApp, deps: { requests: Requests }): void {
  app.get('/api/admin/dashboard', { schema: { tags, response: { 200: AdminDashboardReply } } }, async (req) => {
    requireAdmin(req);
    return { stats: await deps.requests.dashboard() };
  });

  app.get('/api/admin/recent-requests', { schema: { tags, response: { 200: RecentRequestsReply } } }, async (req) => {
    requireAdmin(req);
    return { requests: await deps.requests.recent() };
  });

  app.get(
    '/api/admin/requests',
    { schema: { tags, querystring: AdminRequestsQuery, response: { 200: AdminRequestsReply, 400: ErrorReply } } },
    async (req) => {
      requireAdmin(req);
      const limit = Number(req.query.limit ?? ADMIN_PAGE_DEFAULT);
      if (limit > ADMIN_PAGE_MAX) throw badRequest(`limit must be between 1 and ${ADMIN_PAGE_MAX}.`);
      const cursor = req.query.cursor === undefined ? null : Number(req.query.cursor);
      return deps.requests.adminList({
        q: req.query.q,
        status: req.query.status,
        property_id: req.query.property_id,
        limit,
        cursor,
      });
    },
  );

  app.get(
    '/api/admin/requests/:id',
    { schema: { tags, params: RequestIdParams, response: { 200: AdminRequestReply, 404: ErrorReply } } },
    async (req) => {
      requireAdmin(req);
      return deps.requests.forAdmin(req.params.id);
    },
  );

  app.put(
    '/api/admin/requests/:id/status',
    {
      schema: {
        tags,
        params: RequestIdParams,
        body: UpdateStatusBody,
        response: { 200: UpdateStatusReply, 400: ErrorReply, 404: ErrorReply },
      },
    },
    async (req) => {
      const admin = requireAdmin(req);
      const request = await deps.requests.changeStatus(
        req.params.id,
        req.body.status,
        { userId: admin.userId, email: admin.email },
        req.id,
      );
      req.log.info({ requestId: request.id, status: request.status, by: admin.userId }, 'request status set');
      return { request };
    },
  );
}
