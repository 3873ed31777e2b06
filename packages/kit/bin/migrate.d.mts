/** The services with a database, whose migrations `npm run migrate` runs. */
export const MIGRATED_SERVICES: string[];
export function compiledRuntime(execArgv?: string[], nodeOptions?: string): boolean;
/** Runs the named services' migrations (all by default); answers the exit code. */
export function migrateAll(argv: string[]): Promise<number>;
