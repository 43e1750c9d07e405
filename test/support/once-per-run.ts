import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { waitUntil } from './process.js';

declare module 'vitest' {
  interface ProvidedContext {
    /** One per run (test/global-setup.ts): what is made once for the run is named after it. */
    runStamp: string;
  }
}

/** This run's id, or undefined when the file runs without test/global-setup.ts. */
export const runStamp = (): string | undefined => inject('runStamp') || undefined;

/**
 * Runs `make` once for this run, whichever test file asks first: files run in processes of their
 * own, two at a time, so the first caller makes it under a lock and the others wait until
 * `done()` says it is there. `make` must leave `done()` true, last.
 */
export async function oncePerRun(name: string, done: () => boolean, make: () => Promise<void>): Promise<void> {
  const lock = join(tmpdir(), `cl-${name}-${runStamp() ?? process.pid}.lock`);
  while (!done()) {
    try {
      mkdirSync(lock);
    } catch {
      await waitUntil(() => done() || !existsSync(lock), { timeoutMs: 300_000, intervalMs: 100, what: `the run’s ${name}` });
      continue;
    }
    try {
      if (!done()) await make();
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
}
