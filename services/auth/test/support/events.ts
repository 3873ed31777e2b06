import { sealContext } from '@homereport/contracts';
import { openSecret } from '@homereport/kit';
import { testEnv } from '../../../../test/support/env.js';
import { EventTap } from '../../../../test/support/events.js';
import { PUBLISHED_TOPICS } from '../../src/events/published.js';

export { tokenOf } from '../../../../test/support/mail.js';

/** A tap on everything the auth service publishes. */
export const authEvents = () => new EventTap(PUBLISHED_TOPICS);

/** The token inside an event's sealed field, opened as the notifications service opens it. */
export const openToken = (sealed: string, purpose: 'verification' | 'password-reset', userId: string) =>
  openSecret(testEnv().eventSecretKey, sealed, sealContext(purpose, userId));
