import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';

/** The headers every answer of an app carries (the gateway's security headers); `secure`: came over TLS. */
export type AnswerHeaders = (url: string, secure: boolean) => ReadonlyArray<readonly [string, string]>;

/**
 * api.md "Malformed requests": what the framework itself refuses (an address it cannot read, a
 * path parameter past its length, a method the path does not take, a request Node's parser
 * rejects) answers in the `{ error, code }` shape with the app's headers, and never echoes the
 * path it was given. One place for all of them, used by the kit's app (app.ts).
 */
export const EdgeMessages = {
  notFound: 'There is nothing at this address.',
  badUrl: 'This address is not valid.',
  unreadable: 'The request could not be read.',
  headersTooLarge: 'The request headers are too large.',
  timeout: 'The request took too long to arrive.',
} as const;

/** A route's pattern as a regular expression over request paths (`:id` one segment, `*` the rest). */
function patternOf(url: string): RegExp {
  const source = url
    .split(/(:[A-Za-z0-9_]+(?:\([^)]*\))?|\*)/)
    .map((part) => {
      if (part === '*') return '.*';
      if (part.startsWith(':')) return '[^/]+';
      return part.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('');
  return new RegExp(`^${source}$`);
}

interface KnownRoute {
  methods: string[];
  pattern: RegExp;
  /** A catch-all (`/api/*`): only consulted when no route names the path more closely. */
  wildcard: boolean;
}

/**
 * The methods each path accepts, from the routes as they are registered (onRoute), for the 405's
 * `Allow`. Asked only when a request found no route: nothing on the common path.
 */
export class RouteMethods {
  private readonly routes: KnownRoute[] = [];

  record(route: RouteOptions): void {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    this.routes.push({ methods, pattern: patternOf(route.url), wildcard: route.url.includes('*') });
  }

  /** The methods some route accepts at `path`, sorted; empty when no route matches it at all. */
  allowedAt(path: string): string[] {
    const matching = this.routes.filter((r) => r.pattern.test(path));
    const specific = matching.filter((r) => !r.wildcard);
    const chosen = specific.length > 0 ? specific : matching;
    const methods = new Set(chosen.flatMap((r) => r.methods));
    // Fastify answers HEAD wherever it answers GET.
    if (methods.has('GET')) methods.add('HEAD');
    return [...methods].sort();
  }
}

/** A request's path, without its query string. */
const pathOf = (url: string): string => {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
};

/** The answer of a request no route took: 405 with `Allow` when the path takes other methods, else 404. */
export function answerNoRoute(req: FastifyRequest, reply: FastifyReply, routes: RouteMethods): FastifyReply {
  const allowed = routes.allowedAt(pathOf(req.url));
  if (allowed.length > 0 && !allowed.includes(req.method)) {
    return reply
      .status(405)
      .header('allow', allowed.join(', '))
      .send({
        error: `This address does not accept ${req.method}. It accepts ${allowed.join(', ')}.`,
        code: 'METHOD_NOT_ALLOWED',
      });
  }
  return reply.status(404).send({ error: EdgeMessages.notFound, code: 'NOT_FOUND' });
}

/**
 * Fastify's `frameworkErrors`: refusals made before any route or hook ran, so the app's headers
 * are set here. A path parameter past the router's length can name nothing: 404, as an unknown
 * one (not Fastify's 414 quoting the path). An address that does not decode: 400.
 */
export function frameworkErrorAnswer(headers: AnswerHeaders | undefined) {
  return (error: { code?: string }, req: FastifyRequest, reply: FastifyReply): void => {
    reply.header('x-request-id', req.id);
    if (headers) for (const [name, value] of headers(req.url, req.protocol === 'https')) reply.header(name, value);
    if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
      reply.status(404).send({ error: EdgeMessages.notFound, code: 'NOT_FOUND' });
      return;
    }
    if (error.code === 'FST_ERR_BAD_URL') {
      reply.status(400).send({ error: EdgeMessages.badUrl, code: 'BAD_URL' });
      return;
    }
    reply.status(400).send({ error: EdgeMessages.unreadable, code: 'BAD_REQUEST' });
  };
}

/**
 * Fastify's `clientErrorHandler`: a request Node's HTTP parser refused (an unknown method,
 * Content-Length with Transfer-Encoding, a bare LF, headers past the size limit) has no request
 * object; the answer is written to the socket as Node's own would be, but in the error shape and
 * with the app's headers (those of an API answer: there is no page to render), then the
 * connection closes, as it must after a message that could not be framed.
 */
export function clientErrorAnswer(headers: AnswerHeaders | undefined) {
  return (err: NodeJS.ErrnoException, socket: Socket): void => {
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    let status = 400;
    let body: { error: string; code: string } = { error: EdgeMessages.unreadable, code: 'BAD_REQUEST' };
    if (err.code === 'HPE_HEADER_OVERFLOW') {
      status = 431;
      body = { error: EdgeMessages.headersTooLarge, code: 'HEADERS_TOO_LARGE' };
    } else if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      status = 408;
      body = { error: EdgeMessages.timeout, code: 'REQUEST_TIMEOUT' };
    }
    const text = JSON.stringify(body);
    const secure = Boolean((socket as Socket & { encrypted?: boolean }).encrypted);
    const lines = [
      `HTTP/1.1 ${status} ${STATUS_TEXT[status]}`,
      'content-type: application/json; charset=utf-8',
      `content-length: ${Buffer.byteLength(text)}`,
      'connection: close',
      ...(headers ? headers('/api/', secure).map(([name, value]) => `${name}: ${value}`) : []),
    ];
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    socket.end(`${lines.join('\r\n')}\r\n\r\n${text}`, () => socket.destroy());
  };
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
};
