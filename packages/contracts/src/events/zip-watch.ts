import { type Static, Type } from '@sinclair/typebox';

/**
 * zip-watch-alerted: an import changed ZIP analyses that a user watches. One event per watcher
 * per import, keyed by the user id, with an id of its own (`zip-watch-alert:<importId>:<userId>`)
 * so a replayed import or a redelivered event sends one email. It carries the address, as
 * request-covered does: the watch was made signed in, and a deleted account's watches are erased.
 */
export const ZipMeasure = Type.Union([
  Type.Literal('price'),
  Type.Literal('rent'),
  Type.Literal('appreciation'),
  Type.Literal('risk'),
]);
export type ZipMeasure = Static<typeof ZipMeasure>;

const MeasureValue = Type.Union([Type.Number(), Type.String(), Type.Null()]);

export const ZipMeasureChange = Type.Object({
  measure: ZipMeasure,
  from: MeasureValue,
  to: MeasureValue,
});
export type ZipMeasureChange = Static<typeof ZipMeasureChange>;

export const ZipChange = Type.Object({
  zipCode: Type.String(),
  /** "City, ST" of the new analysis, for the email. */
  place: Type.String(),
  changes: Type.Array(ZipMeasureChange, { minItems: 1 }),
});
export type ZipChange = Static<typeof ZipChange>;

export const ZipWatchAlerted = Type.Object({
  importId: Type.String(),
  userId: Type.String(),
  email: Type.String(),
  zips: Type.Array(ZipChange, { minItems: 1 }),
});
export type ZipWatchAlerted = Static<typeof ZipWatchAlerted>;
