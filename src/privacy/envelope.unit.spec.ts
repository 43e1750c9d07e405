import { describe, expect, it } from 'vitest';
import { openBytes, sealBytes, secureRandom } from './envelope.js';

describe('envelope › secureRandom', () => {
  it('answers the size asked, never the same bytes twice, across pool refills', () => {
    const seen = new Set<string>();
    // 12-byte nonces and 32-byte keys, far past one 8 KiB pool.
    for (let i = 0; i < 3_000; i++) {
      const size = i % 2 === 0 ? 12 : 32;
      const bytes = secureRandom(size);
      expect(bytes.length).toBe(size);
      seen.add(bytes.toString('hex'));
    }
    expect(seen.size).toBe(3_000);
  });

  it('hands out copies: changing one leaves the next draws alone', () => {
    const a = secureRandom(32);
    const before = Buffer.from(a);
    a.fill(0);
    const b = secureRandom(32);
    expect(b.equals(Buffer.alloc(32))).toBe(false);
    expect(a.buffer === b.buffer && a.byteOffset + 32 > b.byteOffset && b.byteOffset + 32 > a.byteOffset).toBe(false);
    expect(before.equals(Buffer.alloc(32))).toBe(false);
  });

  it('draws large sizes straight from the CSPRNG', () => {
    expect(secureRandom(4096).length).toBe(4096);
    expect(secureRandom(4096).equals(secureRandom(4096))).toBe(false);
  });

  it('seals with its nonces so that every value opens and no two ciphertexts match', () => {
    const key = secureRandom(32);
    const sealed = Array.from({ length: 200 }, () => sealBytes(key, 'k', 'aad', Buffer.from('same'), secureRandom));
    expect(new Set(sealed.map((s) => s.iv)).size).toBe(200);
    for (const s of sealed) expect(openBytes(key, 'aad', s).toString()).toBe('same');
  });
});
