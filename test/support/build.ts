import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { childEnvironment, repoRoot } from './process.js';

/** Whether dist/ was built from the files here now (scripts/build-inputs.mjs): `npm ci` built it, nothing changed since. */
async function builtFromHere(): Promise<boolean> {
  return promisify(execFile)(process.execPath, ['scripts/build-inputs.mjs', '--check'], { cwd: repoRoot }).then(
    () => true,
    () => false,
  );
}

/**
 * Builds dist/ from the sources under test unless it was built from them already (the build's
 * own record, dist/build-inputs.json, as `npm ci` leaves it): the CLI's bin, the console and the
 * service processes the tests start (dist/src/main.js, as `npm start` runs it) come from there.
 * test/global-setup.ts calls it once, before any file runs, so no file can load a half-written dist/.
 */
export async function buildDist(): Promise<void> {
  if (await builtFromHere()) return;
  try {
    await promisify(execFile)('npm', ['run', 'build'], { cwd: repoRoot, env: childEnvironment({}) });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string };
    throw new Error(`npm run build failed:\n${e.stdout ?? ''}${e.stderr ?? ''}`);
  }
}
