/**
 * The one translation from the API's validation `details` (`[{ field, message }]`, api.md's error
 * shape) to sentences a person reads. The services send the validator's own words for schema
 * refusals (`must NOT have more than 300 characters`, `must match format "email"`) and sentences of
 * their own for domain refusals; every form shows the result of this module, so the same refusal
 * reads the same everywhere and no validator text reaches the screen.
 */

export interface RefusalDetail {
  field: string;
  message: string;
}

/**
 * What each request field is called on screen, lower-case as it sits in a sentence. One name per
 * field wherever it appears (the contact form's email and the sign-in's are the same field).
 */
const FIELD_NAMES: Record<string, string> = {
  address: 'the property address',
  url: 'the listing URL',
  notes: 'the notes',
  name: 'your name',
  email: 'the email address',
  subject: 'the subject',
  message: 'the message',
  password: 'the password',
  current_password: 'your current password',
  new_password: 'the new password',
  key_name: 'the key name',
  code: 'the code',
  recovery_code: 'the recovery code',
  q: 'the search',
  status: 'the status',
  estimated_value: 'the estimated value',
  monthly_rent: 'the monthly rent',
  beds: 'the number of bedrooms',
  baths: 'the number of bathrooms',
  sqft: 'the square footage',
  year_built: 'the year built',
  headline: 'the headline',
  zip: 'the ZIP code',
};

/** What a field must look like, for refusals of its shape (a pattern or a format). */
const SHAPES: Record<string, string> = {
  email: 'Enter an email address like name@example.com.',
  url: 'Enter a web address that starts with http:// or https://.',
  code: 'Enter the 6-digit code from your authenticator app.',
};

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The field's name in a sentence: its own, or its last path part with underscores as spaces. */
export function fieldName(field: string): string {
  const known = FIELD_NAMES[field];
  if (known) return known;
  const last = field.split('.').pop() ?? field;
  return FIELD_NAMES[last] ?? (last === '' ? 'this value' : `the ${last.replaceAll('_', ' ')}`);
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

type Phrase = (words: { name: string; Name: string; field: string; match: RegExpMatchArray }) => string;

/** The validator's phrases (Ajv's messages, as the kit passes them on) and the services' short ones, in words. */
const PHRASES: ReadonlyArray<readonly [RegExp, Phrase]> = [
  [
    /^must NOT have more than (\d+) characters?$/,
    ({ Name, match }) => `${Name} can be at most ${plural(Number(match[1]), 'character')}.`,
  ],
  [
    /^must NOT have fewer than (\d+) characters?$/,
    ({ name, Name, match }) =>
      Number(match[1]) <= 1
        ? `Please enter ${name}.`
        : `${Name} must be at least ${plural(Number(match[1]), 'character')}.`,
  ],
  [/^(must have required property|must not be blank$)/, ({ name }) => `Please enter ${name}.`],
  [
    /^must match (?:format "(\w+)"|pattern)/,
    ({ name, field, match }) =>
      SHAPES[match[1] ?? ''] ?? SHAPES[field.split('.').pop() ?? ''] ?? `Please check the format of ${name}.`,
  ],
  // The kit's words for a number out of its range (kit's app.ts), as they are, about the field.
  [
    /^must be (a whole number (?:from [\d,]+ to [\d,]+|of at least [\d,]+)|a number from [\d,]+ to [\d,]+(?: in steps of [\d.]+)?)$/,
    ({ Name, match }) => `${Name} must be ${match[1]}.`,
  ],
  [
    /^must be equal to (one of the allowed values|constant)$/,
    ({ name }) => `Please choose one of the options for ${name}.`,
  ],
];

/**
 * One refusal as a sentence about its field. A service's own sentence (it starts with a capital
 * letter) is kept; the validator's phrases are put in words; anything else asks to check the field.
 */
export function fieldMessage({ field, message }: RefusalDetail): string {
  const text = message.trim();
  if (/^[A-Z]/.test(text)) return /[.!?]$/.test(text) ? text : `${text}.`;
  const name = fieldName(field);
  for (const [pattern, phrase] of PHRASES) {
    const match = text.match(pattern);
    if (match) return phrase({ name, Name: capitalised(name), field, match });
  }
  return `Please check ${name}.`;
}

/** Every refusal of an answer, each field once, in the order the server gave them. */
export function fieldMessages(details: readonly RefusalDetail[]): Record<string, string> {
  const messages: Record<string, string> = {};
  for (const detail of details) {
    if (!(detail.field in messages)) messages[detail.field] = fieldMessage(detail);
  }
  return messages;
}
