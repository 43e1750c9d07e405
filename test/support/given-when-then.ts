import { expect } from 'vitest';
import { DomainError, type DomainErrorCode } from '../../src/domain/errors.js';

/** A pure decider, in the shape of src/domain/<area>/<area>.decider.ts. */
export interface Decider<Command, Event, State> {
  decide: (command: Command, state: State) => Event[];
  evolve: (state: State, event: Event) => State;
  initialState: () => State;
}

export interface DeciderThen<Event> {
  /** The command records exactly these events (deep equality, order matters). */
  then(expected: Event[]): void;
  /** The command records nothing (for example: a change to the value already held). */
  thenNothingHappened(): void;
  /** The command is refused with a DomainError of this code; returns the error for further checks. */
  thenThrows(code: DomainErrorCode): DomainError;
}

export interface DeciderGiven<Command, Event, State> {
  when(command: Command): DeciderThen<Event>;
  /** The state the given events fold into, for checking `evolve` itself. */
  state(): State;
}

/**
 * Given/when/then for pure deciders, in the manner of Emmett's `DeciderSpecification`: the
 * given events are folded with `evolve` from `initialState`, the command is decided against
 * that state, and the outcome is compared. No I/O. Events and commands are deep-frozen
 * first, so a decider or evolve that mutates its input fails the test instead of passing
 * by accident.
 *
 * @example
 * const spec = deciderSpec({ decide: decidePolicy, evolve: evolvePolicy, initialState: initialPolicyState });
 * spec.given([published]).when({ type: 'DeletePolicyVersion', data: { now } }).then([deleted]);
 * spec.given([]).when({ type: 'DeletePolicyVersion', data: { now } }).thenThrows('NOT_FOUND');
 */
export function deciderSpec<Command, Event, State>(
  decider: Decider<Command, Event, State>,
): { given(events: Event[]): DeciderGiven<Command, Event, State> } {
  return {
    given(events) {
      const history = events.map((e) => deepFreeze(structuredClone(e)));
      const fold = () => history.reduce(decider.evolve, decider.initialState());
      return {
        state: fold,
        when(command) {
          const frozen = deepFreeze(structuredClone(command));
          const decide = () => decider.decide(frozen, deepFreeze(fold()));
          return {
            then(expected) {
              const recorded = decide();
              expect(recorded).toEqual(expected);
              // What the decider records, evolve must accept.
              recorded.reduce(decider.evolve, fold());
            },
            thenNothingHappened() {
              expect(decide()).toEqual([]);
            },
            thenThrows(code) {
              let thrown: unknown;
              let recorded: Event[] | undefined;
              try {
                recorded = decide();
              } catch (error) {
                thrown = error;
              }
              if (thrown === undefined) {
                throw new Error(`expected the command to be refused with ${code}, but it recorded ${JSON.stringify(recorded)}`);
              }
              expect(thrown).toBeInstanceOf(DomainError);
              expect((thrown as DomainError).code).toBe(code);
              return thrown as DomainError;
            },
          };
        },
      };
    },
  };
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}
