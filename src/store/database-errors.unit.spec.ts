import { describe, expect, it } from 'vitest';
import { isTransientError, isUnavailableError } from './database-errors.js';

const pgError = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('database errors › classification', () => {
  it('calls a lost or refused connection unavailable and transient', () => {
    for (const e of [
      pgError('57P01', 'terminating connection due to administrator command'),
      pgError('08006'),
      pgError('53300', 'too many connections'),
      pgError('ECONNREFUSED'),
      new Error('Connection terminated unexpectedly'),
      new Error('Client has encountered a connection error and is not queryable'),
      new Error('timeout exceeded when trying to connect'),
    ]) {
      expect(isUnavailableError(e), e.message).toBe(true);
      expect(isTransientError(e), e.message).toBe(true);
    }
  });

  it('calls a deadlock or serialization failure transient but not unavailable', () => {
    for (const code of ['40P01', '40001', '55P03']) {
      expect(isTransientError(pgError(code))).toBe(true);
      expect(isUnavailableError(pgError(code))).toBe(false);
    }
  });

  it('trusts the SQLSTATE over a message that quotes data', () => {
    const e = pgError('22P02', 'invalid input syntax for type uuid: "connection closed"');
    expect(isTransientError(e)).toBe(false);
    expect(isUnavailableError(e)).toBe(false);
    expect(isUnavailableError(pgError('23505', 'duplicate key'))).toBe(false);
    expect(isUnavailableError(new TypeError('x is not a function'))).toBe(false);
  });
});
