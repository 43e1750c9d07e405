/**
 * Events as the domain knows them, and the one way stored events are read back.
 *
 * Every aggregate declares its event types in its `<area>.events.ts` and builds its decoder there
 * with `eventDecoder`: per type, the function that turns the data as it was stored (by this
 * version or an older one) into today's shape. That function is the place to upcast: when a
 * type's data changes shape, the new code keeps reading the ledger's old events through it, and
 * nothing else needs to know. A type the decoder does not list (another aggregate's, a later
 * version's, or a foreign one) decodes to null and is ignored.
 */

/** A domain event: a past-tense type and its data. Metadata (who, idempotency) is the ledger's. */
export interface DomainEvent<T extends string = string, D extends object = object> {
  type: T;
  data: D;
}

/** An event as the ledger hands it back: its type and its data as stored. */
export interface StoredEvent {
  type: string;
  data: Record<string, unknown>;
}

/** Per event type, how its stored data becomes today's data. */
export type Upcasters<E extends DomainEvent> = {
  [K in E['type']]: (stored: Record<string, unknown>) => Extract<E, { type: K }>['data'];
};

/**
 * The upcaster of a type whose data has had one shape since it was first written: the data is
 * taken as stored. The one cast from stored JSON to a declared type is here.
 */
export const asStored =
  <D>() =>
  (stored: Record<string, unknown>): D =>
    stored as D;

/** Turns a stored event into one of an aggregate's events, or null when it is not one of them. */
export type EventDecoder<E extends DomainEvent> = (stored: StoredEvent) => E | null;

/**
 * Builds an aggregate's decoder from its upcasters.
 *
 * @example
 * const decodeSubjectEvent = eventDecoder<SubjectEvent>({ SubjectErased: asStored() });
 * decodeSubjectEvent({ type: 'SubjectErased', data }) // { type: 'SubjectErased', data }
 * decodeSubjectEvent({ type: 'ReceiptIssued', data }) // null
 */
export function eventDecoder<E extends DomainEvent>(upcasters: Upcasters<E>): EventDecoder<E> {
  const byType = new Map<string, (stored: Record<string, unknown>) => object>(Object.entries(upcasters));
  return (stored) => {
    const upcast = byType.get(stored.type);
    return upcast ? ({ type: stored.type, data: upcast(stored.data) } as E) : null;
  };
}

/**
 * An aggregate's fold, in the manner of Emmett's deciders: where its state starts, how each of its
 * events changes it, and how its stored events are decoded. Command handlers and exact reads fold
 * streams with it.
 */
export interface Aggregate<S, E extends DomainEvent> {
  initialState: () => S;
  evolve: (state: S, event: E) => S;
  decode: EventDecoder<E>;
}

/**
 * Folds stored events into an aggregate's state; events it does not decode are skipped.
 *
 * @example
 * const state = fold(policyAggregate, await ledger.readStream(policyStream(tenantId, id)));
 */
export function fold<S, E extends DomainEvent>(aggregate: Aggregate<S, E>, events: readonly StoredEvent[]): S {
  let state = aggregate.initialState();
  for (const stored of events) {
    const event = aggregate.decode(stored);
    if (event) state = aggregate.evolve(state, event);
  }
  return state;
}

/**
 * The metadata that keeps an event from every webhook (`import --no-webhooks`: receivers that hold
 * those decisions already). Said in the event itself, so that every subscription, however far
 * behind, leaves it out alike.
 */
export const NO_WEBHOOKS = { webhooks: false } as const;

/** Whether an event's metadata keeps it from every webhook (see NO_WEBHOOKS). */
export const keptFromWebhooks = (metadata: Readonly<Record<string, unknown>>): boolean => metadata.webhooks === NO_WEBHOOKS.webhooks;
