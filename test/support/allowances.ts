/**
 * Allowances the test run gives the services (test/global-setup.ts), for tests that start just
 * under one. Imported by the global setup too, so this module imports nothing from vitest.
 */

/** Anonymous coverage requests per client address and hour (tests send many from one address). */
export const TEST_ANON_REQUESTS_PER_HOUR = 1000;

/** Coverage requests per signed-in account and hour (tests send many with one session). */
export const TEST_ACCOUNT_REQUESTS_PER_HOUR = 1000;
