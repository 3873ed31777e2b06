import { createHash } from 'node:crypto';
import { ErrorReply, type Redis, type ServicePlugin, requestBudget } from '@homereport/kit';
import type { FastifyRequest } from 'fastify';
import {
  CONTACT_FIELDS,
  CONTACT_RECEIVED_MESSAGE,
  type ContactDeps,
  checkContactField,
  submitContactMessage,
} from '../../domain/contact.js';
import { ContactAccepted, ContactBody } from '../../schemas/contact.js';

/** Every contact allowance counter lives under this prefix in Redis (tests clear them). */
export const CONTACT_RATE_KEY_PREFIX = 'notifications:contact-rate:';
const CONTACT_RATE_MESSAGE =
  'You have sent several messages in a short time. Please wait a while before sending another.';

interface ContactRouteDeps extends ContactDeps {
  redis: Redis;
  /** Messages per hour per client address; 0 for no limit. */
  limitPerHour: number;
  /** Messages per hour naming one sender email address (each mails it an acknowledgement); 0 for no limit. */
  limitPerAddressPerHour: number;
}

/** The sender's email address as its allowance is counted: a digest, so Redis holds no addresses. */
function senderKey(req: FastifyRequest): string {
  const { email } = req.body as { email: string };
  return `address:${createHash('sha256').update(email.toLowerCase()).digest('hex').slice(0, 32)}`;
}

/** POST /api/contact: a message to the HomeReport team (api.md). */
export const contactRoutes: ServicePlugin<ContactRouteDeps> = async (app, deps) => {
  // Two hourly allowances, the client address's then the sender's, spent once the message passed
  // validation (preHandler): a refused invalid message spends neither. Counted by the kit's
  // request budget (decision 030): a Redis that is away leaves each replica counting on its own.
  const allowance = {
    redis: deps.redis,
    prefix: CONTACT_RATE_KEY_PREFIX,
    windowSeconds: 3600,
    hook: 'preHandler',
    message: CONTACT_RATE_MESSAGE,
  } as const;
  await app.register(requestBudget, { ...allowance, max: deps.limitPerHour });
  await app.register(requestBudget, { ...allowance, max: deps.limitPerAddressPerHour, key: senderKey });

  app.post(
    '/api/contact',
    {
      schema: {
        tags: ['notifications'],
        summary: 'Send a message to the HomeReport team',
        body: ContactBody,
        response: { 202: ContactAccepted, 400: ErrorReply, 429: ErrorReply },
      },
      // Before the schema, so a blank email is called blank rather than malformed. Trimmed here, so lengths and format apply to what is kept.
      preValidation: async (req) => {
        const body = req.body as Record<string, unknown> | null;
        if (!body || typeof body !== 'object' || Array.isArray(body)) return;
        for (const field of CONTACT_FIELDS) {
          if (body[field] !== undefined) body[field] = checkContactField(field, body[field]);
        }
      },
    },
    async (req, reply) => {
      const { messageId } = await submitContactMessage(deps, req.body, { requestId: req.id });
      req.log.info({ messageId }, 'contact message stored');
      return reply.status(202).send({ message: CONTACT_RECEIVED_MESSAGE });
    },
  );
};
