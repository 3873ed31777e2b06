import { InboundLeadReply } from '@homereport/contracts';
import { AppError, type ServicePlugin } from '@homereport/kit';
import { parseJsonKeepingLongIntegers } from '../../domain/json-body.js';
import type { Leads } from '../../domain/leads.js';
import { InboundLeadPayload, documentedOnly } from '../../schemas/lead-payloads.js';
import { errors } from '../../schemas/leads.js';
import { readLimited } from './read-limited.js';

interface WebhookRouteDeps {
  leads: Leads;
  bodyLimit: number;
}

/**
 * POST /api/webhooks/leads, called by ad platforms (api.md "Inbound leads"). Its own scope: a
 * small body limit (a 1 MB body is a 413) and a JSON parser that keeps int64 ids exact.
 */
export const webhookRoutes: ServicePlugin<WebhookRouteDeps> = async (app, { leads, bodyLimit }) => {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', (_req, payload, done) => {
    readLimited(payload, bodyLimit).then(
      (bytes) => {
        try {
          done(null, parseJsonKeepingLongIntegers(bytes.toString('utf8')));
        } catch {
          done(new AppError(400, 'INVALID_JSON', 'The request body is not valid JSON.'), undefined);
        }
      },
      (err: Error) => done(err, undefined),
    );
  });

  app.post(
    '/api/webhooks/leads',
    {
      schema: {
        tags: ['webhooks'],
        summary: 'Receive one lead (generic JSON or a Google Ads lead form webhook)',
        security: [{ webhookKey: [] }],
        body: InboundLeadPayload,
        response: { 200: InboundLeadReply, ...errors(400, 401, 413, 415) },
      },
      // The body schema is for the OpenAPI document: the domain reads both shapes itself.
      validatorCompiler: documentedOnly,
    },
    async (req) => {
      const header = req.headers['x-webhook-key'];
      const result = await leads.receive(typeof header === 'string' ? header : undefined, req.body, req.id);
      req.log.info({ leadId: result.lead_id, duplicate: result.duplicate }, 'lead received');
      return { ok: true as const, lead_id: result.lead_id };
    },
  );
};
