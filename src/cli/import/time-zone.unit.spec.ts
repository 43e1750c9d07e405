import { describe, expect, it } from 'vitest';
import { localInstant, timeZone } from './time-zone.js';

const paris = timeZone('Europe/Paris')!;

describe('import --time-zone: times written without a zone', () => {
  it('reads a local time at the offset in force then, summer and winter', () => {
    expect(localInstant('2024-07-01 10:00', paris)).toBe('2024-07-01T08:00:00.000Z');
    expect(localInstant('2024-01-15T10:00:00', paris)).toBe('2024-01-15T09:00:00.000Z');
    expect(localInstant('2024-01-15 10:00:05.25', paris)).toBe('2024-01-15T09:00:05.250Z');
    expect(localInstant('2024-07-01 10:00', timeZone('America/New_York')!)).toBe('2024-07-01T14:00:00.000Z');
  });

  it('refuses a time the zone skips, and takes the first of a time it passes twice', () => {
    expect(localInstant('2024-03-31 02:30', paris)).toEqual({
      error: 'does not exist in Europe/Paris (a daylight-saving change skips it)',
    });
    expect(localInstant('2024-03-31 01:59:59', paris)).toBe('2024-03-31T00:59:59.000Z');
    expect(localInstant('2024-03-31 03:00', paris)).toBe('2024-03-31T01:00:00.000Z');
    expect(localInstant('2024-10-27 02:30', paris)).toBe('2024-10-27T00:30:00.000Z');
    expect(localInstant('2024-10-27 03:00', paris)).toBe('2024-10-27T02:00:00.000Z');
  });

  it('takes UTC and fixed offsets, and refuses what is no zone or no time', () => {
    expect(localInstant('2024-07-01 10:00', timeZone('UTC')!)).toBe('2024-07-01T10:00:00.000Z');
    expect(localInstant('2024-07-01 10:00', timeZone('+05:30')!)).toBe('2024-07-01T04:30:00.000Z');
    expect(localInstant('2024-07-01 10:00', timeZone('-03:00')!)).toBe('2024-07-01T13:00:00.000Z');
    expect(timeZone('Mars/Olympus')).toBeNull();
    expect(timeZone('+25:00')).toBeNull();
    expect(localInstant('2024-02-30 10:00', paris)).toEqual({ error: 'is not a date-time' });
    expect(localInstant('2024-07-01 24:00', paris)).toEqual({ error: 'is not a date-time' });
    expect(localInstant('2024-07-01', paris)).toEqual({ error: 'is not a date-time' });
  });
});
