import { WrongExpectedRevisionError, type Ledger, type NewEvent, type RecordedEvent } from '../ledger/ledger.port.js';

export interface DomainEventShape {
  type: string;
  data: object;
}

/** Thrown when a stream kept changing under us for every attempt. */
export class ConcurrencyError extends Error {
  override readonly name = 'ConcurrencyError';
}

/** Attempts a command makes before it gives up on streams that keep changing. */
export const COMMAND_ATTEMPTS = 5;

/**
 * What a command throws once its last attempt failed: a version conflict becomes the one
 * ConcurrencyError every command ends with (409 CONCURRENCY_CONFLICT); anything else is itself.
 *
 * @example
 * if (attempt >= COMMAND_ATTEMPTS) throw givenUp(error);
 */
export const givenUp = (error: unknown): unknown =>
  error instanceof WrongExpectedRevisionError ? new ConcurrencyError(`stream ${error.stream} kept changing; try again`) : error;

/** Folds a stream's recorded events into state. */
export function fold<S, E extends DomainEventShape>(
  events: readonly RecordedEvent[],
  initial: () => S,
  evolve: (state: S, event: E) => S,
): S {
  return events.reduce((s, e) => evolve(s, { type: e.type, data: e.data } as unknown as E), initial());
}

export const toNewEvent = (e: DomainEventShape, metadata?: Record<string, unknown>): NewEvent => ({
  type: e.type,
  data: e.data as Record<string, unknown>,
  ...(metadata ? { metadata } : {}),
});

export interface CommandOptions<S, E extends DomainEventShape> {
  tenantId: string;
  stream: string;
  initial: () => S;
  evolve: (state: S, event: E) => S;
  /** Decides the new events from the current state, at `now` (ISO 8601). Pure. */
  decide: (state: S, now: string, recorded: readonly RecordedEvent[]) => E[];
  metadata?: Record<string, unknown>;
  clock: () => Date;
  /** Attempts before giving up on a stream that keeps changing. */
  maxAttempts?: number;
}

export interface CommandResult<S> {
  state: S;
  appended: RecordedEvent[];
  recorded: RecordedEvent[];
}

/**
 * Load stream → fold → decide → append with the expected revision; on a concurrent change,
 * reload and decide again (bounded).
 *
 * @example
 * await handleCommand(ledger, { tenantId, stream, initial, evolve, clock,
 *   decide: (state, now) => decideConsent({ type: 'WithdrawConsent', data: { reason, now } }, state) });
 */
export async function handleCommand<S, E extends DomainEventShape>(
  ledger: Ledger,
  options: CommandOptions<S, E>,
): Promise<CommandResult<S>> {
  const attempts = options.maxAttempts ?? COMMAND_ATTEMPTS;
  for (let attempt = 1; ; attempt++) {
    const recorded = await ledger.readStream(options.stream);
    const state = fold(recorded, options.initial, options.evolve);
    const now = options.clock();
    const events = options.decide(state, now.toISOString(), recorded);
    if (events.length === 0) return { state, appended: [], recorded };
    try {
      const result = await ledger.append(
        [
          {
            tenantId: options.tenantId,
            stream: options.stream,
            expectedRevision: recorded.length === 0 ? 'no_stream' : recorded[recorded.length - 1]!.revision,
            events: events.map((e) => toNewEvent(e, options.metadata)),
          },
        ],
        now,
      );
      const newState = events.reduce(options.evolve, state);
      return { state: newState, appended: result.events, recorded: [...recorded, ...result.events] };
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError)) throw error;
      if (attempt >= attempts) throw givenUp(error);
    }
  }
}
