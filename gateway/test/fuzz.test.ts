import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAdmin } from '../../test/support/admin.js';
import { api, uniqueEmail } from '../../test/support/api.js';
import { testEnv } from '../../test/support/env.js';
import { linkIn, tokenOf, waitForEmail } from '../../test/support/mail.js';

// A sweep of broken, mistyped, oversized and wrongly typed requests over every endpoint the
// services describe in their OpenAPI documents, through the gateway as an outsider, a user and
// an admin: none may be answered 500 or more (a 503 from a broken pipe counts too).

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  format?: string;
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  minLength?: number;
};
interface Operation {
  method: string;
  path: string;
  body?: Schema;
  query: string[];
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const PASSWORD = 'fuzzing password 1';

/** Every operation of every service, read from the services' own /openapi.json. */
async function operations(): Promise<Operation[]> {
  const found: Operation[] = [];
  for (const port of Object.values(testEnv().servicePorts)) {
    const doc = (await (await fetch(`http://127.0.0.1:${port}/openapi.json`)).json()) as {
      paths?: Record<
        string,
        Record<
          string,
          {
            requestBody?: { content?: Record<string, { schema?: Schema }> };
            parameters?: { in: string; name: string }[];
          }
        >
      >;
    };
    for (const [path, item] of Object.entries(doc.paths ?? {})) {
      for (const method of METHODS) {
        const op = item[method];
        if (!op) continue;
        const content = op.requestBody?.content ?? {};
        const body = content['application/json']?.schema ?? Object.values(content)[0]?.schema;
        const query = (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
        found.push({ method: method.toUpperCase(), path, body, query });
      }
    }
  }
  return found;
}

/** A plausible value for a schema, so that one mutated field at a time reaches deeper than the first check. */
function plausible(schema: Schema | undefined, depth = 0): unknown {
  if (!schema || depth > 4) return 'x';
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants?.[0]) return plausible(variants[0], depth + 1);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      if (schema.format === 'email') return uniqueEmail('fuzz');
      if (schema.format === 'uri') return 'https://example.test/x';
      if (schema.format === 'date-time') return new Date().toISOString();
      return 'fuzz value'.padEnd(Math.max(schema.minLength ?? 0, 10), 'x');
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return true;
    case 'array':
      return [plausible(schema.items, depth + 1)];
    case 'object':
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, v]) => [k, plausible(v, depth + 1)]));
    default:
      return 'x';
  }
}

const WRONG_VALUES: unknown[] = [
  null,
  42,
  -1.5e308,
  true,
  '',
  ' ',
  'x'.repeat(100_000),
  '\u0000\ud800',
  { $ne: null },
  { $gt: '' },
  [],
  ['a', 1],
  { nested: { deeper: [{}] } },
];

/** Bodies for one operation: malformed, mistyped as a whole, and each field mistyped in turn. */
function bodies(op: Operation): { label: string; raw: string; contentType?: string }[] {
  const out: { label: string; raw: string; contentType?: string }[] = [
    { label: 'truncated JSON', raw: '{"a":' },
    { label: 'not JSON at all', raw: '<xml>no</xml>' },
    { label: 'JSON with the wrong content type', raw: '{"a":1}', contentType: 'text/plain' },
    { label: 'an unknown content type', raw: 'a=1', contentType: 'application/x-unknown' },
    { label: 'a multipart type without a boundary', raw: 'x', contentType: 'multipart/form-data' },
    { label: 'deeply nested JSON', raw: `${'['.repeat(5000)}${']'.repeat(5000)}` },
    { label: 'a huge number', raw: '1e999999' },
    { label: 'a prototype key', raw: '{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}}}' },
  ];
  for (const value of WRONG_VALUES)
    out.push({ label: `the whole body ${JSON.stringify(value)?.slice(0, 30)}`, raw: JSON.stringify(value) });
  const base = plausible(op.body);
  if (base && typeof base === 'object' && !Array.isArray(base)) {
    out.push({ label: 'a plausible body', raw: JSON.stringify(base) });
    out.push({ label: 'a plausible body with an extra field', raw: JSON.stringify({ ...base, extra: 1 }) });
    for (const field of Object.keys(base)) {
      for (const value of WRONG_VALUES) {
        out.push({
          label: `${field} = ${JSON.stringify(value)?.slice(0, 30)}`,
          raw: JSON.stringify({ ...base, [field]: value }),
        });
      }
    }
  }
  return out;
}

const PATH_VALUES = [
  'x',
  '0',
  '-1',
  'null',
  '%00',
  '..%2F..%2Fetc%2Fpasswd',
  'a'.repeat(3000),
  '%E2%82',
  '%F0%9F%92%A9',
  '000000000000000000000000',
];

function concretePaths(path: string): string[] {
  if (!path.includes('{')) return [path];
  return PATH_VALUES.map((v) => path.replace(/\{[^}]+\}/g, v));
}

function queries(op: Operation): string[] {
  const out = [''];
  for (const name of op.query) {
    for (const v of ['', 'x', '-1', '99999999999999999999', 'null', '%00', '[]', 'a'.repeat(2000)])
      out.push(`?${name}=${v}`);
    out.push(`?${name}=1&${name}=2`);
  }
  return out;
}

/** Runs `tasks` with at most `n` at a time. */
async function pool(tasks: (() => Promise<void>)[], n: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < tasks.length) {
        const i = next++;
        await tasks[i]!();
      }
    }),
  );
}

describe('a sweep of malformed requests over every endpoint', () => {
  let ops: Operation[];
  let userToken: string;
  let adminToken: string;

  beforeAll(async () => {
    ops = await operations();
    const adminEmail = uniqueEmail('fuzz-admin');
    expect((await createAdmin(adminEmail, PASSWORD)).code).toBe(0);
    const admin = await api('POST', '/api/auth/admin-login', { body: { email: adminEmail, password: PASSWORD } });
    adminToken = admin.body.token;
    const userEmail = uniqueEmail('fuzz-user');
    expect((await api('POST', '/api/auth/register', { body: { email: userEmail, password: PASSWORD } })).status).toBe(
      201,
    );
    const token = tokenOf(linkIn(await waitForEmail(userEmail, /Verify your email/), '/verify-email?token='));
    expect((await api('POST', '/api/auth/verify-email', { body: { token } })).status).toBe(200);
    userToken = (await api('POST', '/api/auth/login', { body: { email: userEmail, password: PASSWORD } })).body.token;
    expect(userToken).toEqual(expect.any(String));
  }, 120_000);

  it('finds the endpoints of every service', () => {
    const paths = new Set(ops.map((o) => o.path));
    for (const expected of ['/api/auth/login', '/api/contact', '/api/requests', '/api/zipcodes']) {
      expect(
        [...paths].some((p) => p === expected),
        `${expected} in the OpenAPI documents`,
      ).toBe(true);
    }
  });

  it('answers no request with 500 or more', async () => {
    const failures: string[] = [];
    const tasks: (() => Promise<void>)[] = [];
    /** A request that got no answer at all is as bad as a 5xx. */
    const attempt = (what: string, call: () => Promise<void>) =>
      tasks.push(() => call().catch((err: Error) => void failures.push(`no answer to ${what}: ${err.message}`)));
    for (const op of ops) {
      // Signing out would end the sweep's own session.
      const tokens = op.path === '/api/auth/logout' ? [undefined] : [undefined, userToken, adminToken];
      const withBody = op.method !== 'GET' && op.method !== 'DELETE';
      for (const path of concretePaths(op.path)) {
        for (const query of queries(op)) {
          for (const token of tokens) {
            attempt(`${op.method} ${path}${query}`, async () => {
              const res = await api(op.method, `${path}${query}`, { token });
              if (res.status >= 500)
                failures.push(`${res.status} ${op.method} ${path}${query} ${JSON.stringify(res.body).slice(0, 200)}`);
            });
          }
        }
      }
      if (!withBody) continue;
      const path = concretePaths(op.path)[0]!;
      for (const body of bodies(op)) {
        for (const token of [undefined, adminToken]) {
          attempt(`${op.method} ${path} with ${body.label}`, async () => {
            const res = await api(op.method, path, {
              raw: body.raw,
              token,
              headers: {
                'content-type': body.contentType ?? 'application/json',
                'x-request-id': `fuzz-${randomUUID()}`,
              },
            });
            if (res.status >= 500)
              failures.push(
                `${res.status} ${op.method} ${path} with ${body.label}: ${JSON.stringify(res.body).slice(0, 200)}`,
              );
          });
        }
      }
      // Over the limit, declared: refused at the gateway whatever the route.
      attempt(`${op.method} ${path} with a 5 MB body`, async () => {
        const res = await api(op.method, path, {
          raw: JSON.stringify({ padding: 'x'.repeat(5 * 1024 * 1024) }),
          token: adminToken,
          headers: { 'content-type': 'application/json' },
        });
        const allowed = res.status === 413 || /upload|import/.test(path);
        if (res.status >= 500 || !allowed) failures.push(`${res.status} ${op.method} ${path} with a 5 MB body`);
      });
    }
    await pool(tasks, 8);
    expect(failures, failures.slice(0, 30).join('\n')).toEqual([]);
  }, 600_000);
});
