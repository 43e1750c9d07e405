// What dist/ was built from: a SHA-256 over the sources and settings the build reads. The last
// step of `npm run build` writes it to dist/build-inputs.json; `--check` exits 0 when dist/ was
// built from the files here now, 1 otherwise. "prepare" builds only then: the first
// `npx consent-ledger` in a checkout links the project into npm's npx cache and runs its prepare,
// which rebuilt dist/ (30 s) under whatever was running from it.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const FOLDERS = ['src', 'projections', 'console', 'scripts', 'bin'];
const FILES = ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json'];
const STAMP = join(root, 'dist', 'build-inputs.json');

function* walk(folder) {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else if (entry.isFile()) yield path;
  }
}

function inputsHash() {
  const files = [
    ...FOLDERS.flatMap((f) => (existsSync(join(root, f)) ? [...walk(join(root, f))] : [])),
    ...FILES.map((f) => join(root, f)),
  ];
  const hash = createHash('sha256');
  for (const file of files.map((f) => relative(root, f)).sort()) {
    hash.update(`${file}\0`);
    hash.update(existsSync(join(root, file)) ? readFileSync(join(root, file)) : '');
    hash.update('\0');
  }
  return hash.digest('hex');
}

if (process.argv.includes('--check')) {
  const stamp = existsSync(STAMP) ? JSON.parse(readFileSync(STAMP, 'utf8')) : {};
  process.exitCode = stamp.sha256 === inputsHash() ? 0 : 1;
} else {
  writeFileSync(STAMP, `${JSON.stringify({ sha256: inputsHash() })}\n`);
}
