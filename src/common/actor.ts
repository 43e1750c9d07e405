import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Who made a change (docs/contract.md, Keys and scopes): an API key by its public id (never its
 * secret), the operator through the admin API, the operator's command line, or the service itself
 * (a deadline met: a consent's or a key's expiry). The command path
 * writes it into every event's metadata (`actor`), so the ledger says who recorded, withdrew or
 * erased what.
 */
export type Actor = { type: 'key'; id: string } | { type: 'operator' } | { type: 'cli' } | { type: 'service' };

const acting = new AsyncLocalStorage<Actor>();

/** The actor of the work in progress, if one was named. */
export const currentActor = (): Actor | undefined => acting.getStore();

/**
 * Runs `fn` (and everything it starts) as `actor`.
 *
 * @example
 * await actingAs({ type: 'cli' }, () => importFile(...));
 */
export const actingAs = <T>(actor: Actor, fn: () => T): T => acting.run(actor, fn);
