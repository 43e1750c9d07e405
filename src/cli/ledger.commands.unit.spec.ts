import { describe, expect, it } from 'vitest';
import { UsageError } from './command.js';
import { ledgerCopy } from './ledger.commands.js';

/** `ledger copy`'s arguments, checked before anything is opened (exit status 2 in the CLI). */
const parse = (args: Record<string, string | boolean>) => ledgerCopy.parse(args, []);

describe('ledger copy › when the arguments are wrong › says what to give, opening nothing', () => {
  it.each([
    ['no --from', { to: './b' }, /--from is required/],
    ['no --to', { from: './a' }, /--to is required/],
    ['one ledger as both ends', { from: './a', to: 'file:./a' }, /same ledger/],
    ['an unknown kind of location', { from: './a', to: 'mysql://db/x' }, /--to: .*unknown kind of location/],
    ['an EventStoreDB destination without its store', { from: './a', to: 'kurrentdb://esdb:2113?tls=false' }, /--to-store is required/],
    ['an EventStoreDB source without its store', { from: 'esdb://esdb:2113', to: './b' }, /--from-store is required/],
    [
      'one store as both ends',
      { from: 'postgres://db/a', to: 'kurrentdb://esdb:2113', 'to-store': 'postgres://db/a' },
      /stores are one database/,
    ],
    [
      'EventStoreDB as a store',
      { from: './a', to: 'kurrentdb://esdb:2113', 'to-store': 'esdb://x:2113' },
      /must be a PostgreSQL URL or an embedded store's folder/,
    ],
    [
      'a stream prefix for PostgreSQL',
      { from: './a', to: 'postgres://db/b', 'to-stream-prefix': 'p.' },
      /applies to an EventStoreDB location only/,
    ],
    ['a zero --limit', { from: './a', to: './b', limit: '0' }, /--limit must be a whole number/],
    ['a --batch-size too large', { from: './a', to: './b', 'batch-size': '100000' }, /--batch-size must be a whole number from 1 to 10000/],
  ])('%s', (_label, args, message) => {
    expect(() => parse(args)).toThrow(UsageError);
    expect(() => parse(args)).toThrow(message);
  });

  it('takes an EventStoreDB end with its store, or with --ledger-only', () => {
    expect(
      parse({ from: './a', to: 'kurrentdb://esdb:2113?tls=false', 'to-store': 'postgres://db/b', 'to-stream-prefix': 'prod.' }),
    ).toMatchObject({
      toStore: 'postgres://db/b',
      toStreamPrefix: 'prod.',
      batchSize: 1000,
      limit: undefined,
    });
    expect(parse({ from: './a', to: 'kurrentdb://esdb:2113', 'ledger-only': true })).toMatchObject({ ledgerOnly: true });
  });
});
