import { describe, expect, it } from 'vitest';
import { deferredLog } from './log.js';

describe('deferred log', () => {
  it('keeps what is said before a log is attached, and says it, in order, on attach', () => {
    const log = deferredLog();
    log.warn({ a: 1 }, 'Redis is unreachable');
    log.error({ b: 2 }, 'something failed');
    const said: string[] = [];
    log.attach({ warn: (_o, m) => said.push(`warn ${m}`), error: (_o, m) => said.push(`error ${m}`) });
    expect(said).toEqual(['warn Redis is unreachable', 'error something failed']);
    log.warn({}, 'later');
    expect(said.at(-1)).toBe('warn later');
  });

  it('keeps the first hundred only, and writes straight to a log it was given', () => {
    const log = deferredLog();
    for (let i = 0; i < 150; i++) log.warn({}, `early ${i}`);
    const said: string[] = [];
    log.attach({ warn: (_o, m) => said.push(m), error: (_o, m) => said.push(m) });
    expect(said).toHaveLength(100);
    const given: string[] = [];
    const direct = deferredLog({ warn: (_o, m) => given.push(m), error: (_o, m) => given.push(m) });
    direct.warn({}, 'now');
    direct.attach({ warn: () => undefined, error: () => undefined });
    direct.warn({}, 'still the first');
    expect(given).toEqual(['now', 'still the first']);
  });
});
