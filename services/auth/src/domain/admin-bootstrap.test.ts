import { describe, expect, it } from 'vitest';
import { AdminInputError, describeOutcome, ensureAdmin } from './admin-bootstrap.js';
import { hashPassword } from './password-hashing.js';
import type { NewUser, Sessions, UserStore, UserWithHash } from './ports.js';

/** Just enough of a store for the bootstrap rules. */
function memoryStore(initial: UserWithHash[] = []) {
  const users = new Map(initial.map((u) => [u.email, { ...u }]));
  let next = 0;
  const store: Pick<UserStore, 'newId' | 'insert' | 'findByEmail' | 'promoteToAdmin'> = {
    newId: () => `id${++next}`,
    insert: async (u: NewUser) => {
      if (users.has(u.email)) return 'duplicate';
      users.set(u.email, { ...u, plan: 'free' });
      return 'created';
    },
    findByEmail: async (email) => users.get(email) ?? null,
    promoteToAdmin: async (id, changes) => {
      const user = [...users.values()].find((u) => u.id === id);
      if (!user) return false;
      Object.assign(user, { role: 'admin', emailVerified: true }, changes);
      return true;
    },
  };
  return { store: store as UserStore, users };
}

function recordingSessions() {
  const revoked: string[] = [];
  const sessions: Sessions = {
    create: async () => 'token',
    revoke: async () => true,
    revokeAll: async (userId) => {
      revoked.push(userId);
      return 1;
    },
  };
  return { sessions, revoked };
}

describe('ensureAdmin', () => {
  it('creates a verified admin, then changes nothing on a second run', async () => {
    const { store, users } = memoryStore();
    const { sessions, revoked } = recordingSessions();
    expect((await ensureAdmin(store, sessions, ' Boss@Example.com', 'long enough')).kind).toBe('created');
    expect(users.get('boss@example.com')).toMatchObject({ role: 'admin', emailVerified: true });
    const again = await ensureAdmin(store, sessions, 'boss@example.com', 'long enough');
    expect(again.kind).toBe('unchanged');
    expect(revoked).toEqual([]);
  });

  it('promotes an existing user and ends their sessions', async () => {
    const existing: UserWithHash = {
      id: 'u1',
      email: 'ann@example.com',
      role: 'user',
      emailVerified: false,
      plan: 'free',
      created_at: new Date(),
      passwordHash: await hashPassword('long enough'),
    };
    const { store, users } = memoryStore([existing]);
    const { sessions, revoked } = recordingSessions();
    const outcome = await ensureAdmin(store, sessions, 'ann@example.com', 'long enough');
    expect(outcome).toMatchObject({ kind: 'promoted', wasAdmin: false, wasVerified: false, passwordChanged: false });
    expect(users.get('ann@example.com')).toMatchObject({ role: 'admin', emailVerified: true });
    expect(revoked).toEqual(['u1']);
    expect(describeOutcome(outcome)).toBe(
      'Updated existing account ann@example.com: promoted to admin, email marked verified. ' +
        'Ended 1 existing session(s); the user signs in again to use the new access.',
    );
  });

  it('refuses bad input before touching the store', async () => {
    const { store, users } = memoryStore();
    const { sessions } = recordingSessions();
    await expect(ensureAdmin(store, sessions, 'nope', 'long enough')).rejects.toBeInstanceOf(AdminInputError);
    await expect(ensureAdmin(store, sessions, 'a@b.co', 'short')).rejects.toThrow(/at least 8/);
    expect(users.size).toBe(0);
  });
});
