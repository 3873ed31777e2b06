import { HealthReply } from '@homereport/contracts';
import { ErrorReply, type Logger } from '@homereport/kit';
import { type OpenApiDocument, type PathItem, mergeDocuments } from './openapi-merge.js';
import type { ServiceName } from './routes.js';

/** The merged document as served: its JSON text (made once per merge) and what it lacks. */
export interface PublicDocument {
  json: string;
  missing: ServiceName[];
}

export interface DocumentSourceOptions {
  targets: Record<ServiceName, string>;
  logger: Logger;
  /** How long one service may take to hand over its document before it counts as missing. */
  deadlineMs?: number;
  /** How long a complete document is kept before the services are asked again (a deploy may add routes). */
  keepMs?: number;
  /** How soon an incomplete document is retried. */
  retryMs?: number;
  now?: () => number;
  fetchDocument?: (url: string, deadlineMs: number) => Promise<OpenApiDocument>;
}

const json = (schema: unknown) => ({ 'application/json': { schema } });

/** The gateway's own public paths, beside the services' ones; public, so `security` is empty. */
export const GATEWAY_PATHS: Record<string, PathItem> = {
  '/api/health': {
    get: {
      summary: 'Which services (and their dependencies) are up',
      security: [],
      responses: {
        200: { description: 'Every service is ready.', content: json(HealthReply) },
        429: { description: 'Asked too often by this client.', content: json(ErrorReply) },
        503: {
          description: 'At least one service is down (`Retry-After` says when to ask again).',
          content: json(HealthReply),
        },
      },
    },
  },
  '/api/openapi.json': {
    get: {
      summary: 'This document: OpenAPI 3.1 of the public API',
      security: [],
      description:
        'Merged from the services’ own documents. When a service does not answer, its paths are missing and `x-missing-services` names it; when none answers, 503.',
      responses: {
        200: { description: 'The OpenAPI document.', content: json({ type: 'object' }) },
        503: { description: 'No service answered (`Retry-After`).', content: json(ErrorReply) },
      },
    },
  },
  '/api/docs': {
    get: {
      summary: 'This reference as a web page',
      security: [],
      responses: { 200: { description: 'An HTML page.', content: { 'text/html': { schema: { type: 'string' } } } } },
    },
  },
};

async function fetchJson(url: string, deadlineMs: number): Promise<OpenApiDocument> {
  const res = await fetch(url, { signal: AbortSignal.timeout(deadlineMs) });
  if (!res.ok) throw new Error(`answered ${res.status}`);
  const doc = (await res.json()) as OpenApiDocument;
  if (typeof doc !== 'object' || doc === null || typeof doc.paths !== 'object')
    throw new Error('not an OpenAPI document');
  return doc;
}

/**
 * The public OpenAPI document, merged on first request from each service's `/openapi.json` and
 * kept: a complete one for `keepMs`, an incomplete one only `retryMs`. Each service gets
 * `deadlineMs`; one that does not answer in time is left out (its last document is used if it
 * ever gave one), so one service down never hides the others. Null when no service ever answered.
 * Concurrent callers share one round of fetches.
 */
export function publicDocumentSource(options: DocumentSourceOptions): () => Promise<PublicDocument | null> {
  const deadlineMs = options.deadlineMs ?? 2000;
  const keepMs = options.keepMs ?? 5 * 60_000;
  const retryMs = options.retryMs ?? 5000;
  const now = options.now ?? Date.now;
  const fetchDocument = options.fetchDocument ?? fetchJson;
  const lastSeen = new Map<ServiceName, OpenApiDocument>();
  let kept: { doc: PublicDocument; until: number } | null = null;
  let round: Promise<PublicDocument | null> | null = null;

  const collect = async (): Promise<PublicDocument | null> => {
    const services = Object.keys(options.targets) as ServiceName[];
    const answers = await Promise.allSettled(
      services.map((s) => fetchDocument(`${options.targets[s]}/openapi.json`, deadlineMs)),
    );
    const failed: ServiceName[] = [];
    answers.forEach((answer, i) => {
      const service = services[i] as ServiceName;
      if (answer.status === 'fulfilled') lastSeen.set(service, answer.value);
      else {
        failed.push(service);
        options.logger.warn(
          { service, reason: String(answer.reason) },
          `OpenAPI document of ${service} not had: ${String(answer.reason)}`,
        );
      }
    });
    if (lastSeen.size === 0) return null;
    const missing = services.filter((s) => !lastSeen.has(s));
    const doc = mergeDocuments(Object.fromEntries(lastSeen), GATEWAY_PATHS, missing);
    const result = { json: JSON.stringify(doc), missing };
    // A stale part stands in for a service that failed this round: ask again soon.
    kept = { doc: result, until: now() + (failed.length > 0 ? retryMs : keepMs) };
    return result;
  };

  return async () => {
    if (kept && now() < kept.until) return kept.doc;
    round ??= collect().finally(() => {
      round = null;
    });
    return round;
  };
}
