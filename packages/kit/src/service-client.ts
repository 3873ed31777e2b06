import type { Static, TSchema, TUnknown } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { INTERNAL_SECRET_HEADER } from './identity.js';
import { currentTrace } from './tracing/context.js';
import { startCallInTrace } from './tracing/http.js';

/**
 * A service that could not answer for now: not reachable, past the call's deadline, or answering
 * 5xx (its own dependency away, a restart). An outage elsewhere, not a bug here: a 503 with
 * Retry-After for whoever asked (dependency-errors.ts), unless the caller does without the answer.
 */
export class ServiceUnavailableError extends Error {
  override readonly name = 'ServiceUnavailableError';
  constructor(
    readonly service: string,
    /** The service's answer, when it gave one (5xx); undefined when none came in time. */
    readonly status: number | undefined,
    options?: ErrorOptions,
  ) {
    super(
      status === undefined
        ? `${service} unavailable (${(options?.cause as Error | undefined)?.name ?? 'no answer'})`
        : `${service} answered ${status}`,
      options,
    );
  }
}

export interface ServiceCall<S extends TSchema> {
  method?: 'GET' | 'PUT' | 'POST' | 'DELETE';
  /** The callee's route pattern (`/internal/requests/:id`): the call's span is named by it. */
  route: string;
  /** The values of the route's `:name` parameters, URL-encoded into the path. */
  params?: Record<string, string>;
  /** The id of the request this call is made for, passed on so both services' lines name it. */
  requestId: string;
  /** Sent as JSON. */
  body?: unknown;
  /** The answer's schema: an answer that breaks it is the callee's bug, thrown as an Error naming the field. */
  reply?: S;
}

/**
 * Another service of ours, called over HTTP with the internal secret (services never open each
 * other's collections). Each call runs under one deadline for the whole exchange (connect,
 * headers and body: a service that sends headers and then hangs is an outage too) and carries
 * the request id and the current trace's `traceparent`, so the callee's span is a child of ours.
 */
export class ServiceClient {
  constructor(
    /** The callee's name, in log lines, error messages and the call's span. */
    readonly service: string,
    private readonly baseUrl: string,
    private readonly internalSecret: string,
    private readonly timeoutMs: number,
  ) {}

  /**
   * The answer's JSON body (checked against `reply` when given), or null for a 404. Throws
   * ServiceUnavailableError when the service cannot answer for now, and an Error for any other
   * status (our call was wrong: a bug, not an outage).
   */
  async call<S extends TSchema = TUnknown>(call: ServiceCall<S>): Promise<Static<S> | null> {
    const method = call.method ?? 'GET';
    const path = call.route.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(call.params?.[name] ?? ''));
    const parent = currentTrace();
    const hop = parent && startCallInTrace(parent, method, call.route, this.service);
    const headers: Record<string, string> = {
      [INTERNAL_SECRET_HEADER]: this.internalSecret,
      'x-request-id': call.requestId,
    };
    if (hop) headers.traceparent = hop.traceparent;
    if (call.body !== undefined) headers['content-type'] = 'application/json';
    let status: number;
    let body: unknown;
    try {
      const res = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers,
        body: call.body === undefined ? undefined : JSON.stringify(call.body),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      status = res.status;
      body =
        res.ok && res.headers.get('content-type')?.startsWith('application/json') ? await res.json() : await res.text();
      hop?.end(status);
    } catch (err) {
      hop?.end(undefined, err);
      throw new ServiceUnavailableError(this.service, undefined, { cause: err });
    }
    if (status === 404) return null;
    if (status >= 500) throw new ServiceUnavailableError(this.service, status);
    if (status < 200 || status >= 300) {
      throw new Error(`${this.service} answered ${status} to ${method} ${call.route}: ${String(body).slice(0, 200)}`);
    }
    if (call.reply && !Value.Check(call.reply, body)) {
      const problem = Value.Errors(call.reply, body).First();
      throw new Error(
        `${this.service}'s answer to ${method} ${call.route} breaks its contract at ${problem?.path || '/'}: ${problem?.message}`,
      );
    }
    return body as Static<S>;
  }
}
