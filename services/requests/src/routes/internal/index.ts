import { CoverageRequest, RequestIdParams, UserDataExport } from '@homereport/contracts';
import { ErrorReply, type ServicePlugin, notFound } from '@homereport/kit';
import { Type } from '@sinclair/typebox';
import type { ReportFiles } from '../../domain/ports.js';
import type { Reports } from '../../domain/reports.js';
import { Messages, type Requests } from '../../domain/requests.js';
import { RecordFilesBody, RequestExistsReply } from '../../schemas/internal.js';

const UserIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

/**
 * Internal calls of the files service: does a request exist, and "these objects now hold its
 * report files" (answered with the request as the admin sees it and the objects it replaced, which
 * the files service then deletes); and of the auth service: what this service holds about a user,
 * for their account export. Reachable only with the internal secret, never through the gateway,
 * which forwards /api paths only.
 */
export const internalRoutes: ServicePlugin<{ requests: Requests; reports: Reports }> = async (app, deps) => {
  app.get(
    '/internal/users/:id/export',
    { schema: { hide: true, params: UserIdParams, response: { 200: UserDataExport } } },
    async (req) => {
      const userId = req.params.id;
      // The same reads as the user's dashboard: their requests, recent views and credits now.
      const [requests, access_history, credits] = await Promise.all([
        deps.requests.mine(userId),
        deps.reports.history(userId),
        deps.reports.stats(userId),
      ]);
      return { requests, access_history, credits };
    },
  );

  app.get(
    '/internal/requests/:id',
    { schema: { hide: true, params: RequestIdParams, response: { 200: RequestExistsReply, 404: ErrorReply } } },
    async (req) => {
      const found = await deps.requests.exists(req.params.id);
      if (!found) throw notFound(Messages.notFound);
      return found;
    },
  );

  app.put(
    '/internal/requests/:id/files',
    {
      schema: {
        hide: true,
        params: RequestIdParams,
        body: RecordFilesBody,
        response: {
          200: Type.Object({ request: CoverageRequest, replaced: Type.Array(Type.String()) }),
          404: ErrorReply,
        },
      },
    },
    async (req) => {
      const uploadedAt = new Date();
      const files: ReportFiles = {};
      for (const f of req.body.files) {
        files[f.type] = { key: f.key, name: f.name, contentType: f.contentType, size: f.size, uploaded_at: uploadedAt };
      }
      const { request, replaced } = await deps.requests.recordFiles(req.params.id, files);
      req.log.info(
        { requestId: request.id, types: Object.keys(files), replaced: replaced.length },
        'report files recorded',
      );
      return { request, replaced: replaced.map((f) => f.key) };
    },
  );
};
