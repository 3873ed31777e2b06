import { ErrorReply } from '@homereport/kit';
import { Type } from '@sinclair/typebox';

/** The HTTP shapes come from packages/contracts (one definition for the service and the web app). */
export {
  CreateWebhookKeyBody,
  CreateWebhookKeyReply,
  InboundLeadReply,
  LeadDetailReply,
  LeadStats,
  LeadsExportQuery,
  LeadsQuery,
  LeadsReply,
  ToggleWebhookKeyReply,
  UpdateLeadStatusBody,
  UpdateLeadStatusReply,
  WebhookKeysReply,
} from '@homereport/contracts';

export const KeyNameParams = Type.Object({ key_name: Type.String({ minLength: 1, maxLength: 400 }) });
export const LeadIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 40 }) });

/** The error replies every route may give, for the OpenAPI document. */
export const errors = (...codes: number[]) => Object.fromEntries(codes.map((code) => [code, ErrorReply]));
