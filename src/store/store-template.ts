import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The build's migrated embedded store, written into dist/ by `npm run build`
 * (scripts/build-store-template.mjs): the files of a new PGlite cluster with every migration
 * applied. A new embedded store starts from them instead of running `initdb` (3.6-4.1 s here) and
 * the migrations; loading them took 1.5-1.9 s. Nothing in them belongs to one installation: keys
 * and secrets are made at the first start.
 */
export interface StoreTemplateInfo {
  /** The PGlite release that made the files: another release starts with `initdb` instead. */
  pglite: string;
  /** The migrations applied, by name: a store asking for fewer (an older set) starts with `initdb`. */
  migrations: string[];
}

const TAR = 'store-template.tar';
const INFO = 'store-template.json';

/** dist/ when this module runs from dist/src/store, else the repository's dist/ (a run from source). */
function templateFolder(): string {
  const here = fileURLToPath(new URL('.', import.meta.url));
  return here.includes(`${join('dist', 'src', 'store')}`) ? join(here, '..', '..') : join(here, '..', '..', 'dist');
}

/** The installed PGlite's version, from its package.json (which its exports do not name). */
export function pgliteVersion(): string {
  const main = import.meta.resolve('@electric-sql/pglite');
  const pkg = JSON.parse(readFileSync(fileURLToPath(new URL('../package.json', main)), 'utf8')) as { version: string };
  return pkg.version;
}

/**
 * The template's files for a store opened with `migrations`, or undefined when there is none or it
 * does not fit: made by another PGlite, or holding a migration the store was not given.
 */
export function storeTemplate(migrations: readonly string[], folder = templateFolder()): Blob | undefined {
  const infoFile = join(folder, INFO);
  if (!existsSync(infoFile) || !existsSync(join(folder, TAR))) return undefined;
  try {
    const info = JSON.parse(readFileSync(infoFile, 'utf8')) as StoreTemplateInfo;
    const wanted = new Set(migrations);
    if (info.pglite !== pgliteVersion() || !info.migrations.every((m) => wanted.has(m))) return undefined;
    return new Blob([readFileSync(join(folder, TAR))]);
  } catch {
    // An unreadable template is no reason to refuse a start: initdb makes the store as before.
    return undefined;
  }
}

/**
 * Writes the template into `folder`: its description goes first and comes back last, so that a
 * store opening meanwhile finds no template rather than new files under an old description.
 */
export function writeStoreTemplate(folder: string, files: Buffer, info: StoreTemplateInfo): void {
  rmSync(join(folder, INFO), { force: true });
  writeFileSync(join(folder, `${TAR}.part`), files);
  renameSync(join(folder, `${TAR}.part`), join(folder, TAR));
  writeFileSync(join(folder, `${INFO}.part`), `${JSON.stringify(info, null, 2)}\n`);
  renameSync(join(folder, `${INFO}.part`), join(folder, INFO));
}
