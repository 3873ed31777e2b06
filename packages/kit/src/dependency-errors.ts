/**
 * Errors that say a dependency did not answer in time or could not be reached, as opposed to a
 * bug or a refusal of this request: the same call may succeed in a moment, so the caller gets 503
 * with Retry-After, never a 500. Matched by name and code rather than by class, so a second copy
 * of a driver in node_modules cannot hide one.
 */
export type Dependency = 'mongo' | 'redis' | 'network';

const MONGO_UNAVAILABLE = new Set([
  'MongoOperationTimeoutError',
  'MongoServerSelectionError',
  'MongooseServerSelectionError',
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoPoolClearedError',
  'MongoTopologyClosedError',
  'MongoNotConnectedError',
]);

/** What ioredis rejects a command with when Redis is slow, gone, or the connection is down. */
const REDIS_UNAVAILABLE = [
  /^Command timed out$/,
  /^Connection is closed\.?$/,
  /^Stream isn't writeable/,
  /max retries per request limit/i,
];

/** Socket errors of any client (S3, SMTP, a service called over HTTP). */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'EAI_AGAIN',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_SOCKET',
  // nodemailer (SMTP): a connection that could not be made or was lost, a socket error.
  'ECONNECTION',
  'ESOCKET',
]);

/**
 * The dependency an error says is unavailable, looking through `cause` (and through the driver
 * error a MongoDB bulk write wraps in `errorResponse`); null for any other error.
 */
export function unavailableDependency(err: unknown): Dependency | null {
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = wrapped(e), depth++) {
    // A breaker failing the call at once while the dependency is known to be down (connections/breaker.ts).
    if (e.name === 'CircuitOpenError') return (e as Error & { dependency: Dependency }).dependency;
    // Another service of ours that could not answer (service-client.ts).
    if (e.name === 'ServiceUnavailableError') return 'network';
    if (MONGO_UNAVAILABLE.has(e.name)) return 'mongo';
    if (e.name === 'MaxRetriesPerRequestError' || REDIS_UNAVAILABLE.some((re) => re.test(e.message))) return 'redis';
    if (e.name === 'TimeoutError' || e.name === 'AbortError') return 'network';
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return 'network';
  }
  return null;
}

function wrapped(e: Error): unknown {
  if (e.cause !== undefined) return e.cause;
  // MongoBulkWriteError keeps the timeout or network error that failed the batch here.
  const inner = (e as { errorResponse?: unknown }).errorResponse;
  return inner instanceof Error ? inner : undefined;
}
