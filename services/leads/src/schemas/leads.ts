import { KEY_NAME_MAX_LENGTH } from '@homereport/contracts';
import { ErrorReply } from '@homereport/kit';
import { Type } from '@sinclair/typebox';

// The HTTP shapes are packages/contracts' (one definition for the service and the web app); these
// are the service's own.
export const KeyNameParams = Type.Object({ key_name: Type.String({ minLength: 1, maxLength: KEY_NAME_MAX_LENGTH }) });
export const LeadIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 40 }) });

/** How the ad platforms prove who they are, for the OpenAPI document (the routes' `security`). */
export const WEBHOOK_SECURITY_SCHEMES = {
  webhookKey: {
    type: 'apiKey',
    in: 'header',
    name: 'x-webhook-key',
    description: 'A webhook key an admin made (POST /api/admin/webhook-keys), active.',
  },
  metaSignature: {
    type: 'apiKey',
    in: 'header',
    name: 'x-hub-signature-256',
    description: '`sha256=<hex HMAC-SHA256 of the raw body with META_APP_SECRET>`, as Meta signs its posts.',
  },
};

/** The error replies every route may give, for the OpenAPI document. */
export const errors = (...codes: number[]) => Object.fromEntries(codes.map((code) => [code, ErrorReply]));
