import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The repository stands alone: a clone with nothing beside it builds and passes its tests, so no
 * file may read or cite anything outside it (a sibling folder of guidance, its spec or its
 * decisions). The patterns are built from pieces so that this file does not match itself.
 */
const root = fileURLToPath(new URL('../', import.meta.url));
const SKIPPED = new Set(['node_modules', 'dist', 'data', '.git', 'coverage', 'package-lock.json']);
const OUTSIDE = [['..', 'shared'].join('/'), ['shared', 'spec'].join('/'), ['shared', 'testdata'].join('/'), ['CONTRACT', 'md'].join('.')];

function* files(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIPPED.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (entry.isFile()) yield path;
  }
}

describe('repository › when read file by file › refers to nothing outside itself', () => {
  it('no file names a folder beside the checkout or a contract kept outside it', () => {
    const found: string[] = [];
    let read = 0;
    for (const path of files(root)) {
      const bytes = readFileSync(path);
      if (bytes.includes(0)) continue; // binary (images, fonts)
      read++;
      const text = bytes.toString('utf8');
      for (const pattern of OUTSIDE) if (text.includes(pattern)) found.push(`${relative(root, path)}: ${pattern}`);
    }
    expect(read).toBeGreaterThan(100);
    expect(found).toEqual([]);
  });

  it('the test vectors the suite reads are inside the repository', () => {
    const vectors = JSON.parse(readFileSync(join(root, 'test', 'fixtures', 'rfc6962-roots.json'), 'utf8')) as { roots: string[] };
    expect(vectors.roots.length).toBeGreaterThan(0);
  });
});
