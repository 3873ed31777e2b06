/** Where the leads database keeps what a deleted account owned. */
export interface AccountErasure {
  /** Status changes a deleted admin made keep their time and statuses, not who made them; returns leads changed. */
  unnameStatusChanges(userId: string, email: string): Promise<number>;
  /** Leads that carry the address lose it (field and stored copy of the post); returns leads changed. */
  eraseLeadAddress(email: string): Promise<number>;
}

/** account-deleted: no lead keeps the address. Idempotent: a second run finds nothing left to change. */
export async function forgetAccount(erasure: AccountErasure, userId: string, email: string) {
  const statusChanges = await erasure.unnameStatusChanges(userId, email);
  const leads = await erasure.eraseLeadAddress(email);
  return { statusChanges, leads };
}
