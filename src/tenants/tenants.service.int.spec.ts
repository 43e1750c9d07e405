import { randomUUID } from 'node:crypto';
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultEngine, freshDatabase, serverUrl, type TestStore } from '../../test/support/stores.js';
import { MIGRATIONS } from '../migrations.js';
import { openStore } from '../store/store.js';
import { TenantService } from './tenants.service.js';
import { listenForTenantChanges } from './tenant-changes.js';
import { CommandHandler } from '../application/command-handler.js';
import { ConfigLog } from '../application/config/config-log.js';
import { PostgresLedger } from '../ledger/postgres/postgres.ledger.js';

/** Counts the key lookups (SELECTs naming control.api_keys); while `gate` is set, their answers wait for it. */
class KeyLookups implements KyselyPlugin {
  count = 0;
  /** Lookups whose rows came back from the database (held at the gate from then on). */
  answered = 0;
  gate: Promise<void> | undefined;
  private readonly lookups = new WeakSet<object>();
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    if (args.node.kind === 'SelectQueryNode' && JSON.stringify(args.node).includes('api_keys')) {
      this.count += 1;
      this.lookups.add(args.queryId);
    }
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    if (this.lookups.has(args.queryId)) {
      this.answered += 1;
      await this.gate;
    }
    return args.result;
  }
}

if (!serverUrl) {
  console.log(
    '[tenants] the lookup-during-revocation test holds a lookup on its connection: it runs only against a PostgreSQL server (set DATABASE_URL).',
  );
}

describe('tenant service › when many requests present a key that is not cached › they share one lookup', () => {
  let t: TestStore;
  let lookups: KeyLookups;
  let tenants: TenantService;

  beforeAll(async () => {
    t = await defaultEngine();
    lookups = new KeyLookups();
    // A cache of 0 ms: every request finds its entry expired.
    const changes = new ConfigLog(new CommandHandler(new PostgresLedger(t.store.db)));
    tenants = new TenantService(t.store.db.withPlugin(lookups), { cacheMs: 0, changes });
  });
  afterAll(() => t?.dispose());

  it('answers 50 concurrent requests with one query, and each wrong secret still fails', async () => {
    const { apiKey, apiSecret, tenantId } = await tenants.create('busy', 'starter');
    lookups.count = 0;
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => tenants.authenticate(apiKey, i % 10 === 9 ? `${apiSecret}x` : apiSecret)),
    );
    expect(lookups.count).toBe(1);
    expect(answers.map((a) => a?.tenantId ?? null)).toEqual(Array.from({ length: 50 }, (_, i) => (i % 10 === 9 ? null : tenantId)));
  });

  // PGlite is one connection, and a held lookup holds it: the revocation could not run meanwhile.
  it.skipIf(!serverUrl)('never hands a request that came after a revocation the lookup begun before it', async () => {
    const { apiKey, apiSecret, tenantId } = await tenants.create('revoked', 'starter');
    let open!: () => void;
    lookups.gate = new Promise((resolve) => (open = resolve));
    lookups.count = 0;
    lookups.answered = 0;
    // A lookup reads the key, then is held before it answers: its row has come back (not only
    // been asked for) before the revocation starts, so it read the key as it was before.
    const before = tenants.authenticate(apiKey, apiSecret);
    await expect.poll(() => lookups.answered).toBe(1);
    // The revocation reads the key first (one more SELECT naming api_keys, not held: no gate for it).
    const gate = lookups.gate;
    lookups.gate = undefined;
    await tenants.revokeKey(tenantId, apiKey);
    lookups.gate = gate;
    const revoked = lookups.count;
    const after = tenants.authenticate(apiKey, apiSecret);
    open();
    lookups.gate = undefined;
    expect(await after).toBeNull();
    expect(lookups.count, 'the request after the revocation read the key again').toBe(revoked + 1);
    // The request in flight during the revocation read the key before it: it may still pass.
    expect((await before)?.tenantId).toBe(tenantId);
  });
});

/** Holds the answer of every read of control.tenants for a while: what a slow first start looks like. */
class SlowTenantReads implements KyselyPlugin {
  private readonly reads = new WeakSet<object>();
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    const text = JSON.stringify(args.node);
    if (args.node.kind === 'SelectQueryNode' && text.includes('"tenants"')) this.reads.add(args.queryId);
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    if (this.reads.has(args.queryId)) await new Promise((resolve) => setTimeout(resolve, 200));
    return args.result;
  }
}

describe.skipIf(!serverUrl)('tenant service › when several processes start together on an empty server › one first tenant', () => {
  it('creates the first tenant once: the others find it', async () => {
    const fresh = await freshDatabase();
    const stores = await Promise.all(Array.from({ length: 4 }, () => openStore({ migrations: MIGRATIONS, databaseUrl: fresh.url })));
    try {
      // Each its own pool, as processes are; each one's check held open while the others check.
      const services = stores.map(
        (s) =>
          new TenantService(s.db.withPlugin(new SlowTenantReads()), {
            changes: new ConfigLog(new CommandHandler(new PostgresLedger(s.db))),
          }),
      );
      const made = await Promise.all(services.map((t) => t.createFirst('default', 'starter', true, async () => true)));
      expect(made.filter(Boolean)).toHaveLength(1);
      expect(await services[0]!.list()).toHaveLength(1);
    } finally {
      await Promise.all(stores.map((s) => s.close()));
      await fresh.drop();
    }
  });
});

describe('tenant service › when the ledger holds events but the store no tenant (a copy not run to its end)', () => {
  it('creates no first tenant', async () => {
    const { store, dispose } = await defaultEngine();
    try {
      const ledger = new PostgresLedger(store.db);
      const service = new TenantService(store.db, { changes: new ConfigLog(new CommandHandler(ledger)) });
      await ledger.append(
        [
          {
            tenantId: randomUUID(),
            stream: `copied-${randomUUID()}`,
            expectedRevision: 'no_stream',
            events: [{ type: 'Copied', data: {} }],
          },
        ],
        new Date(),
      );
      expect(
        await service.createFirst('default', 'starter', store.kind === 'postgres', async () => (await ledger.headPosition()) === null),
      ).toBeNull();
      expect(await service.isEmpty()).toBe(true);
    } finally {
      await dispose();
    }
  });
});

describe.skipIf(!serverUrl)('tenant service › a publishable key issued by one process', () => {
  it("opens its origins to another process's preflights at once, not when that process's cache expires", async () => {
    const fresh = await freshDatabase();
    const [issuing, serving] = await Promise.all([0, 1].map(() => openStore({ migrations: MIGRATIONS, databaseUrl: fresh.url })));
    // The serving process trusts what it cached for a minute: only the announcement can reach it sooner.
    const other = new TenantService(serving!.db, { cacheMs: 60_000 });
    const listener = listenForTenantChanges(fresh.url, (tenantId) => other.invalidate(tenantId), { warn: () => {} });
    try {
      await listener.ready;
      const one = new TenantService(issuing!.db, { changes: new ConfigLog(new CommandHandler(new PostgresLedger(issuing!.db))) });
      const { tenantId } = await one.create('shop', 'starter');
      const origin = 'https://shop.example.com';
      expect(await other.originAllowed(origin)).toBe(false);
      await one.createPublishableKey(tenantId, { origins: [origin] });
      await expect.poll(() => other.originAllowed(origin), { timeout: 5_000 }).toBe(true);
    } finally {
      await listener.close();
      await Promise.all([issuing!.close(), serving!.close()]);
      await fresh.drop();
    }
  });
});
