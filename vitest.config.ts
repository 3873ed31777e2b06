import { defineConfig } from 'vitest/config';

// Two projects: `unit` (beside the code, no servers) and `integration` (each service's test/
// folder and the browser tests, against real servers started once by test/global-setup.ts).
export default defineConfig({
  test: {
    // One stack serves every integration file; running files one at a time keeps the Kafka
    // outage test from pulling the broker away from a neighbour.
    fileParallelism: false,
    projects: [
      {
        test: {
          name: 'unit',
          environment: 'node',
          include: [
            '{packages,services,gateway}/**/src/**/*.test.ts',
            'infra/src/**/*.test.ts',
            'test/support/**/*.test.ts',
            'test/log-check.test.ts',
            'web/src/**/*.test.{ts,tsx}',
            'web/tools/**/*.test.ts',
            'services/*/tools/**/*.test.ts',
          ],
        },
      },
      {
        test: {
          name: 'integration',
          environment: 'node',
          include: [
            '{packages,services}/*/test/**/*.test.ts',
            'gateway/test/**/*.test.ts',
            'web/test/**/*.test.ts',
            // Two of everything (issue 23): a two-replica stack on servers of its own.
            'test/replicas/**/*.test.ts',
            // The image, the Kubernetes manifests and the compiled build (tools from provision).
            'infra/test/**/*.test.ts',
          ],
          globalSetup: ['test/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
