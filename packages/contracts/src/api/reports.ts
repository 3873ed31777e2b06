import { type Static, Type } from '@sinclair/typebox';
import { CoverageRequest } from './requests.js';

/**
 * Report viewing and report files (api.md: GET /api/requests/:id/view, the upload, signed links).
 */

/**
 * The files a report has, declared once for requests, files and the web app: the multipart part
 * names of POST /api/admin/requests/:id/upload (one file per part), and `<type>_path` on a request.
 */
export const REPORT_FILE_TYPES = ['report', 'strategy', 'school_report', 'neighborhood_report'] as const;
export const ReportFileType = Type.Union(REPORT_FILE_TYPES.map((t) => Type.Literal(t)));
export type ReportFileType = (typeof REPORT_FILE_TYPES)[number];

/** The request field that links to the file of each type. */
export type ReportPathField = `${ReportFileType}_path`;

/** GET /api/requests/:id/view: 200 with signed file links; 404 unknown or not covered; 402 no credits left. */
export const ReportViewReply = Type.Object({ request: CoverageRequest });
export type ReportViewReply = Static<typeof ReportViewReply>;

/** 200 of the upload: the request with links to the new files. */
export const UploadReportsReply = Type.Object({ request: CoverageRequest });
export type UploadReportsReply = Static<typeof UploadReportsReply>;

/** Query of a signed download link `/api/files/<key>?expires=...&signature=...`. */
export const SignedLinkQuery = Type.Object({
  expires: Type.String({ pattern: '^[0-9]{1,16}$' }),
  signature: Type.String({ minLength: 1, maxLength: 256 }),
});
export type SignedLinkQuery = Static<typeof SignedLinkQuery>;
