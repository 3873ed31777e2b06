import { userVerified } from '../events/published.js';
import { looksLikeEmail, normaliseEmail } from './email.js';
import { hashPassword, passwordMatches } from './password-hashing.js';
import { passwordProblem } from './password-policy.js';
import type { Sessions, UserStore } from './ports.js';

type AdminOutcome =
  | { kind: 'created'; email: string }
  | {
      kind: 'promoted';
      email: string;
      wasAdmin: boolean;
      wasVerified: boolean;
      passwordChanged: boolean;
      sessionsEnded: number;
    }
  | { kind: 'unchanged'; email: string };

export class AdminInputError extends Error {}

/** Why create-admin's arguments are unusable, or null. */
export function adminInputProblem(email: string, password: string): string | null {
  if (!looksLikeEmail(normaliseEmail(email))) return `"${email}" is not a valid email address.`;
  return passwordProblem(password);
}

/**
 * Makes `email` a verified admin who signs in with `password`: creates the account, or promotes
 * an existing one (and sets the given password). Running it again changes nothing. When an
 * existing user's role or password changes, their sessions end, so the new role (carried in
 * the session) takes effect at their next sign-in and an old password's sessions stop.
 */
export async function ensureAdmin(
  users: UserStore,
  sessions: Sessions,
  rawEmail: string,
  password: string,
): Promise<AdminOutcome> {
  const problem = adminInputProblem(rawEmail, password);
  if (problem) throw new AdminInputError(problem);
  const email = normaliseEmail(rawEmail);

  for (let attempt = 0; attempt < 2; attempt++) {
    const existing = await users.findByEmail(email);
    if (!existing) {
      const id = users.newId();
      const outcome = await users.insert(
        {
          id,
          email,
          passwordHash: await hashPassword(password),
          role: 'admin',
          emailVerified: true,
          created_at: new Date(),
        },
        [userVerified({ userId: id })],
      );
      if (outcome === 'created') return { kind: 'created', email };
      continue; // someone registered this address a moment ago: promote them instead
    }
    const wasAdmin = existing.role === 'admin';
    const wasVerified = existing.emailVerified;
    const passwordChanged = !(await passwordMatches(existing.passwordHash, password));
    if (wasAdmin && wasVerified && !passwordChanged) return { kind: 'unchanged', email };
    await users.promoteToAdmin(
      existing.id,
      passwordChanged ? { passwordHash: await hashPassword(password) } : {},
      wasVerified ? [] : [userVerified({ userId: existing.id })],
    );
    const sessionsEnded = !wasAdmin || passwordChanged ? await sessions.revokeAll(existing.id) : 0;
    return { kind: 'promoted', email, wasAdmin, wasVerified, passwordChanged, sessionsEnded };
  }
  throw new Error(`could not create or find the account ${email}`);
}

export function describeOutcome(outcome: AdminOutcome): string {
  switch (outcome.kind) {
    case 'created':
      return `Created admin account ${outcome.email} (email marked verified). Sign in at /admin-login.`;
    case 'unchanged':
      return `${outcome.email} is already a verified admin with this password; nothing changed.`;
    case 'promoted': {
      const done: string[] = [];
      if (!outcome.wasAdmin) done.push('promoted to admin');
      if (!outcome.wasVerified) done.push('email marked verified');
      if (outcome.passwordChanged) done.push('password set to the one given');
      const ended =
        outcome.sessionsEnded > 0
          ? ` Ended ${outcome.sessionsEnded} existing session(s); the user signs in again to use the new access.`
          : '';
      return `Updated existing account ${outcome.email}: ${done.join(', ')}.${ended}`;
    }
  }
}
