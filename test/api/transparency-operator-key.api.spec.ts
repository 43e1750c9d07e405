import { createPrivateKey, createPublicKey, randomBytes, verify } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadSettings } from '../../src/config.js';
import { client, publishPolicy, startTestService, type TestService } from '../support/service.js';

// PKCS#8 DER prefix of an Ed25519 private key; the 32-byte seed follows (RFC 8410).
const ED25519_PKCS8 = Buffer.from('302e020100300506032b657004220420', 'hex');
const publicKeyOf = (seed: Buffer) =>
  createPublicKey(createPrivateKey({ key: Buffer.concat([ED25519_PKCS8, seed]), format: 'der', type: 'pkcs8' }))
    .export({ format: 'der', type: 'spki' })
    .subarray(-32);

describe('transparency › when the operator gives the signing key (TRANSPARENCY_SIGNING_KEY)', () => {
  const seed = randomBytes(32);
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService({ TRANSPARENCY_SIGNING_KEY: seed.toString('hex') });
  });
  afterAll(() => t?.close());

  it('publishes that key and signs checkpoints with it', async () => {
    const keys = (await t.app.inject({ url: '/.well-known/consent-ledger/keys' })).json().keys;
    expect(keys).toHaveLength(1);
    expect(Buffer.from(keys[0].publicKey, 'base64').equals(publicKeyOf(seed))).toBe(true);

    const api = client(t.app, await t.tenant());
    await publishPolicy(api);
    const cp = (await api.get('/api/v1/ledger/checkpoint')).json().data;
    const [text, signatureLines] = cp.checkpoint.split('\n\n') as [string, string];
    // The first signature line is the signed note's; the second signs the time (docs/verifying.md).
    const sig = Buffer.from(signatureLines.split('\n')[0]!.split(' ').at(-1)!, 'base64').subarray(4);
    const spki = createPublicKey({
      key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), publicKeyOf(seed)]),
      format: 'der',
      type: 'spki',
    });
    expect(verify(null, Buffer.from(`${text}\n`), spki, sig)).toBe(true);
  });

  it('refuses a malformed key at start, naming the setting', () => {
    for (const bad of ['abc', '00'.repeat(31), 'z'.repeat(64)]) {
      expect(() => loadSettings({ TRANSPARENCY_SIGNING_KEY: bad })).toThrow(ConfigError);
      expect(() => loadSettings({ TRANSPARENCY_SIGNING_KEY: bad })).toThrow(/TRANSPARENCY_SIGNING_KEY/);
    }
    expect(loadSettings({ TRANSPARENCY_SIGNING_KEY: seed.toString('base64') }).transparencySigningKey).toBe(seed.toString('base64'));
  });
});
