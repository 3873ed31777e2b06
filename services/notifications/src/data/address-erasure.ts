import type { AddressErasure } from '../domain/forget-address.js';
import type { Models } from './models.js';

/** What an erased address is replaced with: not an address, so nothing can be sent to it or matched. */
export const ERASED = '(erased)';

/**
 * The deadline of one erasure step. Rows are found by address, which no unique index covers, so
 * the embedded server scans: fine once per deleted account in the consumer, but longer than
 * MONGO_TIMEOUT_MS (meant for calls a person waits on) once the collections are large.
 */
export const ERASURE_TIMEOUT_MS = 60_000;

/** The whole address, in any letter case (a contact form keeps the address as typed). */
const sameAddress = (email: string) => ({
  $regex: `^${email.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`,
  $options: 'i',
});

export function addressErasureRepository(models: Models): AddressErasure {
  return {
    async eraseSentTo(email) {
      // The rows stay (they say which event's email went out); only `to` goes.
      const res = await models.SentEmail.collection.updateMany(
        { to: sameAddress(email) },
        { $set: { to: ERASED } },
        { timeoutMS: ERASURE_TIMEOUT_MS },
      );
      return res.modifiedCount;
    },
    async eraseContactMessagesFrom(email) {
      // The message stays for the staff's records, without who sent it.
      const res = await models.ContactMessage.collection.updateMany(
        { email: sameAddress(email) },
        { $set: { email: ERASED, name: ERASED } },
        { timeoutMS: ERASURE_TIMEOUT_MS },
      );
      return res.modifiedCount;
    },
    async eraseReceiptWindowsTo(email) {
      // A digest still to send goes too: nobody is left to receive it.
      const res = await models.ReceiptWindow.collection.deleteMany(
        { to: sameAddress(email) },
        { timeoutMS: ERASURE_TIMEOUT_MS },
      );
      return res.deletedCount;
    },
  };
}
