import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventHash } from '../../src/ledger/event-hash.js';
import { eventLeafHash, nodeHash, rangeHash, verifyConsistency, verifyInclusion, type NodeSource } from '../../src/transparency/merkle.js';
import { openNote, parseCheckpoint, parseVerifierKey } from '../../src/transparency/note.js';
import { client, publishPolicy, startTestService, type Client, type TestService } from '../support/service.js';

const fromHex = (h: string) => Buffer.from(h, 'hex');

/** The root over leaves built only from the feed, rebuilt leaf by leaf (no stored node). */
function rootOf(eventHashes: string[]): Buffer {
  const leaves = eventHashes.map(eventLeafHash);
  const get: NodeSource = (id) => {
    if (id.level === 0) return leaves[id.index]!;
    return nodeHash(get({ level: id.level - 1, index: 2 * id.index }), get({ level: id.level - 1, index: 2 * id.index + 1 }));
  };
  return rangeHash(0, leaves.length, get);
}

describe('transparency › when a tenant records consents › every record is provable against a signed checkpoint', () => {
  let t: TestService;
  let api: Client;
  let other: Client;
  let vkey: string;
  let tenantId: string;
  let otherTenantId: string;
  let policyVersionId: string;
  const record = async (userReference: string, consentGiven = true) => {
    const res = await api.post('/api/v1/consent', { policyVersionId, userReference, consentGiven });
    expect(res.statusCode).toBe(201);
    return res.json().data as { id: string; consentHash: string };
  };

  beforeAll(async () => {
    t = await startTestService({ PUBLIC_BASE_URL: 'https://ledger.example.com' });
    const creds = await t.tenant();
    tenantId = creds.tenantId;
    api = client(t.app, creds);
    const second = await t.tenant();
    otherTenantId = second.tenantId;
    other = client(t.app, second);
    policyVersionId = await publishPolicy(api);
  });
  afterAll(() => t?.close());

  it('publishes the signing key without an API key', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/.well-known/consent-ledger/keys' });
    expect(res.statusCode).toBe(200);
    const { keys } = res.json() as { keys: { keyName: string; keyId: string; publicKey: string; vkey: string }[] };
    expect(keys).toHaveLength(1);
    const k = keys[0]!;
    expect(k.keyName).toBe('ledger.example.com');
    expect(k.vkey).toBe(
      `${k.keyName}+${k.keyId}+${Buffer.concat([Buffer.from([1]), Buffer.from(k.publicKey, 'base64')]).toString('base64')}`,
    );
    vkey = k.vkey;
  });

  it('proves a record within a second of its write, under both prefixes', async () => {
    const consent = await record('user-a');
    const started = Date.now();
    const res = await api.get(`/api/v1/consent/${consent.id}/proof`);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(res.statusCode).toBe(200);
    const proof = res.json().data;
    expect(proof.consentId).toBe(consent.id);
    expect(proof.event.data.consentHash).toBe(consent.consentHash);
    expect(eventHash(proof.event)).toBe(proof.eventHash);

    const cp = parseCheckpoint(openNote(proof.checkpoint, parseVerifierKey(vkey)));
    expect(cp.origin).toBe(`ledger.example.com/ledger/${tenantId}`);
    expect(cp.treeSize).toBe(proof.treeSize);
    expect(cp.rootHash.toString('hex')).toBe(proof.rootHash);
    expect(
      verifyInclusion(proof.leafIndex, proof.treeSize, eventLeafHash(proof.eventHash), proof.inclusionPath.map(fromHex), cp.rootHash),
    ).toBe(true);

    expect((await api.get(`/v1/consent/${consent.id}/proof`)).json().data.leafIndex).toBe(proof.leafIndex);
  });

  it('serves a gap-free feed whose root is the signed root, and consistency between checkpoints', async () => {
    const before = (await api.get('/api/v1/ledger/checkpoint')).json().data;
    for (let i = 0; i < 5; i++) await record(`user-b${i}`, i % 2 === 0);
    const last = await record('user-c');
    await api.get(`/api/v1/consent/${last.id}/proof`); // waits until it is sealed
    const after = (await api.get('/v1/ledger/checkpoint')).json().data;
    expect(after.treeSize).toBeGreaterThanOrEqual(before.treeSize + 6);
    expect(parseCheckpoint(openNote(after.checkpoint, parseVerifierKey(vkey))).rootHash.toString('hex')).toBe(after.rootHash);

    const entries: { leafIndex: number; event: Parameters<typeof eventHash>[0]; eventHash: string }[] = [];
    for (let afterIndex = -1; ;) {
      const page = (await api.get(`/api/v1/ledger/events?after=${afterIndex}&limit=3`)).json().data as typeof entries;
      if (page.length === 0) break;
      entries.push(...page);
      afterIndex = page[page.length - 1]!.leafIndex;
    }
    expect(entries.map((e) => e.leafIndex)).toEqual([...Array(entries.length).keys()]);
    for (const e of entries) expect(eventHash(e.event)).toBe(e.eventHash);
    expect(entries.every((e) => e.event.tenantId === tenantId)).toBe(true);
    expect(rootOf(entries.slice(0, after.treeSize).map((e) => e.eventHash)).toString('hex')).toBe(after.rootHash);

    const c = (await api.get(`/api/v1/ledger/consistency?from=${before.treeSize}&to=${after.treeSize}`)).json().data;
    expect(
      verifyConsistency(before.treeSize, after.treeSize, c.consistencyPath.map(fromHex), fromHex(before.rootHash), fromHex(after.rootHash)),
    ).toBe(true);
    expect(
      verifyConsistency(before.treeSize, after.treeSize, c.consistencyPath.map(fromHex), fromHex(after.rootHash), fromHex(after.rootHash)),
    ).toBe(false);
  });

  it("keeps each tenant's log its own: another tenant's record is 404, its log starts at leaf 0 with its own creation", async () => {
    const consent = await record('user-d');
    const res = await other.get(`/api/v1/consent/${consent.id}/proof`);
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('NOT_FOUND');
    const feed = (await other.get('/api/v1/ledger/events?limit=1000')).json().data as {
      leafIndex: number;
      event: { tenantId: string; type: string };
    }[];
    expect(feed.map((e) => e.leafIndex)).toEqual(feed.map((_, i) => i));
    expect(feed[0]!.event.type).toBe('TenantCreated');
    expect(feed.every((e) => e.event.tenantId === otherTenantId)).toBe(true);
  });

  it('names a size beyond the log a rollback (409 ROLLBACK), a reversed range 400, and answers 401 without a key', async () => {
    const size = (await api.get('/api/v1/ledger/checkpoint')).json().data.treeSize as number;
    const res = await api.get(`/api/v1/ledger/consistency?from=1&to=${size + 1000}`);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.code).toBe('ROLLBACK');
    expect(res.json().error.message).toContain('rolled back');
    expect((await api.get('/api/v1/ledger/consistency?from=2&to=1')).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/ledger/checkpoint' })).statusCode).toBe(401);
  });

  it('the public log routes answer 404 for a tenant with no log, and 409 ROLLBACK beyond one that has', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    for (const url of [`/ledger/${unknown}/checkpoint`, `/ledger/${unknown}/consistency?from=1&to=5`]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json().error.code).toBe('NOT_FOUND');
    }
    const size = (await t.app.inject({ method: 'GET', url: `/ledger/${tenantId}/checkpoint` })).json().data.treeSize as number;
    const beyond = await t.app.inject({ method: 'GET', url: `/ledger/${tenantId}/consistency?from=1&to=${size + 1000}` });
    expect(beyond.statusCode).toBe(409);
    expect(beyond.json().error.code).toBe('ROLLBACK');
  });

  it('answers a proof whose leaf is past the newest checkpoint (checkpoints deleted) 409 ROLLBACK, never a 500', async () => {
    const creds = await t.tenant();
    const mine = client(t.app, creds);
    const policy = await publishPolicy(mine);
    // Two records, each sealed before the next: the first one's checkpoint stays.
    const sealed = async (userReference: string) => {
      const res = await mine.post('/api/v1/consent', { policyVersionId: policy, userReference, consentGiven: true });
      expect(res.statusCode, res.body).toBe(201);
      const id = res.json().data.id as string;
      const proof = await mine.get(`/api/v1/consent/${id}/proof`);
      expect(proof.statusCode, proof.body).toBe(200);
      return { id, leafIndex: proof.json().data.leafIndex as number };
    };
    await sealed('kept');
    const { id, leafIndex } = await sealed('rolled');
    // Whoever writes the database deletes the checkpoints that cover the record's leaf.
    await sql`DELETE FROM transparency.checkpoints WHERE tenant_id = ${creds.tenantId} AND tree_size > ${leafIndex}`.execute(
      t.service.store.db,
    );
    const proof = await mine.get(`/api/v1/consent/${id}/proof`);
    expect(proof.statusCode, proof.body).toBe(409);
    expect(proof.json().error.code).toBe('ROLLBACK');
    expect(proof.json().error.message).toContain('rolled back');
  });
});
