import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';

export type Role = 'user' | 'admin';
export interface Identity {
  userId: string;
  email: string;
  role: Role;
}

/** Headers the gateway sets after resolving the bearer token; a client can never set them. */
export const IDENTITY_HEADERS = ['x-user-id', 'x-user-email', 'x-user-role'] as const;
export const INTERNAL_SECRET_HEADER = 'x-internal-secret';

export function secretMatches(given: string | undefined, expected: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function identityFromHeaders(headers: FastifyRequest['headers']): Identity | null {
  const userId = headers['x-user-id'];
  const email = headers['x-user-email'];
  const role = headers['x-user-role'];
  if (typeof userId !== 'string' || typeof email !== 'string') return null;
  return { userId, email, role: role === 'admin' ? 'admin' : 'user' };
}
