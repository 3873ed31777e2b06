import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshClientAddress, uniqueEmail } from '../../../test/support/api.js';
import { testEnv } from '../../../test/support/env.js';
import { totpCode } from '../src/domain/totp.js';
import { PASSWORD, authApi, createAdmin, signIn } from './support/accounts.js';
import { startSecondAuth } from './support/second-auth.js';

const adminLogin = (body: Record<string, string>, from?: string) =>
  authApi('POST', '/api/auth/admin-login', { body, from });
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

describe('admin TOTP: codes are limited per account across addresses', () => {
  const redis = new Redis(testEnv().redisUrl);
  afterAll(() => redis.quit());
  const codeKey = (email: string) =>
    `auth:limit:code-slowdown:${createHash('sha256').update(email).digest('hex').slice(0, 32)}`;
  /** Stands in for the wait having passed: the account's next code slot is now (its count stays). */
  const slotReached = (email: string) => redis.hset(codeKey(email), 'n', '0');
  /** MFA_CODE_SLOWDOWN_AFTER is 5: five codes are checked, the sixth books the next slot 5 s on. */
  const sixWrongCodes = async (email: string) => {
    for (let i = 0; i < 6; i++) {
      const res = await adminLogin({ email, password: PASSWORD, code: String(100000 + i) }, freshClientAddress());
      expect(res.status, JSON.stringify(res.body)).toBe(401);
      expect(res.body.code).toBe('MFA_INVALID');
    }
  };

  it('6 wrong codes from 6 addresses slow the account down: even the right code waits, then signs in', async () => {
    const { email, secret } = await adminWithTotp();
    await sixWrongCodes(email);
    const code = totpCode(secret, Date.now() + NEXT_STEP);
    const waited = await adminLogin({ email, password: PASSWORD, code }, freshClientAddress());
    expect(waited.status).toBe(429);
    expect(Number(waited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(waited.body.error).toMatch(/Too many codes/);
    await slotReached(email);
    expect((await adminLogin({ email, password: PASSWORD, code }, freshClientAddress())).status).toBe(200);
    // The session issued forgets the count.
    expect(await redis.exists(codeKey(email))).toBe(0);
  });

  it('the users’ sign-in form, answering 403 to the right password, resets no count', async () => {
    const { email, secret } = await adminWithTotp();
    await sixWrongCodes(email);
    const refused = await authApi('POST', '/api/auth/login', {
      body: { email, password: PASSWORD },
      from: freshClientAddress(),
    });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('ADMIN_LOGIN_REQUIRED');
    const code = totpCode(secret, Date.now() + NEXT_STEP);
    expect((await adminLogin({ email, password: PASSWORD, code }, freshClientAddress())).status).toBe(429);
  });

  it('turning TOTP on counts its codes the same way', async () => {
    const email = uniqueEmail('admin');
    expect((await createAdmin(email, PASSWORD)).code).toBe(0);
    const token = await signIn({ email, password: PASSWORD }, '/api/auth/admin-login');
    const enrol = await authApi('POST', '/api/auth/mfa/enrol', { token });
    const activate = (code: string) =>
      authApi('POST', '/api/auth/mfa/activate', { token, body: { code }, from: freshClientAddress() });
    for (let i = 0; i < 6; i++) expect((await activate(String(200000 + i))).body.code).toBe('MFA_INVALID');
    const waited = await activate(totpCode(enrol.body.secret));
    expect(waited.status).toBe(429);
    expect(waited.headers.get('retry-after')).toBeTruthy();
    await slotReached(email);
    expect((await activate(totpCode(enrol.body.secret))).status).toBe(200);
  });
});

describe('admin TOTP: turning it on ends the other sessions', () => {
  it('a session made before activation stops reaching admin pages at once', async () => {
    const email = uniqueEmail('admin');
    expect((await createAdmin(email, PASSWORD)).code).toBe(0);
    const earlier = await signIn({ email, password: PASSWORD }, '/api/auth/admin-login');
    // Used once, so the gateway keeps it (decision 012): its end must still be seen at once.
    expect((await authApi('GET', '/api/admin/dashboard', { token: earlier })).status).toBe(200);
    const enrolling = await signIn({ email, password: PASSWORD }, '/api/auth/admin-login');
    const enrol = await authApi('POST', '/api/auth/mfa/enrol', { token: enrolling });
    const activated = await authApi('POST', '/api/auth/mfa/activate', {
      token: enrolling,
      body: { code: totpCode(enrol.body.secret) },
    });
    expect(activated.status).toBe(200);
    expect((await authApi('GET', '/api/admin/dashboard', { token: earlier })).status).toBe(401);
    expect((await authApi('GET', '/api/auth/me', { token: enrolling })).status).toBe(401);
    expect((await authApi('GET', '/api/admin/dashboard', { token: activated.body.token })).status).toBe(200);
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
