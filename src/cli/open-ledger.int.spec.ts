import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LedgerUnavailableError } from '../ledger/ledger.port.js';
import { MIGRATIONS } from '../migrations.js';
import { LedgerLocationError, locationKind, maskLocation } from './ledger-location.js';
import { shownDatabaseUrl } from '../store/database-errors.js';
import { openLedger } from './open-ledger.js';

describe('open-ledger › a location names an adapter', () => {
  it.each([
    ['./data', 'embedded', resolve('./data')],
    ['file:./data', 'embedded', resolve('./data')],
    ['file:///var/lib/consent', 'embedded', '/var/lib/consent'],
    ['postgres://u:p@db:5432/c', 'postgres', 'postgres://u:p@db:5432/c'],
    ['postgresql://db/c', 'postgres', 'postgresql://db/c'],
    ['esdb://esdb:2113?tls=false', 'eventstoredb', 'esdb://esdb:2113?tls=false'],
    ['kurrentdb+discover://a:2113,b:2113', 'eventstoredb', 'kurrentdb+discover://a:2113,b:2113'],
    ['kdb://k:2113', 'eventstoredb', 'kdb://k:2113'],
  ])('%s', (location, kind, target) => {
    expect(locationKind(location)).toEqual({ kind, target });
  });

  it('refuses what names none, saying what to give', () => {
    expect(() => locationKind('mysql://db/c')).toThrow(LedgerLocationError);
    expect(() => locationKind('mysql://db/c')).toThrow(/a folder \(DATA_DIR\), a postgres:\/\/ URL or an esdb:\/\//);
    expect(() => locationKind('  ')).toThrow(/empty/);
  });

  it('never shows a password in messages', () => {
    expect(maskLocation('postgres://consent:s3cret@db:5432/c')).toBe('postgres://consent:***@db:5432/c');
    // The driver reads a password from the query too.
    expect(maskLocation('postgres://consent@db/c?password=s3cret&sslmode=require&sslpassword=k3y')).toBe(
      'postgres://consent@db/c?password=***&sslmode=require&sslpassword=***',
    );
    expect(shownDatabaseUrl('postgres://consent:a@db/c?PassWord=s3cret')).toBe('postgres://consent:***@db/c?PassWord=***');
    expect(maskLocation('./data')).toBe('./data');
  });
});

describe('open-ledger › opening', () => {
  it('refuses an embedded source folder with no store, and creates nothing there', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cl-open-'));
    try {
      await expect(openLedger(join(dir, 'none'), { migrations: MIGRATIONS, mustExist: true })).rejects.toThrow(
        /no embedded store in this folder/,
      );
      const opened = await openLedger(join(dir, 'new'), { migrations: MIGRATIONS });
      try {
        expect(opened.kind).toBe('embedded');
        expect(await opened.count!()).toBe(0);
        expect(await opened.ledger.headPosition()).toBeNull();
      } finally {
        await opened.close();
      }
      const again = await openLedger(join(dir, 'new'), { migrations: MIGRATIONS, mustExist: true });
      await again.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it(
    'loads the EventStoreDB adapter only for an EventStoreDB location, and reaches the server through it',
    { timeout: 20_000 },
    async () => {
      const error = await openLedger(
        'kurrentdb://127.0.0.1:1?tls=false&maxDiscoverAttempts=1&discoveryInterval=10&gossipTimeout=500&defaultDeadline=1000',
        { migrations: MIGRATIONS },
      ).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(LedgerUnavailableError);
    },
  );
});
