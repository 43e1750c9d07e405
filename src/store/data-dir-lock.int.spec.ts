import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { afterAll, describe, expect, it } from 'vitest';
import { acquireDataDirLock, DataDirLockedError } from './data-dir-lock.js';

const dirs: string[] = [];
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cl-lock-'));
  dirs.push(dir);
  return dir;
}

/** Another process that takes the lock, says "held" and keeps it until it is killed. */
async function holder(dir: string): Promise<ChildProcess> {
  const script = `
    const { acquireDataDirLock } = await import(${JSON.stringify(new URL('./data-dir-lock.ts', import.meta.url).href)});
    await acquireDataDirLock(${JSON.stringify(dir)}, { waitMs: 10_000 });
    process.stdout.write('held\\n');
    setInterval(() => {}, 60_000);`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  let out = '';
  child.stdout!.setEncoding('utf8');
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: string) => {
      out += chunk;
      if (out.includes('held')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the holder exited (${code}) before taking the lock`)));
  });
  return child;
}

describe('store › data-dir lock', () => {
  it('refuses a second owner in the same process, and lets go on release', async () => {
    const dir = freshDir();
    const first = await acquireDataDirLock(dir);
    await expect(acquireDataDirLock(dir, { waitMs: 0 })).rejects.toThrow(DataDirLockedError);
    first.release();
    const second = await acquireDataDirLock(dir, { waitMs: 0 });
    expect(readFileSync(join(dir, 'consent-ledger.lock'), 'utf8')).toBe(String(process.pid));
    second.release();
  });

  it('names the live owner after the bounded wait', async () => {
    const dir = freshDir();
    const child = await holder(dir);
    const started = Date.now();
    const error = await acquireDataDirLock(dir, { waitMs: 300 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DataDirLockedError);
    expect((error as Error).message).toContain(`is in use by process ${child.pid}; stop it first`);
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    child.kill('SIGKILL');
  });

  it('is taken at once after its owner is killed with SIGKILL, a pid in the file notwithstanding', async () => {
    const dir = freshDir();
    for (let round = 0; round < 20; round++) {
      const child = await holder(dir);
      expect(readFileSync(join(dir, 'consent-ledger.lock'), 'utf8')).toBe(String(child.pid));
      const gone = once(child, 'exit');
      child.kill('SIGKILL');
      // Not waiting for the exit: the wait inside covers a holder still on its way out.
      const lock = await acquireDataDirLock(dir);
      await gone;
      lock.release();
    }
  });

  it('waits for an owner that lets go within the bound', async () => {
    const dir = freshDir();
    const first = await acquireDataDirLock(dir);
    setTimeout(() => first.release(), 200);
    const second = await acquireDataDirLock(dir, { waitMs: 5_000 });
    second.release();
  });
});
