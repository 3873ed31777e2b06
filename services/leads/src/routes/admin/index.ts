import { Readable } from 'node:stream';
import {
  CreateWebhookKeyBody,
  CreateWebhookKeyReply,
  LeadDetailReply,
  LeadStats,
  LeadsExportQuery,
  LeadsQuery,
  LeadsReply,
  ToggleWebhookKeyReply,
  UpdateLeadStatusBody,
  UpdateLeadStatusReply,
  WebhookKeysReply,
} from '@homereport/contracts';
import { type ServicePlugin, badRequest, requireAdmin } from '@homereport/kit';
import { ErrorReply } from '@homereport/kit';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { Leads } from '../../domain/leads.js';
import { checkKeyName } from '../../domain/webhook-keys.js';
import { KeyNameParams, LeadIdParams, errors } from '../../schemas/leads.js';

interface AdminRouteDeps {
  leads: Leads;
}

const keyTags = ['admin: webhook keys'];
const leadTags = ['admin: leads'];
const config = { auth: 'admin' } as const;

/**
 * Before the schema: the name is trimmed and normalised as it will be kept, so the schema's
 * length applies to what is stored, and a refusal is the domain's sentence.
 */
async function keepKeyNameAsStored(req: FastifyRequest): Promise<void> {
  const body = req.body as Record<string, unknown> | null;
  if (!body || typeof body !== 'object' || typeof body.key_name !== 'string') return;
  const check = checkKeyName(body.key_name);
  if (!check.ok) throw badRequest(check.message, [{ field: 'key_name', message: check.message }]);
  body.key_name = check.name;
}

/** /api/admin/webhook-keys* and /api/admin/leads* (api.md "Admin"). The gateway lets only admins in; so do we. */
export const adminRoutes: ServicePlugin<AdminRouteDeps> = async (app, { leads }) => {
  app.get(
    '/api/admin/webhook-keys',
    {
      config,
      schema: { tags: keyTags, summary: 'Every webhook key (never its secret)', response: { 200: WebhookKeysReply } },
    },
    async (req) => {
      requireAdmin(req);
      return leads.listKeys();
    },
  );

  app.post(
    '/api/admin/webhook-keys',
    {
      config,
      schema: {
        tags: keyTags,
        summary: 'Make a webhook key; its secret is in this answer only',
        body: CreateWebhookKeyBody,
        response: { 201: CreateWebhookKeyReply, ...errors(400, 409) },
      },
      preValidation: keepKeyNameAsStored,
    },
    async (req, reply) => {
      const admin = requireAdmin(req);
      const created = await leads.createKey(req.body.key_name);
      // The name and who made it, never the secret.
      req.log.info({ keyName: created.key.key_name, by: admin.userId }, 'webhook key created');
      return reply.status(201).send(created);
    },
  );

  app.put(
    '/api/admin/webhook-keys/:key_name/toggle',
    {
      config,
      schema: {
        tags: keyTags,
        summary: 'Turn a webhook key off, or on again',
        params: KeyNameParams,
        response: { 200: ToggleWebhookKeyReply, ...errors(404) },
      },
    },
    async (req) => {
      const admin = requireAdmin(req);
      const result = await leads.toggleKey(req.params.key_name);
      req.log.info(
        { keyName: result.key.key_name, active: result.key.is_active, by: admin.userId },
        'webhook key toggled',
      );
      return result;
    },
  );

  app.get(
    '/api/admin/leads',
    {
      config,
      schema: {
        tags: leadTags,
        summary: 'Leads, newest first, filtered by status and key',
        querystring: LeadsQuery,
        response: { 200: LeadsReply, ...errors(400) },
      },
    },
    async (req) => {
      requireAdmin(req);
      return leads.list(req.query);
    },
  );

  app.get(
    '/api/admin/leads/stats',
    { config, schema: { tags: leadTags, summary: 'Lead counts by status', response: { 200: LeadStats } } },
    async (req) => {
      requireAdmin(req);
      return leads.stats();
    },
  );

  app.get(
    '/api/admin/leads/export.csv',
    {
      config,
      schema: {
        tags: leadTags,
        summary: 'Every matching lead as a CSV file (RFC 4180, a header row)',
        querystring: LeadsExportQuery,
        response: {
          200: {
            description: 'A CSV attachment, streamed: one row per lead, its columns the fields of a lead.',
            content: { 'text/csv': { schema: Type.String() } },
          },
          // Refusals are JSON, as everywhere.
          400: { description: 'Bad Request', content: { 'application/json': { schema: ErrorReply } } },
        },
      },
    },
    async (req, reply) => {
      requireAdmin(req);
      const day = new Date().toISOString().slice(0, 10);
      const name = ['leads', req.query.key_name ? 'key' : null, req.query.status ?? null, day]
        .filter(Boolean)
        .join('-');
      return (
        reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${name}.csv"`)
          .header('cache-control', 'no-store')
          // A stream, not a body the schema describes: rows go out as pages are read.
          .send(Readable.from(leads.exportCsv(req.query)) as never)
      );
    },
  );

  app.get(
    '/api/admin/leads/:id',
    {
      config,
      schema: {
        tags: leadTags,
        summary: 'One lead with its status history',
        params: LeadIdParams,
        response: { 200: LeadDetailReply, ...errors(404) },
      },
    },
    async (req) => {
      requireAdmin(req);
      return leads.get(req.params.id);
    },
  );

  app.put(
    '/api/admin/leads/:id/status',
    {
      config,
      schema: {
        tags: leadTags,
        summary: 'Set a lead’s status',
        params: LeadIdParams,
        body: UpdateLeadStatusBody,
        response: { 200: UpdateLeadStatusReply, ...errors(400, 404, 409) },
      },
    },
    async (req) => {
      const admin = requireAdmin(req);
      const result = await leads.changeStatus(req.params.id, req.body.status, { id: admin.userId, email: admin.email });
      req.log.info({ leadId: result.lead.id, status: result.lead.lead_status, by: admin.userId }, 'lead status set');
      return result;
    },
  );
};
