import { STATUS_CODES } from 'node:http';
import { BEARER_AUTH, ErrorReply, SECURITY_SCHEMES } from '@homereport/kit';
import { type ServiceName, isAdminPath, serviceFor } from './routes.js';

/** The parts of an OpenAPI 3.1 document the merge reads and writes; the rest passes through. */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string; [key: string]: unknown };
  paths: Record<string, PathItem>;
  components?: { schemas?: Record<string, unknown>; [key: string]: unknown };
  tags?: { name: string; description?: string }[];
  [key: string]: unknown;
}
export type PathItem = Record<string, Operation>;
export interface Operation {
  tags?: string[];
  responses?: Record<string, unknown>;
  requestBody?: unknown;
  parameters?: unknown[];
  security?: Record<string, string[]>[];
  [key: string]: unknown;
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace']);

/** What each tag groups, in the order the reference page lists them. */
const TAG_DESCRIPTIONS: Record<string, string> = {
  gateway: 'The gateway itself: health of the services and this reference.',
  auth: 'Accounts, sign-in and sessions (auth service).',
  account: 'The signed-in user’s own account: password, data export, deletion (auth service).',
  requests: 'Coverage requests, reports and credits (requests service).',
  users: 'The signed-in user’s credits, history, saved reports and watched ZIP codes.',
  shares: 'Share links of reports, and opening one without an account (requests service).',
  files: 'Report files: signed downloads and admin uploads (files service).',
  zipcodes: 'ZIP code market analyses (zipcodes service).',
  webhooks: 'Inbound leads posted by ad platforms (leads service).',
  leads: 'Leads and webhook keys (leads service).',
  notifications: 'The contact form (notifications service).',
  admin: 'Staff only: a bearer token of a user whose role is admin; 401 without a token, 403 for a non-admin.',
};

/**
 * A path template as the gateway routes it: `{id}` stands for one segment, so any word there
 * routes the same way (`/api/admin/requests/{id}/upload` goes to files, not requests).
 */
const concretePath = (template: string) => template.replace(/\{[^}/]+\}/g, 'x');

/**
 * Only what the gateway forwards to this service is public: paths under /api that route to it.
 * Health, metrics, /internal and the service's own /openapi.json are not, nor is a path another
 * service answers through the gateway.
 */
export const isPublicPathOf = (service: ServiceName, template: string) =>
  template.startsWith('/api/') && serviceFor(concretePath(template)) === service;

/**
 * One public document from the services' own (each built by @fastify/swagger from the TypeBox
 * schemas its routes validate with) and the gateway's own paths. Admin paths are tagged `admin`
 * and need a bearer token; an operation without tags is tagged with its service. A component
 * schema whose name another service already used for a different schema is renamed
 * `<service>_<name>`, and the references to it in that service's paths follow.
 */
export function mergeDocuments(
  parts: Partial<Record<ServiceName, OpenApiDocument>>,
  own: Record<string, PathItem>,
  missing: ServiceName[],
): OpenApiDocument {
  const paths: Record<string, PathItem> = {};
  const schemas: Record<string, unknown> = {};
  const securitySchemes: Record<string, unknown> = { ...SECURITY_SCHEMES };
  for (const [service, doc] of Object.entries(parts) as [ServiceName, OpenApiDocument][]) {
    Object.assign(securitySchemes, doc.components?.securitySchemes);
    const renames = claimSchemas(schemas, doc.components?.schemas ?? {}, service);
    for (const [template, item] of Object.entries(doc.paths ?? {})) {
      if (!isPublicPathOf(service, template)) continue;
      const renamed = renameRefs(item, renames) as PathItem;
      paths[template] = { ...paths[template], ...publicOperations(renamed, template, service) };
    }
  }
  for (const [template, item] of Object.entries(own)) paths[template] = publicOperations(item, template, 'gateway');

  const sortedPaths = Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b)));
  const used = new Set(
    Object.values(sortedPaths).flatMap((item) => Object.values(item).flatMap((op) => op.tags ?? [])),
  );
  const known = Object.keys(TAG_DESCRIPTIONS);
  const tagOrder = [...known.filter((t) => used.has(t)), ...[...used].filter((t) => !known.includes(t)).sort()];

  return {
    openapi: '3.1.0',
    info: {
      title: 'HomeReport API',
      version: '1.0.0',
      description: describe(missing),
    },
    // The paths are absolute (/api/...), on the origin that served this document.
    servers: [{ url: '/', description: 'The gateway that served this document' }],
    paths: sortedPaths,
    components: { schemas, securitySchemes },
    tags: tagOrder.map((name) => ({
      name,
      ...(TAG_DESCRIPTIONS[name] ? { description: TAG_DESCRIPTIONS[name] } : {}),
    })),
    // Which services' paths are absent because they did not answer: a reader (or a test) can tell
    // an incomplete document from a complete one without comparing path lists.
    'x-missing-services': missing,
  };
}

function describe(missing: ServiceName[]): string {
  const base =
    'The public HTTP API of HomeReport, served by the gateway under /api. Errors answer ' +
    '`{ error, code?, details? }`; `Authorization: Bearer <token>` carries a session.';
  if (missing.length === 0) return base;
  return `${base}\n\n**Incomplete:** the ${missing.join(', ')} service${missing.length > 1 ? 's' : ''} did not answer, so ${missing.length > 1 ? 'their' : 'its'} paths are missing here. Reload in a few seconds.`;
}

const errorAnswer = (description: string) => ({ description, content: { 'application/json': { schema: ErrorReply } } });

/**
 * Answers the gateway and the kit give on any forwarded route, whatever the service's schema
 * lists: the client's request budget and an unreachable service (both with `Retry-After`); for an
 * admin path, the gateway's own 401/403 before it routes; for input, the kit's schema
 * validation (400) and the gateway's body limit (413).
 */
function gatewayAnswers(op: Operation, admin: boolean): Record<string, unknown> {
  const answers: Record<string, unknown> = {
    429: errorAnswer('Too many requests from this client; `Retry-After` says when to try again.'),
    503: errorAnswer(
      'The service, or something it depends on, is not answering; `Retry-After` says when to try again.',
    ),
  };
  if (admin) {
    answers[401] = errorAnswer('No bearer token, or one that is not (or no longer) valid.');
    answers[403] = errorAnswer('Signed in, but not an admin.');
  }
  const params = Array.isArray(op.parameters) && op.parameters.length > 0;
  if (op.requestBody || params)
    answers[400] = errorAnswer('The input does not match the schema (`details` names the field).');
  if (op.requestBody) answers[413] = errorAnswer('The body is larger than the limit.');
  return answers;
}

/**
 * A name for an operation, from its method and path (`GET /api/requests/{id}/view` is
 * `getRequestsByIdView`): one per operation, stable while the path is, made here so no route
 * has to spell it.
 */
export function operationIdOf(method: string, template: string): string {
  const words = template
    .replace(/^\/api\//, '')
    .split('/')
    .flatMap((segment) => {
      const param = /^\{(.+)\}$/.exec(segment);
      return param ? ['by', ...(param[1] as string).split(/[^A-Za-z0-9]+/)] : segment.split(/[^A-Za-z0-9]+/);
    })
    .filter(Boolean);
  return method + words.map((w) => (w[0] as string).toUpperCase() + w.slice(1)).join('');
}

/** The operations of one path item, tagged, secured and with the gateway's answers, for the public document. */
function publicOperations(item: PathItem, template: string, service: string): PathItem {
  const admin = isAdminPath(template);
  const out: PathItem = {};
  for (const [method, op] of Object.entries(item)) {
    if (!METHODS.has(method)) continue;
    // Admin operations sit under the one `admin` tag only: the reference page lists an operation
    // under each of its tags, and a service's own `admin: leads` would show it twice.
    const tags = admin ? ['admin'] : op.tags && op.tags.length > 0 ? [...op.tags] : [service];
    const responses = service === 'gateway' ? op.responses : { ...gatewayAnswers(op, admin), ...op.responses };
    out[method] = {
      operationId: operationIdOf(method, template),
      ...op,
      tags,
      responses: sortedByStatus(responses),
      // The gateway itself refuses anyone but an admin on these paths, whatever the service says.
      ...(admin ? { security: [{ [BEARER_AUTH]: [] }] } : {}),
    };
  }
  return out;
}

/**
 * By status, each with a description: @fastify/swagger writes "Default Response" for a schema
 * without one, which tells a reader nothing; the status's own name does a little better.
 */
function sortedByStatus(responses: unknown): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(responses ?? {})
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([status, answer]) => {
        const plain = (answer as { description?: string }).description === 'Default Response';
        return [status, plain ? { ...(answer as object), description: STATUS_CODES[status] ?? status } : answer];
      }),
  );
}

/** Adds a service's component schemas, renaming those whose name is taken by a different schema. */
function claimSchemas(
  into: Record<string, unknown>,
  from: Record<string, unknown>,
  service: ServiceName,
): Map<string, string> {
  const renames = new Map<string, string>();
  for (const [name, schema] of Object.entries(from)) {
    const taken = into[name];
    if (taken === undefined || JSON.stringify(taken) === JSON.stringify(schema)) {
      into[name] = schema;
    } else {
      const renamed = `${service}_${name}`;
      renames.set(name, renamed);
      into[renamed] = schema;
    }
  }
  // A renamed schema may itself refer to another renamed one.
  for (const renamed of renames.values()) into[renamed] = renameRefs(into[renamed], renames);
  return renames;
}

function renameRefs(value: unknown, renames: Map<string, string>): unknown {
  if (renames.size === 0 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => renameRefs(v, renames));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    const match = key === '$ref' && typeof v === 'string' ? /^#\/components\/schemas\/(.+)$/.exec(v) : null;
    const target = match?.[1] ? renames.get(match[1]) : undefined;
    out[key] = target ? `#/components/schemas/${target}` : renameRefs(v, renames);
  }
  return out;
}
