import { AsyncLocalStorage } from 'node:async_hooks';

/** What the reads of one request met: `behind` once one answered from read models the read fence could not wait for. */
export interface ReadNotes {
  behind: boolean;
}

const noting = new AsyncLocalStorage<ReadNotes>();

/**
 * Runs `fn` (and everything it starts) noting its reads in `notes`; the API sends
 * `X-Read-Models-Behind: true` when a read was answered behind the ledger (docs/contract.md).
 *
 * @example
 * const notes = { behind: false };
 * await notingReads(notes, () => queries.search(tenantId, query));
 * if (notes.behind) reply.header('x-read-models-behind', 'true');
 */
export const notingReads = <T>(notes: ReadNotes, fn: () => T): T => noting.run(notes, fn);

/** Notes that the work in progress answers from read models that do not yet hold every write before it. */
export const noteReadBehind = (): void => {
  const notes = noting.getStore();
  if (notes) notes.behind = true;
};

/**
 * A command that decides on a read model (which consents a user stands by, which version is in
 * force) while the read models lag behind the ledger past the read fence: nothing is written, and
 * the caller tries again (503, with this message).
 */
export class ReadModelsBehindError extends Error {
  override readonly name = 'ReadModelsBehindError';
}
