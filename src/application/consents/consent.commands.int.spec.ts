import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applicationOn } from '../../../test/support/application.js';
import { availableEngines, type TestStore } from '../../../test/support/stores.js';
import { DomainError } from '../../domain/errors.js';
import type { AppendRequest, AppendResult, Ledger, LedgerPosition, RecordedEvent } from '../../ledger/ledger.port.js';
import { PostgresLedger } from '../../ledger/postgres/postgres.ledger.js';
import { Privacy } from '../../privacy/privacy.js';
import type { PolicyCommands } from '../policies/policy.commands.js';
import type { ConsentCommands, ConsentInput } from './consent.commands.js';

/** Passes every call through; counts the streams read. */
class CountingLedger implements Ledger {
  reads = 0;
  constructor(protected readonly inner: Ledger) {}
  append(requests: AppendRequest[], recordedAt: Date): Promise<AppendResult> {
    return this.inner.append(requests, recordedAt);
  }
  readStream(stream: string): Promise<RecordedEvent[]> {
    this.reads += 1;
    return this.inner.readStream(stream);
  }
  readAll(after: LedgerPosition, limit: number): Promise<RecordedEvent[]> {
    return this.inner.readAll(after, limit);
  }
  headPosition(tenantId?: string): Promise<LedgerPosition | null> {
    return this.inner.headPosition(tenantId);
  }
}

/**
 * Runs `before` once, just before the first read of a stream whose name starts with `prefix`: a
 * writer that gets in between two reads of one command (a real write, on the real store).
 */
class InterposingLedger extends CountingLedger {
  constructor(
    inner: Ledger,
    private readonly prefix: string,
    private before: (() => Promise<unknown>) | undefined,
  ) {
    super(inner);
  }
  override async readStream(stream: string): Promise<RecordedEvent[]> {
    const before = this.before;
    if (before && stream.startsWith(this.prefix)) {
      this.before = undefined;
      await before();
    }
    return super.readStream(stream);
  }
}

const refusal = async (promise: Promise<unknown>): Promise<string | undefined> =>
  promise.then(
    () => undefined,
    (e: unknown) => (e instanceof DomainError ? e.code : String(e)),
  );

for (const engine of availableEngines) {
  // Two services on one store, each with a ledger of its own: two processes sharing a database.
  describe(`consent commands (${engine.name}) › when a policy changes in another process › records follow the ledger, not what was remembered`, () => {
    let t: TestStore;
    let here: ConsentCommands;
    let counted: CountingLedger;
    let elsewhere: PolicyCommands;
    const tenantId = randomUUID();
    let policyId: string;
    const input = (userReference: string): ConsentInput => ({ policyVersionId: policyId, userReference, consentGiven: true });

    beforeAll(async () => {
      t = await engine.open();
      const privacy = await Privacy.open(t.store.db, randomBytes(32));
      counted = new CountingLedger(new PostgresLedger(t.store.db));
      here = applicationOn(counted, privacy, t.store).consents;
      elsewhere = applicationOn(new PostgresLedger(t.store.db), privacy, t.store).policies;
      policyId = (await elsewhere.publish(tenantId, { policyType: 'privacy_policy', version: '1.0.0', title: 'P', content: 'c' })).id;
    });
    afterAll(() => t?.dispose());

    it('refuses a record once the policy it remembered was deactivated or deleted, and records again once reactivated', async () => {
      await here.record(tenantId, input('u-1'));
      const readsBefore = counted.reads;
      await here.record(tenantId, input('u-2'));
      expect(counted.reads - readsBefore, 'a record on a remembered policy reads no stream').toBe(0);

      await elsewhere.setActive(tenantId, policyId, false);
      expect(await refusal(here.record(tenantId, input('u-3')))).toBe('POLICY_VERSION_INACTIVE');
      expect(await refusal(here.recordBatch(tenantId, [input('u-4'), input('u-5')]))).toBe('VALIDATION_ERROR');

      await elsewhere.setActive(tenantId, policyId, true);
      await here.record(tenantId, input('u-6'));
      await here.recordBatch(tenantId, [input('u-7')]);

      await elsewhere.delete(tenantId, policyId);
      expect(await refusal(here.record(tenantId, input('u-8')))).toBe('POLICY_VERSION_INACTIVE');
      expect(await refusal(here.recordBatch(tenantId, [input('u-9')]))).toBe('VALIDATION_ERROR');
    });

    it('refuses a batch on a remembered policy deactivated since, naming the item', async () => {
      const other = (await elsewhere.publish(tenantId, { policyType: 'terms_of_service', version: '2.0.0', title: 'T', content: 't' })).id;
      const item = (ref: string): ConsentInput => ({ policyVersionId: other, userReference: ref, consentGiven: false });
      await here.recordBatch(tenantId, [item('b-1')]);
      await elsewhere.setActive(tenantId, other, false);
      const error = await here.recordBatch(tenantId, [item('b-2'), item('b-3')]).then(
        () => undefined,
        (e: unknown) => e as DomainError,
      );
      expect(error?.code).toBe('VALIDATION_ERROR');
      expect((error?.details as { errors: { index: number }[] }).errors.map((e) => e.index)).toEqual([0, 1]);
    });
  });

  describe(`consent commands (${engine.name}) › with an Idempotency-Key › the first use reads nothing, a repeat answers the first record`, () => {
    let t: TestStore;
    let consents: ConsentCommands;
    let counted: CountingLedger;
    let policies: PolicyCommands;
    const tenantId = randomUUID();
    let policyId: string;

    beforeAll(async () => {
      t = await engine.open();
      const privacy = await Privacy.open(t.store.db, randomBytes(32));
      const ledger = new PostgresLedger(t.store.db);
      counted = new CountingLedger(ledger);
      consents = applicationOn(counted, privacy, t.store).consents;
      policies = applicationOn(ledger, privacy, t.store).policies;
      policyId = (await policies.publish(tenantId, { policyType: 'privacy_policy', version: '1.0.0', title: 'P', content: 'c' })).id;
      await consents.record(tenantId, { policyVersionId: policyId, userReference: 'warm', consentGiven: true });
    });
    afterAll(() => t?.dispose());

    it('replays the first record for the same key and request, even once its policy was deactivated, and refuses the key with another request', async () => {
      const idem = { key: `k-${randomUUID()}`, requestHash: 'h1' };
      const readsBefore = counted.reads;
      const first = await consents.record(tenantId, { policyVersionId: policyId, userReference: 'alice', consentGiven: true }, idem);
      expect(counted.reads - readsBefore, 'the first use of a key reads no stream').toBe(0);
      expect(first.replayed).toBe(false);

      const again = await consents.record(tenantId, { policyVersionId: policyId, userReference: 'alice', consentGiven: true }, idem);
      expect(again).toEqual({ replayed: true, view: first.view });

      await policies.setActive(tenantId, policyId, false);
      const afterDeactivation = await consents.record(
        tenantId,
        { policyVersionId: policyId, userReference: 'alice', consentGiven: true },
        idem,
      );
      expect(afterDeactivation).toEqual({ replayed: true, view: first.view });

      await expect(
        consents.record(
          tenantId,
          { policyVersionId: policyId, userReference: 'alice', consentGiven: true },
          { key: idem.key, requestHash: 'h2' },
        ),
      ).rejects.toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED' });
      await policies.setActive(tenantId, policyId, true);
      await expect(
        consents.record(
          tenantId,
          { policyVersionId: policyId, userReference: 'bob', consentGiven: true },
          { key: idem.key, requestHash: 'h3' },
        ),
      ).rejects.toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED' });
    });

    it('answers concurrent requests with the same key with one record', async () => {
      const idem = { key: `k-${randomUUID()}`, requestHash: 'same' };
      const answers = await Promise.all(
        Array.from({ length: 8 }, () =>
          consents.record(tenantId, { policyVersionId: policyId, userReference: 'carol', consentGiven: true }, idem),
        ),
      );
      expect(new Set(answers.map((a) => a.view.id)).size).toBe(1);
      expect(answers.filter((a) => !a.replayed)).toHaveLength(1);
    });
  });

  describe(`consent commands (${engine.name}) › when the same keyed withdrawal lands between a repeat's reads › the repeat answers what was recorded`, () => {
    let t: TestStore;
    afterAll(() => t?.dispose());

    it('answers the withdrawal time the ledger holds, not the record as first read', async () => {
      t = await engine.open();
      const tenantId = randomUUID();
      const privacy = await Privacy.open(t.store.db, randomBytes(32));
      const ledger = new PostgresLedger(t.store.db);
      const first = applicationOn(ledger, privacy, t.store);
      const policyId = (
        await first.policies.publish(tenantId, { policyType: 'privacy_policy', version: '1.0.0', title: 'P', content: 'c' })
      ).id;
      const { view } = await first.consents.record(tenantId, { policyVersionId: policyId, userReference: 'dave', consentGiven: true });
      const idem = { key: `k-${randomUUID()}`, requestHash: 'same' };
      let winner: Awaited<ReturnType<ConsentCommands['withdraw']>> | undefined;
      // The repeat has read the record (still given) and is about to read the key's stream when
      // the first request's withdrawal and key land.
      const interposed = new InterposingLedger(ledger, 'withdrawalkey-', async () => {
        winner = await first.consents.withdraw(tenantId, view.id, 'race', idem);
      });
      const repeat = await applicationOn(interposed, privacy, t.store).consents.withdraw(tenantId, view.id, 'race', idem);
      expect(winner?.replayed).toBe(false);
      expect(repeat.replayed).toBe(true);
      expect(repeat.view.withdrawnAt).not.toBeNull();
      expect(repeat.view).toEqual(winner!.view);
    });
  });
}
