import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * A worker thread running the module `name` beside the caller's (`import.meta.url`): `name.js` when
 * built, `name.ts` from source (tsx, vitest). On Node 20 a worker's --import hooks come too late for
 * its entry module, so from source it registers tsx before importing it.
 *
 * @example
 * const worker = startWorker(import.meta.url, 'bulk-open.worker', { workerData });
 */
export function startWorker(callerUrl: string, name: string, options: WorkerOptions = {}): Worker {
  const here = new URL(callerUrl);
  if (!here.pathname.endsWith('.ts')) return new Worker(new URL(`./${name}.js`, here), options);
  const entry = new URL(`./${name}.ts`, here).href;
  const code = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); })`;
  return new Worker(code, { ...options, eval: true });
}
