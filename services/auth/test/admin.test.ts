import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWithInput } from '../../../test/support/admin.js';
import { uniqueEmail } from '../../../test/support/api.js';
import { PASSWORD, authApi, createAdmin, register, signIn, verifiedAccount, withUsers } from './support/accounts.js';
import { authEvents } from './support/events.js';

const tap = authEvents();
beforeAll(() => tap.start());
afterAll(() => tap.stop());

const adminLogin = (email: string, password: string) =>
  authApi('POST', '/api/auth/admin-login', { body: { email, password } });

describe('npm run create-admin', () => {
  it('creates a verified admin who can sign in at admin-login', async () => {
    const email = uniqueEmail('admin');
    const run = await createAdmin(email, PASSWORD);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/Created admin account/);

    const res = await adminLogin(email.toUpperCase(), PASSWORD);
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ email, role: 'admin', emailVerified: true });
    const me = await authApi('GET', '/api/auth/me', { token: res.body.token });
    expect(me.body.user.role).toBe('admin');
    const stored = await withUsers((users) => users.findOne({ email }));
    expect(stored?.passwordHash).toMatch(/^\$argon2id\$/);
  });

  it('is idempotent: a second run changes nothing and succeeds', async () => {
    const email = uniqueEmail('admin');
    expect((await createAdmin(email, PASSWORD)).code).toBe(0);
    const again = await createAdmin(email, PASSWORD);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/already a verified admin/);
    expect(await withUsers((users) => users.countDocuments({ email }))).toBe(1);
  });

  it('promotes an existing user, and their earlier sessions end so the new role applies at the next sign-in', async () => {
    const account = await verifiedAccount(tap);
    const userSession = await signIn(account);
    const run = await createAdmin(account.email, account.password);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/promoted to admin/);

    expect((await authApi('GET', '/api/auth/me', { token: userSession })).status).toBe(401);
    const res = await adminLogin(account.email, account.password);
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ id: account.userId, role: 'admin' });
  });

  it('promotes and verifies an unverified user, with the password given', async () => {
    const { email } = await register(tap);
    const run = await createAdmin(email, 'operator chosen secret');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/email marked verified/);
    expect((await adminLogin(email, 'operator chosen secret')).status).toBe(200);
  });

  it.each([
    ['no arguments', undefined, undefined],
    ['an empty standard input (no password)', 'someone@example.test', undefined],
    ['a malformed email', 'not-an-email', PASSWORD],
    ['a password under 8 characters', 'someone@example.test', 'short'],
  ])('refuses %s with a message and a non-zero exit code', async (_what, email, password) => {
    const run = await createAdmin(email, password);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/Usage: npm run create-admin|valid email|at least 8 characters/);
  });

  it('refuses a password given on the command line, and creates nothing', async () => {
    const email = uniqueEmail('admin');
    const run = await runWithInput('services/auth/src/cli/create-admin.ts', [email, PASSWORD], `${PASSWORD}\n`);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/not taken on the command line/);
    expect(await withUsers((users) => users.countDocuments({ email }))).toBe(0);
  });
});

describe('POST /api/auth/admin-login', () => {
  it('answers 403 for a normal user and 401 for an admin with a wrong password', async () => {
    const account = await verifiedAccount(tap);
    expect((await adminLogin(account.email, account.password)).status).toBe(403);
    const email = uniqueEmail('admin');
    expect((await createAdmin(email, PASSWORD)).code).toBe(0);
    expect((await adminLogin(email, 'not the password')).status).toBe(401);
  });
});
