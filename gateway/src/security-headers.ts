/**
 * The security headers of pages and documents a browser renders (what helmet sends with these
 * settings), computed once: @fastify/helmet builds helmet's middleware chain for every request,
 * which more than doubled the gateway's CPU per kept public answer (bench/gateway-parts.mjs,
 * decision 030); setting a fixed list costs a few percent.
 *
 * The web app's policy allows only what the built app uses (decision 007): its script and
 * stylesheet files, data: images (the map's and icons' SVG), calls to this origin. No inline
 * script or style, no outside origin at all: an injected `<script>`, `<style>`, style attribute,
 * image beacon or font from elsewhere is refused by the browser, so a markup injection can
 * neither run code nor send the stored token away. React sets element styles through the CSSOM,
 * which style-src does not govern, so the app needs no 'unsafe-inline'.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "base-uri 'self'",
  "connect-src 'self'",
  "font-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'self'",
  "img-src 'self' data:",
  "manifest-src 'self'",
  "object-src 'none'",
  "script-src 'self'",
  "script-src-attr 'none'",
  "style-src 'self'",
  // No upgrade-insecure-requests: served over plain http on developer machines.
].join(';');

/**
 * The API reference (Swagger UI, served from the gateway itself) sets style attributes in its
 * markup and draws its icons from data: URLs in its stylesheet: its page alone keeps inline styles.
 */
const REFERENCE_PAGE_POLICY = CONTENT_SECURITY_POLICY.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'");

/**
 * Sent only on answers to requests that came over TLS (or, with TRUST_PROXY, that our load
 * balancer says came over https): over plain http a browser ignores it anyway (RFC 6797 8.1),
 * and a developer's http://localhost must not learn to insist on https.
 */
const HSTS: readonly [string, string] = ['strict-transport-security', 'max-age=31536000; includeSubDomains'];

type HeaderList = ReadonlyArray<readonly [string, string]>;

export const PAGE_SECURITY_HEADERS: HeaderList = [
  ['content-security-policy', CONTENT_SECURITY_POLICY],
  ['cross-origin-opener-policy', 'same-origin'],
  ['cross-origin-resource-policy', 'same-origin'],
  ['origin-agent-cluster', '?1'],
  ['referrer-policy', 'no-referrer'],
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
export const API_SECURITY_HEADERS: HeaderList = [
  ['content-security-policy', "default-src 'none'; frame-ancestors 'none'"],
  ['cross-origin-resource-policy', 'same-origin'],
  ['referrer-policy', 'no-referrer'],
  ['x-content-type-options', 'nosniff'],
  ['x-frame-options', 'DENY'],
];

/**
 * Report files open in a browser tab like pages do, but their content comes from whoever made the
 * file: `sandbox` gives the tab a unique origin with no scripts, so a crafted document can reach
 * neither the app's storage nor its API.
 */
export const FILE_SECURITY_HEADERS: HeaderList = PAGE_SECURITY_HEADERS.map(
  ([name, value]) => [name, name === 'content-security-policy' ? `${value};sandbox` : value] as const,
);

const REFERENCE_SECURITY_HEADERS: HeaderList = PAGE_SECURITY_HEADERS.map(
  ([name, value]) => [name, name === 'content-security-policy' ? REFERENCE_PAGE_POLICY : value] as const,
);

/** Each list with HSTS added, for answers over TLS; built once. */
const overTls = (list: HeaderList): HeaderList => [...list, HSTS];
const SECURE = new Map<HeaderList, HeaderList>(
  [PAGE_SECURITY_HEADERS, API_SECURITY_HEADERS, FILE_SECURITY_HEADERS, REFERENCE_SECURITY_HEADERS].map((list) => [
    list,
    overTls(list),
  ]),
);

/** The API reference page and its script and styles (api-reference.ts): a page like the web app's. */
const isReferencePage = (url: string) => url === '/api/docs' || /^\/api\/docs[/?]/.test(url);

/**
 * Report files as above; the API reference is a page; every other /api answer is JSON; everything
 * else is the web app. `secure`: the request came over TLS (HSTS is added). The kit's app sets
 * these on every answer, the framework's own refusals included (its `answerHeaders`).
 */
export function securityHeadersFor(url: string, secure = false): HeaderList {
  const list = plainListFor(url);
  return secure ? (SECURE.get(list) ?? list) : list;
}

function plainListFor(url: string): HeaderList {
  if (url.startsWith('/api/files/')) return FILE_SECURITY_HEADERS;
  if (isReferencePage(url)) return REFERENCE_SECURITY_HEADERS;
  return url.startsWith('/api/') ? API_SECURITY_HEADERS : PAGE_SECURITY_HEADERS;
}
