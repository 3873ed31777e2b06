import {
  REPORT_FILE_TYPES,
  REQUEST_ID_SHAPE,
  RequestIdParams,
  SignedLinkQuery,
  UploadReportsReply,
} from '@homereport/contracts';
import {
  AppError,
  ErrorReply,
  type ServicePlugin,
  forbidden,
  notFound,
  requireAdmin,
  verifyFileLink,
} from '@homereport/kit';
import { Type } from '@sinclair/typebox';
import type { ObjectStore } from '../../data/object-store.js';
import type { RequestsClient } from '../../data/requests-client.js';
import { contentDisposition } from '../../domain/file-kinds.js';
import { type AcceptedFile, Messages, acceptFile, tooLarge } from '../../domain/upload.js';

interface FileRouteDeps {
  store: ObjectStore;
  requests: RequestsClient;
  linkKey: Buffer;
  maxBytes: number;
}

const tags = ['files'];

/**
 * The upload's parts, for the OpenAPI document only: the parts stream to storage as they arrive
 * (domain/upload.ts checks each name, extension and content), so no validator sees a body.
 */
const UploadParts = Type.Object(
  Object.fromEntries(
    REPORT_FILE_TYPES.map((type) => [
      type,
      Type.Optional(
        Type.String({ format: 'binary', description: `The ${type.replace('_', ' ')} file: PDF, DOC or DOCX` }),
      ),
    ]),
  ),
  { description: 'At least one of the parts, each at most once.', minProperties: 1 },
);

/** The multipart parser's limit errors carry these codes; they become our 413. */
const LIMIT_CODES = new Set(['FST_REQ_FILE_TOO_LARGE', 'FST_FILES_LIMIT', 'FST_PARTS_LIMIT', 'FST_FIELDS_LIMIT']);

export const fileRoutes: ServicePlugin<FileRouteDeps> = async (app, deps) => {
  app.post(
    '/api/admin/requests/:id/upload',
    {
      config: {
        auth: 'admin',
        swaggerTransform: ({ schema, url }) => ({ schema: { ...schema, body: UploadParts }, url }),
      },
      schema: {
        tags,
        summary: 'Upload a request’s report files (multipart); they replace the ones it had',
        params: RequestIdParams,
        consumes: ['multipart/form-data'],
        response: { 200: UploadReportsReply, 400: ErrorReply, 404: ErrorReply, 413: ErrorReply, 415: ErrorReply },
      },
    },
    async (req) => {
      requireAdmin(req);
      const requestId = req.params.id;
      // The gateway refuses these already; the id becomes part of an object key, so here too.
      if (!REQUEST_ID_SHAPE.test(requestId)) throw notFound('Request not found.');
      if (!req.isMultipart()) throw new AppError(400, 'BAD_REQUEST', Messages.noFile);
      // Asked while the files stream to storage, not before: the requests service's MongoDB read
      // and the upload overlap (with MongoDB 500 ms slower, an upload waited for both in turn).
      // An unknown request's objects are removed below, as any refused upload's.
      const found = deps.requests.exists(requestId, req.id);
      found.catch(() => undefined); // awaited below; not an unhandled rejection meanwhile

      const accepted: AcceptedFile[] = [];
      const discard = () => Promise.allSettled(accepted.map((f) => deps.store.remove(f.key)));
      try {
        const seen = new Set<string>();
        for await (const part of req.parts()) {
          if (part.type !== 'file') continue; // plain form fields carry nothing we use
          accepted.push(await acceptFile(part, requestId, seen, deps.store, deps.maxBytes));
        }
        if (!(await found)) throw notFound('Request not found.');
        if (accepted.length === 0) throw new AppError(400, 'BAD_REQUEST', Messages.noFile);
        const { request, replaced } = await deps.requests.recordFiles(requestId, accepted, req.id);
        // Only now that the request points at the new objects are the ones it replaced removed.
        const removed = await Promise.allSettled(replaced.map((key) => deps.store.remove(key)));
        const failed = removed.filter((r) => r.status === 'rejected').length;
        if (failed > 0) req.log.warn({ failed }, 'replaced report objects not removed; they are orphans now');
        req.log.info(
          { requestId, files: accepted.map((f) => ({ type: f.type, size: f.size })), replaced: replaced.length },
          'report files uploaded',
        );
        return { request };
      } catch (err) {
        // The kit's error answer reads and drops what the client is still sending (request-body.ts).
        await discard();
        if (LIMIT_CODES.has((err as { code?: string }).code ?? '')) throw tooLarge(deps.maxBytes);
        throw err;
      }
    },
  );

  app.get(
    '/api/files/:requestId/:name',
    {
      schema: {
        tags,
        summary: 'Download a report file by its signed link',
        params: Type.Object({
          requestId: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$' }),
          name: Type.String({ pattern: '^[A-Za-z0-9_-]{1,80}$' }),
        }),
        querystring: Type.Partial(SignedLinkQuery),
        response: {
          200: {
            description: 'The file, with its own content type (PDF, DOC or DOCX) and name.',
            content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
          },
          403: ErrorReply,
          404: ErrorReply,
        },
      },
    },
    async (req, reply) => {
      const key = `${req.params.requestId}/${req.params.name}`;
      const check = verifyFileLink(deps.linkKey, key, req.query.expires ?? '', req.query.signature ?? '');
      if (check === 'expired')
        throw forbidden('This download link has expired. Open the report again for a new one.', 'LINK_EXPIRED');
      if (check !== 'valid') throw forbidden('This download link is not valid.', 'LINK_INVALID');
      const info = await deps.store.info(key);
      if (!info) throw notFound('This file no longer exists.');
      const body = await deps.store.read(key);
      return reply
        .header('content-type', info.contentType)
        .header('content-length', String(info.size))
        .header('content-disposition', contentDisposition(info.originalName))
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .send(body as never);
    },
  );
};
