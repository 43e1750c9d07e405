import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/cli.js';
import { signerFromSeed } from '../../src/transparency/note.js';
import { prng } from '../support/prng.js';
import { client, publishPolicy, startTestService, type Client } from '../support/service.js';

/** A checkpoint's signed time: whole seconds (c2sp.org/tlog-cosignature). */
const WHOLE_SECOND = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z$/;

/**
 * The auditor's tools (issue 8): `audit export` from the store, then `audit verify` and
 * `audit prove` offline, with nothing but the file and the published verifier key. Run through
 * the CLI's own entry point (`main`), as `npx consent-ledger audit …` runs it.
 */

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

async function cli(args: string[], env: Record<string, string> = {}): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const stream = (append: (s: string) => void) =>
    ({ write: (chunk: string) => (append(String(chunk)), true), isTTY: false }) as unknown as NodeJS.WriteStream;
  const code = await main(args, {
    env: { LOG_LEVEL: 'silent', ...env },
    stdout: stream((s) => (stdout += s)),
    stderr: stream((s) => (stderr += s)),
  });
  let json: unknown;
  try {
    json = JSON.parse(stdout);
  } catch {
    json = undefined;
  }
  return { code, stdout, stderr, json };
}

describe('audit › when a tenant exports its log › an auditor verifies it offline and every tampering names the first bad leaf', () => {
  const dir = mkdtempSync(join(tmpdir(), 'audit-'));
  const file = join(dir, 'log.jsonl');
  const proofFile = join(dir, 'proof.json');
  let vkey: string;
  let lines: string[];
  let tenantId: string;
  const figures = { given: 0, rejected: 0, withdrawn: 0 };

  beforeAll(async () => {
    const t = await startTestService({ DATA_DIR: join(dir, 'data'), PUBLIC_BASE_URL: 'https://audit.example.org' });
    let exported: Run;
    try {
      const creds = await t.tenant();
      tenantId = creds.tenantId;
      const api: Client = client(t.app, creds);
      const policyA = await publishPolicy(api, { policyType: 'privacy_policy' });
      const policyB = await publishPolicy(api, { policyType: 'terms_of_service' });
      const ids: string[] = [];
      for (let i = 0; i < 12; i++) {
        const consentGiven = i % 3 !== 0;
        const res = await api.post('/api/v1/consent', {
          policyVersionId: i % 2 ? policyA : policyB,
          userReference: `u-${i}`,
          consentGiven,
        });
        expect(res.statusCode).toBe(201);
        ids.push(res.json().data.id);
        figures[consentGiven ? 'given' : 'rejected']++;
      }
      for (const id of [ids[1]!, ids[2]!]) {
        expect((await api.post(`/api/v1/consent/${id}/withdraw`, {})).statusCode).toBe(200);
        figures.withdrawn++;
      }
      const batch = await api.post('/api/v1/consent/batch', {
        consents: [{ policyVersionId: policyA, userReference: 'b-1', consentGiven: true }],
      });
      expect(batch.statusCode).toBe(201);
      figures.given++;
      vkey = (await t.app.inject({ method: 'GET', url: '/.well-known/consent-ledger/keys' })).json().keys[0].vkey;
      const proof = await api.get(`/api/v1/consent/${ids[5]}/proof`); // the newest writes are sealed once this answers…
      writeFileSync(proofFile, proof.body);
      const last = await api.get(`/api/v1/consent/${ids[11]}/proof`);
      expect(last.statusCode).toBe(200);
      await t.service.sealer.waitFor((await t.service.ledger.headPosition(tenantId))!, 5000); // …and the batch too.
      // A server database is dropped when the service closes: export while it runs. The embedded
      // store belongs to one process: export after the service let go of it.
      if (t.service.settings.databaseUrl)
        exported = await cli(['audit', 'export', '--tenant', tenantId, '--out', file], { DATABASE_URL: t.service.settings.databaseUrl });
    } finally {
      await t.close();
    }
    exported ??= await cli(['audit', 'export', '--tenant', tenantId, '--out', file], { DATA_DIR: join(dir, 'data') });
    expect(exported.code, exported.stderr).toBe(0);
    lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    expect(exported.json.treeSize).toBe(lines.length - 1);
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const verify = async (content: string[], key = vkey) => {
    const f = join(dir, `t-${Math.random().toString(36).slice(2)}.jsonl`);
    writeFileSync(f, `${content.join('\n')}\n`);
    return cli(['audit', 'verify', f, '--key', key]);
  };
  const leafLines = () => lines.slice(1);
  const withLeaves = (leaves: string[]) => [lines[0]!, ...leaves];

  it('verifies the intact export and prints the figures per policy', async () => {
    const r = await verify(lines);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json).toMatchObject({
      valid: true,
      tenantId,
      origin: `audit.example.org/ledger/${tenantId}`,
      events: lines.length - 1,
      authenticated: lines.length - 1,
      signedAt: expect.stringMatching(WHOLE_SECOND),
    });
    expect(r.json.consents).toEqual(figures);
    expect(r.json.policies).toHaveLength(2);
    const sum = (k: 'given' | 'rejected' | 'withdrawn') => r.json.policies.reduce((s: number, p: Record<string, number>) => s + p[k]!, 0);
    expect({ given: sum('given'), rejected: sum('rejected'), withdrawn: sum('withdrawn') }).toEqual(figures);
    expect(r.json.eventTypes).toMatchObject({ ConsentRecorded: 13, ConsentWithdrawn: 2, ConsentBatchRecorded: 1 });
  });

  it('checks every leaf’s authenticator: one removed, changed or moved to another leaf fails at that leaf', async () => {
    const entry = (k: number) => JSON.parse(leafLines()[k]!) as { authenticator: string | null };
    expect(leafLines().every((l) => /^v2:[0-9a-f]{8}:/.test(JSON.parse(l).authenticator))).toBe(true);
    const k = 4;
    const cases: [string, (e: { authenticator: string | null }) => void, RegExp][] = [
      ['removed', (e) => (e.authenticator = null), /no authenticator, after leaves that do/],
      ['from another leaf', (e) => (e.authenticator = entry(k + 1).authenticator), /does not verify|does not cover/],
      [
        'signature changed',
        (e) => {
          const parts = e.authenticator!.split(':');
          parts[4] = `${parts[4]![0] === 'A' ? 'B' : 'A'}${parts[4]!.slice(1)}`;
          e.authenticator = parts.join(':');
        },
        /signature does not verify/,
      ],
    ];
    for (const [what, change, message] of cases) {
      const leaves = leafLines();
      const e = JSON.parse(leaves[k]!);
      change(e);
      leaves[k] = JSON.stringify(e);
      const r = await verify(withLeaves(leaves));
      expect(r.code, what).toBe(1);
      expect(r.json.error.leafIndex, what).toBe(k);
      expect(r.json.error.message, what).toMatch(message);
    }
  });

  it('one byte changed in any leaf fails at that leaf', async () => {
    const random = prng(8);
    const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
    for (let k = 0; k < leafLines().length; k++) {
      for (let n = 0; n < 3; n++) {
        const leaves = leafLines();
        const line = leaves[k]!;
        const at = Math.floor(random() * line.length);
        const replacement = [...alphabet].find((c) => c !== line[at] && c.toLowerCase() !== line[at]!.toLowerCase())!;
        leaves[k] = line.slice(0, at) + replacement + line.slice(at + 1);
        const r = await verify(withLeaves(leaves));
        expect(r.code, `leaf ${k}, byte ${at}`).toBe(1);
        expect(r.json.error, `leaf ${k}, byte ${at}: ${r.json.error.message}`).toMatchObject({ code: 'AUDIT_FAILED', leafIndex: k });
      }
    }
  });

  it('a field added beside an event’s envelope fails at that leaf: its eventHash does not cover it', async () => {
    const leaves = leafLines();
    const k = 3;
    const line = JSON.parse(leaves[k]!) as { event: Record<string, unknown> };
    line.event.x = 'forged';
    leaves[k] = JSON.stringify(line);
    const r = await verify(withLeaves(leaves));
    expect(r.code).toBe(1);
    expect(r.json.error).toMatchObject({
      code: 'AUDIT_FAILED',
      leafIndex: k,
      message: `leaf ${k}: the event holds "x", which its eventHash does not cover`,
    });
  });

  it('one leaf dropped fails at its place, the last one too', async () => {
    for (const k of [0, 4, leafLines().length - 1]) {
      const leaves = leafLines();
      leaves.splice(k, 1);
      const r = await verify(withLeaves(leaves));
      expect(r.code).toBe(1);
      expect(r.json.error.leafIndex).toBe(k);
    }
  });

  it('two leaves swapped fail at the first of them', async () => {
    for (const [a, b] of [
      [0, 1],
      [3, 9],
      [5, leafLines().length - 1],
    ] as const) {
      const leaves = leafLines();
      [leaves[a], leaves[b]] = [leaves[b]!, leaves[a]!];
      const r = await verify(withLeaves(leaves));
      expect(r.code).toBe(1);
      expect(r.json.error.leafIndex).toBe(a);
    }
  });

  it('refuses a forged checkpoint signature and a key that did not sign it', async () => {
    const header = JSON.parse(lines[0]!);
    // Line 0 of the signatures is the signed note's, line 1 the signed time's: each must verify.
    const forge = (line: number) =>
      header.checkpoint.replace(/\n\n([^]*)$/, (_m: string, block: string) => {
        const lines = block.split('\n');
        const [dash, name, b64] = lines[line]!.split(' ') as [string, string, string];
        const blob = Buffer.from(b64, 'base64');
        blob[20] = blob[20]! ^ 0x40;
        lines[line] = `${dash} ${name} ${blob.toString('base64')}`;
        return `\n\n${lines.join('\n')}`;
      });
    for (const [line, why] of [
      [0, /checkpoint is refused: the signature by .* does not verify/],
      [1, /checkpoint is refused: the timestamped signature by .* does not verify/],
    ] as const) {
      const r = await verify([JSON.stringify({ ...header, checkpoint: forge(line) }), ...leafLines()]);
      expect(r.code).toBe(1);
      expect(r.json.error.message).toMatch(why);
    }

    const stranger = signerFromSeed('audit.example.org', Buffer.alloc(32, 7)).vkey;
    const s = await verify(lines, stranger);
    expect(s.code).toBe(1);
    expect(s.json.error.message).toMatch(/no signature by/);

    const bad = await cli(['audit', 'verify', file, '--key', 'not-a-key']);
    expect(bad.code).toBe(2);
  });

  it('audit prove accepts a saved proof and refuses a tampered one', async () => {
    const ok = await cli(['audit', 'prove', proofFile, '--key', vkey]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.json).toMatchObject({
      valid: true,
      origin: `audit.example.org/ledger/${tenantId}`,
      signedAt: expect.stringMatching(WHOLE_SECOND),
    });

    const proof = JSON.parse(readFileSync(proofFile, 'utf8'));
    const tamper = async (change: (d: Record<string, unknown>) => void) => {
      const copy = structuredClone(proof);
      change(copy.data);
      const f = join(dir, `p-${Math.random().toString(36).slice(2)}.json`);
      writeFileSync(f, JSON.stringify(copy));
      return cli(['audit', 'prove', f, '--key', vkey]);
    };
    if ((proof.data.inclusionPath as string[]).length > 0) {
      const r = await tamper((d) => ((d.inclusionPath as string[])[0] = 'ff'.repeat(32)));
      expect(r.json.error.message).toMatch(/inclusion path/);
    }
    expect((await tamper((d) => ((d.event as { data: { consentGiven: boolean } }).data.consentGiven = false))).json.error.message).toMatch(
      /eventHash/,
    );
    // A field beside the envelope's, which the hash does not cover, is no part of what is proven.
    const added = await tamper((d) => Object.assign(d.event as object, { consentGiven: false, note: 'forged' }));
    expect(added.code).toBe(1);
    expect(added.json.error.message).toBe('the event holds "consentGiven", "note", which its eventHash does not cover');
    expect((await tamper((d) => (d.leafIndex = (d.leafIndex as number) + 1))).code).toBe(1);
    expect((await tamper((d) => (d.checkpoint = (d.checkpoint as string).replace(/\n\d+\n/, '\n1\n')))).json.error.message).toMatch(
      /refused/,
    );
  });
});
