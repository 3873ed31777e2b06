/**
 * The security headers of pages and documents a browser renders (what helmet would send with our
 * settings), computed once: helmet's per-request middleware chain cost about 30% of a minimal
 * Fastify answer's throughput here; setting a fixed list costs about 5%.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "base-uri 'self'",
  "font-src 'self' https: data:",
  "form-action 'self'",
  "frame-ancestors 'self'",
  // Listing pictures may come from anywhere on https.
  "img-src 'self' data: https:",
  "object-src 'none'",
  "script-src 'self'",
  "script-src-attr 'none'",
  "style-src 'self' https: 'unsafe-inline'",
  // No upgrade-insecure-requests: served over plain http on developer machines.
].join(';');

export const PAGE_SECURITY_HEADERS: ReadonlyArray<readonly [string, string]> = [
  ['content-security-policy', CONTENT_SECURITY_POLICY],
  ['cross-origin-opener-policy', 'same-origin'],
  ['cross-origin-resource-policy', 'same-origin'],
  ['origin-agent-cluster', '?1'],
  ['referrer-policy', 'no-referrer'],
  ['strict-transport-security', 'max-age=31536000; includeSubDomains'],
  ['x-content-type-options', 'nosniff'],
  ['x-dns-prefetch-control', 'off'],
  ['x-download-options', 'noopen'],
  ['x-frame-options', 'SAMEORIGIN'],
  ['x-permitted-cross-domain-policies', 'none'],
  ['x-xss-protection', '0'],
];

/**
 * JSON answers of the API are never rendered as pages, so they carry the short list OWASP's REST
 * guidance gives instead: nothing may load or frame them, nor sniff them into another type. Half
 * the bytes of the page list, on the answers that are asked for most.
 */
export const API_SECURITY_HEADERS: ReadonlyArray<readonly [string, string]> = [
  ['content-security-policy', "default-src 'none'; frame-ancestors 'none'"],
  ['cross-origin-resource-policy', 'same-origin'],
  ['referrer-policy', 'no-referrer'],
  ['strict-transport-security', 'max-age=31536000; includeSubDomains'],
  ['x-content-type-options', 'nosniff'],
  ['x-frame-options', 'DENY'],
];

/**
 * Report files open in a browser tab like pages do, but their content comes from whoever made the
 * file: `sandbox` gives the tab a unique origin with no scripts, so a crafted document can reach
 * neither the app's storage nor its API.
 */
export const FILE_SECURITY_HEADERS: ReadonlyArray<readonly [string, string]> = PAGE_SECURITY_HEADERS.map(
  ([name, value]) => [name, name === 'content-security-policy' ? `${value};sandbox` : value] as const,
);

/** The API reference page and its script and styles (api-reference.ts): a page like the web app's. */
const isReferencePage = (url: string) => url === '/api/docs' || /^\/api\/docs[/?]/.test(url);

/** Report files as above; the API reference is a page; every other /api answer is JSON; everything else is the web app. */
export function securityHeadersFor(url: string): ReadonlyArray<readonly [string, string]> {
  if (url.startsWith('/api/files/')) return FILE_SECURITY_HEADERS;
  if (isReferencePage(url)) return PAGE_SECURITY_HEADERS;
  return url.startsWith('/api/') ? API_SECURITY_HEADERS : PAGE_SECURITY_HEADERS;
}
