import { type Static, Type } from '@sinclair/typebox';

/** Credits and access history of the signed-in user (api.md, "Auth and users"). */

/** GET /api/users/stats. `next_refresh_at` is when the current 30-day credit period ends. */
export const UserStats = Type.Object({
  credits: Type.Integer({ minimum: 0 }),
  totalAccess: Type.Integer({ minimum: 0 }),
  uniqueReports: Type.Integer({ minimum: 0 }),
  subscription_status: Type.String(),
  next_refresh_at: Type.String({ description: 'ISO 8601 timestamp in UTC' }),
});
export type UserStats = Static<typeof UserStats>;

export const AccessHistoryEntry = Type.Object({
  id: Type.String(),
  request_id: Type.String(),
  /** The property of the report viewed (absent on views recorded before properties). */
  property_id: Type.Optional(Type.String()),
  address: Type.String(),
  accessed_at: Type.String({ description: 'ISO 8601 timestamp in UTC' }),
});
export type AccessHistoryEntry = Static<typeof AccessHistoryEntry>;

/** GET /api/users/access-history, newest first. */
export const AccessHistoryReply = Type.Object({ history: Type.Array(AccessHistoryEntry) });
export type AccessHistoryReply = Static<typeof AccessHistoryReply>;
