import { Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { GraphLeadAnswer } from '../domain/meta-lead.js';
import type { GraphLeadRead, LeadFormSource } from '../domain/ports.js';

/** What GET <graph>/<leadgen_id> answers (api.md "Beyond the spec"); more fields may come and are ignored. */
const GraphLead = Type.Object({
  id: Type.Optional(Type.String()),
  created_time: Type.Optional(Type.String()),
  field_data: Type.Array(Type.Object({ name: Type.String(), values: Type.Optional(Type.Array(Type.Unknown())) })),
});

/**
 * Graph error codes that say "not now" or "not this token", not "not this lead": throttling
 * (4, 17, 32, 613, 80001), temporary trouble (1, 2), a token expired or revoked (190) or a
 * missing permission (10, 200). A lead refused for one of these is delivered again later
 * (after the token is fixed), where skipping it would lose it.
 */
const RETRY_CODES = new Set([1, 2, 4, 10, 17, 32, 190, 200, 341, 368, 613, 80001]);

/** A lead answer is a few kilobytes; more than this is not a lead. */
const ANSWER_MAX_CHARS = 1024 * 1024;

interface GraphSettings {
  /** META_GRAPH_URL, with its version. */
  baseUrl: string;
  accessToken: string;
  timeoutMs: number;
}

/** Reads leads from the Graph API (Meta's lead retrieval), with a deadline per read. */
export class MetaGraphClient implements LeadFormSource {
  private readonly base: string;

  constructor(private readonly settings: GraphSettings) {
    this.base = settings.baseUrl.replace(/\/+$/, '');
  }

  async readLead(leadgenId: string): Promise<GraphLeadRead> {
    // The token goes in the query as the contract says; this URL is never logged.
    const url = `${this.base}/${encodeURIComponent(leadgenId)}?access_token=${encodeURIComponent(this.settings.accessToken)}`;
    let status: number;
    let text: string;
    try {
      // One deadline for the answer and its body alike.
      const res = await fetch(url, { signal: AbortSignal.timeout(this.settings.timeoutMs), redirect: 'error' });
      status = res.status;
      text = await res.text();
    } catch (err) {
      const timedOut = (err as Error).name === 'TimeoutError';
      return {
        kind: 'retry',
        reason: timedOut ? `no answer within ${this.settings.timeoutMs} ms` : 'the Graph API could not be reached',
      };
    }
    if (text.length > ANSWER_MAX_CHARS) return { kind: 'retry', reason: `an answer of ${text.length} characters` };
    const body = parseJson(text);

    if (status >= 200 && status < 300) {
      if (Value.Check(GraphLead, body)) return { kind: 'found', lead: body as GraphLeadAnswer };
      return { kind: 'unreadable', reason: `status ${status} without field_data` };
    }
    const error = graphError(body);
    const described = `status ${status}${error.code === undefined ? '' : `, code ${error.code}`}${error.message ? `: ${error.message}` : ''}`;
    const transient =
      status >= 500 ||
      status === 401 ||
      status === 403 ||
      status === 408 ||
      status === 429 ||
      error.transient ||
      (error.code !== undefined && RETRY_CODES.has(error.code));
    return transient ? { kind: 'retry', reason: described } : { kind: 'gone', reason: described };
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Graph's `{ error: { message, type, code, is_transient } }`, as far as it is there. */
function graphError(body: unknown): { message?: string; code?: number; transient: boolean } {
  const error = (body as { error?: unknown } | undefined)?.error;
  if (typeof error !== 'object' || error === null) return { transient: false };
  const e = error as Record<string, unknown>;
  return {
    ...(typeof e.message === 'string' ? { message: e.message.slice(0, 300) } : {}),
    ...(typeof e.code === 'number' ? { code: e.code } : {}),
    transient: e.is_transient === true,
  };
}
