import { ZIP_CODE_PATTERN } from '@homereport/contracts';
import { type Static, Type } from '@sinclair/typebox';

export { ZipDetailReply, ZipImportReport, ZipListPage, ZipListQuery, ZipListReply } from '@homereport/contracts';

/** A malformed ZIP code is refused by the route with its own sentence (attachValidation). */
export const ZipCodeParams = Type.Object({
  zipCode: Type.String({ pattern: ZIP_CODE_PATTERN, description: 'five digits, for example 02116' }),
});
export type ZipCodeParams = Static<typeof ZipCodeParams>;

/** Records are checked one by one in the domain, so one bad record does not refuse the rest. */
const MAX_RECORDS_PER_IMPORT = 20_000;
export const ImportBody = Type.Array(Type.Unknown(), {
  maxItems: MAX_RECORDS_PER_IMPORT,
  description: 'ZIP code analyses (spec section 3 detail shape), each checked on its own.',
});
export type ImportBody = Static<typeof ImportBody>;
