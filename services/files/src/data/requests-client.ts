import type { CoverageRequest, ReportFileType } from '@homereport/contracts';
import { AppError, INTERNAL_SECRET_HEADER, notFound } from '@homereport/kit';

export interface StoredFile {
  type: ReportFileType;
  key: string;
  name: string;
  contentType: string;
  size: number;
}

/** The requests service could not be reached or could not answer for now (its database away, a restart). */
const upstreamUnavailable = () =>
  new AppError(503, 'UPSTREAM_UNAVAILABLE', 'Report files cannot be recorded right now. Please try again.', {
    retryAfterSeconds: 5,
  });

/**
 * The requests service's internal routes. Services never open each other's collections: which
 * request holds which file is recorded there, synchronously, so the admin's next read sees it.
 */
export class RequestsClient {
  constructor(
    private readonly baseUrl: string,
    private readonly internalSecret: string,
  ) {}

  private async call(method: string, path: string, requestId: string, body?: unknown): Promise<Response> {
    try {
      return await fetch(`${this.baseUrl}${path}`, {
        method,
        headers: {
          [INTERNAL_SECRET_HEADER]: this.internalSecret,
          'x-request-id': requestId,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(10_000),
      });
    } catch {
      throw upstreamUnavailable();
    }
  }

  async exists(id: string, requestId: string): Promise<boolean> {
    const res = await this.call('GET', `/internal/requests/${encodeURIComponent(id)}`, requestId);
    await res.arrayBuffer();
    if (res.status === 404) return false;
    // Its 503 is an outage of its own (MongoDB hung): ours too, not a bug here (a 500).
    if (res.status >= 500) throw upstreamUnavailable();
    if (!res.ok) throw new Error(`requests answered ${res.status} to an existence check`);
    return true;
  }

  async recordFiles(
    id: string,
    files: StoredFile[],
    requestId: string,
  ): Promise<{ request: CoverageRequest; replaced: string[] }> {
    const res = await this.call('PUT', `/internal/requests/${encodeURIComponent(id)}/files`, requestId, { files });
    if (res.status === 404) throw notFound('Request not found.');
    if (res.status >= 500) {
      await res.arrayBuffer();
      throw upstreamUnavailable();
    }
    if (!res.ok) throw new Error(`requests answered ${res.status} when recording files: ${await res.text()}`);
    return (await res.json()) as { request: CoverageRequest; replaced: string[] };
  }
}
