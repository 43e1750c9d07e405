import { UnavailableError } from '@kurrent/kurrentdb-client';
import { describe, expect, it } from 'vitest';
import { LedgerUnavailableError, WrongExpectedRevisionError } from '../ledger.port.js';
import { CommittedReadBackError, committedReadBack } from './eventstoredb.ledger.js';

/**
 * After a committed append the adapter reads its events back for their positions: a failure
 * then must never read as the port's "the ledger is unavailable, nothing was written".
 */
describe('eventstoredb ledger › reading back a committed append', () => {
  it('waits out a moment of unavailability', async () => {
    let calls = 0;
    const read = async () => {
      calls += 1;
      if (calls < 3) throw new UnavailableError();
      return 'placed';
    };
    expect(await committedReadBack(read)).toBe('placed');
    expect(calls).toBe(3);
  });

  it('past its tries, says the append was committed, not that the ledger is unavailable', async () => {
    const error = await committedReadBack(async () => {
      throw new LedgerUnavailableError('down');
    }, 2).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CommittedReadBackError);
    expect(error).not.toBeInstanceOf(LedgerUnavailableError);
    expect((error as Error).message).toMatch(/committed/);
  });

  it('hands on the ledger’s refusal of a repeat as it is', async () => {
    const repeat = new WrongExpectedRevisionError('consent-x', 0, 1);
    await expect(
      committedReadBack(async () => {
        throw repeat;
      }),
    ).rejects.toBe(repeat);
  });
});
