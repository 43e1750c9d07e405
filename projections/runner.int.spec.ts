import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { dropReadSchema, ensureReadSchema, READ_SCHEMA_VERSION } from './read-schema.js';
import { ReadSchemaReplaced } from './runner.js';
import { allProjectors } from './index.js';
import {
  openHarness,
  published,
  recorded,
  rowsOf,
  snapshotReadModels,
  withdrawn,
  type PlainConsentRecorded,
  type ProjectionHarness,
} from '../test/support/projections.js';
import { availableEngines } from '../test/support/stores.js';

describe.each(availableEngines)('projection runner ($name)', ({ open }) => {
  let h: ProjectionHarness;
  beforeAll(async () => {
    h = await openHarness(open);
  });
  afterAll(() => h?.dispose());

  const failuresOf = async (eventIds: string[]) =>
    (await rowsOf(h.db, 'read.projection_failures'))
      .filter((r) => eventIds.includes(r.event_id as string))
      .map((r) => [r.projector, r.event_id]);

  describe('projection runner › when a projector throws on one event', () => {
    it('records the failure, skips that event for that projector only, and applies the events after it', async () => {
      const tenant = randomUUID();
      const policy = published();
      const before = recorded(policy, { userReference: 'before', timestamp: '2024-04-01T10:00:00.000Z' });
      // No policy title: only the consents projector (policy_title NOT NULL) refuses it.
      const noMetadata = recorded(policy, { userReference: 'poison-1', timestamp: '2024-04-01T11:00:00.000Z' });
      delete (noMetadata.data as { policyTitle?: unknown }).policyTitle;
      // A timestamp PostgreSQL cannot read, whose error text quotes words that also appear in
      // connection errors: every consent projector refuses it, and it is still no outage.
      const badTime = recorded(policy, { userReference: 'poison-2', timestamp: 'connection closed: timeout' });
      const after = recorded(policy, { userReference: 'after', timestamp: '2024-04-01T12:00:00.000Z' });
      await h.append(tenant, [policy, before]);
      const poison1 = await h.append(tenant, [noMetadata]);
      const poison2 = await h.append(tenant, [badTime]);
      await h.append(tenant, [after]);

      const errors: object[] = [];
      const runner = h.runner({ log: { warn: () => undefined, error: (o) => errors.push(o) } });
      await runner.catchUp();

      const ids = [poison1.events[0]!.id, poison2.events[0]!.id];
      expect((await failuresOf(ids)).sort()).toEqual(
        [
          ['consents', ids[0]],
          ['consents', ids[1]],
          ['user_policy_status', ids[1]],
        ].sort(),
      );
      expect(errors.length).toBeGreaterThan(0);
      const who = (refs: string[]) => refs.map((r) => h.subject(tenant, r)).sort();
      const consents = (await rowsOf(h.db, 'read.consents')).filter((r) => r.tenant_id === tenant).map((r) => r.subject);
      expect(consents.sort()).toEqual(who(['after', 'before']));
      const counted = (await rowsOf(h.db, 'read.consent_counts')).filter((r) => r.tenant_id === tenant);
      // The counters move with the rows (the consents projector keeps both): the refused record is in neither.
      expect(counted).toMatchObject([{ day: '2024-04-01', count: 2 }]);
      const status = (await rowsOf(h.db, 'read.user_policy_status')).filter((r) => r.tenant_id === tenant).map((r) => r.subject);
      expect(status.sort()).toEqual(who(['after', 'before', 'poison-1']));

      const head = await h.ledger.headPosition();
      const checkpoints = await rowsOf(h.db, 'read.checkpoints');
      for (const cp of checkpoints)
        expect({ name: cp.name, commit: Number(cp.commit_position), prepare: Number(cp.prepare_position) }).toEqual({
          name: cp.name,
          ...head,
        });
    });

    it('keeps its loop running: a started runner reaches the events after the bad one', async () => {
      const tenant = randomUUID();
      const policy = published();
      const bad = recorded(policy, { userReference: 'bad', timestamp: 'closed' });
      const good = recorded(policy, { userReference: 'good', timestamp: '2024-04-02T10:00:00.000Z' });
      const runner = h.runner({ pollMs: 20 });
      await runner.start();
      try {
        await h.append(tenant, [policy, bad]);
        const last = await h.append(tenant, [good]);
        expect(await runner.waitFor(last.position, 20_000)).toBe(true);
      } finally {
        await runner.stop();
      }
      const consents = (await rowsOf(h.db, 'read.consents')).filter((r) => r.tenant_id === tenant).map((r) => r.subject);
      expect(consents).toEqual([h.subject(tenant, 'good')]);
    });
  });

  describe('projection runner › when another version of the service has rebuilt the read models', () => {
    it('writes nothing into them, records no failure, and keeps its place', async () => {
      const tenant = randomUUID();
      const policy = published();
      await h.append(tenant, [policy, recorded(policy, { userReference: 'kept' })]);
      const runner = h.runner();
      await runner.catchUp();
      const checkpoints = await rowsOf(h.db, 'read.checkpoints');
      const failures = (await rowsOf(h.db, 'read.projection_failures')).length;
      // What a process of another version leaves: the schema's version is not this build's.
      await sql`UPDATE read.meta SET value = '1' WHERE key = 'version'`.execute(h.db);
      try {
        await h.append(tenant, [recorded(policy, { userReference: 'not-projected' })]);
        await expect(runner.runOnce()).rejects.toBeInstanceOf(ReadSchemaReplaced);
        const subjects = (await rowsOf(h.db, 'read.consents')).filter((r) => r.tenant_id === tenant).map((r) => r.subject);
        expect(subjects).toEqual([h.subject(tenant, 'kept')]);
        expect(await rowsOf(h.db, 'read.checkpoints')).toEqual(checkpoints);
        expect((await rowsOf(h.db, 'read.projection_failures')).length).toBe(failures);
      } finally {
        await sql`UPDATE read.meta SET value = ${String(READ_SCHEMA_VERSION)} WHERE key = 'version'`.execute(h.db);
      }
      // Back on this version's read models, it goes on from where it was.
      await runner.catchUp();
      expect((await rowsOf(h.db, 'read.consents')).filter((r) => r.tenant_id === tenant)).toHaveLength(2);
    });
  });

  describe('projection runner › when a batch holds many events', () => {
    it('leaves the same rows as applying one event at a time, whatever the mix of records, withdrawals and erasures', async () => {
      // A store of its own: the replays below read the whole ledger, without the poison events above.
      const h = await openHarness(open);
      try {
        // A fixed pseudo-random mix: records of a few subjects for two policy types over two days
        // (the same subject and type again and again, so a batch decides one status row many
        // times), withdrawals of older and newer records, and an erasure mid-way.
        let seed = 7;
        const next = (n: number) => {
          seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
          return Math.floor((seed / 2 ** 31) * n);
        };
        for (const tenant of [randomUUID(), randomUUID()]) {
          const policies = [published({ policyType: 'privacy_policy' }), published({ policyType: 'terms_of_service' })];
          await h.append(tenant, policies);
          const written: PlainConsentRecorded[] = [];
          for (let i = 0; i < 120; i++) {
            const roll = next(10);
            const at = new Date(Date.UTC(2024, 4, 1 + (i % 2), 10, 0, i)).toISOString();
            if (i === 60) {
              await h.append(tenant, [await h.erase(tenant, `user-${next(4)}`, at)]);
            } else if (roll < 6 || written.length === 0) {
              const batch = Array.from({ length: 1 + next(3) }, () =>
                recorded(policies[next(2)]!, { userReference: `user-${next(4)}`, consentGiven: next(3) > 0, timestamp: at }),
              );
              written.push(...batch);
              await h.append(tenant, batch);
            } else if (roll < 8) {
              // Imported history: records with their withdrawals in one append (a run holds both),
              // decided at older or newer times than what stands, some superseded within the append.
              const batch = Array.from({ length: 1 + next(3) }, () =>
                recorded(policies[next(2)]!, {
                  userReference: `user-${next(4)}`,
                  timestamp: at,
                  collectedAt: new Date(Date.UTC(2024, 3, 1 + next(60), 9)).toISOString(),
                }),
              );
              written.push(...batch);
              const events = batch.flatMap((r) => (next(3) > 0 ? [r, withdrawn(r.data.consentId, at, next(2) ? 'opted out' : null)] : [r]));
              await h.append(tenant, events);
            } else {
              await h.append(tenant, [withdrawn(written[next(written.length)]!.data.consentId, at, next(2) ? 'moved away' : null)]);
            }
          }
        }
        const perEvent = allProjectors.map(({ applyBatch: _batched, ...p }) => p);
        await h.runner({ projectors: perEvent, batchSize: 1 }).catchUp();
        const oneByOne = await snapshotReadModels(h.db);
        await dropReadSchema(h.db);
        await ensureReadSchema(h.db);
        const errors: object[] = [];
        await h.runner({ batchSize: 1000, log: { warn: () => undefined, error: (o) => errors.push(o) } }).catchUp();
        expect(errors).toEqual([]);
        expect(await snapshotReadModels(h.db)).toEqual(oneByOne);
      } finally {
        await h.dispose();
      }
    });
  });
});
