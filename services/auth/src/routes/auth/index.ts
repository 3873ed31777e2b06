import { AppError, ErrorReply, type ServicePlugin, requireUser, unauthorized } from '@homereport/kit';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { type Accounts, type Caller, Messages } from '../../domain/accounts.js';
import { looksLikeEmail, normaliseEmail } from '../../domain/email.js';
import { passwordProblem } from '../../domain/password-policy.js';
import {
  AdminLoginBody,
  CredentialsBody,
  EmailBody,
  MeReply,
  MessageReply,
  MfaActivateBody,
  MfaActivateReply,
  MfaEnrolReply,
  MfaStatusReply,
  RegisterBody,
  ResetPasswordBody,
  SessionReply,
  TokenBody,
  VerifyEmailReply,
} from '../../schemas/auth.js';

interface AuthRouteDeps {
  accounts: Accounts;
}

const tags = ['auth'];
/** The error answers a route may give, for the OpenAPI document (api.md "Auth and users"). */
const errors = (...codes: number[]) => Object.fromEntries(codes.map((code) => [code, ErrorReply]));
/** Logout's 204 has no body. */
const SignedOut = Type.Null({ description: 'Signed out: the token no longer works.' });

/**
 * Before the schema: an email the browser's own check lets through (`a@b`) is answered with a
 * sentence a person can act on, not the schema's "must match format".
 */
async function sayWhenEmailIsMalformed(req: FastifyRequest): Promise<void> {
  const body = req.body as Record<string, unknown> | null;
  if (!body || typeof body !== 'object' || typeof body.email !== 'string') return;
  if (!looksLikeEmail(normaliseEmail(body.email))) {
    throw new AppError(400, 'VALIDATION', Messages.invalidEmail, {
      details: [{ field: 'email', message: Messages.invalidEmail }],
    });
  }
}

/**
 * Before the schema (whose minLength documents the rule): a new password that breaks a rule is
 * answered with the domain's sentence for it, not the schema's "must NOT have fewer than 8".
 */
export const sayWhenPasswordIsWeak =
  (field: string) =>
  async (req: FastifyRequest): Promise<void> => {
    const body = req.body as Record<string, unknown> | null;
    if (!body || typeof body !== 'object' || typeof body[field] !== 'string') return;
    const problem = passwordProblem(body[field]);
    if (problem) throw new AppError(400, 'BAD_REQUEST', problem, { details: [{ field, message: problem }] });
  };

/** /api/auth/*, as in api.md "Auth and users". Handlers parse, call the domain and shape the reply. */
export const authRoutes: ServicePlugin<AuthRouteDeps> = async (app, { accounts }) => {
  // req.ip is the address the gateway forwarded (the kit trusts exactly that one hop).
  const caller = (req: FastifyRequest): Caller => ({ requestId: req.id, clientAddress: req.ip });

  app.post(
    '/api/auth/register',
    {
      schema: {
        tags,
        summary: 'Create an account; a verification email follows',
        body: RegisterBody,
        response: { 201: MessageReply, ...errors(400, 409, 429) },
      },
      preValidation: [sayWhenEmailIsMalformed, sayWhenPasswordIsWeak('password')],
    },
    async (req, reply) => {
      const { userId } = await accounts.register(req.body, caller(req));
      req.log.info({ userId }, 'user registered');
      return reply.status(201).send({ message: Messages.registered });
    },
  );

  app.post(
    '/api/auth/verify-email',
    {
      schema: {
        tags,
        summary: 'Verify an email address with the token from its link',
        body: TokenBody,
        response: { 200: VerifyEmailReply, ...errors(400) },
      },
    },
    async (req) => {
      const { userId, alreadyVerified } = await accounts.verifyEmail(req.body.token, caller(req));
      req.log.info({ userId, alreadyVerified }, 'email verified');
      return alreadyVerified
        ? { message: Messages.alreadyVerified, alreadyVerified: true }
        : { message: Messages.verified, alreadyVerified: false };
    },
  );

  app.post(
    '/api/auth/resend-verification',
    {
      schema: {
        tags,
        summary: 'Send the verification email again',
        body: EmailBody,
        response: { 200: MessageReply, ...errors(400, 429) },
      },
      preValidation: sayWhenEmailIsMalformed,
    },
    async (req) => {
      const { sent } = await accounts.resendVerification(req.body.email, caller(req));
      req.log.info({ sent }, 'verification resend asked for');
      return { message: Messages.resent };
    },
  );

  app.post(
    '/api/auth/login',
    {
      schema: {
        tags,
        summary: 'Sign in: a session token',
        body: CredentialsBody,
        response: { 200: SessionReply, ...errors(400, 401, 403, 429) },
      },
      preValidation: sayWhenEmailIsMalformed,
    },
    async (req) => {
      const session = await accounts.login(req.body, caller(req));
      req.log.info({ userId: session.user.id }, 'signed in');
      return session;
    },
  );

  app.post(
    '/api/auth/admin-login',
    {
      schema: {
        tags,
        summary: 'Sign in as an admin (with a TOTP or recovery code once TOTP is on)',
        body: AdminLoginBody,
        response: { 200: SessionReply, ...errors(400, 401, 403, 429) },
      },
      preValidation: sayWhenEmailIsMalformed,
    },
    async (req) => {
      const session = await accounts.adminLogin(req.body, caller(req));
      req.log.info({ userId: session.user.id, enrolmentOnly: 'mfa_enrolment_required' in session }, 'admin signed in');
      return session;
    },
  );

  // Admins' TOTP (api notes in README). By the stored role, so an enrolment-only session may call them.
  // 403: the account is not an admin's.
  app.get(
    '/api/auth/mfa',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'Whether TOTP is on for this admin, and whether it is required',
        response: { 200: MfaStatusReply, ...errors(403) },
      },
    },
    async (req) => accounts.mfaStatus(requireUser(req).userId),
  );

  app.post(
    '/api/auth/mfa/enrol',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'Start TOTP enrolment: a secret for an authenticator app',
        response: { 200: MfaEnrolReply, ...errors(403, 409) },
      },
    },
    async (req) => {
      const { userId } = requireUser(req);
      const reply = await accounts.enrolMfa(userId);
      req.log.info({ userId }, 'TOTP enrolment started');
      return reply;
    },
  );

  app.post(
    '/api/auth/mfa/activate',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'Turn TOTP on with a code from the app: a full admin session and recovery codes',
        body: MfaActivateBody,
        response: { 200: MfaActivateReply, ...errors(400, 403, 409, 429) },
      },
    },
    async (req) => {
      const { userId } = requireUser(req);
      const reply = await accounts.activateMfa(userId, req.body.code);
      req.log.info({ userId }, 'TOTP turned on; every earlier session of the admin ended');
      return reply;
    },
  );

  app.get(
    '/api/auth/me',
    { config: { auth: 'user' }, schema: { tags, summary: 'The signed-in user', response: { 200: MeReply } } },
    async (req) => ({ user: await accounts.me(requireUser(req).userId) }),
  );

  app.post(
    '/api/auth/logout',
    { config: { auth: 'user' }, schema: { tags, summary: 'Sign out: end this session', response: { 204: SignedOut } } },
    async (req, reply) => {
      const token = bearerToken(req);
      if (!token) throw unauthorized();
      await accounts.logout(token);
      // A 204 goes out without a body; null is what its (Null) schema describes.
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/api/auth/forgot-password',
    {
      schema: {
        tags,
        summary: 'Email a password reset link',
        body: EmailBody,
        response: { 200: MessageReply, ...errors(400, 429) },
      },
      preValidation: sayWhenEmailIsMalformed,
    },
    async (req) => {
      const { sent } = await accounts.forgotPassword(req.body.email, caller(req));
      req.log.info({ sent }, 'password reset asked for');
      return { message: Messages.resetSent };
    },
  );

  app.post(
    '/api/auth/reset-password',
    {
      schema: {
        tags,
        summary: 'Set a new password with the token from the reset link',
        body: ResetPasswordBody,
        response: { 200: MessageReply, ...errors(400) },
      },
      preValidation: sayWhenPasswordIsWeak('password'),
    },
    async (req) => {
      const { userId, sessionsEnded } = await accounts.resetPassword(req.body, caller(req));
      req.log.info({ userId, sessionsEnded }, 'password reset');
      return { message: Messages.passwordReset };
    },
  );
};

/** The session token of this request, as the gateway resolved it (the gateway passes Authorization on). */
export function bearerToken(req: FastifyRequest): string | null {
  const header = req.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  return match?.[1] ?? null;
}
