import { ZIP_PAGE_DEFAULT, type ZipChange, zipListPage } from '@homereport/contracts';
import {
  AppError,
  CACHE_GENERATION_HEADER,
  ErrorReply,
  type ServiceApp,
  type ServicePlugin,
  badRequest,
  etagMatches,
  formatCacheGeneration,
  namedError,
  notFound,
  requireAdmin,
} from '@homereport/kit';
import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import type { DetailCache } from '../../data/detail-cache.js';
import { GENERATION_KEY, type ListIndex } from '../../data/list-index.js';
import { isZipCode } from '../../domain/analyses.js';
import { importAnalyses } from '../../domain/import.js';
import type { AnalysisStore } from '../../domain/ports.js';
import {
  ImportBody,
  ZipCodeParams,
  ZipDetailReply,
  ZipImportReport,
  ZipListPage,
  ZipListQuery,
  ZipListReply,
} from '../../schemas/zipcodes.js';

interface ZipcodeRouteDeps {
  store: AnalysisStore;
  list: ListIndex;
  details: DetailCache;
  importBodyLimit: number;
  /** Emails the watchers of the ZIP codes an import changed (domain/zip-watches.ts); answers how many. */
  alertWatchers?: (changes: ZipChange[]) => Promise<number>;
}

const tags = ['zipcodes'];

/** GET /api/zipcodes, GET /api/zipcodes/:zipCode and POST /api/admin/zipcodes/import (api.md). */
export const zipcodeRoutes: ServicePlugin<ZipcodeRouteDeps> = async (
  app,
  { store, list, details, importBodyLimit, alertWatchers },
) => {
  app.get(
    '/api/zipcodes',
    {
      schema: {
        tags,
        summary: 'Every ZIP code analysed, or one page of them searched by place and tier',
        querystring: ZipListQuery,
        response: {
          200: Type.Union([ZipListReply, ZipListPage]),
          304: Type.Null({ description: 'Not Modified: the list is as the If-None-Match ETag says.' }),
          400: ErrorReply,
        },
      },
      // Checked here rather than by Fastify's default answer, so a bad value gets a sentence
      // naming the parameter and its range instead of a regular expression (queryProblem).
      attachValidation: true,
    },
    async (req, typedReply) => {
      if (req.validationError)
        throw badRequest(queryProblem(req.validationError, req.query as Record<string, unknown>));
      // Serialized here and sent as bytes, so the reply is used untyped. The service keeps no
      // answer: the gateway keeps each URL's, compressed, until an import (decision 008).
      const reply = typedReply as unknown as FastifyReply;
      const current = await list.get();
      // The gateway may keep any answer of this route, keyed by its URL, until an import bumps this
      // generation (kit's cache-generation.ts); pages and the whole list alike.
      // None when the list was read while Redis was away: then no one may keep the answer.
      if (current.generation !== null) {
        reply.header(CACHE_GENERATION_HEADER, formatCacheGeneration(GENERATION_KEY, current.generation));
      }
      // Revalidated on every use (no-cache), answered 304 while the list is unchanged. A page is a
      // function of the list and its URL, so the list's ETag validates every page of it too.
      reply.header('cache-control', 'no-cache').header('etag', current.etag);
      if (etagMatches(req.headers['if-none-match'], current.etag)) return reply.status(304).send();
      reply.type('application/json; charset=utf-8');

      const { q, tier, limit, offset, codes } = req.query;
      if (q === undefined && tier === undefined && limit === undefined && offset === undefined && codes === undefined) {
        // No parameters: the whole list, as before paging existed.
        return reply.send(JSON.stringify({ zipCodes: current.index.items }));
      }
      const page = zipListPage(
        current.index,
        { q, tier: tier === undefined ? undefined : (Number(tier) as 1 | 2 | 3), codes: codes?.split(',') },
        limit === undefined ? ZIP_PAGE_DEFAULT : Number(limit),
        offset === undefined ? 0 : Number(offset),
      );
      return reply.send(JSON.stringify(page));
    },
  );

  app.get(
    '/api/zipcodes/:zipCode',
    {
      schema: {
        tags,
        summary: 'The market analysis of one ZIP code',
        params: ZipCodeParams,
        response: { 200: ZipDetailReply, 400: ErrorReply, 404: ErrorReply },
      },
      attachValidation: true,
    },
    async (req) => {
      const { zipCode } = req.params;
      if (req.validationError || !isZipCode(zipCode)) throw badRequest('A ZIP code is five digits, for example 02116.');
      const analysis = await details.find(zipCode, (zip) => store.find(zip));
      if (!analysis) throw notFound(`ZIP code ${zipCode} not found in our database.`);
      return { zipCode: analysis };
    },
  );

  // Its own JSON parser, scoped to this route: an import over the limit is read to its end (and
  // dropped) before the 413 goes out, so the gateway, still streaming the body, gets the answer
  // instead of a reset connection.
  app.register(async (plugin) => {
    const scope = plugin as unknown as ServiceApp;
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', (_req, payload, done) => {
      readJsonWithin(payload, importBodyLimit).then((body) => done(null, body), done);
    });
    scope.post(
      '/api/admin/zipcodes/import',
      {
        config: { auth: 'admin' },
        schema: {
          tags,
          summary: 'Import ZIP code analyses (each record checked on its own); watchers of changed ones are emailed',
          body: ImportBody,
          response: { 200: ZipImportReport, 400: ErrorReply, 413: ErrorReply },
        },
      },
      async (req) => {
        // The gateway lets only admins through; checked again here so no other path can import.
        const admin = requireAdmin(req);
        const report = await importAnalyses(req.body, store, list, {
          onWriteError: (zipCode, err) =>
            req.log.error({ err, zipCode }, `ZIP import: analysis ${zipCode} not stored: ${namedError(err)}`),
          onChanges: async (changes) => {
            const watchers = (await alertWatchers?.(changes)) ?? 0;
            req.log.info({ changed: changes.length, watchers }, 'ZIP import: watchers of changed ZIP codes alerted');
          },
          // The analyses are stored; the import answers as usual, and the log says who was not told.
          onChangesError: (err) =>
            req.log.error({ err }, `ZIP import: watchers of changed ZIP codes not all alerted: ${namedError(err)}`),
        });
        req.log.info(
          { by: admin.userId, imported: report.imported.length, refused: report.refused.length },
          'zip code analyses imported',
        );
        return report;
      },
    );
  });
};

/** A sentence for a refused query string, from the parameter's description in ZipListQuery. */
function queryProblem(
  error: { validation?: { instancePath: string; params: unknown }[] },
  query: Record<string, unknown>,
): string {
  const first = error.validation?.[0];
  const unknown = (first?.params as { additionalProperty?: unknown } | undefined)?.additionalProperty;
  if (typeof unknown === 'string') {
    return `Unknown query parameter "${unknown.slice(0, 40)}": the list takes q, tier, limit, offset and codes.`;
  }
  const name = first?.instancePath.replace(/^\//, '').split('/')[0] ?? '';
  if (Array.isArray(query[name])) return `Give ${name} once.`;
  const description = (ZipListQuery.properties as Record<string, { description?: string }>)[name]?.description;
  return description
    ? `${name} must be ${description}.`
    : 'The query string is not valid: the list takes q, tier (1, 2 or 3), limit (1 to 100), offset and codes.';
}

/** Past this many times the limit the sender is not worth reading to the end: the connection is cut. */
const DRAIN_FACTOR = 4;

function readJsonWithin(payload: NodeJS.ReadableStream, limit: number): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    payload.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received <= limit) chunks.push(chunk);
      else if (received > limit * DRAIN_FACTOR) (payload as NodeJS.ReadableStream & { destroy(): void }).destroy();
    });
    payload.on('error', reject);
    payload.on('end', () => {
      if (received > limit) {
        const megabytes = Math.floor(limit / (1024 * 1024));
        reject(
          new AppError(
            413,
            'TOO_LARGE',
            `The request body is too large: at most ${megabytes} MB per import; split the file.`,
          ),
        );
        return;
      }
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        reject(new AppError(400, 'BAD_REQUEST', 'The request body is not valid JSON.'));
      }
    });
  });
}
