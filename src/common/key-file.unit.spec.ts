import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeStreamWhole } from './key-file.js';

describe('writeStreamWhole: a file whole or not at all', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cl-whole-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes the file whole and leaves nothing beside it', async () => {
    const path = join(dir, 'export.jsonl');
    const answer = await writeStreamWhole(path, async (out) => {
      out.write('one\n');
      out.end('two\n');
      return 2;
    });
    expect(answer).toBe(2);
    expect(readFileSync(path, 'utf8')).toBe('one\ntwo\n');
    expect(readdirSync(dir)).toEqual(['export.jsonl']);
  });

  it('keeps the earlier file when the writing fails midway, and removes the part', async () => {
    const path = join(dir, 'export.jsonl');
    writeFileSync(path, 'the export of yesterday\n');
    await expect(
      writeStreamWhole(path, async (out) => {
        out.write('half of today');
        throw new Error('stopped by SIGINT');
      }),
    ).rejects.toThrow('stopped by SIGINT');
    expect(readFileSync(path, 'utf8')).toBe('the export of yesterday\n');
    expect(readdirSync(dir)).toEqual(['export.jsonl']);
  });

  it('leaves nothing when the writing fails before its first byte', async () => {
    const path = join(dir, 'export.jsonl');
    await expect(writeStreamWhole(path, () => Promise.reject(new Error('no checkpoint')))).rejects.toThrow('no checkpoint');
    // The part is opened before the writing starts, so it is closed and removed before this answers.
    expect(readdirSync(dir)).toEqual([]);
  });

  it('answers a folder that does not exist with its error, and writes nothing', async () => {
    await expect(writeStreamWhole(join(dir, 'missing', 'export.jsonl'), async (out) => void out.end('x'))).rejects.toThrow(/ENOENT/);
    expect(readdirSync(dir)).toEqual([]);
  });
});
