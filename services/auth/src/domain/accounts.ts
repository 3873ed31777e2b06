import { AppError, badRequest, conflict, forbidden, tooManyRequests, unauthorized } from '@homereport/kit';
import { passwordResetRequested, userRegistered, userVerified } from '../events/published.js';
import { normaliseEmail } from './email.js';
import { burnPasswordCheck, hashNeedsUpgrade, hashPassword, passwordMatches } from './password-hashing.js';
import { passwordProblem } from './password-policy.js';
import type { MailCooldown, Sessions, SignInThrottle, UserRecord, UserStore, UserWithHash } from './ports.js';
import { hashToken, linkWithToken, newSecretToken } from './secret-tokens.js';

/** What a response may show of a user: never the password hash, tokens or outbox. */
export interface UserView {
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

export interface AccountSettings {
  publicUrl: string;
  verificationTokenTtlSeconds: number;
  resetTokenTtlSeconds: number;
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
  badVerificationToken: 'This verification link is invalid or has expired. Sign in to request a new one.',
  resent: 'If an account with that email is waiting for verification, we have sent it a new verification link.',
  badCredentials: 'Invalid email or password.',
  notVerified:
    'Please verify your email address before signing in. Check your inbox for the verification link, or request a new one.',
  notAdmin: 'This account does not have admin access.',
  resetSent: 'If an account exists for that email, we have sent it a link to reset the password.',
  passwordReset: 'Your password has been reset. Please sign in with your new password.',
  badResetToken: 'This password reset link is invalid or has expired. Please request a new one.',
} as const;

export const EMAIL_NOT_VERIFIED = 'EMAIL_NOT_VERIFIED';

const addSeconds = (date: Date, seconds: number) => new Date(date.getTime() + seconds * 1000);

export class Accounts {
  constructor(
    private readonly users: UserStore,
    private readonly sessions: Sessions,
    private readonly throttle: SignInThrottle,
    private readonly cooldown: MailCooldown,
    private readonly settings: AccountSettings,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async register(input: { email: string; password: string }, caller: Caller): Promise<{ userId: string }> {
    const email = normaliseEmail(input.email);
    rejectWeakPassword(input.password);
    const id = this.users.newId();
    const now = this.now();
    const { token, hash } = newSecretToken();
    const verifyUrl = linkWithToken(this.settings.publicUrl, '/verify-email', token);
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
      [userRegistered({ userId: id, email, verifyUrl }, caller.requestId)],
    );
    if (outcome === 'duplicate') throw conflict(Messages.duplicate);
    return { userId: id };
  }

  async verifyEmail(token: string, caller: Caller): Promise<{ userId: string }> {
    const tokenHash = hashToken(token);
    const now = this.now();
    const user = await this.users.findByVerificationToken(tokenHash, now);
    // The conditional write is what makes the token single-use when two clicks race.
    if (
      !user ||
      !(await this.users.markVerified(user.id, tokenHash, now, [userVerified({ userId: user.id }, caller.requestId)]))
    ) {
      throw new AppError(400, 'INVALID_TOKEN', Messages.badVerificationToken);
    }
    return { userId: user.id };
  }

  /** Sends a new link only to an existing unverified account; the answer is the same either way. */
  async resendVerification(rawEmail: string, caller: Caller): Promise<{ sent: boolean }> {
    const email = normaliseEmail(rawEmail);
    const user = await this.users.findByEmail(email);
    if (!user || user.emailVerified) return { sent: false };
    if (!(await this.cooldown.take('verification', email))) return { sent: false };
    const { token, hash } = newSecretToken();
    const verifyUrl = linkWithToken(this.settings.publicUrl, '/verify-email', token);
    const expiresAt = addSeconds(this.now(), this.settings.verificationTokenTtlSeconds);
    const sent = await this.users.replaceVerificationToken(user.id, { tokenHash: hash, expiresAt }, [
      userRegistered({ userId: user.id, email, verifyUrl }, caller.requestId),
    ]);
    return { sent };
  }

  async login(input: { email: string; password: string }, caller: Caller) {
    const user = await this.checkCredentials(input, caller);
    if (!user.emailVerified) throw forbidden(Messages.notVerified, EMAIL_NOT_VERIFIED);
    return this.startSession(user);
  }

  async adminLogin(input: { email: string; password: string }, caller: Caller) {
    const user = await this.checkCredentials(input, caller);
    if (user.role !== 'admin') throw forbidden(Messages.notAdmin, 'NOT_ADMIN');
    if (!user.emailVerified) throw forbidden(Messages.notVerified, EMAIL_NOT_VERIFIED);
    return this.startSession(user);
  }

  async me(userId: string): Promise<UserView> {
    const user = await this.users.findById(userId);
    // The session outlived its user (deleted account): treat it as signed out.
    if (!user) throw unauthorized();
    return toUserView(user);
  }

  async logout(token: string): Promise<void> {
    await this.sessions.revoke(token);
  }

  /** Sends a reset link to an existing account; the answer is the same either way. */
  async forgotPassword(rawEmail: string, caller: Caller): Promise<{ sent: boolean }> {
    const email = normaliseEmail(rawEmail);
    const user = await this.users.findByEmail(email);
    if (!user) return { sent: false };
    if (!(await this.cooldown.take('reset', email))) return { sent: false };
    const { token, hash } = newSecretToken();
    const resetUrl = linkWithToken(this.settings.publicUrl, '/reset-password', token);
    const expiresAt = addSeconds(this.now(), this.settings.resetTokenTtlSeconds);
    const sent = await this.users.setResetToken(user.id, { tokenHash: hash, expiresAt }, [
      passwordResetRequested({ userId: user.id, email, resetUrl }, caller.requestId),
    ]);
    return { sent };
  }

  /** Sets the new password, uses up the token and ends every earlier session of the user. */
  async resetPassword(input: { token: string; password: string }): Promise<{ userId: string; sessionsEnded: number }> {
    rejectWeakPassword(input.password);
    const tokenHash = hashToken(input.token);
    const invalid = new AppError(400, 'INVALID_TOKEN', Messages.badResetToken);
    // Look the token up before hashing, so random tokens cost no argon2 time.
    const user = await this.users.findByResetToken(tokenHash, this.now());
    if (!user) throw invalid;
    const passwordHash = await hashPassword(input.password);
    if (!(await this.users.resetPassword(user.id, tokenHash, this.now(), passwordHash))) throw invalid;
    const sessionsEnded = await this.sessions.revokeAll(user.id);
    await this.throttle.clearAccount(user.email);
    return { userId: user.id, sessionsEnded };
  }

  /**
   * Throttled credential check. Unknown email and wrong password fail alike (same message,
   * similar time), and only a correct password learns whether the account is verified or an admin.
   */
  private async checkCredentials(input: { email: string; password: string }, caller: Caller): Promise<UserWithHash> {
    const email = normaliseEmail(input.email);
    const wait = await this.throttle.waitSeconds(email, caller.clientAddress);
    if (wait !== null) throw tooManyRequests(wait, tooManyMessage(wait));
    const user = await this.users.findByEmail(email);
    if (!user) await burnPasswordCheck(input.password);
    if (!user || !(await passwordMatches(user.passwordHash, input.password))) {
      await this.throttle.recordFailure(email, caller.clientAddress);
      throw unauthorized(Messages.badCredentials);
    }
    await this.throttle.clearAccount(email);
    if (hashNeedsUpgrade(user.passwordHash)) {
      await this.users.updatePasswordHash(user.id, await hashPassword(input.password));
    }
    return user;
  }

  private async startSession(user: UserRecord): Promise<{ token: string; user: UserView }> {
    const token = await this.sessions.create({ userId: user.id, email: user.email, role: user.role });
    return { token, user: toUserView(user) };
  }
}

function rejectWeakPassword(password: string): void {
  const problem = passwordProblem(password);
  if (problem) throw badRequest(problem, [{ field: 'password', message: problem }]);
}

export function tooManyMessage(waitSeconds: number): string {
  const minutes = Math.ceil(waitSeconds / 60);
  const when = waitSeconds < 60 ? 'a minute' : `${minutes} minute${minutes === 1 ? '' : 's'}`;
  return `Too many failed sign-in attempts. Please wait ${when} and try again, or reset your password.`;
}
