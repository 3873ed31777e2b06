/**
 * The support address is one setting for the whole product: the notifications service reads
 * `SUPPORT_EMAIL` at start (Reply-To and footer of every email), and the web build bakes the
 * same variable into the pages (contact page, help center). `VITE_SUPPORT_EMAIL` still wins for
 * a build that must differ. With neither set, both use the same default
 * (`DEFAULT_SUPPORT_EMAIL` in src/config/site.ts, `SUPPORT_EMAIL` in the service's config).
 */
export function supportEmailFromEnv(env: Record<string, string | undefined>): string | undefined {
  for (const value of [env.VITE_SUPPORT_EMAIL, env.SUPPORT_EMAIL]) {
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
  }
  return undefined;
}

/** Vite `define` entries that put the configured address where src/config/site.ts reads it. */
export function supportEmailDefine(env: Record<string, string | undefined>): Record<string, string> {
  const address = supportEmailFromEnv(env);
  return address ? { 'import.meta.env.VITE_SUPPORT_EMAIL': JSON.stringify(address) } : {};
}
