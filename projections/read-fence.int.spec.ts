import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openHarness, published, recorded, rowsOf, type ProjectionHarness } from '../test/support/projections.js';
import { availableEngines } from '../test/support/stores.js';
import type { LedgerPosition } from '../src/ledger/ledger.port.js';
import { ReadFence } from './read-fence.js';

describe.each(availableEngines)('read fence ($name)', ({ open }) => {
  let h: ProjectionHarness;
  beforeAll(async () => {
    h = await openHarness(open);
  });
  afterAll(() => h?.dispose());

  /** The harness ledger, counting the head reads the fence makes. */
  const counted = () => {
    const calls: (string | undefined)[] = [];
    return {
      calls,
      headPosition: (tenantId?: string): Promise<LedgerPosition | null> => (calls.push(tenantId), h.ledger.headPosition(tenantId)),
    };
  };
  const consentsOf = async (tenant: string) => (await rowsOf(h.db, 'read.consents')).filter((r) => r.tenant_id === tenant).length;
  const quiet = { warn: () => undefined, error: () => undefined };

  describe('read fence › when this process makes every append (embedded store)', () => {
    it('waits for the writes made before it started (asking the ledger once), then for the appends it is told of, without asking', async () => {
      const tenant = randomUUID();
      const policy = published();
      await h.append(tenant, [policy, recorded(policy, { userReference: 'before-start' })]);
      const ledger = counted();
      const runner = h.runner({ pollMs: 10_000 });
      const fence = new ReadFence(ledger, runner, { soleWriter: true, timeoutMs: 20_000, log: quiet });
      // The runner is not running yet: the read must wait for it, not answer from empty tables.
      const read = fence.wait(tenant).then(() => consentsOf(tenant));
      await runner.start();
      try {
        expect(await read).toBe(1);
        expect(ledger.calls).toEqual([tenant]);
        fence.appended(await h.append(tenant, [recorded(policy, { userReference: 'second' })]));
        fence.appended(await h.append(tenant, [recorded(policy, { userReference: 'third' })]));
        await fence.wait(tenant);
        expect(await consentsOf(tenant)).toBe(3);
        expect(ledger.calls).toEqual([tenant]);
      } finally {
        await runner.stop();
      }
    });
  });

  describe('read fence › when other processes may append (PostgreSQL server, EventStoreDB)', () => {
    it('asks the ledger for the tenant head at every read, so writes made elsewhere are waited for too', async () => {
      const tenant = randomUUID();
      const policy = published();
      const ledger = counted();
      const runner = h.runner({ pollMs: 10_000 });
      const fence = new ReadFence(ledger, runner, { soleWriter: false, timeoutMs: 20_000, log: quiet });
      await runner.start();
      try {
        // Appended "elsewhere": the fence is not told.
        await h.append(tenant, [policy, recorded(policy, { userReference: 'elsewhere-1' })]);
        await fence.wait(tenant);
        expect(await consentsOf(tenant)).toBe(1);
        await h.append(tenant, [recorded(policy, { userReference: 'elsewhere-2' })]);
        expect(await fence.wait(tenant)).toBe(true);
        expect(await consentsOf(tenant)).toBe(2);
        expect(ledger.calls).toEqual([tenant, tenant]);
      } finally {
        await runner.stop();
      }
    });
  });

  describe('read fence › when the read models do not catch up in time', () => {
    it('answers after its bound and says so', async () => {
      const tenant = randomUUID();
      const policy = published();
      const warned: object[] = [];
      const stopped = h.runner();
      const fence = new ReadFence(h.ledger, stopped, {
        soleWriter: true,
        timeoutMs: 50,
        log: { warn: (o) => warned.push(o), error: () => undefined },
      });
      fence.appended(await h.append(tenant, [policy, recorded(policy)]));
      expect(await fence.wait(tenant)).toBe(false);
      expect(warned).toEqual([{ tenantId: tenant }]);
    });
  });
});
