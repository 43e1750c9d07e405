import { createReadStream, existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, utimes, writeFile } from 'node:fs/promises';
import { dirname, join, posix } from 'node:path';
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { extract as tarExtract } from 'tar-stream';

/**
 * The build's migrated embedded store, written into dist/ by `npm run build`
 * (scripts/build-store-template.mjs): the files of a new PGlite cluster with every migration
 * applied. A new embedded store starts from them instead of running `initdb` (3.6-4.1 s here) and
 * the migrations: a folder's are unpacked by `unpackStoreTemplate`, a store in memory loads them
 * through PGlite. Nothing in them belongs to one installation: keys and secrets are made at the
 * first start.
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
 * The template's tarball (its path) for a store opened with `migrations`, or undefined when there
 * is none or it does not fit: made by another PGlite, or holding a migration the store was not given.
 */
export function storeTemplate(migrations: readonly string[], folder = templateFolder()): string | undefined {
  const infoFile = join(folder, INFO);
  const tar = join(folder, TAR);
  if (!existsSync(infoFile) || !existsSync(tar)) return undefined;
  try {
    const info = JSON.parse(readFileSync(infoFile, 'utf8')) as StoreTemplateInfo;
    const wanted = new Set(migrations);
    if (info.pglite !== pgliteVersion() || !info.migrations.every((m) => wanted.has(m))) return undefined;
    return tar;
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

/**
 * Writes the template's files (PGlite's `dumpDataDir` tarball at `tar`) into the folder `into` as
 * PGlite's `loadDataDir` would, each with its time, without starting PostgreSQL to do it: a first
 * start then starts it once. The caller flushes the folder to disk.
 */
export async function unpackStoreTemplate(tar: string, into: string): Promise<void> {
  const extract = tarExtract();
  // Files are written 16 at a time: one at a time, a template's 1,127 took about a second here.
  const writing = new Set<Promise<void>>();
  const consume = (async () => {
    for await (const entry of extract) {
      const { name, type, mtime } = entry.header;
      const relative = posix.normalize(name).replace(/^\/+/, '');
      if (relative.split('/').includes('..')) throw new Error(`the store template holds an entry outside its folder: ${name}`);
      const path = join(into, relative);
      if (type === 'directory') {
        await mkdir(path, { recursive: true, mode: 0o700 });
        entry.resume();
      } else if (type === 'file') {
        const chunks: Buffer[] = [];
        for await (const chunk of entry) chunks.push(chunk as Buffer);
        const write = (async () => {
          await mkdir(dirname(path), { recursive: true, mode: 0o700 });
          await writeFile(path, Buffer.concat(chunks), { mode: 0o600 });
          if (mtime) await utimes(path, mtime, mtime);
        })();
        writing.add(write);
        // A write that fails stays in the set, for the race or the last wait to throw.
        void write.then(
          () => writing.delete(write),
          () => undefined,
        );
        if (writing.size >= 16) await Promise.race(writing);
      } else {
        throw new Error(`the store template holds an entry of another kind (${String(type)}): ${name}`);
      }
    }
    await Promise.all(writing);
  })();
  await Promise.all([pipeline(createReadStream(tar), extract as unknown as Writable), consume]);
}
