import { describe, expect, it } from 'vitest';
import canonicalize from 'canonicalize';
import { consentHashInput } from '../domain/consent/consent-hash.js';
import { canonicalJson, hashCanonical, sha256Hex } from './hashing.js';

/** The number whose IEEE 754 binary64 bits are this hex string (RFC 8785, Appendix B). */
const fromBits = (hex: string): number => {
  const view = new DataView(new ArrayBuffer(8));
  view.setBigUint64(0, BigInt(`0x${hex}`));
  return view.getFloat64(0);
};

describe('canonicalJson › when given the RFC 8785 examples', () => {
  it('canonicalises the example of section 3.2.2 byte for byte', () => {
    // Input as printed in RFC 8785 §3.2.2, parsed as any JSON text would be.
    const input = String.raw`{
      "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
      "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
      "literals": [null, true, false]
    }`;
    const expected = String.raw`{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}`;
    expect(canonicalJson(JSON.parse(input))).toBe(expected);
  });

  it('orders keys by UTF-16 code units, as in section 3.2.3', () => {
    const input = String.raw`{
      "\u20ac": "Euro Sign",
      "\r": "Carriage Return",
      "\ufb33": "Hebrew Letter Dalet With Dagesh",
      "1": "One",
      "\ud83d\ude00": "Emoji: Grinning Face",
      "\u0080": "Control",
      "\u00f6": "Latin Small Letter O With Diaeresis"
    }`;
    // The emoji (a surrogate pair, 0xD83D...) sorts before U+FB33 although its code point is higher.
    expect(canonicalJson(JSON.parse(input))).toBe(
      '{"\\r":"Carriage Return","1":"One","\u0080":"Control","ö":"Latin Small Letter O With Diaeresis",' +
        '"€":"Euro Sign","😀":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}',
    );
  });

  it('orders integer-like keys as strings, not in the insertion order JavaScript gives them', () => {
    expect(canonicalJson({ b: 1, a: 2, 10: 'ten', 9: 'nine' })).toBe('{"10":"ten","9":"nine","a":2,"b":1}');
  });

  it('sorts the keys of nested objects and keeps array order', () => {
    expect(canonicalJson({ z: [{ y: 1, x: 2 }, 3, 'a'], a: { d: {}, c: [] } })).toBe('{"a":{"c":[],"d":{}},"z":[{"x":2,"y":1},3,"a"]}');
  });
});

describe('canonicalJson › when serialising numbers', () => {
  it.each([
    ['1e21', '1e+21'],
    ['1E+30', '1e+30'],
    ['0.1', '0.1'],
    ['-0', '0'],
    ['4.50', '4.5'],
    ['2e-3', '0.002'],
    ['100', '100'],
    ['1e20', '100000000000000000000'],
    ['0.000001', '0.000001'],
    ['1e-7', '1e-7'],
    ['-1.5E-10', '-1.5e-10'],
  ])('writes the JSON number %s as %s', (text, expected) => {
    expect(canonicalJson(JSON.parse(text))).toBe(expected);
  });

  it.each([
    ['0000000000000000', '0'],
    ['8000000000000000', '0'],
    ['0000000000000001', '5e-324'],
    ['8000000000000001', '-5e-324'],
    ['7fefffffffffffff', '1.7976931348623157e+308'],
    ['ffefffffffffffff', '-1.7976931348623157e+308'],
    ['4340000000000000', '9007199254740992'],
    ['c340000000000000', '-9007199254740992'],
    ['4430000000000000', '295147905179352830000'],
    ['44b52d02c7e14af5', '9.999999999999997e+22'],
    ['44b52d02c7e14af6', '1e+23'],
    ['44b52d02c7e14af7', '1.0000000000000001e+23'],
    ['444b1ae4d6e2ef4e', '999999999999999700000'],
    ['444b1ae4d6e2ef4f', '999999999999999900000'],
    ['444b1ae4d6e2ef50', '1e+21'],
    ['3eb0c6f7a0b5ed8c', '9.999999999999997e-7'],
    ['3eb0c6f7a0b5ed8d', '0.000001'],
    ['41b3de4355555553', '333333333.3333332'],
    ['41b3de4355555554', '333333333.33333325'],
    ['41b3de4355555555', '333333333.3333333'],
    ['41b3de4355555556', '333333333.3333334'],
    ['41b3de4355555557', '333333333.33333343'],
    ['becbf647612f3696', '-0.0000033333333333333333'],
    ['43143ff3c1cb0959', '1424953923781206.2'],
  ])('writes the binary64 value 0x%s as %s (RFC 8785 Appendix B)', (bits, expected) => {
    expect(canonicalJson(fromBits(bits))).toBe(expected);
  });

  it('refuses NaN and the infinities, which JSON cannot carry (Appendix B)', () => {
    expect(() => canonicalJson(fromBits('7fffffffffffffff'))).toThrow();
    expect(() => canonicalJson(fromBits('7ff0000000000000'))).toThrow();
    expect(() => canonicalJson({ a: [-Infinity] })).toThrow();
  });
});

describe('canonicalJson › when serialising strings', () => {
  it('uses the short escapes for \\b \\t \\n \\f \\r and lowercase \\u00xx for other control characters', () => {
    expect(canonicalJson('\b\t\n\f\r')).toBe('"\\b\\t\\n\\f\\r"');
    expect(canonicalJson('\u0000\u0001\u000b\u000e\u001f')).toBe('"\\u0000\\u0001\\u000b\\u000e\\u001f"');
  });

  it('escapes only the quote and the backslash among printable characters, and never the solidus', () => {
    expect(canonicalJson('a"b\\c/d')).toBe('"a\\"b\\\\c/d"');
  });

  it('writes every other character as itself, DEL and non-ASCII included', () => {
    expect(canonicalJson('\u007f\u0080\u00e9\u20ac\u2028\ud83d\ude00')).toBe('"\u007f\u0080é€\u2028😀"');
  });

  it('refuses a lone surrogate, which has no UTF-8 form', () => {
    expect(() => canonicalJson('\ud800')).toThrow();
    expect(() => canonicalJson({ '\udc00': 1 })).toThrow();
  });

  it('writes the literals and refuses a value that has no JSON form', () => {
    expect(canonicalJson([null, true, false])).toBe('[null,true,false]');
    expect(() => canonicalJson(undefined)).toThrow(TypeError);
  });
});

describe('sha256Hex › when given the FIPS 180-2 test vectors', () => {
  it.each([
    ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
    ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
    ['abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq', '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1'],
  ])('hashes %j to its lowercase hex digest', (input, expected) => {
    expect(sha256Hex(input)).toBe(expected);
    expect(sha256Hex(new TextEncoder().encode(input))).toBe(expected);
  });

  it('hashes a string as its UTF-8 bytes', () => {
    expect(sha256Hex('€')).toBe(sha256Hex(new Uint8Array([0xe2, 0x82, 0xac])));
    expect(sha256Hex('€')).not.toBe(sha256Hex(new Uint8Array([0x20, 0xac])));
  });
});

describe('hashCanonical › when hashing a value', () => {
  it('is the SHA-256 of the canonical JSON, so key order in the input does not matter', () => {
    expect(hashCanonical({ b: 1, a: 'x' })).toBe(sha256Hex('{"a":"x","b":1}'));
    expect(hashCanonical({ a: 'x', b: 1 })).toBe(hashCanonical({ b: 1, a: 'x' }));
    expect(hashCanonical({ a: 'x', b: 2 })).not.toBe(hashCanonical({ a: 'x', b: 1 }));
  });

  it('canonicalises the consent hash input to the documented form, absent values as null and metadata as {}', () => {
    const input = consentHashInput({
      consentId: '11111111-2222-5333-8444-555555555555',
      policyVersionId: '66666666-7777-5888-9999-aaaaaaaaaaaa',
      policyContentHash: 'b'.repeat(64),
      userReference: 'user-1',
      consentGiven: true,
      timestamp: '2026-01-02T03:04:05.678Z',
    });
    expect(canonicalJson(input)).toBe(
      '{"consentGiven":true,"id":"11111111-2222-5333-8444-555555555555","ipAddress":null,"metadata":{},' +
        `"policyContentHash":"${'b'.repeat(64)}","policyVersionId":"66666666-7777-5888-9999-aaaaaaaaaaaa",` +
        '"timestamp":"2026-01-02T03:04:05.678Z","userAgent":null,"userReference":"user-1"}',
    );
  });
});

describe('canonicalJson › compared with the npm package canonicalize (docs/hashing.md names it)', () => {
  /** A small seeded generator (mulberry32), so a failure names the value that caused it. */
  const rng = (seed: number) => () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pieces = ['a', 'é', '€', '😀', '\u0000', '\n', '"', '\\', '\u2028', 'דּ', '10', '9', ' ', '\u007f', '\ud800', '\udc00'];
  const numbers = [0, -0, 1, -1, 0.1, 1e21, 1e-7, 333333333.3333333, 2 ** 53, -(2 ** 60), 5e-324, 1.7976931348623157e308, NaN, Infinity];

  function value(next: () => number, depth: number): unknown {
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
    const text = () => Array.from({ length: Math.floor(next() * 4) }, () => pick(pieces)).join('');
    const kind = depth > 3 ? Math.floor(next() * 5) : Math.floor(next() * 9);
    switch (kind) {
      case 0:
        return text();
      case 1:
        return pick(numbers);
      case 2:
        return pick([true, false, null]);
      case 3:
        return next() < 0.3 ? undefined : next() < 0.5 ? Symbol('s') : new Date(Math.floor(next() * 4e12));
      case 4:
        return Math.floor(next() * 1e9) / 100;
      case 5:
      case 6:
        return Array.from({ length: Math.floor(next() * 4) }, () => value(next, depth + 1));
      default:
        return Object.fromEntries(Array.from({ length: Math.floor(next() * 5) }, () => [text(), value(next, depth + 1)]));
    }
  }

  const outcome = (f: () => string | undefined): string => {
    try {
      return `ok ${f()}`;
    } catch (error) {
      return `throws ${(error as Error).message}`;
    }
  };

  it('gives the same string, or the same refusal, for 5,000 generated values', () => {
    const next = rng(7);
    for (let i = 0; i < 5_000; i++) {
      const v = value(next, 0);
      const theirs = outcome(() => {
        const text = canonicalize(v);
        if (text === undefined) throw new TypeError('value has no JSON form');
        return text;
      });
      expect(
        outcome(() => canonicalJson(v)),
        `value #${i}`,
      ).toBe(theirs);
    }
  });

  it('sorts objects with many keys as the package does, however they were inserted', () => {
    const next = rng(11);
    for (const size of [2, 31, 32, 33, 100]) {
      const keys = Array.from({ length: size }, (_, i) => `${i % 7 === 0 ? '\u00e9' : ''}k${Math.floor(next() * 1e6)}-${i}`);
      const v = Object.fromEntries(keys.map((k, i) => [k, i]));
      expect(canonicalJson(v), `${size} keys`).toBe(canonicalize(v));
    }
  });

  it('refuses a circular value as the package does', () => {
    const a: Record<string, unknown> = { x: 1 };
    a.self = a;
    expect(() => canonicalJson(a)).toThrow('Circular reference detected');
    expect(() => canonicalize(a)).toThrow('Circular reference detected');
    const shared = { k: 1 };
    expect(canonicalJson({ a: shared, b: [shared] })).toBe(canonicalize({ a: shared, b: [shared] }));
  });
});
