import type { IncomingMessage } from 'node:http';
import { AppError, type ServiceApp } from '@homereport/kit';
import { parseJsonKeepingLongIntegers } from '../../domain/json-body.js';
import type { Leads } from '../../domain/leads.js';
import { InboundLeadReply, errors } from '../../schemas/leads.js';

interface WebhookRouteDeps {
  leads: Leads;
  bodyLimit: number;
}

/**
 * A body over the limit is still read to its end (and dropped) up to this size before the 413
 * goes out: answering while the gateway is still sending makes the connection reset under it, and
 * the caller would see a 503 instead of the 413. Beyond this the connection is simply cut.
 */
const DRAIN_MAX = 8 * 1024 * 1024;

const tooLarge = () => new AppError(413, 'PAYLOAD_TOO_LARGE', 'The request body is too large.');

/**
 * POST /api/webhooks/leads, called by ad platforms (api.md "Inbound leads"). Its own scope: a
 * small body limit (a 1 MB body is a 413) and a JSON parser that keeps int64 ids exact.
 */
export async function registerWebhookRoutes(app: ServiceApp, { leads, bodyLimit }: WebhookRouteDeps) {
  await app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', (_req, payload, done) => {
      readLimited(payload, bodyLimit).then(
        (text) => {
          try {
            done(null, parseJsonKeepingLongIntegers(text));
          } catch {
            done(new AppError(400, 'INVALID_JSON', 'The request body is not valid JSON.'), undefined);
          }
        },
        (err: Error) => done(err, undefined),
      );
    });

    scope.post(
      '/api/webhooks/leads',
      {
        schema: {
          tags: ['webhooks'],
          summary: 'Receive one lead (generic JSON or a Google Ads lead form webhook)',
          response: { 200: InboundLeadReply, ...errors(400, 401, 413, 415) },
        },
      },
      async (req) => {
        const header = req.headers['x-webhook-key'];
        const result = await leads.receive(typeof header === 'string' ? header : undefined, req.body, req.id);
        req.log.info({ leadId: result.lead_id, duplicate: result.duplicate }, 'lead received');
        return { ok: true, lead_id: result.lead_id };
      },
    );
  });
}

/** The body as UTF-8 text, or a 413 once it is known to be over `limit` (after draining it). */
function readLimited(payload: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const declared = Number(payload.headers['content-length']);
    if (declared > DRAIN_MAX) {
      payload.destroy();
      reject(tooLarge());
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    payload.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > DRAIN_MAX) {
        payload.destroy();
        reject(tooLarge());
      } else if (size <= limit) {
        chunks.push(chunk);
      } else {
        chunks.length = 0;
      }
    });
    payload.on('end', () => (size > limit ? reject(tooLarge()) : resolve(Buffer.concat(chunks).toString('utf8'))));
    payload.on('error', reject);
  });
}
