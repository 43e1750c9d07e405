import { currentActor } from '../common/actor.js';
import { fold, type Aggregate, type DomainEvent } from '../domain/events.js';
import {
  readStreams,
  ConcurrencyError,
  WrongExpectedRevisionError,
  type AppendRequest,
  type AppendResult,
  type ExpectedRevision,
  type Ledger,
  type RecordedEvent,
} from '../ledger/ledger.port.js';

/** Attempts a command makes before it gives up on streams that keep changing. */
export const COMMAND_ATTEMPTS = 5;

/** A stream as one attempt of a command read it, folded. */
export interface Loaded<S> {
  stream: string;
  state: S;
  /** What an append to it expects: `no_stream`, or the revision of the last event read. */
  revision: ExpectedRevision;
  /** Its events as stored; empty for a stream not read (see `Attempt.create`). */
  recorded: readonly RecordedEvent[];
}

/** Events to append to one stream, at the revision it was read at; no events makes it a condition. */
export interface StreamWrite {
  stream: string;
  expected: ExpectedRevision;
  events: readonly DomainEvent[];
  metadata?: Record<string, unknown> | undefined;
}

/** What one attempt decided: the writes (atomic, all or none) and the command's answer once they are durable. */
export interface Decision<T> {
  writes: readonly StreamWrite[];
  /** Called after the writes committed (`appended` is null when there were none). */
  answer: (appended: AppendResult | null) => T | Promise<T>;
}

/** One attempt of a command: its time, what ended the previous one, and the reads it decides on. */
export interface Attempt {
  /** 1 for the first attempt. */
  readonly number: number;
  /** The attempt's time: the time its events record. */
  readonly now: Date;
  /** The version conflict that ended the previous attempt (a stream it read moved meanwhile). */
  readonly conflict: WrongExpectedRevisionError | undefined;
  /** Reads a stream and folds it; a write to it expects it unchanged. */
  load<S, E extends DomainEvent>(aggregate: Aggregate<S, E>, stream: string): Promise<Loaded<S>>;
  /**
   * A stream the command creates under a fresh id: the first attempt does not read it (it is
   * expected not to exist, so its first use costs no read); after a conflict it is read like any.
   */
  create<S, E extends DomainEvent>(aggregate: Aggregate<S, E>, stream: string): Promise<Loaded<S>>;
  /** `create` for many streams; after a conflict they are read together (Ledger.readStreams). */
  createMany<S, E extends DomainEvent>(aggregate: Aggregate<S, E>, streams: readonly string[]): Promise<Loaded<S>[]>;
  /** `load` for many streams, read together (Ledger.readStreams). */
  loadMany<S, E extends DomainEvent>(aggregate: Aggregate<S, E>, streams: readonly string[]): Promise<Loaded<S>[]>;
}

/** Appends `events` to a loaded stream at the revision it was read at. */
export const write = (loaded: Loaded<unknown>, events: readonly DomainEvent[], metadata?: Record<string, unknown>): StreamWrite => ({
  stream: loaded.stream,
  expected: loaded.revision,
  events,
  metadata,
});

/** The condition that a stream is still at the revision it was read at, writing nothing to it. */
export const unchanged = (stream: string, revision: number): StreamWrite => ({ stream, expected: revision, events: [] });

/** A decision that writes nothing: the command's answer is already known (a replay, a no-op). */
export const answered = <T>(value: T): Decision<T> => ({ writes: [], answer: () => value });

const revisionOf = (recorded: readonly RecordedEvent[]): ExpectedRevision =>
  recorded.length === 0 ? 'no_stream' : recorded[recorded.length - 1]!.revision;

/**
 * The one command path, in the manner of Emmett's `CommandHandler`: an attempt reads the streams a
 * command decides on (folded with their aggregates' `evolve`), decides, and writes to one or more
 * streams in one atomic append, each at the revision it was read at, with streams it only depends
 * on as conditions. When a stream moved meanwhile (`WrongExpectedRevisionError`), the whole attempt
 * runs again on fresh reads, at most `maxAttempts` times; then the command gives up with a
 * `ConcurrencyError` (409 CONCURRENCY_CONFLICT), having written nothing. Every other failure is
 * the command's own answer (a domain error, an unavailable ledger) and ends it at once.
 *
 * @example
 * const view = await commands.run(tenantId, async (attempt) => {
 *   const consent = await attempt.load(consentAggregate, consentStream(tenantId, id));
 *   const events = decideConsent({ type: 'WithdrawConsent', data: { reason, now: attempt.now.toISOString() } }, consent.state);
 *   return { writes: [write(consent, events)], answer: () => events };
 * });
 */
export class CommandHandler {
  private readonly maxAttempts: number;
  private readonly clock: () => Date;

  constructor(
    private readonly ledger: Ledger,
    options: { clock?: () => Date; maxAttempts?: number } = {},
  ) {
    this.clock = options.clock ?? (() => new Date());
    this.maxAttempts = options.maxAttempts ?? COMMAND_ATTEMPTS;
  }

  /** Runs a command: attempts until its writes land, a refusal, or `maxAttempts` conflicts. */
  async run<T>(tenantId: string, decide: (attempt: Attempt) => Promise<Decision<T>>): Promise<T> {
    let conflict: WrongExpectedRevisionError | undefined;
    for (let number = 1; ; number++) {
      const attempt = this.attempt(number, conflict);
      const decision = await decide(attempt);
      if (decision.writes.length === 0) return decision.answer(null);
      // Who asked (an API key, the operator): named in every event's metadata.
      const actor = currentActor();
      const requests: AppendRequest[] = decision.writes.map((w) => ({
        tenantId,
        stream: w.stream,
        expectedRevision: w.expected,
        events: w.events.map((e) => ({
          type: e.type,
          data: e.data as Record<string, unknown>,
          ...(w.metadata || actor ? { metadata: { ...w.metadata, ...(actor ? { actor } : {}) } } : {}),
        })),
      }));
      let appended: AppendResult;
      try {
        appended = await this.ledger.append(requests, attempt.now);
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError)) throw error;
        if (number >= this.maxAttempts) throw new ConcurrencyError(`stream ${error.stream} kept changing; try again`);
        conflict = error;
        continue;
      }
      return decision.answer(appended);
    }
  }

  /**
   * The single-stream form: load the stream, decide its new events from its state, append them.
   * Answers the state after them (and what was appended; nothing when the decider decided nothing).
   *
   * @example
   * const { state } = await commands.handle(tenantId, policyAggregate, policyStream(tenantId, id),
   *   (s, now) => decidePolicy({ type: 'DeletePolicyVersion', data: { now } }, s));
   */
  handle<S, E extends DomainEvent>(
    tenantId: string,
    aggregate: Aggregate<S, E>,
    stream: string,
    decide: (state: S, now: string) => E[],
  ): Promise<{ state: S; appended: readonly RecordedEvent[] }> {
    return this.run(tenantId, async (attempt) => {
      const loaded = await attempt.load(aggregate, stream);
      const events = decide(loaded.state, attempt.now.toISOString());
      const state = events.reduce(aggregate.evolve, loaded.state);
      return { writes: events.length > 0 ? [write(loaded, events)] : [], answer: (result) => ({ state, appended: result?.events ?? [] }) };
    });
  }

  private attempt(number: number, conflict: WrongExpectedRevisionError | undefined): Attempt {
    const ledger = this.ledger;
    const load = async <S, E extends DomainEvent>(aggregate: Aggregate<S, E>, stream: string): Promise<Loaded<S>> => {
      const recorded = await ledger.readStream(stream);
      return { stream, state: fold(aggregate, recorded), revision: revisionOf(recorded), recorded };
    };
    return {
      number,
      now: this.clock(),
      conflict,
      load,
      async create(aggregate, stream) {
        if (number > 1) return load(aggregate, stream);
        return { stream, state: aggregate.initialState(), revision: 'no_stream', recorded: [] };
      },
      async createMany(aggregate, streams) {
        if (number === 1)
          return streams.map((stream) => ({ stream, state: aggregate.initialState(), revision: 'no_stream' as const, recorded: [] }));
        return this.loadMany(aggregate, streams);
      },
      async loadMany(aggregate, streams) {
        const read = await readStreams(ledger, streams);
        return streams.map((stream) => {
          const recorded = read.get(stream)!;
          return { stream, state: fold(aggregate, recorded), revision: revisionOf(recorded), recorded };
        });
      },
    };
  }
}
