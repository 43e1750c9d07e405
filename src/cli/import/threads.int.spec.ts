import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadSettings } from '../../config.js';
import { ImportThreads } from './threads.js';

describe('import threads › a thread that cannot start', () => {
  it('refuses the start with its reason, promptly', async () => {
    // Port 1 on loopback: nothing listens, every connection is refused at once.
    const settings = loadSettings({
      DATABASE_URL: 'postgres://postgres@127.0.0.1:1/nowhere',
      MASTER_KEY: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'silent',
    });
    const started = Date.now();
    await expect(ImportThreads.start(2, settings, randomUUID(), { webhooks: true })).rejects.toThrow(/ECONNREFUSED|connect/);
    expect(Date.now() - started).toBeLessThan(30_000);
  }, 60_000);
});
