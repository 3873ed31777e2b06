import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueEmail } from '../../../test/support/api.js';
import { totpCode } from '../src/domain/totp.js';
import { PASSWORD, authApi, createAdmin, signIn } from './support/accounts.js';
import { startSecondAuth } from './support/second-auth.js';

const adminLogin = (body: Record<string, string>) => authApi('POST', '/api/auth/admin-login', { body });
const NEXT_STEP = 30_000;

/** A new admin signed in, with TOTP turned on; answers the secret, recovery codes and session. */
async function adminWithTotp() {
  const email = uniqueEmail('admin');
  expect((await createAdmin(email, PASSWORD)).code).toBe(0);
  const first = await signIn({ email, password: PASSWORD }, '/api/auth/admin-login');
  const enrol = await authApi('POST', '/api/auth/mfa/enrol', { token: first });
  expect(enrol.status).toBe(200);
  const { secret } = enrol.body;
  const activated = await authApi('POST', '/api/auth/mfa/activate', { token: first, body: { code: totpCode(secret) } });
  expect(activated.status, JSON.stringify(activated.body)).toBe(200);
  return { email, secret, first, ...(activated.body as { token: string; recovery_codes: string[] }) };
}

describe('admin TOTP: enrolment', () => {
  it('hands out a secret and otpauth URL, turns on only with a right code, and shows 10 recovery codes once', async () => {
    const email = uniqueEmail('admin');
    expect((await createAdmin(email, PASSWORD)).code).toBe(0);
    const token = await signIn({ email, password: PASSWORD }, '/api/auth/admin-login');
    expect((await authApi('GET', '/api/auth/mfa', { token })).body).toEqual({ enabled: false, required: false });

    const enrol = await authApi('POST', '/api/auth/mfa/enrol', { token });
    expect(enrol.status).toBe(200);
    expect(enrol.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(enrol.body.otpauth_url).toContain(`secret=${enrol.body.secret}`);
    expect(enrol.body.otpauth_url).toMatch(/^otpauth:\/\/totp\/HomeReport%3A/);

    const wrong = await authApi('POST', '/api/auth/mfa/activate', { token, body: { code: '000000' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe('MFA_INVALID');
    expect((await authApi('GET', '/api/auth/mfa', { token })).body.enabled).toBe(false);

    const ok = await authApi('POST', '/api/auth/mfa/activate', { token, body: { code: totpCode(enrol.body.secret) } });
    expect(ok.status).toBe(200);
    expect(ok.body.recovery_codes).toHaveLength(10);
    expect(new Set(ok.body.recovery_codes).size).toBe(10);
    // The session that enrolled is replaced by the one answered.
    expect((await authApi('GET', '/api/auth/me', { token })).status).toBe(401);
    expect((await authApi('GET', '/api/auth/mfa', { token: ok.body.token })).body.enabled).toBe(true);
    // On once: enrolling again is refused.
    expect((await authApi('POST', '/api/auth/mfa/enrol', { token: ok.body.token })).status).toBe(409);
  });

  it('is for admins only', async () => {
    const res = await authApi('POST', '/api/auth/mfa/enrol');
    expect(res.status).toBe(401);
  });
});

describe('admin TOTP: sign-in', () => {
  it('asks for the code after the password; a wrong or reused code is refused, the right one signs in', async () => {
    const { email, secret } = await adminWithTotp();
    const asked = await adminLogin({ email, password: PASSWORD });
    expect(asked.status).toBe(401);
    expect(asked.body.code).toBe('MFA_REQUIRED');
    expect(asked.body.token).toBeUndefined();

    expect((await adminLogin({ email, password: PASSWORD, code: '123456' })).body.code).toBe('MFA_INVALID');
    // A right code with a wrong password is a wrong password.
    const code = totpCode(secret, Date.now() + NEXT_STEP);
    expect((await adminLogin({ email, password: 'not the password', code })).body.code).toBe('UNAUTHORIZED');

    const ok = await adminLogin({ email, password: PASSWORD, code });
    expect(ok.status).toBe(200);
    expect(ok.body.user.role).toBe('admin');
    // Seen once, the same code does not sign in again.
    const replay = await adminLogin({ email, password: PASSWORD, code });
    expect(replay.status).toBe(401);
    expect(replay.body.code).toBe('MFA_INVALID');
  });

  it('a recovery code works once, in any letter case', async () => {
    const { email, recovery_codes } = await adminWithTotp();
    const recovery = recovery_codes[0] ?? '';
    expect((await adminLogin({ email, password: PASSWORD, recovery_code: recovery.toUpperCase() })).status).toBe(200);
    const again = await adminLogin({ email, password: PASSWORD, recovery_code: recovery });
    expect(again.status).toBe(401);
    expect(again.body.code).toBe('MFA_INVALID');
    expect((await adminLogin({ email, password: PASSWORD, recovery_code: recovery_codes[1] ?? '' })).status).toBe(200);
  });

  it('the users’ sign-in does not let an admin with TOTP around the code', async () => {
    const { email } = await adminWithTotp();
    const res = await authApi('POST', '/api/auth/login', { body: { email, password: PASSWORD } });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('ADMIN_LOGIN_REQUIRED');
  });
});

describe('with ADMIN_MFA_REQUIRED=true', () => {
  let auth: Awaited<ReturnType<typeof startSecondAuth>>;
  beforeAll(async () => {
    auth = await startSecondAuth({ ADMIN_MFA_REQUIRED: 'true' }, 91);
  }, 60_000);
  afterAll(() => auth?.stop());

  it('an admin without TOTP gets a session that only enrols; once TOTP is on, a full admin session', async () => {
    const email = uniqueEmail('admin');
    expect((await createAdmin(email, PASSWORD)).code).toBe(0);
    const res = await auth.call('/api/auth/admin-login', { email, password: PASSWORD });
    expect(res.status).toBe(200);
    const session = (await res.json()) as { token: string; mfa_enrolment_required?: boolean };
    expect(session.mfa_enrolment_required).toBe(true);
    expect((await authApi('GET', '/api/admin/dashboard', { token: session.token })).status).toBe(403);

    const enrol = await authApi('POST', '/api/auth/mfa/enrol', { token: session.token });
    expect(enrol.status).toBe(200);
    const activated = await authApi('POST', '/api/auth/mfa/activate', {
      token: session.token,
      body: { code: totpCode(enrol.body.secret) },
    });
    expect(activated.status).toBe(200);
    expect((await authApi('GET', '/api/admin/dashboard', { token: activated.body.token })).status).toBe(200);

    // From then on the password alone is not enough there either.
    const asked = await auth.call('/api/auth/admin-login', { email, password: PASSWORD });
    expect(asked.status).toBe(401);
    expect(((await asked.json()) as { code: string }).code).toBe('MFA_REQUIRED');
  });
});
