/** Connection strings may hold credentials; show only where they point. */
export function redactUrl(url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//***@');
}

/**
 * A dependency a process needs at start did not answer. Its message names the dependency, the
 * setting that points at it and where it points (credentials masked), so the one line a crash
 * loop leaves says what to fix: `cannot reach Redis at REDIS_URL=redis://***@redis:6379:
 * Connection is closed.`
 */
export class DependencyStartupError extends Error {
  constructor(
    readonly dependency: string,
    readonly setting: string,
    address: string,
    cause: unknown,
  ) {
    super(
      `cannot reach ${dependency} at ${setting}=${redactUrl(address)}: ${cause instanceof Error ? cause.message : String(cause)}`,
      { cause },
    );
    this.name = 'DependencyStartupError';
  }
}

/** Runs `open` (a connection, a first call), turning its failure into a DependencyStartupError. */
export async function reaching<T>(
  dependency: string,
  setting: string,
  address: string,
  open: () => Promise<T>,
): Promise<T> {
  try {
    return await open();
  } catch (err) {
    throw new DependencyStartupError(dependency, setting, address, err);
  }
}
