import { describe, expect, it } from 'vitest';
import { fieldMessage, fieldMessages } from './fieldMessages';

// What the services send (kit's app.ts turns Ajv's errors into `{ field, message }`; domain code
// sends sentences of its own), and what a person reads instead.
describe('a refusal of the API as a sentence about its field', () => {
  const says = (field: string, message: string, sentence: string) =>
    expect(fieldMessage({ field, message })).toBe(sentence);

  it.each([
    ['address', 'must NOT have more than 300 characters', 'The property address can be at most 300 characters.'],
    ['name', 'must NOT have more than 100 characters', 'Your name can be at most 100 characters.'],
    ['key_name', 'must NOT have more than 100 characters', 'The key name can be at most 100 characters.'],
    ['headline', 'must NOT have more than 280 characters', 'The headline can be at most 280 characters.'],
  ])('a length limit, %s: "%s"', says);

  it.each([
    ['email', 'must match format "email"', 'Enter an email address like name@example.com.'],
    [
      'url',
      'must match pattern "^\\s*([Hh][Tt][Tt][Pp][Ss]?://\\S+)?\\s*$"',
      'Enter a web address that starts with http:// or https://.',
    ],
    ['zip_code', 'must match pattern "^[0-9]{5}$"', 'Please check the format of the zip code.'],
  ])('a format, %s: "%s"', says);

  it.each([
    ['email', 'must NOT have fewer than 3 characters', 'The email address must be at least 3 characters.'],
    ['password', 'must NOT have fewer than 1 characters', 'Please enter the password.'],
    ['subject', 'must not be blank', 'Please enter the subject.'],
    ['message', "must have required property 'message'", 'Please enter the message.'],
  ])('a value too short or missing, %s: "%s"', says);

  it.each([
    ['status', 'must be equal to one of the allowed values', 'Please choose one of the options for the status.'],
    ['notes', 'must be string', 'Please check the notes.'],
    ['lead_id', 'must be a lead id', 'Please check the lead id.'],
  ])('a wrong kind of value, %s: "%s"', says);

  it.each([
    [
      'estimated_value',
      'must be a whole number from 1 to 100,000,000',
      'The estimated value must be a whole number from 1 to 100,000,000.',
    ],
    ['beds', 'must be a whole number from 0 to 50', 'The number of bedrooms must be a whole number from 0 to 50.'],
    [
      'baths',
      'must be a number from 0 to 50 in steps of 0.5',
      'The number of bathrooms must be a number from 0 to 50 in steps of 0.5.',
    ],
    [
      'year_built',
      'must be a whole number of at least 1700',
      'The year built must be a whole number of at least 1700.',
    ],
    ['limit', 'must be a whole number from 1 to 100', 'The limit must be a whole number from 1 to 100.'],
  ])('a range, %s: "%s"', says);

  it("keeps a service's own sentence, ending it with a full stop", () => {
    expect(fieldMessage({ field: 'password', message: 'Password must be at least 8 characters.' })).toBe(
      'Password must be at least 8 characters.',
    );
    expect(fieldMessage({ field: 'key_name', message: 'A key with this name already exists' })).toBe(
      'A key with this name already exists.',
    );
  });

  it('never shows the words of the validator', () => {
    const raw = [
      'must NOT have more than 5000 characters',
      'must match format "uri"',
      'must be integer',
      'must NOT have additional properties',
      'must be >= 1',
    ];
    for (const message of raw) expect(fieldMessage({ field: 'x', message })).not.toMatch(/must NOT|must match|must be/);
  });

  it('says one sentence per field, in the order the answer named them', () => {
    expect(
      fieldMessages([
        { field: 'email', message: 'must match format "email"' },
        { field: 'email', message: 'must NOT have more than 254 characters' },
        { field: 'name', message: 'must not be blank' },
      ]),
    ).toEqual({ email: 'Enter an email address like name@example.com.', name: 'Please enter your name.' });
  });
});
