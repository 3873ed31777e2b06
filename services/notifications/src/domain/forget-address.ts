/** Where this service keeps an address that a deleted account owned. */
export interface AddressErasure {
  /** Replaces the recipient of every email recorded as sent to this address; returns how many. */
  eraseSentTo(email: string): Promise<number>;
  /** Replaces the sender's address and name on contact messages sent from this address; returns how many. */
  eraseContactMessagesFrom(email: string): Promise<number>;
  /** Deletes the hourly receipt windows addressed to it, with any digest still to send; returns how many. */
  eraseReceiptWindowsTo(email: string): Promise<number>;
}

/** account-deleted: no record here keeps the address. Idempotent: a second run finds nothing left to change. */
export async function forgetAddress(erasure: AddressErasure, email: string) {
  const sentEmails = await erasure.eraseSentTo(email);
  const contactMessages = await erasure.eraseContactMessagesFrom(email);
  const receiptWindows = await erasure.eraseReceiptWindowsTo(email);
  return { sentEmails, contactMessages, receiptWindows };
}
