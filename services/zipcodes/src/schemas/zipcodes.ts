import { type Static, Type } from '@sinclair/typebox';

export { ZipDetailReply, ZipImportReport, ZipListPage, ZipListQuery, ZipListReply } from '@homereport/contracts';

/** The ZIP code is checked in the handler, so a malformed one gets our own 400 message. */
export const ZipCodeParams = Type.Object({ zipCode: Type.String() });
export type ZipCodeParams = Static<typeof ZipCodeParams>;

/** Records are checked one by one in the domain, so one bad record does not refuse the rest. */
const MAX_RECORDS_PER_IMPORT = 20_000;
export const ImportBody = Type.Array(Type.Unknown(), {
  maxItems: MAX_RECORDS_PER_IMPORT,
  description: 'ZIP code analyses (spec section 3 detail shape), each checked on its own.',
});
export type ImportBody = Static<typeof ImportBody>;
