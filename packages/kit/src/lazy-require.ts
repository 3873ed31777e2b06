import { createRequire } from 'node:module';

/**
 * Loads a package when first needed rather than at import: a process that never opens Redis,
 * Kafka, S3 or the trace exporter then never holds their code (bench:memory). The packages are
 * the kit's own dependencies, so they resolve from here.
 */
export const requireLazily = createRequire(import.meta.url);
