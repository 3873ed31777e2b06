import type { CoverageRequest, ReportFileType } from '@homereport/contracts';
import { AppError, ServiceClient, ServiceUnavailableError, notFound } from '@homereport/kit';

export interface StoredFile {
  type: ReportFileType;
  key: string;
  name: string;
  contentType: string;
  size: number;
}

/**
 * The requests service's internal routes: which request holds which file is recorded there,
 * synchronously, so the admin's next read sees it. A requests service that cannot answer for now
 * (its database away, a restart) is an outage of ours too: 503 with Retry-After, not a 500.
 */
export class RequestsClient {
  private readonly requests: ServiceClient;

  constructor(baseUrl: string, internalSecret: string) {
    this.requests = new ServiceClient('requests', baseUrl, internalSecret, 10_000);
  }

  async exists(id: string, requestId: string): Promise<boolean> {
    return (
      (await outageAsUnavailable(
        this.requests.call({ route: '/internal/requests/:id', params: { id }, requestId }),
      )) !== null
    );
  }

  async recordFiles(
    id: string,
    files: StoredFile[],
    requestId: string,
  ): Promise<{ request: CoverageRequest; replaced: string[] }> {
    const recorded = await outageAsUnavailable(
      this.requests.call({
        method: 'PUT',
        route: '/internal/requests/:id/files',
        params: { id },
        requestId,
        body: { files },
      }),
    );
    if (!recorded) throw notFound('Request not found.');
    return recorded as { request: CoverageRequest; replaced: string[] };
  }
}

async function outageAsUnavailable<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (err) {
    if (!(err instanceof ServiceUnavailableError)) throw err;
    throw new AppError(503, 'UPSTREAM_UNAVAILABLE', 'Report files cannot be recorded right now. Please try again.', {
      retryAfterSeconds: 5,
    });
  }
}
