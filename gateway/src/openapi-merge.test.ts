import { describe, expect, it } from 'vitest';
import { type OpenApiDocument, mergeDocuments } from './openapi-merge.js';

const doc = (paths: OpenApiDocument['paths'], schemas: Record<string, unknown> = {}): OpenApiDocument => ({
  openapi: '3.1.0',
  info: { title: 'a service', version: '1.0.0' },
  paths,
  components: { schemas },
});
const ok = { responses: { 200: { description: 'ok' } } };

describe('mergeDocuments', () => {
  it('keeps only the paths the gateway forwards to the service that describes them', () => {
    const merged = mergeDocuments(
      {
        requests: doc({
          '/api/requests/{id}/view': { get: ok },
          '/internal/requests/{id}': { get: ok },
          '/health/ready': { get: ok },
          // The gateway sends uploads to files: a requests route there is unreachable.
          '/api/admin/requests/{id}/upload': { post: ok },
        }),
        files: doc({ '/api/admin/requests/{id}/upload': { post: ok } }),
      },
      {},
      [],
    );
    expect(Object.keys(merged.paths)).toEqual(['/api/admin/requests/{id}/upload', '/api/requests/{id}/view']);
    expect(merged.openapi).toBe('3.1.0');
  });

  it('tags admin operations `admin` and asks them for a bearer token; others keep their tags or get their service', () => {
    const merged = mergeDocuments(
      {
        leads: doc({
          '/api/admin/leads': { get: { ...ok, tags: ['admin: leads'] } },
          '/api/webhooks/leads': { post: { ...ok, tags: ['webhooks'] } },
        }),
        zipcodes: doc({ '/api/zipcodes': { get: ok } }),
      },
      {},
      [],
    );
    expect(merged.paths['/api/admin/leads']?.get).toMatchObject({ tags: ['admin'], security: [{ bearerAuth: [] }] });
    expect(merged.paths['/api/webhooks/leads']?.post?.tags).toEqual(['webhooks']);
    expect(merged.paths['/api/webhooks/leads']?.post?.security).toBeUndefined();
    expect(merged.paths['/api/zipcodes']?.get?.tags).toEqual(['zipcodes']);
    expect(merged.tags?.map((t) => t.name)).toEqual(['zipcodes', 'webhooks', 'admin']);
  });

  it('renames a schema whose name another service used for a different one, and its references follow', () => {
    const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
    const answer = (name: string) => ({
      responses: { 200: { description: 'ok', content: { 'application/json': { schema: ref(name) } } } },
    });
    const merged = mergeDocuments(
      {
        auth: doc({ '/api/auth/me': { get: answer('User') } }, { User: { type: 'object' }, Same: { type: 'string' } }),
        requests: doc(
          { '/api/users/stats': { get: answer('User') } },
          { User: { type: 'array', items: ref('Same') }, Same: { type: 'string' } },
        ),
      },
      {},
      [],
    );
    expect(merged.components?.schemas).toEqual({
      User: { type: 'object' },
      Same: { type: 'string' },
      requests_User: { type: 'array', items: ref('Same') },
    });
    expect(JSON.stringify(merged.paths['/api/auth/me'])).toContain('"#/components/schemas/User"');
    expect(JSON.stringify(merged.paths['/api/users/stats'])).toContain('"#/components/schemas/requests_User"');
  });

  it('adds the gateway’s own paths and names the services that are missing', () => {
    const merged = mergeDocuments({ auth: doc({ '/api/auth/me': { get: ok } }) }, { '/api/health': { get: ok } }, [
      'leads',
    ]);
    expect(merged.paths['/api/health']?.get?.tags).toEqual(['gateway']);
    expect(merged['x-missing-services']).toEqual(['leads']);
    expect(merged.info.description).toContain('the leads service did not answer');
  });

  it('lists the answers the gateway and the kit give on every route, keeping the service’s own', () => {
    const mine = { description: 'the service says', content: {} };
    const merged = mergeDocuments(
      {
        requests: doc({
          '/api/admin/requests/{id}/status': { put: { requestBody: {}, responses: { 200: {}, 404: mine } } },
          '/api/requests/covered': { get: { responses: { 200: {}, 503: mine } } },
        }),
      },
      { '/api/health': { get: { responses: { 200: {} } } } },
      [],
    );
    const statuses = (path: string, method: string) => Object.keys(merged.paths[path]?.[method]?.responses ?? {});
    expect(statuses('/api/admin/requests/{id}/status', 'put')).toEqual([
      '200',
      '400',
      '401',
      '403',
      '404',
      '413',
      '429',
      '503',
    ]);
    expect(statuses('/api/requests/covered', 'get')).toEqual(['200', '429', '503']);
    expect(merged.paths['/api/requests/covered']?.get?.responses?.[503]).toBe(mine);
    expect(statuses('/api/health', 'get')).toEqual(['200']);
    expect(merged.paths['/api/admin/requests/{id}/status']?.put?.responses?.[200]).toEqual({});
  });

  it('names a response that @fastify/swagger left as "Default Response" by its status', () => {
    const merged = mergeDocuments(
      {
        zipcodes: doc({ '/api/zipcodes/{zip}': { get: { responses: { 404: { description: 'Default Response' } } } } }),
      },
      {},
      [],
    );
    expect(merged.paths['/api/zipcodes/{zip}']?.get?.responses?.[404]).toEqual({ description: 'Not Found' });
  });
});
