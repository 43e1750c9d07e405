import { closeSync, constants, ftruncateSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { tryLock } from 'fs-native-extensions';

export interface DataDirLock {
  release(): void;
}

/** The file in DATA_DIR whose lock says which process holds the embedded store. */
export const DATA_DIR_LOCK_FILE = 'consent-ledger.lock';

export class DataDirLockedError extends Error {
  override readonly name = 'DataDirLockedError';
}

/** How long a start waits for the store's previous owner to let go (one just killed is still exiting). */
export const DATA_DIR_LOCK_WAIT_MS = 5_000;
const POLL_MS = 25;

/**
 * The embedded store is one process's: PGlite cannot share its files. The owner holds an
 * advisory lock on `consent-ledger.lock` (an open-file-description lock on Linux, flock on
 * macOS, LockFileEx on Windows) that the kernel drops when the process ends however it ends, so
 * a lock can never outlive its owner and a reused pid means nothing. A start that finds the
 * store held retries for `waitMs`, then refuses with the holder's pid (written in the file for
 * the message only). The file itself stays: removing it would let a waiter lock an unlinked file.
 */
export async function acquireDataDirLock(dataDir: string, { waitMs = DATA_DIR_LOCK_WAIT_MS } = {}): Promise<DataDirLock> {
  const path = join(dataDir, DATA_DIR_LOCK_FILE);
  const fd = openSync(path, constants.O_RDWR | constants.O_CREAT, 0o600);
  try {
    const deadline = Date.now() + waitMs;
    while (!tryLock(fd)) {
      if (Date.now() >= deadline) {
        const owner = readFileSync(path, 'utf8').trim();
        throw new DataDirLockedError(
          `the embedded store in ${dataDir} is in use by process ${/^\d+$/.test(owner) ? owner : '(unknown)'}; stop it first (while it runs, its admin API takes backups and manages tenants and keys)`,
        );
      }
      await sleep(POLL_MS);
    }
    ftruncateSync(fd, 0);
    writeSync(fd, String(process.pid), 0);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      closeSync(fd);
    },
  };
}
