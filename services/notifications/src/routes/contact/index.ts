import { ErrorReply, type ServiceApp } from '@homereport/kit';
import {
  CONTACT_FIELDS,
  CONTACT_RECEIVED_MESSAGE,
  type ContactDeps,
  checkContactField,
  submitContactMessage,
} from '../../domain/contact.js';
import { ContactAccepted, ContactBody } from '../../schemas/contact.js';

interface ContactRouteDeps extends ContactDeps {
  /** Called after a message and its event were stored, so the relay publishes without waiting for its poll. */
}

export function registerContactRoutes(app: ServiceApp, deps: ContactRouteDeps): void {
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
      const { messageId } = await submitContactMessage(deps, req.body, {
        clientAddress: req.ip,
        requestId: req.id,
      });
      req.log.info({ messageId }, 'contact message stored');
      return reply.status(202).send({ message: CONTACT_RECEIVED_MESSAGE });
    },
  );
}
