import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cosignatureLine, cosignersOf, cosignerVkey, parseVerifierKey, signerFromSeed } from '../../src/transparency/note.js';
import { TransparencyStore } from '../../src/transparency/transparency.store.js';
import { parseWitnesses, WitnessRelay } from '../../src/transparency/witness-relay.js';
import { Witness } from '../../src/transparency/witness.js';
import { client, publishPolicy, sealedCheckpoint, startTestService, type Client, type TestService } from '../support/service.js';

/**
 * Several processes relay one log to a witness (docs/scaling.md): one that read the log a moment
 * ago may offer a checkpoint smaller than one another process had cosigned since. The witness
 * answers 409 with its size; that is the log having grown, not a rollback.
 */
describe('witness relay › a process whose view of the log is a moment old', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cl-relay-'));
  let t: TestService;
  let api: Client;
  let witness: Witness;
  let policyVersionId: string;
  beforeAll(async () => {
    t = await startTestService();
    api = client(t.app, await t.tenant());
    const logVkey = (await t.app.inject({ url: '/.well-known/consent-ledger/keys' })).json().keys[0].vkey as string;
    witness = Witness.open(join(dir, 'witness'), [parseVerifierKey(logVkey)], 'witness.example');
    policyVersionId = await publishPolicy(api);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const record = async () =>
    expect((await api.post('/api/v1/consent', { policyVersionId, userReference: 'u', consentGiven: true })).statusCode).toBe(201);
  /** The witness, reached in-process: its add-checkpoint answer as HTTP would carry it. */
  const reach = (before?: () => Promise<void>): typeof fetch =>
    (async (_url: string, init: RequestInit) => {
      await before?.();
      const a = await witness.addCheckpoint(String(init.body));
      return new Response(a.body, { status: a.status, headers: { 'content-type': a.contentType } });
    }) as typeof fetch;
  const relay = (fetchImpl: typeof fetch) =>
    new WitnessRelay(t.service.store.db, new TransparencyStore(t.service.store.db), parseWitnesses(`${witness.vkey}@http://witness.test`), {
      fetch: fetchImpl,
    });

  it('is told the larger size, finds the log holds it, and reports no rollback', async () => {
    await record();
    const first = await sealedCheckpoint(api, 1);
    // While the late relay's offer is on its way, the log grows and another process has the larger checkpoint cosigned.
    let grown = 0;
    const late = relay(
      reach(async () => {
        if (grown > 0) return;
        await record();
        grown = (await sealedCheckpoint(api, first.treeSize + 1)).treeSize;
        await relay(reach()).runOnce();
      }),
    );
    await late.runOnce();
    expect(grown).toBeGreaterThan(first.treeSize);
    const state = await sql<{ failure: string | null; tree_size: string }>`
      SELECT failure, tree_size::text FROM transparency.witness_state`.execute(t.service.store.db);
    expect(state.rows.length).toBeGreaterThan(0);
    expect(state.rows.filter((r) => r.failure !== null)).toEqual([]);
    expect((await late.status())!.witnesses[0]!.failing).toEqual([]);
  });
});

/**
 * Someone with the database's credentials writes a cosignature row for a witness: the quorum must
 * not read as reached, the relay must ask the witness again, and no proof may serve the line.
 */
describe('witness relay › a cosignature written into the database, not by the witness', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cl-relay-planted-'));
  let t: TestService;
  let api: Client;
  let witness: Witness;
  let tenantId: string;
  beforeAll(async () => {
    t = await startTestService();
    const creds = await t.tenant();
    tenantId = creds.tenantId;
    api = client(t.app, creds);
    const logVkey = (await t.app.inject({ url: '/.well-known/consent-ledger/keys' })).json().keys[0].vkey as string;
    witness = Witness.open(join(dir, 'witness'), [parseVerifierKey(logVkey)], 'witness.example');
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is neither counted nor served, and the witness is asked again', async () => {
    const policyVersionId = await publishPolicy(api);
    expect((await api.post('/api/v1/consent', { policyVersionId, userReference: 'u', consentGiven: true })).statusCode).toBe(201);
    const db = t.service.store.db;
    // Every event of the tenant sealed, so that the newest checkpoint stays the one planted on.
    const events = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM ledger.events WHERE tenant_id = ${tenantId}`.execute(db))
      .rows[0]!.n;
    const { treeSize } = await sealedCheckpoint(api, events);
    const { note } = (
      await sql<{ note: string }>`
      SELECT note FROM transparency.checkpoints WHERE tenant_id = ${tenantId} AND tree_size = ${treeSize}`.execute(db)
    ).rows[0]!;
    // A line under the witness's name and key id, signed by another key.
    const forger = signerFromSeed('witness.example', randomBytes(32));
    const planted = cosignatureLine(
      note.slice(0, note.indexOf('\n\n') + 1),
      { ...forger, publicKey: witness.signer.publicKey },
      new Date(),
    );
    await sql`INSERT INTO transparency.cosignatures (tenant_id, tree_size, witness, line, cosigned_at)
      VALUES (${tenantId}, ${treeSize}, ${witness.vkey}, ${planted}, now())`.execute(db);

    const store = new TransparencyStore(db);
    const relay = (fetchImpl: typeof fetch) => {
      const r = new WitnessRelay(db, store, parseWitnesses(`${witness.vkey}@http://witness.test`), {
        fetch: fetchImpl,
        retryMs: 0,
        graceMs: 0,
      });
      store.cosigning = { check: r.check, quorum: 1 };
      return r;
    };
    const firstLeaf = (
      await sql<{ event_id: string }>`
      SELECT event_id::text FROM transparency.leaves WHERE tenant_id = ${tenantId} AND leaf_index = 0`.execute(db)
    ).rows[0]!.event_id;
    // The witness cannot be reached.
    const down = relay((async () => {
      throw new Error('connect ECONNREFUSED');
    }) as typeof fetch);
    // And a row for a witness nobody asks, its line under that name with a signature that is no one's.
    const stranger = signerFromSeed('evil.example/witness', randomBytes(32));
    const strangerLine = cosignatureLine(
      note.slice(0, note.indexOf('\n\n') + 1),
      { ...forger, name: stranger.name, publicKey: stranger.publicKey },
      new Date(),
    );
    await sql`INSERT INTO transparency.cosignatures (tenant_id, tree_size, witness, line, cosigned_at)
      VALUES (${tenantId}, ${treeSize}, ${cosignerVkey(stranger)}, ${strangerLine}, now())`.execute(db);
    // Served without either line, and no proof takes the checkpoint as cosigned.
    expect((await store.latestCheckpoint(tenantId))!.note).toBe(note);
    expect((await store.proofBasis(tenantId, firstLeaf))!.checkpoint.note).toBe(note);

    // /ready counts it for nothing at once, before any sweep.
    const counted = (await down.status())!;
    expect(counted.quorumReached).toBe(false);
    expect(counted.belowQuorum).toEqual([expect.objectContaining({ tenantId, treeSize, cosignatures: 0 })]);
    // The row is found, deleted and reported; the quorum is not reached.
    await down.runOnce();
    const status = (await down.status())!;
    expect(status.quorumReached).toBe(false);
    expect(status.belowQuorum).toEqual([expect.objectContaining({ tenantId, treeSize, cosignatures: 0 })]);
    expect(
      (await sql<{ n: number }>`SELECT count(*)::int AS n FROM transparency.cosignatures WHERE witness = ${witness.vkey}`.execute(db))
        .rows[0]!.n,
    ).toBe(0);
    const failures = await sql<{ failure: string }>`SELECT failure FROM transparency.witness_state WHERE tenant_id = ${tenantId}`.execute(
      db,
    );
    expect(failures.rows.map((r) => r.failure).join('\n')).toMatch(/unreachable|does not verify/);

    // Reached again: asked, and its own cosignature is kept, counted and served.
    const up = relay((async (_url: string, init: RequestInit) => {
      const a = await witness.addCheckpoint(String(init.body));
      return new Response(a.body, { status: a.status, headers: { 'content-type': a.contentType } });
    }) as typeof fetch);
    await up.runOnce();
    expect((await up.status())!.quorumReached).toBe(true);
    const served = (await store.proofBasis(tenantId, firstLeaf))!.checkpoint.note;
    expect(cosignersOf(served, [parseVerifierKey(witness.vkey)]).map((c) => c.vkey)).toEqual([witness.vkey]);
  });
});
