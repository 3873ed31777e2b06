import {
  AppError,
  type SessionLifetimes,
  badRequest,
  conflict,
  forbidden,
  tooManyRequests,
  unauthorized,
} from '@homereport/kit';
import {
  passwordResetRequested,
  userRegistered,
  userVerified,
  verificationResendRequested,
} from '../events/published.js';
import type { AdminMfa, SecondFactor } from './admin-mfa.js';
import { normaliseEmail } from './email.js';
import { burnPasswordCheck, hashNeedsUpgrade, hashPassword, passwordMatches } from './password-hashing.js';
import { passwordProblem } from './password-policy.js';
import type { Limits, MailKind, Sessions, UserRecord, UserStore, UserWithHash } from './ports.js';
import { hashToken, newSecretToken } from './secret-tokens.js';

/** What a response may show of a user: never the password hash, tokens or outbox. */
interface UserView {
  id: string;
  email: string;
  role: 'user' | 'admin';
  emailVerified: boolean;
  created_at: string;
}

export const toUserView = (u: UserRecord): UserView => ({
  id: u.id,
  email: u.email,
  role: u.role,
  emailVerified: u.emailVerified,
  created_at: u.created_at.toISOString(),
});

interface AccountSettings {
  /** Seals the tokens that events carry for the notifications service (EVENT_SECRET_KEY). */
  eventSecretKey: string;
  verificationTokenTtlSeconds: number;
  resetTokenTtlSeconds: number;
  /** Admin sessions are shorter than users' (ASVS 3.3.2): an admin reads every lead's personal data. */
  adminSession: SessionLifetimes;
  /** Admins' optional (or, with ADMIN_MFA_REQUIRED, required) TOTP second factor. */
  mfa: AdminMfa;
}

/** Who is asking: the request id travels with the events as their correlation id. */
export interface Caller {
  requestId: string;
  clientAddress: string;
}

export const Messages = {
  registered: 'Registration successful. Please check your email for a link to verify your address.',
  duplicate: 'An account with this email already exists. Sign in, or reset your password if you forgot it.',
  verified: 'Your email address is verified. You can now sign in.',
  alreadyVerified: 'Your email address was already verified. You can sign in.',
  badVerificationToken: 'This verification link is invalid or has expired. Sign in to request a new one.',
  resent: 'If an account with that email is waiting for verification, we have sent it a new verification link.',
  badCredentials: 'Invalid email or password.',
  notVerified:
    'Please verify your email address before signing in. Check your inbox for the verification link, or request a new one.',
  notAdmin: 'This account does not have admin access.',
  useAdminLogin: 'Admin accounts with two-step sign-in sign in on the admin sign-in page.',
  resetSent: 'If an account exists for that email, we have sent it a link to reset the password.',
  passwordReset: 'Your password has been reset. Please sign in with your new password.',
  badResetToken: 'This password reset link is invalid or has expired. Please request a new one.',
  invalidEmail: 'Please enter a valid email address, such as name@example.com.',
} as const;

/** Over a limit on emails asked for one address: when to try again, never whether the address has an account. */
function mailCooldownMessage(kind: MailKind, waitSeconds: number): string {
  const what = kind === 'reset' ? 'a password reset link' : 'a verification link';
  return `You asked for ${what} for this address a moment ago. If an account exists for it, that email is on its way; you can ask again in ${waitPhrase(waitSeconds)}.`;
}

function tooManyRequestsFromClientMessage(waitSeconds: number): string {
  return `Too many requests from your network. Please try again in ${waitPhrase(waitSeconds)}.`;
}

function waitPhrase(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

export const EMAIL_NOT_VERIFIED = 'EMAIL_NOT_VERIFIED';

const addSeconds = (date: Date, seconds: number) => new Date(date.getTime() + seconds * 1000);

export class Accounts {
  constructor(
    private readonly users: UserStore,
    private readonly sessions: Sessions,
    private readonly limits: Limits,
    private readonly settings: AccountSettings,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async register(input: { email: string; password: string }, caller: Caller): Promise<{ userId: string }> {
    const email = normaliseEmail(input.email);
    rejectWeakPassword(input.password);
    const wait = await this.limits.registration(email, caller.clientAddress);
    if (wait !== null) throw tooManyRequests(wait, tooManyRequestsFromClientMessage(wait));
    // A taken address is answered before the (deliberately slow) hash is computed.
    if (await this.users.findByEmail(email)) throw conflict(Messages.duplicate);
    const id = this.users.newId();
    const now = this.now();
    const { token, hash } = newSecretToken();
    const outcome = await this.users.insert(
      {
        id,
        email,
        passwordHash: await hashPassword(input.password),
        role: 'user',
        emailVerified: false,
        created_at: now,
        verification: { tokenHash: hash, expiresAt: addSeconds(now, this.settings.verificationTokenTtlSeconds) },
      },
      [userRegistered({ userId: id, email, token }, this.settings.eventSecretKey, caller.requestId)],
    );
    if (outcome === 'duplicate') throw conflict(Messages.duplicate);
    return { userId: id };
  }

  /**
   * Verifies the address holding this token. A link opened again (the account is verified
   * already) says so rather than failing: the used token is kept, marked used, for that answer.
   */
  async verifyEmail(token: string, caller: Caller): Promise<{ userId: string; alreadyVerified: boolean }> {
    const tokenHash = hashToken(token);
    const now = this.now();
    const user = await this.users.findByVerificationToken(tokenHash);
    if (user?.emailVerified) return { userId: user.id, alreadyVerified: true };
    const invalid = new AppError(400, 'INVALID_TOKEN', Messages.badVerificationToken);
    if (!user) throw invalid;
    // The conditional write is what makes the token single-use when two clicks race.
    if (await this.users.markVerified(user.id, tokenHash, now, [userVerified({ userId: user.id }, caller.requestId)])) {
      return { userId: user.id, alreadyVerified: false };
    }
    // Lost a race with another click on the same link: that one verified the address.
    if ((await this.users.findByVerificationToken(tokenHash))?.emailVerified) {
      return { userId: user.id, alreadyVerified: true };
    }
    throw invalid;
  }

  /** Sends a new link only to an existing unverified account; the answer is the same either way. */
  async resendVerification(rawEmail: string, caller: Caller): Promise<{ sent: boolean }> {
    const email = normaliseEmail(rawEmail);
    await this.checkMailLimit('verification', email, caller);
    const user = await this.users.findByEmail(email);
    if (!user || user.emailVerified) return { sent: false };
    const { token, hash } = newSecretToken();
    const expiresAt = addSeconds(this.now(), this.settings.verificationTokenTtlSeconds);
    const sent = await this.users.replaceVerificationToken(user.id, { tokenHash: hash, expiresAt }, [
      verificationResendRequested({ userId: user.id, email, token }, this.settings.eventSecretKey, caller.requestId),
    ]);
    return { sent };
  }

  /** Counted for every address asked about, with or without an account, so a 429 reveals nothing. */
  private async checkMailLimit(kind: MailKind, email: string, caller: Caller): Promise<void> {
    const over = await this.limits.mail(kind, email, caller.clientAddress);
    if (!over) return;
    const message =
      over.limit === 'address' ? mailCooldownMessage(kind, over.wait) : tooManyRequestsFromClientMessage(over.wait);
    throw tooManyRequests(over.wait, message);
  }

  /**
   * The users' sign-in. A refusal after the right password (unverified, or an admin who must use
   * the admin form) is no success: the attempt stays counted, so this form cannot be used to
   * clear the counts the admin form's codes are limited by.
   */
  async login(input: { email: string; password: string }, caller: Caller) {
    const user = await this.checkCredentials(input, caller);
    if (!user.emailVerified) throw forbidden(Messages.notVerified, EMAIL_NOT_VERIFIED);
    // The users' form asks for no code: an admin whose sign-in needs one uses the admin form.
    if (user.role === 'admin' && (this.settings.mfa.required || (await this.settings.mfa.enabled(user.id)))) {
      throw forbidden(Messages.useAdminLogin, 'ADMIN_LOGIN_REQUIRED');
    }
    return this.startSession(user, caller);
  }

  /**
   * Password, then (for an admin with TOTP) the code or a recovery code. The attempt stays
   * counted against the sign-in limits until a session is issued, and each code is counted on
   * the account across every address (Limits.codeAttempt) before it is checked, so codes cannot
   * be guessed faster than passwords. Without TOTP while it is required, the session reaches
   * only enrolment.
   */
  async adminLogin(input: { email: string; password: string } & SecondFactor, caller: Caller) {
    const second: { check: 'not-enrolled' | 'passed' | 'not-admin' } = { check: 'not-admin' };
    const user = await this.checkCredentials(input, caller);
    if (user.role === 'admin' && user.emailVerified) {
      second.check = await this.settings.mfa.check(user.id, input, () => this.countCode(user.email));
    }
    if (user.role !== 'admin') throw forbidden(Messages.notAdmin, 'NOT_ADMIN');
    if (!user.emailVerified) throw forbidden(Messages.notVerified, EMAIL_NOT_VERIFIED);
    if (second.check === 'not-enrolled' && this.settings.mfa.required) {
      // A session with a user's rights: the gateway keeps it off every admin route.
      const token = await this.sessions.create(
        { userId: user.id, email: user.email, role: 'user' },
        this.settings.adminSession,
      );
      await this.limits.signInSucceeded(user.email, caller.clientAddress);
      return { token, user: toUserView(user), mfa_enrolment_required: true };
    }
    return this.startSession(user, caller);
  }

  /** Counts a code about to be checked; 429 while the account's codes must wait. */
  private async countCode(email: string): Promise<void> {
    const wait = await this.limits.codeAttempt(email);
    if (wait !== null) throw tooManyRequests(wait, tooManyCodesMessage(wait));
  }

  /** Whether TOTP is on for this admin, and whether it must be. */
  async mfaStatus(userId: string): Promise<{ enabled: boolean; required: boolean }> {
    await this.requireAdminAccount(userId);
    return { enabled: await this.settings.mfa.enabled(userId), required: this.settings.mfa.required };
  }

  async enrolMfa(userId: string) {
    const user = await this.requireAdminAccount(userId);
    return this.settings.mfa.enrol(user.id, user.email);
  }

  /**
   * Turns TOTP on and replaces the asking session with a full admin one (it may have been
   * enrolment-only). Every other session of the admin ends too: one made before the second factor
   * (perhaps with a password someone else knows) must not outlive it (ASVS 3.3.3). Any later
   * change of the second factor must end them likewise. The code is counted like a sign-in code.
   */
  async activateMfa(userId: string, code: string) {
    const user = await this.requireAdminAccount(userId);
    const recovery_codes = await this.settings.mfa.activate(user.id, code, () => this.countCode(user.email));
    // Ends the asking session with the others; each revocation is announced, so every gateway
    // drops its kept copy at once (decision 012), as on sign-out and password change.
    await this.sessions.revokeAll(user.id);
    await this.limits.codeSucceeded(user.email);
    const lifetimes = this.settings.adminSession;
    const token = await this.sessions.create({ userId: user.id, email: user.email, role: user.role }, lifetimes);
    return { token, user: toUserView(user), recovery_codes };
  }

  /** The enrolment calls look at the stored role: an enrolment-only session carries 'user'. */
  private async requireAdminAccount(userId: string): Promise<UserRecord> {
    const user = await this.users.findById(userId);
    if (!user) throw unauthorized();
    if (user.role !== 'admin') throw forbidden(Messages.notAdmin, 'NOT_ADMIN');
    return user;
  }

  async me(userId: string): Promise<UserView> {
    const user = await this.users.findById(userId);
    // The session outlived its user (deleted account): treat it as signed out.
    if (!user) throw unauthorized();
    return toUserView(user);
  }

  /** A token that names no session is a 401, so a client learns its token was already dead. */
  async logout(token: string): Promise<void> {
    if (!(await this.sessions.revoke(token))) throw unauthorized();
  }

  /** Sends a reset link to an existing account; the answer is the same either way. */
  async forgotPassword(rawEmail: string, caller: Caller): Promise<{ sent: boolean }> {
    const email = normaliseEmail(rawEmail);
    await this.checkMailLimit('reset', email, caller);
    const user = await this.users.findByEmail(email);
    if (!user) return { sent: false };
    const { token, hash } = newSecretToken();
    const expiresAt = addSeconds(this.now(), this.settings.resetTokenTtlSeconds);
    const sent = await this.users.setResetToken(user.id, { tokenHash: hash, expiresAt }, [
      passwordResetRequested({ userId: user.id, email, token }, this.settings.eventSecretKey, caller.requestId),
    ]);
    return { sent };
  }

  /** Sets the new password, uses up the token and ends every earlier session of the user. */
  async resetPassword(
    input: { token: string; password: string },
    caller: Caller,
  ): Promise<{ userId: string; sessionsEnded: number }> {
    rejectWeakPassword(input.password);
    const tokenHash = hashToken(input.token);
    const invalid = new AppError(400, 'INVALID_TOKEN', Messages.badResetToken);
    // Look the token up before hashing, so random tokens cost no argon2 time.
    const user = await this.users.findByResetToken(tokenHash, this.now());
    if (!user) throw invalid;
    const passwordHash = await hashPassword(input.password);
    if (!(await this.users.resetPassword(user.id, tokenHash, this.now(), passwordHash))) throw invalid;
    const sessionsEnded = await this.sessions.revokeAll(user.id);
    await this.limits.forgetAccount(user.email, caller.clientAddress);
    return { userId: user.id, sessionsEnded };
  }

  /**
   * Limited credential check. The attempt is counted before the password is checked, so a burst
   * of concurrent guesses meets the limit exactly; a success forgets it. Unknown email and wrong
   * password fail alike (same message, similar time), and only a correct password learns whether
   * the account is verified or an admin.
   */
  private async checkCredentials(input: { email: string; password: string }, caller: Caller): Promise<UserWithHash> {
    const email = normaliseEmail(input.email);
    const wait = await this.limits.signInAttempt(email, caller.clientAddress);
    if (wait !== null) throw tooManyRequests(wait, tooManyMessage(wait));
    const user = await this.users.findByEmail(email);
    if (!user) await burnPasswordCheck(input.password);
    if (!user || !(await passwordMatches(user.passwordHash, input.password))) {
      throw unauthorized(Messages.badCredentials);
    }
    // Not yet a success: the attempt stays counted until a session is issued (startSession).
    if (hashNeedsUpgrade(user.passwordHash)) {
      await this.users.updatePasswordHash(user.id, await hashPassword(input.password));
    }
    return user;
  }

  /**
   * Issues the session of a sign-in that passed every step; only this forgets the account's
   * counted attempts. An admin's session is short wherever they signed in.
   */
  private async startSession(user: UserRecord, caller: Caller): Promise<{ token: string; user: UserView }> {
    const lifetimes = user.role === 'admin' ? this.settings.adminSession : undefined;
    const token = await this.sessions.create({ userId: user.id, email: user.email, role: user.role }, lifetimes);
    await this.limits.signInSucceeded(user.email, caller.clientAddress);
    return { token, user: toUserView(user) };
  }
}

function rejectWeakPassword(password: string): void {
  const problem = passwordProblem(password);
  if (problem) throw badRequest(problem, [{ field: 'password', message: problem }]);
}

function tooManyCodesMessage(waitSeconds: number): string {
  return `Too many codes tried for this account. Please wait ${waitPhrase(waitSeconds)} and try again.`;
}

function tooManyMessage(waitSeconds: number): string {
  const minutes = Math.ceil(waitSeconds / 60);
  const when = waitSeconds < 60 ? 'a minute' : `${minutes} minute${minutes === 1 ? '' : 's'}`;
  return `Too many failed sign-in attempts. Please wait ${when} and try again, or reset your password.`;
}
