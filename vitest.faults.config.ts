import { defineConfig } from 'vitest/config';

/**
 * `npm run test:faults`: issue 7's fault suite (test/faults). Separate from `npm test` because it
 * kills processes, terminates database connections and sends thousands of requests. Two files at
 * a time: each scenario has its own store and service process, and waits on conditions, never on
 * another's timing (174 s against about 200 one at a time here).
 */
export default defineConfig({
  test: {
    include: ['test/faults/**/*.spec.ts'],
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 240_000,
    hookTimeout: 120_000,
    reporters: ['default'],
  },
});
