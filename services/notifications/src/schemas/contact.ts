import { type Static, Type } from '@sinclair/typebox';

/**
 * POST /api/contact. Values are trimmed before validation (see the route), so the lengths and
 * the email format apply to what is stored; a value that trims to nothing is refused by the
 * domain with "<field>: must not be blank" (and would be by `minLength` and `pattern` here).
 */
const Field = (maxLength: number, description: string, extra: { format?: string } = {}) =>
  Type.String({ minLength: 1, maxLength, pattern: '\\S', description: `${description}; not blank`, ...extra });

export const ContactBody = Type.Object(
  {
    name: Field(100, 'Full name'),
    email: Field(254, 'Where we reply', { format: 'email' }),
    subject: Field(200, 'What it is about'),
    message: Field(5000, 'The message'),
  },
  { additionalProperties: false },
);
export type ContactBody = Static<typeof ContactBody>;

export const ContactAccepted = Type.Object({ message: Type.String() });
