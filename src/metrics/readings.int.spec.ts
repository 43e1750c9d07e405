import pg from 'pg';
import { Kysely, PostgresDialect } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectingAs, dropServerRole, freshDatabase, serverUrl } from '../../test/support/stores.js';
import type { Database } from '../store/schema.js';
import { oldestTransactionSeconds } from './readings.js';

if (!serverUrl) console.log('[readings] DATABASE_URL is not set: the oldest-transaction gauge is read only on a PostgreSQL server');

describe.skipIf(!serverUrl)('metrics › the age of the oldest open transaction', () => {
  const role = `cl_readings_${Date.now().toString(36)}`;
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let holder: pg.Client;
  const open = (url: string) =>
    new Kysely<Database>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 1 }) }) });

  beforeAll(async () => {
    db = await freshDatabase();
    holder = new pg.Client({ connectionString: db.url });
    await holder.connect();
    await holder.query(`CREATE ROLE ${role} LOGIN`);
    // Another session's transaction holding an xid.
    await holder.query('BEGIN');
    await holder.query('CREATE TEMP TABLE held (x int)');
  });
  afterAll(async () => {
    await holder?.query('ROLLBACK').catch(() => undefined);
    await holder?.end();
    await db?.drop();
    await dropServerRole(role);
  });

  it('is read by a role that sees every session, and left out (null) by one that cannot, never a false 0', async () => {
    const owner = open(db.url);
    const restricted = open(connectingAs(db.url, role));
    try {
      expect(await oldestTransactionSeconds(owner)).toBeGreaterThan(0);
      expect(await oldestTransactionSeconds(restricted)).toBeNull();
    } finally {
      await owner.destroy();
      await restricted.destroy();
    }
  });
});
