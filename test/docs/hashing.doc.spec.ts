import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConsentView } from '../../src/application/consents/consent.views.js';
import { applicationOn } from '../support/application.js';
import { consentHashInput } from '../../src/domain/consent/consent-hash.js';
import { consentStream, type Sealed } from '../../src/domain/consent/consent.events.js';
import type { PolicyType } from '../../src/domain/policy/policy.events.js';
import { checkChain, eventHash, type EventEnvelope } from '../../src/ledger/event-hash.js';
import type { Ledger, RecordedEvent } from '../../src/ledger/ledger.port.js';
import { PostgresLedger } from '../../src/ledger/postgres/postgres.ledger.js';
import { canonicalJson, hashCanonical } from '../../src/common/hashing.js';
import { Privacy, sealedAad, type ConsentPersonal } from '../../src/privacy/privacy.js';
import { MIGRATIONS } from '../../src/migrations.js';
import { openStore, type Store } from '../../src/store/store.js';

/**
 * docs/hashing.md is a promise to third parties: with its formats alone they recompute our
 * hashes. This reads its fenced blocks (```<lang> <name>) and checks every published string and
 * hash three ways: an RFC 8785 implementation written here, the service's own code, and the
 * recipes printed in the document, run as printed.
 */

const doc = readFileSync(new URL('../../docs/hashing.md', import.meta.url), 'utf8');
const blocks = new Map<string, string>();
for (const m of doc.matchAll(/^```[\w-]+ ([\w-]+)\n([\s\S]*?)\n```$/gm)) blocks.set(m[1]!, m[2]!);
const block = (name: string): string => {
  const text = blocks.get(name);
  if (text === undefined) throw new Error(`docs/hashing.md has no block named ${name}`);
  return text;
};

// --- An RFC 8785 implementation of our own, for the JSON the example holds -------------------

const ESCAPES: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** RFC 8785 §3.2.2.2: only `"`, `\` and U+0000..U+001F are escaped; the rest is written as is. */
function jcsString(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    const code = s.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdfff) {
      const pair = code <= 0xdbff && i + 1 < s.length && s.charCodeAt(i + 1) >= 0xdc00 && s.charCodeAt(i + 1) <= 0xdfff;
      if (!pair) throw new TypeError('lone surrogate: not I-JSON');
      out += ch + s[++i]!;
    } else if (ESCAPES[ch]) out += ESCAPES[ch];
    else if (code < 0x20) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

/** Compares by UTF-16 code units (RFC 8785 §3.2.3), written out rather than trusting sort(). */
function byCodeUnits(a: string, b: string): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const d = a.charCodeAt(i) - b.charCodeAt(i);
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

function jcs(value: unknown): string {
  if (value === null) return 'null';
  if (value === true) return 'true';
  if (value === false) return 'false';
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new TypeError('this implementation covers the integers of the example only');
    return Object.is(value, -0) ? '0' : value.toString(10);
  }
  if (typeof value === 'string') return jcsString(value);
  if (Array.isArray(value)) return `[${value.map(jcs).join(',')}]`;
  if (typeof value === 'object') {
    const o = value as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort(byCodeUnits)
      .map((k) => `${jcsString(k)}:${jcs(o[k])}`)
      .join(',')}}`;
  }
  throw new TypeError(`not JSON: ${typeof value}`);
}

const sha256 = (text: string): string => createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex');

// --- The example, as published ----------------------------------------------------------------

const content = block('policy-content');
const input = JSON.parse(block('consent-hash-input')) as Record<string, unknown> & { metadata: Record<string, unknown> };
const recordedDoc = JSON.parse(block('event-recorded')) as EventEnvelope;
const withdrawnDoc = JSON.parse(block('event-withdrawn')) as EventEnvelope;
/** The imported example as `GET /api/v1/consent/:id` answers it (`data`): what the recipes take. */
const importedInput = JSON.parse(block('consent-hash-input-imported')) as Record<string, unknown> & { policyContentHash: string };
const importedView = { ...importedInput, policyDetails: { contentHash: importedInput.policyContentHash }, imported: true };

const published = {
  contentHash: block('policy-content-hash'),
  canonical: block('consent-hash-canonical'),
  consentHash: block('consent-hash'),
  events: [
    { envelope: recordedDoc, canonical: block('event-recorded-canonical'), hash: block('event-recorded-hash') },
    { envelope: withdrawnDoc, canonical: block('event-withdrawn-canonical'), hash: block('event-withdrawn-hash') },
  ],
};

/**
 * The example's keys and nonces come from a fixed byte stream (SHA-256 of a counter), so that
 * the service seals the example exactly as published. The service itself draws them from the CSPRNG.
 */
const exampleRandom = () => {
  let counter = 0;
  return (size: number): Buffer => {
    const out: Buffer[] = [];
    for (let n = 0; n < size; n += 32) out.push(createHash('sha256').update(`docs/hashing.md example ${counter++}`).digest());
    return Buffer.concat(out).subarray(0, size);
  };
};
const EXAMPLE_MASTER_KEY = createHash('sha256').update('docs/hashing.md example master key').digest();
/** What the route hashed of the client's request; the ledger keeps it keyed with the subject's data key. */
const CLIENT_REQUEST_HASH = 'b3f0c1d2e3a4b5c6d7e8f90123456789abcdef0123456789abcdef0123456789';
/** The Idempotency-Key the client sent; the ledger keeps only its keyed hash (`ik_…`). */
const CLIENT_IDEMPOTENCY_KEY = 'signup-7f3a-0001';

const envelopeOf = (e: EventEnvelope): EventEnvelope => ({
  id: e.id,
  tenantId: e.tenantId,
  stream: e.stream,
  revision: e.revision,
  type: e.type,
  data: e.data,
  metadata: e.metadata,
  recordedAt: e.recordedAt,
  prevHash: e.prevHash,
});

describe('docs/hashing.md › when recomputed from the formats alone › the worked example holds', () => {
  it('contentHash is the SHA-256 of the content as printed', () => {
    expect(content).toContain('\n'); // two lines: the block's inner newline is part of the content
    expect(sha256(content)).toBe(published.contentHash);
    expect(input.policyContentHash).toBe(published.contentHash);
  });

  it('the canonical JSON of the consent hash input is RFC 8785, and its SHA-256 is the consentHash', () => {
    expect(Object.keys(input).sort()).toEqual(
      ['consentGiven', 'id', 'ipAddress', 'metadata', 'policyContentHash', 'policyVersionId', 'timestamp', 'userAgent', 'userReference'],
    );
    expect(jcs(input)).toBe(published.canonical);
    expect(canonicalJson(input)).toBe(published.canonical);
    expect(sha256(published.canonical)).toBe(published.consentHash);
    // What the example is there to show: non-ASCII written as itself, nested keys sorted.
    expect(published.canonical).toContain('«Crème brûlée» 🍪');
    expect(published.canonical).toContain('"campaign":{"Zone":"EU","utm_medium":"email","utm_source":"newsletter"}');
  });

  it("an imported record's input has collectedAt as a tenth key, and the service hashes it so", () => {
    const imported = JSON.parse(block('consent-hash-input-imported')) as Record<string, unknown>;
    expect(Object.keys(imported).sort()).toEqual([
      'collectedAt',
      'consentGiven',
      'id',
      'ipAddress',
      'metadata',
      'policyContentHash',
      'policyVersionId',
      'timestamp',
      'userAgent',
      'userReference',
    ]);
    const canonical = block('consent-hash-canonical-imported');
    expect(jcs(imported)).toBe(canonical);
    expect(sha256(canonical)).toBe(block('consent-hash-imported'));
    const { id, collectedAt, ...rest } = imported as { id: string; collectedAt: string } & Parameters<typeof consentHashInput>[0];
    expect(hashCanonical(consentHashInput({ ...rest, consentId: id, collectedAt }))).toBe(block('consent-hash-imported'));
    // Without collectedAt the service hashes the nine keys, as before imports existed.
    expect(Object.keys(consentHashInput({ ...rest, consentId: id }))).not.toContain('collectedAt');
  });

  it('each event envelope hashes to its published eventHash, and the chain links them', () => {
    for (const e of published.events) {
      expect(Object.keys(e.envelope).sort()).toEqual(['data', 'id', 'metadata', 'prevHash', 'recordedAt', 'revision', 'stream', 'tenantId', 'type']);
      expect(jcs(e.envelope)).toBe(e.canonical);
      expect(sha256(e.canonical)).toBe(e.hash);
      expect(eventHash(e.envelope)).toBe(e.hash);
    }
    const [recorded, withdrawn] = published.events as [(typeof published.events)[0], (typeof published.events)[0]];
    expect(recorded.envelope.prevHash).toBeNull();
    expect(withdrawn.envelope.prevHash).toBe(recorded.hash);
    expect(checkChain(published.events.map((e) => ({ ...e.envelope, hash: e.hash })))).toEqual([]);
    // The recorded event carries the consent's hash, its subject's keyed hash and the personal
    // fields sealed: none of the personal values in clear.
    const data = recorded.envelope.data as Record<string, unknown>;
    expect(data.consentHash).toBe(published.consentHash);
    expect(data.subject).toMatch(/^[0-9a-f]{64}$/);
    expect(Object.keys(data.personal as object).sort()).toEqual(['ct', 'iv', 'kid']);
    for (const field of ['userReference', 'ipAddress', 'userAgent', 'metadata']) expect(data).not.toHaveProperty(field);
    for (const value of [input.userReference, input.ipAddress, 'signup-form', CLIENT_IDEMPOTENCY_KEY]) expect(published.events.map((e) => e.canonical).join('')).not.toContain(value);
    expect(recorded.envelope.stream).toBe(consentStream(recorded.envelope.tenantId, input.id as string));
  });
});

describe('docs/hashing.md › when the service records the example consent › it produces the published hashes', () => {
  let store: Store;
  let view: ConsentView;
  let events: RecordedEvent[];
  let recordedView: { id: string; consentHash: string };
  let verified: { valid: boolean; computedHash: string | null };
  let opened: ConsentPersonal | undefined;

  beforeAll(async () => {
    store = await openStore({ migrations: MIGRATIONS, dataDir: 'memory://' });
    const inner = new PostgresLedger(store.db);
    // The port lets a caller choose event ids; the example's are fixed so its hashes are too.
    const eventIds: Record<string, string> = { ConsentRecorded: recordedDoc.id, ConsentWithdrawn: withdrawnDoc.id };
    const ledger: Ledger = {
      append: (requests, at) => inner.append(requests.map((r) => ({ ...r, events: r.events.map((e) => ({ ...e, id: eventIds[e.type] ?? e.id })) })), at),
      readStream: (stream) => inner.readStream(stream),
      readAll: (after, limit) => inner.readAll(after, limit),
      headPosition: (tenantId) => inner.headPosition(tenantId),
    };
    let now = new Date('2026-01-05T08:00:00.000Z');
    const clock = () => now;
    const tenantId = recordedDoc.tenantId;
    const d = recordedDoc.data as Record<string, string>;
    const privacy = await Privacy.open(store.db, EXAMPLE_MASTER_KEY, { random: exampleRandom(), poolSize: 128 });
    const application = applicationOn(ledger, privacy, store, { clock });
    const policy = await application.policies.publish(tenantId, {
      policyType: d.policyType as PolicyType,
      version: d.policyVersion!,
      title: d.policyTitle!,
      content,
    });
    expect(policy.id).toBe(input.policyVersionId);
    expect(policy.contentHash).toBe(published.contentHash);

    const consents = application.consents;
    now = new Date(input.timestamp as string);
    const idempotency = { key: CLIENT_IDEMPOTENCY_KEY, requestHash: CLIENT_REQUEST_HASH };
    expect((recordedDoc.metadata as { idempotency: { key: string } }).idempotency.key).toBe(privacy.idempotencyKeyOf(tenantId, CLIENT_IDEMPOTENCY_KEY));
    recordedView = (
      await consents.record(
        tenantId,
        {
          policyVersionId: policy.id,
          userReference: input.userReference as string,
          consentGiven: input.consentGiven as boolean,
          ipAddress: input.ipAddress as string,
          userAgent: input.userAgent as string,
          metadata: input.metadata,
        },
        idempotency,
      )
    ).view;
    now = new Date((withdrawnDoc.data as { withdrawnAt: string }).withdrawnAt);
    await consents.withdraw(tenantId, recordedView.id, block('withdrawal-reason'));
    events = await inner.readStream(consentStream(tenantId, recordedView.id));
    view = await application.queries.get(tenantId, recordedView.id);
    verified = await application.queries.verify(tenantId, recordedView.id);
    const d0 = events[0]!.data as { subject: string; personal: Sealed };
    const key = await privacy.keys.byId(d0.personal.kid);
    const read = privacy.read<ConsentPersonal>(key, sealedAad('ConsentRecorded', tenantId, recordedView.id, d0.subject), d0.personal);
    opened = read.state === 'personal' ? read.value : undefined;
  }, 60_000);
  afterAll(() => store?.close());

  it('answers the published id and consentHash, and verifies it after the withdrawal', () => {
    expect(recordedView.id).toBe(input.id);
    expect(recordedView.consentHash).toBe(published.consentHash);
    // The hash covers the plaintext: the sealed fields, opened with the subject's key, give it back.
    expect(hashCanonical(consentHashInput({ ...(events[0]!.data as Parameters<typeof consentHashInput>[0]), ...opened! }))).toBe(published.consentHash);
    expect(view.status).toBe('withdrawn');
    expect(view.consentHash).toBe(published.consentHash);
    expect(verified).toMatchObject({ valid: true, computedHash: published.consentHash });
  });

  it('appends exactly the published events, with the published hashes', () => {
    expect(events.map((e) => envelopeOf(e))).toEqual(published.events.map((e) => e.envelope));
    expect(events.map((e) => e.hash)).toEqual(published.events.map((e) => e.hash));
  });

  it('the Node recipe, run as printed, gives the published hashes from the API answer', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cl-hashing-doc-'));
    try {
      writeFileSync(join(dir, 'recipe.mjs'), block('recipe-node'));
      writeFileSync(
        join(dir, 'driver.mjs'),
        `import { consentHash, eventHash } from './recipe.mjs';
         const chunks = []; for await (const c of process.stdin) chunks.push(c);
         const req = JSON.parse(Buffer.concat(chunks).toString('utf8'));
         process.stdout.write(JSON.stringify({ consent: consentHash(req.consent), imported: consentHash(req.imported), events: req.events.map(eventHash) }));`,
      );
      const run = spawnSync(process.execPath, [join(dir, 'driver.mjs')], {
        input: JSON.stringify({ consent: view, imported: importedView, events: published.events.map((e) => e.envelope) }),
        encoding: 'utf8',
      });
      expect(run.stderr).toBe('');
      expect(JSON.parse(run.stdout)).toEqual({
        consent: published.consentHash,
        imported: block('consent-hash-imported'),
        events: published.events.map((e) => e.hash),
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  const python = spawnSync('python3', ['--version'], { encoding: 'utf8' }).status === 0;
  if (!python) console.log('[hashing.doc] python3 is not installed: the Python recipe is not run here');
  if (python) {
    it('the Python recipe, run as printed, gives the published hashes and RFC 8785 numbers and key order', () => {
      // Texts whose canonical form the recipe must get right where json.dumps does not.
      const texts = [
        '[333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001]', // RFC 8785 §3.2.2
        '[1.0, 100.0, 1e-7, 0.000001, 1e20, 1e21, -0.0, 123456789012345678, 5e-324, 1.7976931348623157e308, -1.5, 0.1, 9007199254740993]',
        '{"\\ud83d\\ude00": 1, "\\ufb01": 2, "\\r": 3, "é": 4, "1": 5, "\\u20ac": 6}', // RFC 8785 §3.2.3
        '{"s": "\\u0000\\u001f\\u007f\\"\\\\/\\b\\f\\n\\r\\t é 🍪"}',
        JSON.stringify(view),
      ];
      const driver = `${block('recipe-python')}

import sys
req = json.loads(sys.stdin.buffer.read().decode("utf-8"))
print(json.dumps({
    "canonical": [canonical(json.loads(t)) for t in req["texts"]],
    "consent": consent_hash(req["consent"]),
    "imported": consent_hash(req["imported"]),
    "events": [event_hash(e) for e in req["events"]],
}))
`;
      const run = spawnSync('python3', ['-c', driver], {
        input: JSON.stringify({ texts, consent: view, imported: importedView, events: published.events.map((e) => e.envelope) }),
        encoding: 'utf8',
      });
      expect(run.stderr).toBe('');
      const out = JSON.parse(run.stdout) as { canonical: string[]; consent: string; imported: string; events: string[] };
      expect(out.canonical).toEqual(texts.map((t) => canonicalJson(JSON.parse(t))));
      expect(out.consent).toBe(published.consentHash);
      expect(out.imported).toBe(block('consent-hash-imported'));
      expect(out.events).toEqual(published.events.map((e) => e.hash));
    });
  }

  const shell = spawnSync('sh', ['-c', 'command -v sha256sum'], { encoding: 'utf8' }).status === 0;
  const jq = spawnSync('sh', ['-c', 'command -v jq'], { encoding: 'utf8' }).status === 0;
  if (!shell) console.log('[hashing.doc] sha256sum is not installed: the shell recipe is not run here');
  if (shell) {
    it(`the shell recipe's printf line${jq ? ' and its jq filter' : ''}, run as printed, give the published consentHash`, () => {
      const recipe = block('recipe-shell');
      const printf = recipe.split('\n').find((l) => l.startsWith("printf '%s' '"));
      expect(printf).toBeDefined();
      const direct = spawnSync('sh', ['-c', printf!], { encoding: 'utf8' });
      expect(direct.stdout.trim()).toBe(`${published.consentHash}  -`);
      if (!jq) return void console.log('[hashing.doc] jq is not installed: the jq filter is not run here');
      const filter = /jq -jcS '([^']+)'/.exec(recipe)?.[1];
      expect(filter).toBeDefined();
      const viaJq = spawnSync('sh', ['-c', `jq -jcS '${filter}' | sha256sum`], { input: JSON.stringify({ success: true, data: view }), encoding: 'utf8' });
      expect(viaJq.stdout.trim()).toBe(`${published.consentHash}  -`);
      const importedJq = spawnSync('sh', ['-c', `jq -jcS '${filter}' | sha256sum`], {
        input: JSON.stringify({ success: true, data: importedView }),
        encoding: 'utf8',
      });
      expect(importedJq.stdout.trim()).toBe(`${block('consent-hash-imported')}  -`);
    });
  }
});
