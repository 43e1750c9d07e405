import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * `npm test` runs every project; `npm run test:<project>` one of them. The fault suite runs apart:
 * `npm run test:faults` (vitest.faults.config.ts).
 *
 * - unit: no I/O beyond the file system (`*.unit.spec.ts`).
 * - int: against real engines, in process (`*.int.spec.ts`), the docs that run as tests
 *   (`test/docs/*.doc.spec.ts`) and the OpenAPI drift check.
 * - api: the production service built in process and driven through its HTTP routes
 *   (`test/api/*.api.spec.ts`: `inject`, or a real listening socket for browsers and raw clients).
 * - e2e: the real process (`node dist/src/main.js`) or the CLI started as a child (`test/e2e/*.e2e.spec.ts`).
 */
export default defineConfig({
  test: {
    exclude: [...configDefaults.exclude, 'test/faults/**'],
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    // At least two files at a time (vitest's default is cores - 1): on 2 cores the int and api
    // files wait on their database often. Each has databases of its own, and a ledger read waits
    // only for its own database's transactions (ledger.read_horizon()), so they do not disturb
    // each other's reads.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // A worker runs its unit, int and api files one after another in one process, importing the
    // service's modules once: the api files took 205 s here against 307 s with a process per file
    // (import 14 s against 127). Each file opens and closes its own stores and services.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default'],
    projects: [
      { extends: true, test: { name: 'unit', include: ['{src,projections,test}/**/*.unit.spec.ts'] } },
      {
        extends: true,
        test: { name: 'int', include: ['{src,projections}/**/*.int.spec.ts', 'test/docs/**/*.doc.spec.ts', 'test/*.int.spec.ts'] },
      },
      { extends: true, test: { name: 'api', include: ['test/api/**/*.api.spec.ts'] } },
      // Two at a time: each file mostly waits on the processes it starts (a run of them alone took 7
      // minutes). A process per file: they kill, restart and wait on children of their own.
      {
        extends: true,
        test: { name: 'e2e', include: ['test/e2e/**/*.e2e.spec.ts'], maxWorkers: 2, isolate: true, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
