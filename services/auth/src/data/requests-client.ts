import { UserDataExport } from '@homereport/contracts';
import { AppError, INTERNAL_SECRET_HEADER } from '@homereport/kit';
import { Value } from '@sinclair/typebox/value';
import type { UserDataSource, WarningLog } from '../domain/ports.js';

const REQUESTS_UNAVAILABLE_MESSAGE =
  'Your requests and report history cannot be gathered right now. Please try again in a few seconds.';

const unavailable = () =>
  new AppError(503, 'DEPENDENCY_UNAVAILABLE', REQUESTS_UNAVAILABLE_MESSAGE, { retryAfterSeconds: 5 });

/**
 * The requests service's internal export route. Services never open each other's collections, so
 * what requests holds about a user comes over HTTP, with the internal secret, under one deadline
 * for the whole call (connect, headers and body). A requests service that is down, hung or
 * failing makes the export a 503 with Retry-After, logged as a warning naming it: an outage
 * somewhere else, not a bug here.
 */
export class RequestsClient implements UserDataSource {
  constructor(
    private readonly baseUrl: string,
    private readonly internalSecret: string,
    private readonly timeoutMs: number,
  ) {}

  async userData(userId: string, context: { requestId: string; log: WarningLog }): Promise<UserDataExport> {
    let status: number;
    let body: unknown;
    try {
      const res = await fetch(`${this.baseUrl}/internal/users/${encodeURIComponent(userId)}/export`, {
        headers: { [INTERNAL_SECRET_HEADER]: this.internalSecret, 'x-request-id': context.requestId },
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      status = res.status;
      // Read under the same deadline: a service that sends headers and then hangs is an outage too.
      body = status === 200 ? await res.json() : await res.text();
    } catch (err) {
      context.log.warn({ err, dependency: 'requests' }, `requests unavailable: ${(err as Error).name}`);
      throw unavailable();
    }
    if (status >= 500) {
      context.log.warn({ dependency: 'requests', status }, `requests answered ${status} to the export`);
      throw unavailable();
    }
    if (status !== 200) throw new Error(`requests answered ${status} to the export: ${String(body).slice(0, 200)}`);
    if (!Value.Check(UserDataExport, body)) {
      const problem = Value.Errors(UserDataExport, body).First();
      throw new Error(`requests' export breaks its contract at ${problem?.path || '/'}: ${problem?.message}`);
    }
    return body;
  }
}
