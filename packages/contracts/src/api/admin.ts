import { type Static, Type } from '@sinclair/typebox';
import { CoverageRequest, RequestStatus } from './requests.js';

/** Admin calls about requests (api.md, "Admin"); every one needs a bearer token of an admin. */

/** Request counts by status and report views from the requests service; user counts from auth. */
export const AdminStats = Type.Object({
  total: Type.Integer({ minimum: 0 }),
  /** Distinct properties requested. */
  properties: Type.Integer({ minimum: 0 }),
  requested: Type.Integer({ minimum: 0 }),
  inProgress: Type.Integer({ minimum: 0 }),
  covered: Type.Integer({ minimum: 0 }),
  totalUsers: Type.Integer({ minimum: 0 }),
  verifiedUsers: Type.Integer({ minimum: 0 }),
  totalAccess: Type.Integer({ minimum: 0 }),
});
export type AdminStats = Static<typeof AdminStats>;

/** GET /api/admin/dashboard */
export const AdminDashboardReply = Type.Object({ stats: AdminStats });
export type AdminDashboardReply = Static<typeof AdminDashboardReply>;

export const RecentRequest = Type.Object({
  id: Type.String(),
  address: Type.String(),
  created_at: Type.String({ description: 'ISO 8601 timestamp in UTC' }),
  notes: Type.Union([Type.String(), Type.Null()]),
  status: RequestStatus,
});
export type RecentRequest = Static<typeof RecentRequest>;

/** GET /api/admin/recent-requests, newest first. */
export const RecentRequestsReply = Type.Object({ requests: Type.Array(RecentRequest) });
export type RecentRequestsReply = Static<typeof RecentRequestsReply>;

/** Query of GET /api/admin/requests: the full list, newest first. */
export const AdminRequestsQuery = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 200, description: 'Whole words of the address, any order and case' })),
  status: Type.Optional(RequestStatus),
  property_id: Type.Optional(
    Type.String({ minLength: 1, maxLength: 64, description: 'Only the requests of this property' }),
  ),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, description: 'default 50' })),
  cursor: Type.Optional(Type.String({ pattern: '^[0-9]{1,15}$', description: 'the next_cursor of the previous page' })),
});
export type AdminRequestsQuery = Static<typeof AdminRequestsQuery>;

export const AdminRequestsReply = Type.Object({
  requests: Type.Array(CoverageRequest),
  next_cursor: Type.Union([Type.String(), Type.Null()]),
});
export type AdminRequestsReply = Static<typeof AdminRequestsReply>;

/** GET /api/admin/requests/:id answers the request itself, not wrapped, with signed file links. */
export const AdminRequestReply = CoverageRequest;
export type AdminRequestReply = Static<typeof AdminRequestReply>;

/** PUT /api/admin/requests/:id/status */
export const UpdateStatusBody = Type.Object({ status: RequestStatus }, { additionalProperties: false });
export type UpdateStatusBody = Static<typeof UpdateStatusBody>;

export const UpdateStatusReply = Type.Object({ request: CoverageRequest });
export type UpdateStatusReply = Static<typeof UpdateStatusReply>;
