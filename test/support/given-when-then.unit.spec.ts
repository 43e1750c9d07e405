import { describe, expect, it } from 'vitest';
import { DomainError } from '../../src/domain/errors.js';
import { deciderSpec } from './given-when-then.js';

// A counter that refuses to go below zero: just enough decider to prove the helper can fail.
type Command = { type: 'Add'; by: number } | { type: 'Boom' };
type Event = { type: 'Added'; by: number };
type State = { total: number };
const spec = deciderSpec<Command, Event, State>({
  initialState: () => ({ total: 0 }),
  evolve: (s, e) => ({ total: s.total + e.by }),
  decide: (c, s) => {
    if (c.type === 'Boom') throw Object.assign(new Error('not a domain error'), { code: 'VALIDATION_ERROR' });
    if (s.total + c.by < 0) throw new DomainError('VALIDATION_ERROR', 'below zero');
    return c.by === 0 ? [] : [{ type: 'Added', by: c.by }];
  },
});

describe('deciderSpec › when the decider behaves as expected', () => {
  it('passes then, thenNothingHappened and thenThrows, and folds the given events', () => {
    spec
      .given([{ type: 'Added', by: 2 }])
      .when({ type: 'Add', by: 3 })
      .then([{ type: 'Added', by: 3 }]);
    spec.given([]).when({ type: 'Add', by: 0 }).thenNothingHappened();
    expect(spec.given([]).when({ type: 'Add', by: -1 }).thenThrows('VALIDATION_ERROR').message).toBe('below zero');
    expect(
      spec
        .given([
          { type: 'Added', by: 2 },
          { type: 'Added', by: 5 },
        ])
        .state(),
    ).toEqual({ total: 7 });
  });
});

describe('deciderSpec › when the outcome differs from the expectation', () => {
  it('fails then on other events', () => {
    expect(() =>
      spec
        .given([])
        .when({ type: 'Add', by: 3 })
        .then([{ type: 'Added', by: 4 }]),
    ).toThrow();
  });

  it('fails thenNothingHappened when events are recorded', () => {
    expect(() => spec.given([]).when({ type: 'Add', by: 3 }).thenNothingHappened()).toThrow();
  });

  it('fails thenThrows when the command succeeds, when the code differs, and when the error is not a DomainError', () => {
    expect(() => spec.given([]).when({ type: 'Add', by: 3 }).thenThrows('VALIDATION_ERROR')).toThrow(/recorded/);
    expect(() => spec.given([]).when({ type: 'Add', by: -1 }).thenThrows('NOT_FOUND')).toThrow();
    expect(() => spec.given([]).when({ type: 'Boom' }).thenThrows('VALIDATION_ERROR')).toThrow();
  });

  it('fails when the decider mutates its command or state', () => {
    const mutating = deciderSpec<Command, Event, State>({
      initialState: () => ({ total: 0 }),
      evolve: (s, e) => ({ total: s.total + e.by }),
      decide: (_c, s) => {
        s.total = 1;
        return [];
      },
    });
    expect(() => mutating.given([]).when({ type: 'Add', by: 1 }).thenNothingHappened()).toThrow(TypeError);
  });
});
