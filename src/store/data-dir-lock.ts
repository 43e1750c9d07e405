import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export interface DataDirLock {
  release(): void;
}

export class DataDirLockedError extends Error {
  override readonly name = 'DataDirLockedError';
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * The embedded store is one process's: PGlite cannot share its files. A lock file holding the
 * owner's pid keeps a second process (a CLI next to a running service) out; a lock left by a
 * dead process (kill -9) is taken over.
 */
export function acquireDataDirLock(dataDir: string): DataDirLock {
  const path = join(dataDir, 'consent-ledger.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          rmSync(path, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number(readFileSync(path, 'utf8').trim());
      if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && alive(owner)) {
        throw new DataDirLockedError(
          `the embedded store in ${dataDir} is in use by process ${owner}; stop it first, or use the admin API of the running service`,
        );
      }
      rmSync(path, { force: true });
    }
  }
  throw new DataDirLockedError(`could not lock ${dataDir}`);
}
