import { type Static, Type } from '@sinclair/typebox';

/**
 * POST /api/contact. Values are trimmed before validation (see the route), so the lengths and
 * the email format apply to what is stored; a value that trims to nothing is refused by the
 * domain with "<field>: must not be blank".
 */
export const ContactBody = Type.Object(
  {
    name: Type.String({ maxLength: 100, description: 'Full name' }),
    email: Type.String({ format: 'email', maxLength: 254, description: 'Where we reply' }),
    subject: Type.String({ maxLength: 200 }),
    message: Type.String({ maxLength: 5000 }),
  },
  { additionalProperties: false },
);
export type ContactBody = Static<typeof ContactBody>;

export const ContactAccepted = Type.Object({ message: Type.String() });
