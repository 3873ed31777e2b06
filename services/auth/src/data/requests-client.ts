import { UserDataExport } from '@homereport/contracts';
import { AppError, ServiceClient, ServiceUnavailableError } from '@homereport/kit';
import type { UserDataSource, WarningLog } from '../domain/ports.js';

const REQUESTS_UNAVAILABLE_MESSAGE =
  'Your requests and report history cannot be gathered right now. Please try again in a few seconds.';

/**
 * The requests service's internal export route: what requests holds about a user. A requests
 * service that is down, hung or failing makes the export a 503 with Retry-After, logged as a
 * warning naming it: an outage somewhere else, not a bug here.
 */
export class RequestsClient implements UserDataSource {
  private readonly requests: ServiceClient;

  constructor(baseUrl: string, internalSecret: string, timeoutMs: number) {
    this.requests = new ServiceClient('requests', baseUrl, internalSecret, timeoutMs);
  }

  async userData(userId: string, context: { requestId: string; log: WarningLog }): Promise<UserDataExport> {
    try {
      const data = await this.requests.call({
        route: '/internal/users/:userId/export',
        params: { userId },
        requestId: context.requestId,
        reply: UserDataExport,
      });
      // Every user has an export, empty or not: a 404 is a wrong route, a bug.
      if (!data) throw new Error('requests answered 404 to the export');
      return data;
    } catch (err) {
      if (!(err instanceof ServiceUnavailableError)) throw err;
      context.log.warn({ err, dependency: 'requests' }, `${err.message}: the export is refused for now`);
      throw new AppError(503, 'DEPENDENCY_UNAVAILABLE', REQUESTS_UNAVAILABLE_MESSAGE, { retryAfterSeconds: 5 });
    }
  }
}
