import { Readable } from 'node:stream';
import { type ServiceApp, requireAdmin } from '@homereport/kit';
import type { Leads } from '../../domain/leads.js';
import {
  CreateWebhookKeyBody,
  CreateWebhookKeyReply,
  KeyNameParams,
  LeadDetailReply,
  LeadIdParams,
  LeadStats,
  LeadsExportQuery,
  LeadsQuery,
  LeadsReply,
  ToggleWebhookKeyReply,
  UpdateLeadStatusBody,
  UpdateLeadStatusReply,
  WebhookKeysReply,
  errors,
} from '../../schemas/leads.js';

interface AdminRouteDeps {
  leads: Leads;
}

const keyTags = ['admin: webhook keys'];
const leadTags = ['admin: leads'];

/** /api/admin/webhook-keys* and /api/admin/leads* (api.md "Admin"). The gateway lets only admins in; so do we. */
export function registerAdminRoutes(app: ServiceApp, { leads }: AdminRouteDeps): void {
  app.get(
    '/api/admin/webhook-keys',
    { schema: { tags: keyTags, response: { 200: WebhookKeysReply, ...errors(401, 403) } } },
    async (req) => {
      requireAdmin(req);
      return leads.listKeys();
    },
  );

  app.post(
    '/api/admin/webhook-keys',
    {
      schema: {
        tags: keyTags,
        body: CreateWebhookKeyBody,
        response: { 201: CreateWebhookKeyReply, ...errors(400, 401, 403, 409) },
      },
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
      schema: {
        tags: keyTags,
        params: KeyNameParams,
        response: { 200: ToggleWebhookKeyReply, ...errors(401, 403, 404) },
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
    { schema: { tags: leadTags, querystring: LeadsQuery, response: { 200: LeadsReply, ...errors(400, 401, 403) } } },
    async (req) => {
      requireAdmin(req);
      return leads.list(req.query);
    },
  );

  app.get(
    '/api/admin/leads/stats',
    { schema: { tags: leadTags, response: { 200: LeadStats, ...errors(401, 403) } } },
    async (req) => {
      requireAdmin(req);
      return leads.stats();
    },
  );

  app.get(
    '/api/admin/leads/export.csv',
    {
      schema: {
        tags: leadTags,
        querystring: LeadsExportQuery,
        produces: ['text/csv'],
        response: { ...errors(400, 401, 403) },
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
    { schema: { tags: leadTags, params: LeadIdParams, response: { 200: LeadDetailReply, ...errors(401, 403, 404) } } },
    async (req) => {
      requireAdmin(req);
      return leads.get(req.params.id);
    },
  );

  app.put(
    '/api/admin/leads/:id/status',
    {
      schema: {
        tags: leadTags,
        params: LeadIdParams,
        body: UpdateLeadStatusBody,
        response: { 200: UpdateLeadStatusReply, ...errors(400, 401, 403, 404, 409) },
      },
    },
    async (req) => {
      const admin = requireAdmin(req);
      const result = await leads.changeStatus(req.params.id, req.body.status, { id: admin.userId, email: admin.email });
      req.log.info({ leadId: result.lead.id, status: result.lead.lead_status, by: admin.userId }, 'lead status set');
      return result;
    },
  );
}
