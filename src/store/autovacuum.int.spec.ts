import { randomBytes } from 'node:crypto';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freshDatabase, serverUrl } from '../../test/support/stores.js';
import { loadSettings } from '../config.js';
import { createService } from '../service.js';
import { autovacuumNotice } from './autovacuum.js';
import type { Database } from './schema.js';

/**
 * Nothing vacuums the service's tables on a server without autovacuum, so a service started on one
 * says so. This machine's server may run with autovacuum on or off; each test asks it which.
 */
const serverAutovacuum = async (url: string): Promise<boolean> => {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<{ autovacuum: string }>('SHOW autovacuum')).rows[0]!.autovacuum === 'on';
  } finally {
    await c.end();
  }
};

describe.runIf(serverUrl)('store › a PostgreSQL server without autovacuum', () => {
  let fresh: Awaited<ReturnType<typeof freshDatabase>>;
  beforeAll(async () => {
    fresh = await freshDatabase();
  });
  afterAll(() => fresh?.drop());

  it('names what is off: statistics collection turned off for the session is named as well', async () => {
    const on = await serverAutovacuum(fresh.url);
    const pool = new pg.Pool({ connectionString: fresh.url, max: 1, options: '-c track_counts=off' });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    try {
      const notice = await autovacuumNotice(db);
      expect(notice).toContain(on ? 'track_counts is off on this PostgreSQL server' : 'autovacuum and track_counts are off');
      expect(notice).toContain('VACUUM this database regularly');
    } finally {
      await db.destroy();
    }
  });

  it('a service started on the server prints the notice exactly when the server’s autovacuum is off', async () => {
    const on = await serverAutovacuum(fresh.url);
    const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    let notices: string[];
    try {
      const service = await createService(loadSettings({ ...fresh.env, MASTER_KEY: randomBytes(32).toString('hex'), LOG_LEVEL: 'silent' }));
      notices = write.mock.calls.map((c) => String(c[0]));
      await service.close();
    } finally {
      write.mockRestore();
    }
    const printed = notices.filter((n) => n.includes('so nothing vacuums'));
    expect(printed).toHaveLength(on ? 0 : 1);
    if (!on) expect(printed[0]).toContain('consent-ledger: autovacuum is off on this PostgreSQL server');
  });
});
