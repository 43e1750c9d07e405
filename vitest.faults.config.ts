import { defineConfig } from 'vitest/config';

/**
 * `npm run test:faults`: issue 7's fault suite (test/faults). Separate from `npm test` because it
 * kills processes, terminates database connections and sends thousands of requests; files run one
 * after another so that the scenarios do not disturb each other's timing.
 */
export default defineConfig({
  test: {
    include: ['test/faults/**/*.spec.ts'],
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 240_000,
    hookTimeout: 120_000,
    reporters: ['default'],
  },
});
