/**
 * An import thread (`import --threads N`, see threads.ts): opens its own connections, keys and
 * ledger as the command does, then checks and records each set of rows it is sent and answers its outcome.
 * Rows of one subject always come to the same thread, in the file's order.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { actingAs } from '../../common/actor.js';
import type { Settings } from '../../config.js';
import { DomainError } from '../../domain/errors.js';
import { MIGRATIONS } from '../../migrations.js';
import { openStore, type Store } from '../../store/store.js';
import { openImportSink, type ImportItem, type SinkOptions } from './sink.js';

const { settings, tenantId, options } = workerData as { settings: Settings; tenantId: string; options: SinkOptions };
const port = parentPort!;

const failure = (error: unknown) =>
  error instanceof DomainError ? { code: error.code, message: error.message } : { message: (error as Error).message ?? String(error) };

let store: Store | undefined;
try {
  store = await openStore({
    databaseUrl: settings.databaseUrl,
    dataDir: settings.dataDir,
    maxConnections: 3,
    migrations: MIGRATIONS,
  });
  const sink = await openImportSink(store, settings, tenantId, options);
  port.on('message', (m: { id: number; items: ImportItem[]; expectNew: boolean; now: Date } | { close: true }) => {
    if ('close' in m) {
      void sink
        .close()
        .then(() => store!.close())
        .finally(() => port.close());
      return;
    }
    actingAs({ type: 'cli' }, () => sink.append(m.items, m.expectNew, m.now)).then(
      (outcome) => port.postMessage({ id: m.id, outcome }),
      (error: unknown) => port.postMessage({ id: m.id, error: failure(error) }),
    );
  });
  port.postMessage({ ready: true });
} catch (error) {
  await store?.close().catch(() => undefined);
  port.postMessage({ ready: false, error: failure(error) });
}
