import { EventTap } from '../../../../test/support/events.js';
import { PUBLISHED_TOPICS } from '../../src/events/published.js';

export { tokenOf } from '../../../../test/support/mail.js';

/** A tap on everything the auth service publishes. */
export const authEvents = () => new EventTap(PUBLISHED_TOPICS);
