/**
 * A worker thread of `BulkOpener`: opens the stored seals it is sent under the master key it was
 * started with, and answers them in order. Error messages name no key or value.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openStored, type StoredSeal } from './bulk-open.js';

const master = Buffer.from((workerData as { master: Uint8Array }).master);

parentPort!.on('message', ({ id, rows }: { id: number; rows: StoredSeal[] }) => {
  try {
    parentPort!.postMessage({ id, opened: rows.map((r) => openStored(master, r)) });
  } catch {
    // Never the error's own message, which could quote opened (personal) text.
    parentPort!.postMessage({ id, error: 'a stored seal could not be opened' });
  }
});
