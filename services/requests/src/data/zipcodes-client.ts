import { type ReportZipAnalysis, ZipDetailReply, reportZipAnalysis } from '@homereport/contracts';
import { INTERNAL_SECRET_HEADER } from '@homereport/kit';
import { Value } from '@sinclair/typebox/value';
import type { WarningLog, ZipContext } from '../domain/ports.js';

/**
 * The zipcodes service's analysis of one ZIP code (its GET /api/zipcodes/:zipCode, called
 * directly with the internal secret, so its own cache answers), reduced to the figures a report
 * shows. Services never open each other's collections. One deadline covers the whole call
 * (connect, headers and body); an analysis that is missing (404) is null, and so is one that
 * cannot be had now (down, hung, failing, or an answer that breaks the contract), logged as a
 * warning naming the dependency: the report opens without its context rather than not at all.
 */
export class ZipcodesClient implements ZipContext {
  constructor(
    private readonly baseUrl: string,
    private readonly internalSecret: string,
    private readonly timeoutMs: number,
  ) {}

  async headline(zipCode: string, context: { requestId: string; log: WarningLog }): Promise<ReportZipAnalysis | null> {
    let status: number;
    let body: unknown;
    try {
      const res = await fetch(`${this.baseUrl}/api/zipcodes/${encodeURIComponent(zipCode)}`, {
        headers: { [INTERNAL_SECRET_HEADER]: this.internalSecret, 'x-request-id': context.requestId },
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      status = res.status;
      // Read under the same deadline: a service that sends headers and then hangs is an outage too.
      body = status === 200 ? await res.json() : await res.arrayBuffer();
    } catch (err) {
      context.log.warn(
        { err, dependency: 'zipcodes' },
        `zipcodes unavailable: report shown without its ZIP analysis (${(err as Error).name})`,
      );
      return null;
    }
    if (status === 404) return null;
    if (status !== 200) {
      context.log.warn(
        { dependency: 'zipcodes', status },
        `zipcodes answered ${status}: report shown without its ZIP analysis`,
      );
      return null;
    }
    if (!Value.Check(ZipDetailReply, body)) {
      const problem = Value.Errors(ZipDetailReply, body).First();
      context.log.warn(
        { dependency: 'zipcodes', path: problem?.path },
        `zipcodes' analysis breaks its contract at ${problem?.path || '/'}: report shown without it`,
      );
      return null;
    }
    return reportZipAnalysis(body.zipCode);
  }
}
