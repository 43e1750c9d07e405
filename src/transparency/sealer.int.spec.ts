import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openHarness, published, recorded, type ProjectionHarness } from '../../test/support/projections.js';
import { availableEngines } from '../../test/support/stores.js';
import { openNote, parseCheckpoint, parseVerifierKey, signerFromSeed } from './note.js';
import { Sealer } from './sealer.js';
import { keyNameOf, originOf } from './signing-key.js';
import { TransparencyStore } from './transparency.store.js';

// RFC 9162 §2.1.1, written here from the text: MTH({}) = SHA-256(), MTH({d0}) = SHA-256(0x00 || d0),
// MTH(D[n]) = SHA-256(0x01 || MTH(D[0:k]) || MTH(D[k:n])), k the largest power of two below n.
const sha = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest();
function mth(leaves: readonly Buffer[]): Buffer {
  if (leaves.length === 0) return sha();
  if (leaves.length === 1) return sha(Buffer.from([0]), leaves[0]!);
  let k = 1;
  while (k * 2 < leaves.length) k *= 2;
  return sha(Buffer.from([1]), mth(leaves.slice(0, k)), mth(leaves.slice(k)));
}

const BASE = 'https://ledger.example.com';

describe.each(availableEngines)('transparency sealer ($name)', ({ open }) => {
  let h: ProjectionHarness;
  beforeAll(async () => {
    h = await openHarness(open);
  });
  afterAll(() => h?.dispose());

  describe('sealer › when two processes seal the same ledger in turns, batch after batch', () => {
    it("gives every tenant the tree of its own events in ledger order, each checkpoint signed over that tree's root", async () => {
      const tenants = [randomUUID(), randomUUID(), randomUUID()];
      const policy = published();
      // Interleaved appends: every batch holds events of several tenants, one tenant's run of
      // events is split across batches, and sealers that did not seal the last batch must
      // notice their remembered frontier is stale.
      for (let i = 0; i < 40; i++) {
        const tenant = tenants[(i * 7) % 3]!;
        await h.append(
          tenant,
          i < 3 ? [policy, recorded(policy, { userReference: `u${i}` })] : [recorded(policy, { userReference: `u${i}` })],
        );
      }
      const signer = signerFromSeed(keyNameOf(BASE), randomBytes(32));
      const store = new TransparencyStore(h.db);
      const origin = (t: string) => originOf(BASE, t);
      const sealers = [5, 3].map((batchSize) => new Sealer(h.db, h.ledger, store, signer, origin, { batchSize }));
      await sealers[0]!.ensureCheckpoint();
      let turn = 0;
      const head = (await h.ledger.headPosition())!;
      while (
        sealers.some((s) => s.position.commit < head.commit || (s.position.commit === head.commit && s.position.prepare < head.prepare))
      ) {
        // Four turns each: each catches up with and runs ahead of the other in turn.
        await sealers[Math.floor(turn++ / 4) % 2]!.runOnce();
      }
      const verifier = parseVerifierKey(signer.vkey);
      const all = await h.ledger.readAll({ commit: 0, prepare: 0 }, 100_000);
      for (const tenant of tenants) {
        const mine = all.filter((e) => e.tenantId === tenant);
        const entries = await store.entries(tenant, -1, 1000);
        expect(entries.map((e) => e.eventHash)).toEqual(mine.map((e) => e.hash));
        const latest = (await store.latestCheckpoint(tenant))!;
        const cp = parseCheckpoint(openNote(latest.note, verifier));
        expect(cp.origin).toBe(origin(tenant));
        expect(cp.treeSize).toBe(mine.length);
        expect(cp.rootHash.toString('hex')).toBe(mth(mine.map((e) => Buffer.from(e.hash, 'hex'))).toString('hex'));
      }
    });
  });
});
