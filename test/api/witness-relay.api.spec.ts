import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseVerifierKey } from '../../src/transparency/note.js';
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
