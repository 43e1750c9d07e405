import type { Worker } from 'node:worker_threads';
import type { ImportOutcome } from '../../application/consents/consent.commands.js';
import { startWorker } from '../../common/worker.js';
import type { Settings } from '../../config.js';
import { DomainError, type DomainErrorCode } from '../../domain/errors.js';
import type { ImportItem, SinkOptions } from './sink.js';

type Failure = { code?: DomainErrorCode; message: string };
type Reply = { id: number; outcome?: ImportOutcome; error?: Failure };

const errorOf = (f: Failure) => (f.code ? new DomainError(f.code, f.message) : new Error(f.message));

/** One import thread, and the sets of rows it has not answered yet. */
class ImportThread {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve(o: ImportOutcome): void; reject(e: Error): void }>();
  private nextId = 0;
  private gone: Error | undefined;
  readonly ready: Promise<void>;

  constructor(workerData: { settings: Settings; tenantId: string; options: SinkOptions }) {
    this.worker = startWorker(import.meta.url, 'import.worker', { workerData });
    let started: (() => void) | undefined;
    let refused: ((e: Error) => void) | undefined;
    this.ready = new Promise<void>((resolve, reject) => {
      started = resolve;
      refused = reject;
    });
    const fail = (error: Error) => {
      this.gone ??= error;
      refused!(error);
      for (const p of this.pending.values()) p.reject(error);
      this.pending.clear();
    };
    this.worker.on('message', (m: Reply & { ready?: boolean }) => {
      if (m.ready !== undefined) {
        if (m.ready) started!();
        else fail(errorOf(m.error!));
        return;
      }
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (m.outcome) p.resolve(m.outcome);
      else p.reject(errorOf(m.error!));
    });
    this.worker.on('error', (error) => fail(new Error(`an import thread failed: ${error.message}`)));
    this.worker.on('exit', (code) => fail(new Error(`an import thread exited (code ${code})`)));
  }

  append(items: ImportItem[], expectNew: boolean, now: Date): Promise<ImportOutcome> {
    if (this.gone) return Promise.reject(this.gone);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, items, expectNew, now });
    });
  }

  /** Closes its connections once what it was sent is answered; ends it outright after 10 s. */
  async close(): Promise<void> {
    // A thread that failed may still hold connections: end it.
    if (this.gone) {
      await this.worker.terminate();
      return;
    }
    const exited = new Promise<void>((resolve) => this.worker.once('exit', () => resolve()));
    this.worker.postMessage({ close: true });
    const timer = setTimeout(() => void this.worker.terminate(), 10_000);
    await exited;
    clearTimeout(timer);
  }
}

/** FNV-1a of a text: which thread a subject's rows go to. */
function threadOf(text: string, threads: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0) % threads;
}

/**
 * `import --threads N`: checks and records the rows on N worker threads, each with its own
 * connections, keys and ledger, while this thread reads and maps the file. A set of rows is split by subject
 * (its user reference), so one subject's rows always go to the same thread, in the file's order.
 */
export class ImportThreads {
  private constructor(private readonly threads: ImportThread[]) {}

  /** Starts `count` threads for the tenant, with the command's settings; refuses when one cannot start. */
  static async start(count: number, settings: Settings, tenantId: string, options: SinkOptions): Promise<ImportThreads> {
    const threads = Array.from({ length: count }, () => new ImportThread({ settings, tenantId, options }));
    const pool = new ImportThreads(threads);
    const started = await Promise.allSettled(threads.map((t) => t.ready));
    const failed = started.find((s) => s.status === 'rejected');
    if (failed) {
      await pool.close();
      throw failed.reason;
    }
    return pool;
  }

  /** Checks and records the rows, each on its subject's thread; answers the outcomes together, errors by the rows' own indexes. */
  async append(items: readonly ImportItem[], expectNew: boolean, now: Date): Promise<ImportOutcome> {
    const parts = this.threads.map(() => ({ items: [] as ImportItem[], indexes: [] as number[] }));
    items.forEach((row, index) => {
      const part = parts[threadOf(row.item.userReference, this.threads.length)]!;
      part.items.push(row);
      part.indexes.push(index);
    });
    const outcomes = await Promise.all(
      parts.map((part, k) => (part.items.length === 0 ? null : this.threads[k]!.append(part.items, expectNew, now))),
    );
    const total: ImportOutcome = { recorded: 0, existing: 0, withdrawn: 0, errors: [] };
    outcomes.forEach((outcome, k) => {
      if (!outcome) return;
      total.recorded += outcome.recorded;
      total.existing += outcome.existing;
      total.withdrawn += outcome.withdrawn;
      for (const e of outcome.errors) total.errors.push({ ...e, index: parts[k]!.indexes[e.index]! });
    });
    return total;
  }

  async close(): Promise<void> {
    await Promise.all(this.threads.map((t) => t.close()));
  }
}
