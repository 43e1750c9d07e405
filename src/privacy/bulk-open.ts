import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { startWorker } from '../common/worker.js';
import type { Sealed } from '../domain/consent/consent.events.js';
import { openBytes, unwrapKey } from './envelope.js';
import { dataKeyAad } from './key-store.js';
import { readSealed, type Sealing } from './sealing.js';

/** A sealed value read from the store along with its wrapped data key (null once destroyed). */
export interface StoredSeal {
  wrapped: string | null;
  aad: string;
  sealed: Sealed;
}

/**
 * Opens a stored seal under the master key: unwrap its data key, then open it, by `Privacy.read`'s
 * rule: `erased` when the key is gone (the subject was erased), `tampered` when the value (or its
 * wrapped key) does not open.
 */
export function openStored(master: Buffer, row: StoredSeal): Sealing<unknown> {
  if (row.wrapped === null) return { state: 'erased' };
  let key: Buffer;
  try {
    key = unwrapKey(master, dataKeyAad(row.sealed.kid), row.wrapped);
  } catch {
    return { state: 'tampered' };
  }
  return readSealed({ kid: row.sealed.kid, key }, row.sealed, (k, sealed) => openBytes(k.key, row.aad, sealed));
}

/** Threads for bulk opening by default: the cores but one (the request thread's), at most 4. */
export const defaultOpenThreads = (): number => Math.max(0, Math.min(4, availableParallelism() - 1));

/** Rows under this many are opened on the calling thread: a message round trip costs more. */
const INLINE_BELOW = 256;

/** The worker ended (or never started): its jobs are not failures of the rows. */
class WorkerGoneError extends Error {
  override readonly name = 'WorkerGoneError';
}

interface Job {
  resolve(opened: Sealing<unknown>[]): void;
  reject(error: Error): void;
}

/** One worker thread and the jobs it owes answers for. */
class OpenWorker {
  private readonly jobs = new Map<number, Job>();
  private nextId = 0;
  readonly worker: Worker;
  failed = false;
  /** Whether it ever answered a job: one that fails before it never worked (its script did not load). */
  private answered = false;
  /** Ended by `terminate`, not by a fault. */
  private stopping = false;

  constructor(master: Buffer, onGone: (w: OpenWorker, neverWorked: boolean) => void, script?: URL) {
    const workerData = { master: new Uint8Array(master) };
    this.worker = script ? new Worker(script, { workerData }) : startWorker(import.meta.url, 'bulk-open.worker', { workerData });
    this.worker.unref();
    const fail = (error: Error) => {
      if (this.failed) return;
      this.failed = true;
      for (const job of this.jobs.values()) job.reject(error);
      this.jobs.clear();
      onGone(this, !this.answered && !this.stopping);
    };
    this.worker.on('message', (m: { id: number; opened?: Sealing<unknown>[]; error?: string }) => {
      this.answered = true;
      const job = this.jobs.get(m.id);
      if (!job) return;
      this.jobs.delete(m.id);
      if (this.jobs.size === 0) this.worker.unref();
      if (m.opened) job.resolve(m.opened);
      else job.reject(new Error(m.error ?? 'bulk open failed'));
    });
    this.worker.on('error', (error) => fail(new WorkerGoneError(`the bulk-open worker failed: ${error.message}`)));
    this.worker.on('exit', (code) => fail(new WorkerGoneError(`the bulk-open worker exited (code ${code})`)));
  }

  terminate(): Promise<number> {
    this.stopping = true;
    return this.worker.terminate();
  }

  open(rows: readonly StoredSeal[]): Promise<Sealing<unknown>[]> {
    const id = this.nextId++;
    return new Promise<Sealing<unknown>[]>((resolve, reject) => {
      this.jobs.set(id, { resolve, reject });
      this.worker.ref();
      this.worker.postMessage({ id, rows });
    });
  }
}

/**
 * Opens many stored seals at once (the CSV export: two AES-256-GCM per row, about 10 µs, which
 * alone capped the export near 100,000 rows/s on one core). With threads, a batch is split across
 * worker threads started on first use, so the request thread only reads and writes; with none, or
 * for a small batch, it opens them itself, and so it does for a batch whose workers ended (or
 * could not start) before answering. A worker that fails before it ever answered (its script
 * does not load) turns the threads off for good: starting new ones for every page would fail the
 * same way. Either way the answers are in the rows' order.
 *
 * @example
 * const opener = new BulkOpener(master, 2);
 * await opener.open([{ wrapped, aad, sealed }]); // [{ state: 'personal', value: { userReference: 'user-42', … } }]
 * await opener.close();
 */
export class BulkOpener {
  private workers: OpenWorker[] = [];
  /** Why threads are no longer used (a worker that never worked), or null while they are. */
  threadsOff: string | null = null;
  /** Worker threads started so far. */
  started = 0;

  constructor(
    private readonly master: Buffer,
    readonly threads: number = defaultOpenThreads(),
    /** Tests: the worker's script instead of bulk-open.worker's. */
    private readonly script?: URL,
  ) {}

  async open(rows: readonly StoredSeal[]): Promise<Sealing<unknown>[]> {
    if (this.threads === 0 || this.threadsOff !== null || rows.length < INLINE_BELOW) return rows.map((r) => openStored(this.master, r));
    while (this.workers.length < this.threads) {
      this.started += 1;
      this.workers.push(new OpenWorker(this.master, (w, neverWorked) => this.forget(w, neverWorked), this.script));
    }
    const size = Math.ceil(rows.length / this.workers.length);
    try {
      const parts = await Promise.all(
        this.workers.map((w, i) => (i * size < rows.length ? w.open(rows.slice(i * size, (i + 1) * size)) : Promise.resolve([]))),
      );
      return parts.flat();
    } catch (error) {
      if (!(error instanceof WorkerGoneError)) throw error;
      return rows.map((r) => openStored(this.master, r));
    }
  }

  private forget(w: OpenWorker, neverWorked: boolean): void {
    this.workers = this.workers.filter((x) => x !== w);
    if (neverWorked && this.threadsOff === null) {
      this.threadsOff = 'a bulk-open worker failed before it ever answered; opening on the calling thread from now on';
      void this.close();
    }
  }

  /** Stops the worker threads (a later `open` starts new ones). */
  async close(): Promise<void> {
    const workers = this.workers;
    this.workers = [];
    await Promise.all(workers.map((w) => w.terminate()));
  }
}
