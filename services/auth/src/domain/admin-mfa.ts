import { createHash, randomBytes } from 'node:crypto';
import { AppError, conflict, openSecret, sealSecret } from '@homereport/kit';
import { matchingStep, newTotpSecret, otpauthUrl } from './totp.js';

/** An admin's second factor as stored: secrets still sealed. */
export interface MfaRecord {
  secret: string | null;
  pending: string | null;
  lastStep: number;
}

export interface MfaStore {
  find(userId: string): Promise<MfaRecord | null>;
  /** Keeps a secret handed out for enrolment; false when TOTP is already on. */
  setPending(userId: string, sealed: string): Promise<boolean>;
  /** Turns the pending secret on (only if still the pending one), with the recovery code hashes. */
  activate(userId: string, pending: string, step: number, recoveryHashes: string[]): Promise<boolean>;
  /** Records a TOTP step as used; false when that step or a later one was used already. */
  useStep(userId: string, step: number): Promise<boolean>;
  /** Uses up a recovery code; false when it is not (or no longer) one of the user's. */
  useRecoveryCode(userId: string, hash: string): Promise<boolean>;
}

interface MfaSettings {
  eventSecretKey: string;
  /** ADMIN_MFA_REQUIRED: an admin without TOTP must enrol before using admin pages. */
  required: boolean;
  issuer: string;
}

export type SecondFactor = { code?: string; recovery_code?: string };
/** Outcome of the second step of an admin sign-in. */
type MfaCheck = 'not-enrolled' | 'passed';

const MfaMessages = {
  required: 'Enter the 6-digit code from your authenticator app, or one of your recovery codes.',
  invalid: 'That code is not valid. Please try again with the current code from your app.',
  alreadyOn: 'Two-step sign-in is already on for this account.',
  notEnrolling: 'Start the set-up again: there is no code waiting to be confirmed.',
} as const;

const SEAL_CONTEXT = 'admin-totp';
const RECOVERY_CODES = 10;
const hash = (code: string) => createHash('sha256').update(code).digest('hex');
/** Recovery codes are typed by people: lower case, without spaces or dashes, is the same code. */
const normaliseRecovery = (code: string) => code.toLowerCase().replace(/[\s-]/g, '');

/** Optional TOTP second factor for admins (ASVS 2.7/2.8): enrol, activate, check at sign-in. */
export class AdminMfa {
  constructor(
    private readonly store: MfaStore,
    private readonly settings: MfaSettings,
    private readonly now: () => number = Date.now,
  ) {}

  get required(): boolean {
    return this.settings.required;
  }

  async enabled(userId: string): Promise<boolean> {
    return Boolean((await this.store.find(userId))?.secret);
  }

  async enrol(userId: string, email: string): Promise<{ secret: string; otpauth_url: string }> {
    const secret = newTotpSecret();
    const sealed = sealSecret(this.settings.eventSecretKey, secret, SEAL_CONTEXT);
    if (!(await this.store.setPending(userId, sealed))) throw conflict(MfaMessages.alreadyOn);
    return { secret, otpauth_url: otpauthUrl(this.settings.issuer, email, secret) };
  }

  /**
   * Confirms the pending secret with a code from it; answers the recovery codes, shown once.
   * `counted` runs just before the code is checked (the caller's limit: it throws to refuse).
   */
  async activate(userId: string, code: string, counted: () => Promise<void>): Promise<string[]> {
    const record = await this.store.find(userId);
    if (record?.secret) throw conflict(MfaMessages.alreadyOn);
    if (!record?.pending) throw new AppError(400, 'MFA_NOT_ENROLLING', MfaMessages.notEnrolling);
    await counted();
    const secret = openSecret(this.settings.eventSecretKey, record.pending, SEAL_CONTEXT);
    const step = matchingStep(secret, code.trim(), this.now());
    if (step === null) throw invalidCode(400);
    const codes = Array.from({ length: RECOVERY_CODES }, () => {
      const raw = randomBytes(5).toString('hex');
      return `${raw.slice(0, 5)}-${raw.slice(5)}`;
    });
    const activated = await this.store.activate(
      userId,
      record.pending,
      step,
      codes.map((c) => hash(normaliseRecovery(c))),
    );
    if (!activated) throw new AppError(400, 'MFA_NOT_ENROLLING', MfaMessages.notEnrolling);
    return codes;
  }

  /**
   * The second step of an admin's sign-in, after the right password. Throws 401 MFA_REQUIRED
   * without a code and MFA_INVALID with a wrong, reused or used-up one. `counted` runs just
   * before a code is checked (the caller's limit: it throws to refuse).
   */
  async check(userId: string, factor: SecondFactor, counted: () => Promise<void>): Promise<MfaCheck> {
    const record = await this.store.find(userId);
    if (!record?.secret) return 'not-enrolled';
    if (factor.recovery_code || factor.code) await counted();
    if (factor.recovery_code) {
      if (await this.store.useRecoveryCode(userId, hash(normaliseRecovery(factor.recovery_code)))) return 'passed';
      throw invalidCode(401);
    }
    if (!factor.code) throw new AppError(401, 'MFA_REQUIRED', MfaMessages.required);
    const secret = openSecret(this.settings.eventSecretKey, record.secret, SEAL_CONTEXT);
    const step = matchingStep(secret, factor.code.trim(), this.now());
    // A code seen once (or an older one) is refused: a code read over a shoulder is no use after.
    if (step !== null && step > record.lastStep && (await this.store.useStep(userId, step))) return 'passed';
    throw invalidCode(401);
  }
}

const invalidCode = (status: 400 | 401) => new AppError(status, 'MFA_INVALID', MfaMessages.invalid);
