// Writes the migrated embedded store that new embedded stores start from (src/store/store-template.ts)
// into dist/: a PGlite cluster made by initdb, every migration applied, checkpointed, as one
// tarball. Part of `npm run build` and of the "prepare" script, after tsc (it runs dist/).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MIGRATIONS } from '../dist/src/migrations.js';
import { makeStoreTemplate } from '../dist/src/store/store.js';

await makeStoreTemplate(join(dirname(fileURLToPath(import.meta.url)), '..', 'dist'), MIGRATIONS);
