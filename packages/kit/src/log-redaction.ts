import { INTERNAL_SECRET_HEADER } from './identity.js';

/**
 * Field names whose values never reach a log line: passwords and their hashes, tokens and the
 * links that carry one, the caller's and the gateway's credentials among headers.
 */
export const SECRET_FIELDS: ReadonlySet<string> = new Set([
  'password',
  'passwordHash',
  'token',
  'verifyUrl',
  'resetUrl',
  'authorization',
  INTERNAL_SECRET_HEADER,
  'x-webhook-key',
]);

export const CENSOR = '[redacted]';

/** How deep into plain objects a secret is looked for: `req.headers.authorization` is at 2. */
const MAX_DEPTH = 3;

/**
 * A log line's fields (or a child logger's bindings) with every secret field's value censored, at
 * any depth up to MAX_DEPTH of plain objects. The caller's objects are never written to: an object
 * holding a secret is copied, one without is passed through as it is.
 *
 * pino's own `redact` runs its paths over every field of every line: with wildcard paths
 * (`*.password`), each field, a number or a string too, went through a function that parsed every
 * path again, about 2.5% of the gateway's busy time on a session check. Here a line of plain
 * fields costs a set lookup per field. Class instances (a Fastify request, an Error) are left to
 * their serializers, as pino's paths left them.
 */
export function redactSecrets<T extends object>(fields: T): T {
  return redactIn(fields as Record<string, unknown>, 0) as T;
}

function redactIn(fields: Record<string, unknown>, depth: number): Record<string, unknown> {
  let copy: Record<string, unknown> | undefined;
  for (const key in fields) {
    if (!Object.hasOwn(fields, key)) continue;
    const value = fields[key];
    let kept = value;
    if (SECRET_FIELDS.has(key)) {
      if (value !== undefined && value !== null) kept = CENSOR;
    } else if (depth < MAX_DEPTH && isPlainObject(value)) {
      kept = redactIn(value, depth + 1);
    }
    if (kept !== value) {
      copy ??= { ...fields };
      copy[key] = kept;
    }
  }
  return copy ?? fields;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
