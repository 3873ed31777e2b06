import {
  MetaHandshakeQuery,
  type MetaHandshakeQuery as MetaHandshakeQueryType,
  MetaWebhookBody,
  type MetaWebhookBody as MetaWebhookBodyType,
  MetaWebhookReply,
} from '@homereport/contracts';
import { AppError, type Logger, type ServicePlugin, unauthorized } from '@homereport/kit';
import { Type } from '@sinclair/typebox';
import { parseJsonKeepingLongIntegers } from '../../domain/json-body.js';
import { type MetaLeadAds, MetaMessages } from '../../domain/meta-lead-ads.js';
import { errors } from '../../schemas/leads.js';
import { readLimited } from './read-limited.js';

interface MetaRouteDeps {
  /** Null when META_APP_SECRET is empty: both endpoints then answer 503. */
  meta: MetaLeadAds | null;
  bodyLimit: number;
}

const notConfigured = () => new AppError(503, 'META_NOT_CONFIGURED', MetaMessages.notConfigured);

/**
 * GET and POST /api/webhooks/meta (api.md "Beyond the spec"), in a scope of their own. The
 * signature is an HMAC of the exact bytes Meta sent, so this scope's JSON parser reads the raw
 * body, checks the signature on it, and only then parses; a request whose bytes were not checked
 * (no body, say) is refused before validation. Nothing unsigned is ever parsed.
 */
export const metaWebhookRoutes: ServicePlugin<MetaRouteDeps> = async (app, { meta, bodyLimit }) => {
  /** Requests whose body carried a good signature (set by the parser, read before validation). */
  const signed = new WeakSet<object>();

  app.addHook('onRequest', async () => {
    if (!meta) throw notConfigured();
  });

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', (req, payload, done) => {
    readLimited(payload, bodyLimit).then(
      (bytes) => {
        const header = req.headers['x-hub-signature-256'];
        if (!meta?.signed(bytes, typeof header === 'string' ? header : undefined)) {
          done(unauthorized(MetaMessages.badSignature), undefined);
          return;
        }
        signed.add(req);
        try {
          done(null, parseJsonKeepingLongIntegers(bytes.toString('utf8')));
        } catch {
          done(new AppError(400, 'INVALID_JSON', 'The request body is not valid JSON.'), undefined);
        }
      },
      (err: Error) => done(err, undefined),
    );
  });

  app.get<{ Querystring: MetaHandshakeQueryType }>(
    '/api/webhooks/meta',
    {
      schema: {
        tags: ['webhooks'],
        summary: "Meta's webhook verification handshake: echoes hub.challenge when hub.verify_token matches",
        querystring: MetaHandshakeQuery,
        response: {
          200: {
            description: 'hub.challenge, echoed as it came',
            content: { 'text/plain': { schema: Type.String() } },
          },
          ...errors(400, 403, 503),
        },
      },
    },
    async (req, reply) => {
      if (!meta) throw notConfigured();
      const challenge = meta.handshake(req.query);
      req.log.info('Meta webhook subscription verified');
      return reply.type('text/plain; charset=utf-8').send(challenge);
    },
  );

  app.post<{ Body: MetaWebhookBodyType }>(
    '/api/webhooks/meta',
    {
      schema: {
        tags: ['webhooks'],
        summary:
          'Receive Meta Lead Ads leadgen changes (signed with X-Hub-Signature-256); each lead is read from the Graph API and stored',
        security: [{ metaSignature: [] }],
        headers: Type.Object({
          'x-hub-signature-256': Type.Optional(
            Type.String({
              maxLength: 200,
              description: 'sha256=<hex HMAC-SHA256 of the raw body with META_APP_SECRET>; 401 when missing or wrong',
            }),
          ),
        }),
        body: MetaWebhookBody,
        response: { 200: MetaWebhookReply, ...errors(400, 401, 403, 413, 415, 503) },
      },
      preValidation: async (req) => {
        if (!signed.has(req)) throw unauthorized(MetaMessages.badSignature);
      },
    },
    async (req) => {
      if (!meta) throw notConfigured();
      await meta.receive(req.body, req.id, req.log as Logger);
      return { ok: true as const };
    },
  );
};
