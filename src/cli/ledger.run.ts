// What the commands defined in ledger.commands.ts do once their arguments are parsed: imported by their
// `load` only when one runs, with the store and everything they use (src/cli/README.md).
import cliProgress from 'cli-progress';
import { copyLedger, LedgerCopyError, UnverifiedPositionError, verifyCopy } from '../ledger/copy.js';
import { comparePositions, START } from '../ledger/ledger.port.js';
import { recordAuthenticatedFrom } from '../transparency/event-authenticity.js';
import { openLedger, type OpenedLedger } from './open-ledger.js';
import { sameDatabase } from '../store/same-database.js';
import { MIGRATIONS } from '../migrations.js';
import type { Store } from '../store/store.js';
import { copyState, statePositions } from './state-copy.js';
import { UsageError, type CliIo, type CommandRun } from './command.js';
import type { CopyInput } from './ledger-location.js';
import { Stopped, stoppable, stoppedAnswer, throwIfStopped, type StopSignal } from './stoppable.js';

/**
 * Runs `work` with its progress shown: a bar on a terminal, elsewhere (logs, CI) a plain line
 * every few seconds. `work` reports the events done so far; `done` reads the final count off its
 * result, always shown.
 */
async function withProgress<T>(
  io: CliIo,
  label: string,
  total: number | undefined,
  work: (update: (done: number) => void) => Promise<T>,
  done: (result: T) => number,
): Promise<T> {
  const shown = progress(io, label);
  try {
    shown.start(total, 0);
    const result = await work((n) => shown.update(n));
    shown.update(done(result), true);
    return result;
  } finally {
    shown.stop();
  }
}

function progress(io: CliIo, label: string) {
  const tty = io.progressStream.isTTY === true;
  const bar = new cliProgress.SingleBar(
    {
      stream: io.progressStream,
      format: `${label} [{bar}] {percentage}% | {value}/{total} events | {duration_formatted} | eta {eta_formatted}`,
      hideCursor: true,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  let lastLine = 0;
  let total: number | undefined;
  return {
    start(of: number | undefined, done: number) {
      total = of;
      if (tty && total !== undefined) {
        bar.start(total, done);
        started = true;
      }
    },
    update(done: number, force = false) {
      if (started) {
        bar.setTotal(Math.max(total ?? 0, done));
        bar.update(done);
        return;
      }
      const now = Date.now();
      if (force || now - lastLine >= 2_000) {
        lastLine = now;
        io.info(`${label}: ${done}${total === undefined ? '' : `/${total}`} events`);
      }
    },
    stop() {
      if (started) bar.stop();
      started = false;
    },
  };
}

export const ledgerCopy: CommandRun = {
  // Ctrl-C stops after the append under way: the destination holds whole transactions, and a run again resumes.
  runOffline: (input: CopyInput, io) =>
    stoppable(io, 'stopping once the events being copied are in', (stopped) => copyOffline(input, io, stopped)),
};

async function copyOffline(input: CopyInput, io: CliIo, stopped: () => StopSignal | undefined) {
  const started = Date.now();
  const opened: { close(): Promise<void> }[] = [];
  try {
    const source = await openLedger(input.from, { migrations: MIGRATIONS, mustExist: true, streamPrefix: input.fromStreamPrefix });
    opened.push(source);
    const destination = await openLedger(input.to, { migrations: MIGRATIONS, streamPrefix: input.toStreamPrefix });
    opened.push(destination);
    const stateStore = async (ledger: OpenedLedger, location: string | undefined, mustExist: boolean): Promise<Store | undefined> => {
      if (location === undefined) return ledger.store;
      const l = await openLedger(location, { migrations: MIGRATIONS, mustExist });
      opened.push(l);
      return l.store;
    };
    const fromStore = input.ledgerOnly ? undefined : await stateStore(source, input.fromStore, true);
    const toStore = input.ledgerOnly ? undefined : await stateStore(destination, input.toStore, false);
    // The URLs differ (checked before opening), yet they may reach one database: nothing is written then.
    for (const a of [source.store, fromStore])
      for (const b of [destination.store, toStore])
        if (a && b && (await sameDatabase(a, b)))
          throw new UsageError(
            '--from and --to (or their stores) reach the same database under different URLs: give the destination a fresh one',
          );

    // 1. The ledger, from where the destination stands.
    const total = await source.count?.();
    io.info(`Copying the ledger ${source.label} → ${destination.label}${total === undefined ? '' : ` (${total} events)`}.`);
    const copied = await withProgress(
      io,
      'copying',
      total,
      (update) =>
        copyLedger(source.ledger, destination.ledger, {
          batchSize: input.batchSize,
          limit: input.limit,
          stop: () => stopped() !== undefined,
          onProgress: ({ done }) => update(done),
        }),
      (c) => c.alreadyThere + c.copied,
    );
    if (copied.alreadyThere > 0) io.info(`The destination already held the first ${copied.alreadyThere} events: resumed after them.`);
    if (!copied.complete) {
      const signal = stopped();
      const message = `Stopped by ${signal ?? '--limit'} after ${copied.copied} events; run the same command again to go on.`;
      const summary = { from: source.label, to: destination.label, ...copied, seconds: (Date.now() - started) / 1000 };
      if (signal) return stoppedAnswer(io, signal, message, summary);
      io.info(message);
      return summary;
    }

    // 2. Verify: every event, every hash, each stream's chain, the counts.
    const positions = fromStore ? await statePositions(fromStore.db) : [];
    let check;
    try {
      check = await withProgress(
        io,
        'verifying',
        total,
        (update) =>
          verifyCopy(source.ledger, destination.ledger, {
            batchSize: input.batchSize,
            positions,
            upTo: copied.through,
            onProgress: (n) => {
              throwIfStopped(stopped);
              update(n);
            },
          }),
        (c) => c.destinationEvents,
      );
    } catch (error) {
      if (!(error instanceof Stopped)) throw error;
      const message = `Stopped by ${error.signal} while verifying, with every event copied. Run the same command again to verify them and copy the store state.`;
      const summary = { from: source.label, to: destination.label, ...copied, verified: false, seconds: (Date.now() - started) / 1000 };
      return stoppedAnswer(io, error.signal, message, summary);
    }
    if (!check.ok) {
      const problems = [...check.problems, ...(check.moreProblems > 0 ? [`… and ${check.moreProblems} more`] : [])];
      io.info(`Verification FAILED:\n  ${problems.join('\n  ')}`);
      throw new LedgerCopyError(
        'COPY_VERIFY_FAILED',
        `the destination does not equal the source (${check.problems.length + check.moreProblems} problems)`,
        problems,
      );
    }
    io.info(`Verified: ${check.destinationEvents} events in ${check.streams} streams, every hash and chain equal to the source's.`);

    // 3. The state beside the ledger (docs/scaling.md): tenants, keys, data keys, webhooks, receipts, transparency log.
    // A source still being written: its state may name events the destination does not hold yet.
    const head = await source.ledger.headPosition();
    let sourceMovedOn = head !== null && comparePositions(head, copied.through) > 0;
    let state: Record<string, number> | string = 'not copied (--ledger-only)';
    if (fromStore && toStore && !sourceMovedOn) {
      try {
        state = await copyState(fromStore.db, toStore.db, check.translate);
        // Where authenticators begin there: after every event copied, each verified against the
        // source, whose copied checkpoints cover it (insert-once: a destination started keeps its own).
        await recordAuthenticatedFrom(toStore.db, (await destination.ledger.headPosition()) ?? START);
        const rows = Object.values(state).reduce((a, b) => a + b, 0);
        io.info(
          `Copied the store state: ${rows} rows in ${Object.keys(state).length} tables (read models are rebuilt by the service on its first start).`,
        );
      } catch (error) {
        // The source's service wrote state (a sealed checkpoint) naming an event the verification read before that state existed; nothing of it was written.
        if (!(error instanceof UnverifiedPositionError)) throw error;
        sourceMovedOn = true;
      }
    }
    if (fromStore && toStore && sourceMovedOn) {
      state = 'not copied: the source is still being written';
      io.info(
        'The source received events or state during the copy: the store state was not copied. Stop the service on the source and run the same command again to finish.',
      );
    }
    const seconds = (Date.now() - started) / 1000;
    io.info(`Done in ${seconds.toFixed(1)} s: ${copied.copied} events copied now, ${copied.alreadyThere} already there.`);
    return {
      from: source.label,
      to: destination.label,
      ...copied,
      sourceMovedOn,
      verified: { events: check.destinationEvents, sourceEvents: check.sourceEvents, streams: check.streams },
      state,
      seconds,
    };
  } finally {
    for (const o of opened.reverse()) await o.close().catch(() => undefined);
  }
}
