import { type ReportZipAnalysis, ZipDetailReply, reportZipAnalysis } from '@homereport/contracts';
import { ServiceClient } from '@homereport/kit';
import type { WarningLog, ZipContext } from '../domain/ports.js';

/**
 * The zipcodes service's analysis of one ZIP code (its GET /api/zipcodes/:zipCode, called
 * directly with the internal secret, so its own cache answers), reduced to the figures a report
 * shows. An analysis that is missing (404) is null, and so is one that cannot be had now (down,
 * hung, failing, or an answer that breaks the contract), logged as a warning naming the
 * dependency: the report opens without its context rather than not at all.
 */
export class ZipcodesClient implements ZipContext {
  private readonly zipcodes: ServiceClient;

  constructor(baseUrl: string, internalSecret: string, timeoutMs: number) {
    this.zipcodes = new ServiceClient('zipcodes', baseUrl, internalSecret, timeoutMs);
  }

  async headline(zipCode: string, context: { requestId: string; log: WarningLog }): Promise<ReportZipAnalysis | null> {
    try {
      const reply = await this.zipcodes.call({
        route: '/api/zipcodes/:zipCode',
        params: { zipCode },
        requestId: context.requestId,
        reply: ZipDetailReply,
      });
      return reply && reportZipAnalysis(reply.zipCode);
    } catch (err) {
      context.log.warn(
        { err, dependency: 'zipcodes' },
        `${(err as Error).message}: report shown without its ZIP analysis`,
      );
      return null;
    }
  }
}
