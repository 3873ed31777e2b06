import type { AccountExport } from '@homereport/contracts';
import { AppError, badRequest, tooManyRequests, unauthorized } from '@homereport/kit';
import { accountDeleted } from '../events/published.js';
import { toUserView } from './accounts.js';
import { hashPassword, passwordMatches } from './password-hashing.js';
import { passwordProblem } from './password-policy.js';
import type { Limits, OwnSessions, UserDataSource, UserStore, UserWithHash, WarningLog } from './ports.js';

export const OwnAccountMessages = {
  passwordChanged: 'Your password has been changed. Any other device signed in to your account has been signed out.',
  wrongCurrentPassword: 'Your current password is incorrect.',
  wrongPassword: 'The password is incorrect.',
  samePassword: 'Your new password must be different from your current one.',
} as const;

/** A wrong password given while signed in: 401, with a code that tells it from an ended session. */
export const WRONG_PASSWORD = 'WRONG_PASSWORD';

/** The signed-in caller: who, through which session, and where from (for limits and correlation). */
export interface SignedInCaller {
  userId: string;
  /** The bearer token of this request: the session a password change keeps. */
  token: string;
  requestId: string;
  clientAddress: string;
  log: WarningLog;
}

interface OwnAccountDeps {
  users: UserStore;
  sessions: OwnSessions;
  limits: Limits;
  userData: UserDataSource;
  now?: () => Date;
}

/**
 * "Your account" (api.md): what a signed-in user does to their own account. Each step that needs
 * the password again checks it like a sign-in: counted against the same per-account and
 * per-address limits before the (deliberately slow) argon2 check, so a stolen session cannot
 * be used to guess the password faster than the sign-in form allows.
 */
export class OwnAccount {
  private readonly now: () => Date;

  constructor(private readonly deps: OwnAccountDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  /** Sets a new password and ends every other session of the user; this one stays. */
  async changePassword(
    input: { current_password: string; new_password: string },
    caller: SignedInCaller,
  ): Promise<{ sessionsEnded: number }> {
    const problem = passwordProblem(input.new_password);
    if (problem) throw badRequest(problem, [{ field: 'new_password', message: problem }]);
    // Compared as typed, before the (counted) check: a "change" to the same password changes
    // nothing, and would tell the user their other devices were signed out for no reason.
    if (input.new_password === input.current_password) {
      throw badRequest(OwnAccountMessages.samePassword, [
        { field: 'new_password', message: OwnAccountMessages.samePassword },
      ]);
    }
    const user = await this.checkPassword(input.current_password, caller, OwnAccountMessages.wrongCurrentPassword);
    if (!(await this.deps.users.changePassword(user.id, await hashPassword(input.new_password)))) throw unauthorized();
    return { sessionsEnded: await this.deps.sessions.revokeOthers(user.id, caller.token) };
  }

  /** Everything we hold about the user: the account here, requests, views and credits from requests. */
  async exportData(caller: Pick<SignedInCaller, 'userId' | 'requestId' | 'log'>): Promise<AccountExport> {
    const user = await this.deps.users.findById(caller.userId);
    if (!user) throw unauthorized();
    const data = await this.deps.userData.userData(user.id, { requestId: caller.requestId, log: caller.log });
    return { user: toUserView(user), ...data };
  }

  /**
   * Deletes the account: sessions end, the user's document is reduced to a tombstone in the same
   * write that records account-deleted, and the other services erase what they hold on that event.
   */
  async deleteAccount(password: string, caller: SignedInCaller): Promise<void> {
    const user = await this.checkPassword(password, caller, OwnAccountMessages.wrongPassword);
    // Sessions end first: should the delete then fail, the user is signed out, not left with an
    // account half gone. After the delete once more, for a sign-in that slipped in between.
    await this.deps.sessions.revokeAll(user.id);
    const deleted = await this.deps.users.markDeleted(user.id, this.now(), [
      accountDeleted({ user_id: user.id, email: user.email }, caller.requestId),
    ]);
    await this.deps.sessions.revokeAll(user.id);
    if (!deleted) throw unauthorized();
  }

  /**
   * The password of the signed-in user, checked under the sign-in limits (counted before the
   * check; a success forgets the account's failures from this address, as a sign-in does).
   */
  private async checkPassword(password: string, caller: SignedInCaller, wrongMessage: string): Promise<UserWithHash> {
    const user = await this.deps.users.findByIdWithHash(caller.userId);
    // The session outlived its account (deleted meanwhile): signed out.
    if (!user) throw unauthorized();
    const wait = await this.deps.limits.signInAttempt(user.email, caller.clientAddress);
    if (wait !== null) throw tooManyRequests(wait, tooManyWrongPasswords(wait));
    if (!(await passwordMatches(user.passwordHash, password))) throw new AppError(401, WRONG_PASSWORD, wrongMessage);
    await this.deps.limits.signInSucceeded(user.email, caller.clientAddress);
    return user;
  }
}

function tooManyWrongPasswords(waitSeconds: number): string {
  const minutes = Math.ceil(waitSeconds / 60);
  const when = waitSeconds < 60 ? 'a minute' : `${minutes} minute${minutes === 1 ? '' : 's'}`;
  return `Too many wrong passwords. Please wait ${when} and try again.`;
}
