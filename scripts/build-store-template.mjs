// Writes the migrated embedded store that new embedded stores start from (src/store/store-template.ts)
// into dist/: a PGlite cluster made by initdb, every migration applied, checkpointed, as one
// tarball. Part of `npm run build` and of the "prepare" script, after tsc (it runs dist/).
import { Buffer } from 'node:buffer';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { MIGRATIONS } from '../dist/src/migrations.js';
import { openStore } from '../dist/src/store/store.js';
import { pgliteVersion, writeStoreTemplate } from '../dist/src/store/store-template.js';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const store = await openStore({ dataDir: 'memory://', migrations: MIGRATIONS, template: false });
try {
  // A store loaded from it then has no WAL to replay.
  await sql`CHECKPOINT`.execute(store.db);
  const files = await store.dumpDataDir();
  writeStoreTemplate(dist, Buffer.from(await files.arrayBuffer()), { pglite: pgliteVersion(), migrations: Object.keys(MIGRATIONS) });
} finally {
  await store.close();
}
