import { describe, expect, it } from 'vitest';
import { dateFormat, localInstant, timeZone, type DateFormat } from './time-zone.js';

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

describe('import --date-format: times as another platform writes them', () => {
  it('reads day-first, month-first and padded or bare numbers, midnight when there is no time', () => {
    const german = dateFormat('DD.MM.YYYY HH:mm') as DateFormat;
    expect(german.toLocal('15.03.2024 10:30')).toBe('2024-03-15T10:30:00');
    expect(localInstant(german.toLocal('15.07.2024 10:30')!, paris)).toBe('2024-07-15T08:30:00.000Z');
    const american = dateFormat('M/D/YYYY H:mm:ss') as DateFormat;
    expect(american.toLocal('3/5/2024 9:07:02')).toBe('2024-03-05T09:07:02');
    expect(american.toLocal('12/31/2024 23:59:59')).toBe('2024-12-31T23:59:59');
    expect((dateFormat('YYYY/MM/DD') as DateFormat).toLocal('2024/03/05')).toBe('2024-03-05T00:00:00');
  });

  it('answers nothing for a text of another shape, and leaves the calendar to localInstant', () => {
    const german = dateFormat('DD.MM.YYYY HH:mm') as DateFormat;
    expect(german.toLocal('2024-03-15 10:30')).toBeUndefined();
    expect(german.toLocal('15.03.2024')).toBeUndefined();
    expect(german.toLocal('15.03.2024 10:30x')).toBeUndefined();
    // 30 February fits the pattern; there is no such day.
    expect(localInstant(german.toLocal('30.02.2024 10:30')!, paris)).toEqual({ error: 'is not a date-time' });
  });

  it('reads Unix time, X in seconds and x in milliseconds, as instants in no zone', () => {
    const seconds = dateFormat('X') as DateFormat;
    const ms = dateFormat('x') as DateFormat;
    expect(seconds.toInstant!('1709287200')).toBe('2024-03-01T10:00:00.000Z');
    expect(seconds.toInstant!(' 1709287200.25 ')).toBe('2024-03-01T10:00:00.250Z');
    expect(ms.toInstant!('1709287200123')).toBe('2024-03-01T10:00:00.123Z');
    for (const bad of ['', '-1', '1.5e9', '2024-03-01', '0x10', '1709287200.1234'])
      expect([seconds.toInstant!(bad), JSON.stringify(bad)]).toEqual([undefined, JSON.stringify(bad)]);
    expect(ms.toInstant!('1709287200.5')).toBeUndefined();
    expect(seconds.toLocal('1709287200')).toBeUndefined();
    // Only the whole pattern is Unix time; a name of Object's own is no pattern.
    expect(dateFormat('constructor')).toMatch(/give the year/);
  });

  it('refuses a pattern without a whole date, with a part twice, or minutes without hours', () => {
    expect(dateFormat('MM.YYYY')).toMatch(/give the year \(YYYY\), month \(MM or M\) and day \(DD or D\)/);
    expect(dateFormat('DD.MM.YYYY DD')).toMatch(/DD repeats a part given before/);
    expect(dateFormat('DD.MM.YYYY mm')).toMatch(/minutes \(mm\) need hours/);
    expect(dateFormat('DD.MM.YYYY HH:ss')).toMatch(/seconds \(ss\) need minutes/);
  });
});
