import { type Logger, type LoggerOptions, pino, destination as pinoDestination } from 'pino';
import { redactSecrets } from './log-redaction.js';
import { currentTrace } from './tracing/context.js';

export type { Logger } from 'pino';

export interface LoggerSettings {
  name: string;
  level: string;
  format: 'json' | 'pretty';
}

/**
 * A share link's token, a bearer secret in the path: `/shared/<token>` (the web page) and
 * `/api/shared/<token>` (its API) show the report to whoever holds it.
 */
const SHARE_TOKEN = /\/shared\/[^/]+/;

/**
 * A URL as it may be logged: the path only, since query strings carry secrets
 * (`/reset-password?token=…`), and a share link's token masked (`/api/shared/:token`). Every line
 * the kit logs about a request (the access line, an abort, an error) names its path through this.
 */
export function loggablePath(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  const end = url.search(/[?#]/);
  const path = end === -1 ? url : url.slice(0, end);
  return path.includes('/shared/') ? path.replace(SHARE_TOKEN, '/shared/:token') : path;
}

interface RequestLike {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  /** Given instead of `ip` by callers that log a request they hold no Fastify request for. */
  remoteAddress?: string;
  socket?: { remotePort?: number };
}

/** Fastify's request serializer without the query string (it otherwise logs `req.url` whole). */
function serializeRequest(req: RequestLike) {
  return {
    method: req.method,
    url: loggablePath(req.url),
    host: req.host,
    remoteAddress: req.ip ?? req.remoteAddress,
    remotePort: req.socket?.remotePort,
  };
}

/** Marks a logger whose bindings already name the trace (a request's, an event's): the mixin adds none. */
const TRACE_BOUND = Symbol('traceBound');

/** A child logger that names `traceId` on every line (pino children inherit the mark). */
export function childWithTrace(
  logger: Logger,
  bindings: Record<string, unknown>,
  traceId: string,
  options?: object,
): Logger {
  const child = logger.child(redactSecrets({ ...bindings, traceId }), options);
  (child as Logger & { [TRACE_BOUND]?: true })[TRACE_BOUND] = true;
  return child;
}

/**
 * Names the current trace (tracing/context.ts) on lines logged within one by a logger that does
 * not already: a service's own logger inside a handler, a kit wrapper's line.
 */
function traceMixin(_merge: object, _level: number, logger: Logger): { traceId?: string } {
  if ((logger as Logger & { [TRACE_BOUND]?: true })[TRACE_BOUND]) return NO_TRACE;
  const trace = currentTrace();
  return trace ? { traceId: trace.traceId } : NO_TRACE;
}

/**
 * The mixin's answer when it adds nothing, shared: most lines (every access line) come from a
 * logger already bound to its trace, and pino's default merge would copy each line's fields into
 * a fresh object for nothing. Never written to: `mergeTrace` returns the line's own fields then.
 */
const NO_TRACE = Object.freeze({});

/** pino's default merge (the line's fields win over the mixin's), skipped when there is nothing to add. */
function mergeTrace(merge: object, mixin: object): object {
  return mixin === NO_TRACE ? merge : Object.assign(mixin, merge);
}

export function loggerOptions(settings: LoggerSettings): LoggerOptions {
  return {
    name: settings.name,
    level: settings.level,
    mixin: traceMixin,
    mixinMergeStrategy: mergeTrace,
    // Secrets censored on every line (log-redaction.ts). A child's bindings are identifiers
    // (reqId, component, ...); those a request or an event brings go through childWithTrace.
    formatters: { log: redactSecrets },
    serializers: { req: serializeRequest },
    ...(settings.format === 'pretty'
      ? {
          transport: {
            target: 'pino-pretty',
            options: { translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname', singleLine: true },
          },
        }
      : {}),
  };
}

/** How long a log line may wait to be written with others. */
const FLUSH_MS = 200;

/**
 * The level as a word (`"level":"error"`), not pino's number: what log platforms and a person
 * grepping production logs look for. The JSON lines of the processes only; pino-pretty prints its own.
 */
const levelAsWord = (label: string) => ({ level: label });

export function createLogger(settings: LoggerSettings): Logger {
  if (settings.format === 'pretty') return pino(loggerOptions(settings));
  // Written in the background, in batches: a write per line cost the gateway about a third of its
  // throughput at info level. A line waits at most FLUSH_MS; lines still waiting when the process
  // exits are flushed synchronously by pino's exit hook.
  const destination = pinoDestination({ dest: 1, sync: false, minLength: 8 * 1024, periodicFlush: FLUSH_MS });
  const options = loggerOptions(settings);
  return pino({ ...options, formatters: { ...options.formatters, level: levelAsWord } }, destination);
}

interface AccessFields {
  method: string;
  path: string;
  remoteAddress: string;
  statusCode: number;
  responseTimeMs: number;
}

/**
 * The one line per answered request through pino (so formatters and redaction apply to it like to
 * every other line), its fields flat: nothing to copy or walk for secrets on the most frequent
 * line (log-redaction.ts). `requestId` names the request when the
 * logger is not a request's own (whose bindings already hold its id).
 */
export function logAccess(requestLog: { level: string }, fields: AccessFields, requestId?: string): void {
  // A request's pino logger (Fastify types it more loosely).
  const log = requestLog as Logger;
  if (!log.isLevelEnabled('info')) return;
  log.info(
    {
      ...(requestId === undefined ? {} : { reqId: requestId }),
      method: fields.method,
      url: fields.path,
      remoteAddress: fields.remoteAddress,
      statusCode: fields.statusCode,
      responseTime: fields.responseTimeMs,
    },
    'request completed',
  );
}
