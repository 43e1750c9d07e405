import { describe, expect, it } from 'vitest';
import { isTransientError } from '../src/store/database-errors.js';

const pgError = (code: string, message: string) => Object.assign(new Error(message), { code });

describe('projection runner › when a batch fails', () => {
  it('retries later on what the database or the network says is passing', () => {
    for (const error of [
      pgError('08006', 'connection failure'),
      pgError('57P01', 'terminating connection due to administrator command'),
      pgError('57014', 'canceling statement due to statement timeout'),
      pgError('40P01', 'deadlock detected'),
      pgError('40001', 'could not serialize access due to concurrent update'),
      pgError('53100', 'could not extend file: No space left on device'),
      pgError('55P03', 'could not obtain lock on row'),
      pgError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'),
      pgError('ECONNRESET', 'read ECONNRESET'),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
      new Error('the embedded store is closed'),
    ]) {
      expect(isTransientError(error), String(error)).toBe(true);
    }
  });

  it('records and skips what the event itself causes, whatever words its data puts in the message', () => {
    for (const error of [
      pgError('22007', 'invalid input syntax for type timestamp with time zone: "connection closed: timeout"'),
      pgError('23502', 'null value in column "metadata" of relation "consents" violates not-null constraint'),
      pgError('22P02', 'invalid input syntax for type boolean: "terminated"'),
      pgError('ERR_INVALID_ARG_TYPE', 'The "data" argument must be of type string'),
      new TypeError("Cannot read properties of undefined (reading 'split')"),
      'a thrown string',
      undefined,
    ]) {
      expect(isTransientError(error), String(error)).toBe(false);
    }
  });
});
