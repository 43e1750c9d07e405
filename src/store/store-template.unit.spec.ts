import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TAR_END, tarHeader, tarPadding, type TarEntry } from '../common/tar.js';
import { unpackStoreTemplate } from './store-template.js';

/** A tarball of `entries` (a file's content given), as PGlite's dumpDataDir writes one. */
const tarball = (entries: (Omit<TarEntry, 'size' | 'mode'> & { content?: string })[]): Buffer =>
  Buffer.concat([
    ...entries.flatMap(({ content = '', ...e }) => {
      const body = Buffer.from(content);
      return [tarHeader({ ...e, size: body.length, mode: 0o600 }), body, tarPadding(body.length)];
    }),
    TAR_END,
  ]);

describe('store template › unpacking it into a new cluster folder', () => {
  let root: string;
  let tar: string;
  let into: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'cl-template-unpack-'));
    tar = join(root, 'store-template.tar');
    into = join(root, 'pglite.new');
    mkdirSync(into);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('writes every folder and file under the folder, with the times the tarball gives', async () => {
    const mtime = new Date('2026-01-02T03:04:05Z');
    writeFileSync(
      tar,
      tarball([
        { name: '/', type: 'directory', mtime },
        { name: '/global', type: 'directory', mtime },
        { name: '/global/1213', type: 'file', mtime, content: 'catalog' },
        { name: '/PG_VERSION', type: 'file', mtime, content: '17\n' },
        { name: '/base/1/112', type: 'file', mtime, content: 'x'.repeat(5000) },
      ]),
    );
    await unpackStoreTemplate(tar, into);
    expect(readFileSync(join(into, 'global', '1213'), 'utf8')).toBe('catalog');
    expect(readFileSync(join(into, 'PG_VERSION'), 'utf8')).toBe('17\n');
    expect(readFileSync(join(into, 'base', '1', '112'), 'utf8')).toBe('x'.repeat(5000));
    expect(statSync(join(into, 'PG_VERSION')).mtime.toISOString()).toBe(mtime.toISOString());
  });

  it('refuses an entry that would land outside the folder, writing nothing there', async () => {
    writeFileSync(tar, tarball([{ name: '../escaped', type: 'file', mtime: new Date(), content: 'no' }]));
    await expect(unpackStoreTemplate(tar, into)).rejects.toThrow(/outside its folder/);
    expect(existsSync(join(root, 'escaped'))).toBe(false);
  });
});
