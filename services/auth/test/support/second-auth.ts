import { testEnv } from '../../../../test/support/env.js';
import { startServiceBeside } from '../../../../test/support/service-process.js';

/**
 * A second auth service beside the stack's, with settings of its own (a shortened admin idle
 * limit, ADMIN_MFA_REQUIRED). It shares the stack's database and Redis, so the stack's gateway
 * resolves the sessions it makes. `offset` keeps two of them apart.
 */
export async function startSecondAuth(
  settings: Record<string, string>,
  offset: number,
): Promise<{ url: string; call: (path: string, body: unknown) => Promise<Response>; stop: () => void }> {
  const { url, stop } = await startServiceBeside('auth', offset, settings);
  /** A POST as the gateway makes it: with the internal secret. */
  const call = (path: string, body: unknown) =>
    fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-internal-secret': testEnv().internalSecret },
      body: JSON.stringify(body),
    });
  return { url, call, stop };
}
