import type { Worker } from 'node:worker_threads';
import { startWorker } from '../common/worker.js';
import { DomainError } from '../domain/errors.js';
import type { ReceiptInput } from './receipt.renderer.js';

/** How long one receipt may take to lay out before it is given up (and its thread replaced). */
export const RENDER_TIMEOUT_MS = 20_000;

interface Job {
  input: ReceiptInput;
  resolve(pdf: Buffer): void;
  reject(error: unknown): void;
}

/**
 * Lays out receipts on a thread of their own, one at a time, in the order asked: a PDF's layout is
 * synchronous and grows faster than its text (metadata of 16 KiB of emoji took 45 s), and on the
 * request thread it would hold up every tenant's requests meanwhile. One that takes longer than
 * the timeout is refused (422 RECEIPT_TOO_LARGE) and the thread replaced.
 *
 * @example
 * const thread = new RenderThread();
 * const pdf = await thread.render({ consent, receiptId, generatedAt, verifyUrl });
 * await thread.close();
 */
export class RenderThread {
  private worker: Worker | undefined;
  private readonly queue: Job[] = [];
  private running: { id: number; job: Job; timer: NodeJS.Timeout } | undefined;
  private nextId = 0;
  private closed = false;

  constructor(
    /** How long the next job may take, from when it is sent. */
    public timeoutMs = RENDER_TIMEOUT_MS,
  ) {}

  render(input: ReceiptInput): Promise<Buffer> {
    if (this.closed) return Promise.reject(new Error('the receipt renderer is closed'));
    return new Promise((resolve, reject) => {
      this.queue.push({ input, resolve, reject });
      this.next();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new Error('the receipt renderer is closed'));
    this.finish()?.reject(new Error('the receipt renderer is closed'));
    await this.worker?.terminate();
    this.worker = undefined;
  }

  private next(): void {
    if (this.running || this.closed) return;
    const job = this.queue.shift();
    if (!job) return;
    const id = ++this.nextId;
    const timer = setTimeout(() => {
      // Given up: its thread is still laying it out, so it goes, and the next job gets a new one.
      const given = this.finish();
      void this.worker?.terminate();
      this.worker = undefined;
      given?.reject(
        new DomainError('RECEIPT_TOO_LARGE', `the record's values take too long to lay out as a PDF (over ${this.timeoutMs / 1000} s)`),
      );
      this.next();
    }, this.timeoutMs);
    this.running = { id, job, timer };
    this.thread().postMessage({ id, input: job.input });
  }

  /** The job under way, taken off (its timer stopped), if any. */
  private finish(): Job | undefined {
    const running = this.running;
    if (!running) return undefined;
    clearTimeout(running.timer);
    this.running = undefined;
    return running.job;
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = startWorker(import.meta.url, 'render.worker');
    worker.on('message', (m: { id: number; pdf?: Uint8Array; error?: string }) => {
      if (m.id !== this.running?.id) return;
      const job = this.finish()!;
      if (m.pdf) job.resolve(Buffer.from(m.pdf.buffer, m.pdf.byteOffset, m.pdf.byteLength));
      else job.reject(new Error(`the receipt could not be laid out: ${m.error}`));
      this.next();
    });
    // A thread that fails (or exits) outside a job's answer: the job under way fails, the next gets a new thread.
    const gone = (error: unknown) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.finish()?.reject(error instanceof Error ? error : new Error(`the receipt renderer's thread stopped (${String(error)})`));
      this.next();
    };
    worker.on('error', gone);
    worker.on('exit', (code) => gone(`exit code ${code}`));
    worker.unref();
    this.worker = worker;
    return worker;
  }
}
