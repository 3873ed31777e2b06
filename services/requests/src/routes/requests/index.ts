import {
  CoveredRequestsQuery,
  CoveredRequestsReply,
  CreateRequestBody,
  CreateRequestReply,
  MyRequestsReply,
  ReportViewReply,
  RequestIdParams,
} from '@homereport/contracts';
import {
  CACHE_GENERATION_HEADER,
  ErrorReply,
  type Redis,
  type RequestBudget,
  type ServiceApp,
  type ServicePlugin,
  formatCacheGeneration,
  requestBudget,
  requireUser,
} from '@homereport/kit';
import type { Reports } from '../../domain/reports.js';
import { COVERED_PAGE_DEFAULT, type Requests, SEARCH_PAGE_DEFAULT } from '../../domain/requests.js';

const tags = ['requests'];

/** /api/requests/*, as in api.md "Coverage requests and reports". */
export const requestRoutes: ServicePlugin<{
  requests: Requests;
  reports: Reports;
  redis: Redis;
  allowance: Omit<RequestBudget, 'redis'>;
}> = async (app, deps) => {
  // The hourly allowance covers this route alone (its encapsulated context).
  await app.register(async (limited: ServiceApp) => {
    await limited.register(requestBudget, { redis: deps.redis, ...deps.allowance });
    limited.post(
      '/api/requests',
      {
        // Anyone; a signed-in requester's request is theirs (and answered as a repeat when it is one).
        config: { auth: 'optional' },
        schema: {
          tags,
          summary: 'Ask for a property to be covered',
          body: CreateRequestBody,
          response: { 200: CreateRequestReply, 201: CreateRequestReply, 400: ErrorReply, 429: ErrorReply },
        },
      },
      async (req, reply) => {
        const requester = req.identity ? { userId: req.identity.userId, email: req.identity.email } : null;
        const { created, ...answer } = await deps.requests.submit(req.body, requester, req.id);
        req.log.info(
          { requestId: answer.request.id, signedIn: requester !== null, duplicate: answer.duplicate_of !== undefined },
          'coverage requested',
        );
        // The caller's own earlier request: 200, nothing new was made (api.md "Properties").
        return reply.status(created ? 201 : 200).send(answer);
      },
    );
  });

  app.get(
    '/api/requests/covered',
    {
      schema: {
        tags,
        summary: 'Covered properties: the newest first, or searched and sorted',
        querystring: CoveredRequestsQuery,
        response: { 200: CoveredRequestsReply, 400: ErrorReply },
      },
    },
    async (req, reply) => {
      if (req.query.q !== undefined || req.query.sort !== undefined || req.query.zip !== undefined) {
        return deps.requests.searchCovered({
          q: req.query.q,
          zip: req.query.zip,
          sort: req.query.sort ?? 'newest',
          limit: Number(req.query.limit ?? SEARCH_PAGE_DEFAULT),
          cursor: req.query.cursor === undefined ? null : Number(req.query.cursor),
        });
      }
      const limit = Number(req.query.limit ?? COVERED_PAGE_DEFAULT);
      const cursor = req.query.cursor === undefined ? null : Number(req.query.cursor);
      const { body, generation } = await deps.requests.covered(limit, cursor);
      // The gateway keeps this answer while the generation stays the same (its public-cache.ts).
      if (generation) reply.header(CACHE_GENERATION_HEADER, formatCacheGeneration(generation.key, generation.value));
      // Already serialized: sent as it is, no second serialization.
      return reply.type('application/json; charset=utf-8').send(body as unknown as CoveredRequestsReply);
    },
  );

  app.get(
    '/api/requests/mine',
    {
      config: { auth: 'user' },
      schema: { tags, summary: 'The signed-in user’s requests', response: { 200: MyRequestsReply } },
    },
    async (req) => {
      const user = requireUser(req);
      return { requests: await deps.requests.mine(user.userId) };
    },
  );

  app.get(
    '/api/requests/:id/view',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'Open a covered report (one credit for a property first opened this period)',
        params: RequestIdParams,
        response: { 200: ReportViewReply, 402: ErrorReply, 404: ErrorReply },
      },
    },
    async (req) => {
      const user = requireUser(req);
      const reply = await deps.reports.view(req.params.id, user, { requestId: req.id, log: req.log });
      req.log.info(
        { requestId: reply.request.id, userId: user.userId, zipAnalysis: reply.zip_analysis !== null },
        'report viewed',
      );
      return reply;
    },
  );
};
