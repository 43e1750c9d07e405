import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signedUserToken } from '../../test/support/user-token.js';
import { publicKeyOf, userReferenceOf, userTokenKeyOf } from './user-token.js';

const pair = () => generateKeyPairSync('ed25519');
const { publicKey, privateKey } = pair();
const stored = userTokenKeyOf(publicKey.export({ format: 'pem', type: 'spki' }) as string)!;
const key = publicKeyOf(stored);
const PK = 'pk_AAAAAAAAAAAAAAAAAAAAAAAA';
const NOW = Date.parse('2026-11-30T12:00:00Z');
const seconds = NOW / 1000;

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
/** A compact JWS as a tenant's backend would sign it (RFC 7515), with any header and claims. */
const token = (claims: Record<string, unknown>, header?: Record<string, unknown>, signer: KeyObject = privateKey) =>
  signedUserToken(signer, claims, header);
const check = (t: string) => userReferenceOf(t, key, { apiKey: PK, now: NOW });

describe('user tokens › the key a tenant gives', () => {
  it('is read from PEM, hex, base64 and base64url alike, and stored as its 32 bytes in base64url', () => {
    const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(12);
    expect(stored).toBe(raw.toString('base64url'));
    for (const text of [raw.toString('hex'), raw.toString('base64'), raw.toString('base64url'), ` ${raw.toString('hex')}\n`]) {
      expect(userTokenKeyOf(text)).toBe(stored);
    }
  });

  it('is refused when it is a weak point (small order, or a second spelling) with which anyone could sign', () => {
    for (const hex of [
      '0000000000000000000000000000000000000000000000000000000000000000',
      '0100000000000000000000000000000000000000000000000000000000000000',
      'ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f',
      '0000000000000000000000000000000000000000000000000000000000000080',
      'c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a',
      'c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa',
      '26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05',
      '26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85',
      // y = p and p + 1: the points 0 and 1 spelled again.
      'edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f',
      'eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f',
    ]) {
      expect(userTokenKeyOf(hex), hex).toBeNull();
    }
    // Keys as keys are made are all taken.
    for (let i = 0; i < 50; i++) {
      const raw = pair().publicKey.export({ format: 'der', type: 'spki' }).subarray(12);
      expect(userTokenKeyOf(raw.toString('hex'))).toBe(raw.toString('base64url'));
    }
  });

  it('is refused when it is no Ed25519 public key', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ format: 'pem', type: 'spki' }) as string;
    const ed448 = generateKeyPairSync('ed448').publicKey.export({ format: 'pem', type: 'spki' }) as string;
    const privatePem = privateKey.export({ format: 'pem', type: 'pkcs8' }) as string;
    for (const text of [
      '',
      'abc',
      '00'.repeat(31),
      '00'.repeat(33),
      rsa,
      ed448,
      privatePem,
      '-----BEGIN PUBLIC KEY-----\nnope\n-----END PUBLIC KEY-----',
    ]) {
      expect(userTokenKeyOf(text), text).toBeNull();
    }
  });
});

describe('user tokens › a token', () => {
  const good = { sub: 'user-42', exp: seconds + 600 };

  it('answers the user reference it names when signed by the key, unexpired, for this key or any', () => {
    // Room for claims of the tenant's own: 200 roles.
    expect(check(token({ ...good, roles: Array.from({ length: 200 }, (_, i) => `role-${i}`) }))).toBe('user-42');
    expect(check(token(good))).toBe('user-42');
    expect(check(token({ ...good, aud: PK, nbf: seconds - 5, iat: seconds - 5 }))).toBe('user-42');
    expect(check(token({ ...good, aud: ['https://shop.example.com', PK] }))).toBe('user-42');
    // The fully specified algorithm name (RFC 9864) says the same.
    expect(check(token(good, { alg: 'Ed25519' }))).toBe('user-42');
    // Within a minute of the clocks' difference.
    expect(check(token({ ...good, exp: seconds - 30 }))).toBe('user-42');
  });

  it.each([
    ['another signer', token(good, undefined, pair().privateKey), /signature does not verify/],
    ['no signature', token(good).replace(/\.[^.]*$/, '.'), /signature does not verify/],
    ['alg none', `${b64({ alg: 'none' })}.${b64(good)}.`, /EdDSA/],
    ['an HMAC algorithm', token(good, { alg: 'HS256' }), /EdDSA/],
    ['critical parameters', token(good, { alg: 'EdDSA', crit: ['b64'], b64: false }), /critical/],
    ['two parts', token(good).split('.').slice(0, 2).join('.'), /three base64url parts/],
    ['padding', `${token(good)}=`, /three base64url parts/],
    ['claims not an object', token(['user-42'] as unknown as Record<string, unknown>), /not a JSON object/],
    ['no exp', token({ sub: 'user-42' }), /expires/],
    ['exp as text', token({ sub: 'user-42', exp: String(seconds + 60) }), /expires/],
    ['expired', token({ ...good, exp: seconds - 61 }), /expired/],
    ['more than a day ahead', token({ ...good, exp: seconds + 25 * 3600 }), /24 hours/],
    ['not valid yet', token({ ...good, nbf: seconds + 120 }), /not valid yet/],
    ['another key', token({ ...good, aud: 'pk_BBBBBBBBBBBBBBBBBBBBBBBB' }), /another key/],
    ['no sub', token({ exp: seconds + 60 }), /sub/],
    ['a number for sub', token({ sub: 42, exp: seconds + 60 }), /sub/],
    ['too long', token({ ...good, pad: 'x'.repeat(9000) }), /longer than 8192 characters/],
  ])('is refused with %s', (_, t, message) => {
    expect(() => check(t)).toThrow(message);
  });

  it('never says the token in its refusal', () => {
    const t = token({ ...good, exp: seconds - 3600 });
    try {
      check(t);
      expect.unreachable();
    } catch (error) {
      expect((error as Error).message).not.toContain(t.split('.')[1]!);
    }
  });
});
