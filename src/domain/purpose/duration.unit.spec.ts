import { describe, expect, it } from 'vitest';
import { addDuration, isDuration } from './purpose.events.js';

describe('addDuration › when a validity is added to the time of a decision', () => {
  it('moves months on the calendar, clamping to the last day of a shorter month', () => {
    expect(addDuration('2026-01-15T10:00:00.000Z', 'P13M')).toBe('2027-02-15T10:00:00.000Z');
    expect(addDuration('2026-01-31T23:59:59.999Z', 'P1M')).toBe('2026-02-28T23:59:59.999Z');
    expect(addDuration('2028-01-31T00:00:00.000Z', 'P1M')).toBe('2028-02-29T00:00:00.000Z');
    expect(addDuration('2028-02-29T12:00:00.000Z', 'P1Y')).toBe('2029-02-28T12:00:00.000Z');
    expect(addDuration('2026-11-30T00:00:00.000Z', 'P1Y2M')).toBe('2028-01-30T00:00:00.000Z');
  });

  it('adds weeks, days and the time part as exact amounts, across month and year ends', () => {
    expect(addDuration('2026-12-31T23:00:00.000Z', 'PT1H')).toBe('2027-01-01T00:00:00.000Z');
    expect(addDuration('2026-02-20T00:00:00.000Z', 'P2W')).toBe('2026-03-06T00:00:00.000Z');
    expect(addDuration('2026-03-01T00:00:00.500Z', 'P1DT1H1M1S')).toBe('2026-03-02T01:01:01.500Z');
    expect(addDuration('2026-01-01T00:00:00.000Z', 'PT90000S')).toBe('2026-01-02T01:00:00.000Z');
  });

  it('agrees with the platform calendar on many dates', () => {
    for (let day = 0; day < 3_000; day += 7) {
      const from = new Date(Date.UTC(2020, 0, 1) + day * 86_400_000 + day * 1_234).toISOString();
      const expected = new Date(new Date(from).getTime() + 90 * 86_400_000 + 3_600_000).toISOString();
      expect(addDuration(from, 'P90DT1H')).toBe(expected);
    }
  });

  it('refuses what is not a duration', () => {
    expect(isDuration('P0D')).toBe(false);
    expect(() => addDuration('2026-01-01T00:00:00.000Z', 'P')).toThrow();
  });
});
