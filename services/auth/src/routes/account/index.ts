import {
  ACCOUNT_EXPORT_FILE_NAME,
  AccountExport,
  ChangePasswordBody,
  DeleteAccountBody,
  MessageReply,
} from '@homereport/contracts';
import { ErrorReply, type ServicePlugin, requireUser, unauthorized } from '@homereport/kit';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { type OwnAccount, OwnAccountMessages, type SignedInCaller } from '../../domain/own-account.js';
import { bearerToken, sayWhenPasswordIsWeak } from '../auth/index.js';

const tags = ['account'];

/** "Your account" in api.md: change password, export, delete; all for the signed-in user only. */
export const accountRoutes: ServicePlugin<{ ownAccount: OwnAccount }> = async (app, { ownAccount }) => {
  const signedIn = (req: FastifyRequest): SignedInCaller => {
    const { userId } = requireUser(req);
    const token = bearerToken(req);
    if (!token) throw unauthorized();
    return { userId, token, requestId: req.id, clientAddress: req.ip, log: req.log };
  };

  app.post(
    '/api/auth/change-password',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'Change the password; every other session of the user ends',
        body: ChangePasswordBody,
        response: { 200: MessageReply, 400: ErrorReply, 429: ErrorReply },
      },
      preValidation: sayWhenPasswordIsWeak('new_password'),
    },
    async (req) => {
      const caller = signedIn(req);
      const { sessionsEnded } = await ownAccount.changePassword(req.body, caller);
      req.log.info({ userId: caller.userId, sessionsEnded }, 'password changed');
      return { message: OwnAccountMessages.passwordChanged };
    },
  );

  app.get(
    '/api/auth/account/export',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'Download everything held about the signed-in user (a JSON attachment)',
        response: { 200: AccountExport, 503: ErrorReply },
      },
    },
    async (req, reply) => {
      const { userId } = requireUser(req);
      const data = await ownAccount.exportData({ userId, requestId: req.id, log: req.log });
      req.log.info({ userId, requests: data.requests.length }, 'account data exported');
      return reply.header('content-disposition', `attachment; filename="${ACCOUNT_EXPORT_FILE_NAME}"`).send(data);
    },
  );

  app.delete(
    '/api/auth/account',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'Delete the account (the password again); every session ends',
        body: DeleteAccountBody,
        // 401 also for a wrong password (api.md).
        response: { 204: Type.Null({ description: 'Deleted.' }), 400: ErrorReply, 429: ErrorReply },
      },
    },
    async (req, reply) => {
      const caller = signedIn(req);
      await ownAccount.deleteAccount(req.body.password, caller);
      req.log.info({ userId: caller.userId }, 'account deleted');
      return reply.status(204).send(null);
    },
  );
};
