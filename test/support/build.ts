import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { childEnvironment, repoRoot } from './process.js';

/**
 * Builds dist/ from the sources under test unless it was built from them already: the package's
 * own `prepare` script, which checks the build's record of its inputs (dist/build-inputs.json, as
 * `npm ci` leaves it) and builds only when they changed. The CLI's bin, the console and the service
 * processes the tests start (dist/src/main.js, as `npm start` runs it) come from there.
 * test/global-setup.ts calls it once, before any file runs, so no file can load a half-written dist/.
 */
export async function buildDist(): Promise<void> {
  try {
    await promisify(execFile)('npm', ['run', 'prepare'], { cwd: repoRoot, env: childEnvironment({}) });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string };
    throw new Error(`npm run build failed:\n${e.stdout ?? ''}${e.stderr ?? ''}`);
  }
}
