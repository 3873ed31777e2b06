import {
  AdminDashboardReply,
  AdminRequestReply,
  AdminRequestsQuery,
  AdminRequestsReply,
  RecentRequestsReply,
  ReportSummary,
  ReportSummaryReply,
  RequestIdParams,
  UpdateStatusBody,
  UpdateStatusReply,
} from '@homereport/contracts';
import { ErrorReply, type ServicePlugin, requireAdmin } from '@homereport/kit';
import { ADMIN_PAGE_DEFAULT, type Requests } from '../../domain/requests.js';

const tags = ['admin'];
const config = { auth: 'admin' } as const;

/**
 * /api/admin/* calls about requests. The gateway refuses non-admins before routing; the check
 * here is the second line, should the service ever be reached another way.
 */
export const adminRoutes: ServicePlugin<{ requests: Requests }> = async (app, deps) => {
  app.get(
    '/api/admin/dashboard',
    { config, schema: { tags, summary: 'Request counts by status', response: { 200: AdminDashboardReply } } },
    async (req) => {
      requireAdmin(req);
      return { stats: await deps.requests.dashboard() };
    },
  );

  app.get(
    '/api/admin/recent-requests',
    { config, schema: { tags, summary: 'The latest requests', response: { 200: RecentRequestsReply } } },
    async (req) => {
      requireAdmin(req);
      return { requests: await deps.requests.recent() };
    },
  );

  app.get(
    '/api/admin/requests',
    {
      config,
      schema: {
        tags,
        summary: 'Every request, newest first, searched and filtered',
        querystring: AdminRequestsQuery,
        response: { 200: AdminRequestsReply, 400: ErrorReply },
      },
    },
    async (req) => {
      requireAdmin(req);
      const limit = req.query.limit ?? ADMIN_PAGE_DEFAULT;
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
    {
      config,
      schema: {
        tags,
        summary: 'One request with its files and history',
        params: RequestIdParams,
        response: { 200: AdminRequestReply, 404: ErrorReply },
      },
    },
    async (req) => {
      requireAdmin(req);
      return deps.requests.forAdmin(req.params.id);
    },
  );

  app.put(
    '/api/admin/requests/:id/summary',
    {
      config,
      schema: {
        tags,
        summary: 'Set the headline figures of a request’s report (its property’s, shown on every request of it)',
        params: RequestIdParams,
        body: ReportSummary,
        response: { 200: ReportSummaryReply, 400: ErrorReply, 404: ErrorReply },
      },
    },
    async (req) => {
      const admin = requireAdmin(req);
      const request = await deps.requests.setSummary(req.params.id, req.body);
      req.log.info(
        { requestId: request.id, propertyId: request.property_id, cleared: request.summary === null, by: admin.userId },
        'report summary set',
      );
      return { request };
    },
  );

  app.put(
    '/api/admin/requests/:id/status',
    {
      config,
      schema: {
        tags,
        summary: 'Set a request’s status',
        params: RequestIdParams,
        body: UpdateStatusBody,
        // 409: `covered` while the request has no report file.
        response: { 200: UpdateStatusReply, 400: ErrorReply, 404: ErrorReply, 409: ErrorReply },
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
};
