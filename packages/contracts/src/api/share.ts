import { type Static, Type } from '@sinclair/typebox';
import { CoverageRequest } from './requests.js';

/**
 * Share links of a report (api.md, "Beyond the spec"): POST and DELETE /api/requests/:id/share,
 * GET /api/shared/:token.
 */

/** 201 of POST /api/requests/:id/share. */
export const ShareLinkReply = Type.Object({
  share_url: Type.String({
    description: '<PUBLIC_URL>/shared/<token>: the page anyone with the link may open',
    examples: ['https://homereport.example/shared/AbC.m1x2y3.sig'],
  }),
  expires_at: Type.String({ description: 'ISO 8601 timestamp in UTC: the link answers 410 from then on' }),
});
export type ShareLinkReply = Static<typeof ShareLinkReply>;

/**
 * The token of a share link. Loose on purpose: any text of a sane length reaches the service,
 * which answers a token it did not sign 404 (unknown), not 400.
 */
export const SharedTokenParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) });
export type SharedTokenParams = Static<typeof SharedTokenParams>;

/** 200 of GET /api/shared/:token: the report with signed file links; notes are the requester's and stay out. */
export const SharedReportReply = Type.Object({ request: CoverageRequest });
export type SharedReportReply = Static<typeof SharedReportReply>;
