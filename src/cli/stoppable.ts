import { PartialResult, type CliIo } from './command.js';

/** The exit status of a run stopped by a signal: 128 + its number, as a shell reports a process it killed. */
export const SIGNAL_EXIT = { SIGINT: 130, SIGTERM: 143 } as const;
export type StopSignal = keyof typeof SIGNAL_EXIT;

/** Thrown where a long command checks for a stop (between two atomic steps): a signal asked it to stop. */
export class Stopped extends Error {
  override readonly name = 'Stopped';
  constructor(readonly signal: StopSignal) {
    super(`stopped by ${signal}`);
  }
}

/** Throws `Stopped` when a signal asked to stop: called where a long command may stop, between two atomic steps. */
export function throwIfStopped(stopped: () => StopSignal | undefined): void {
  const signal = stopped();
  if (signal) throw new Stopped(signal);
}

/**
 * A long command's answer once a signal stopped it: `message` (how far it got, how to go on) on
 * stderr, the summary with `stoppedBy` on stdout, and the signal's exit status.
 */
export function stoppedAnswer(io: CliIo, signal: StopSignal, message: string, summary: object): PartialResult {
  io.info(message);
  return new PartialResult({ ...summary, stoppedBy: signal }, SIGNAL_EXIT[signal]);
}

/**
 * Ctrl-C (or SIGTERM) while `fn` runs stops it cleanly: `stopped()` then names the signal, and
 * `fn` finishes the step under way (each is atomic), closes what it opened and says where it
 * stopped. A second signal ends the process at once, which loses nothing either: a step cut short
 * is not written. `stopping` tells the operator what the first signal does.
 *
 * @example
 * return stoppable(io, 'stopping once the events being copied are in', (stopped) => copy({ stop: () => stopped() !== undefined }));
 */
export async function stoppable<T>(io: CliIo, stopping: string, fn: (stopped: () => StopSignal | undefined) => Promise<T>): Promise<T> {
  let signal: StopSignal | undefined;
  const on = (received: StopSignal) => {
    if (signal) process.exit(SIGNAL_EXIT[received]);
    signal = received;
    io.info(`\n${received}: ${stopping} (${received} again to stop at once).`);
  };
  process.on('SIGINT', on);
  process.on('SIGTERM', on);
  try {
    return await fn(() => signal);
  } finally {
    process.off('SIGINT', on);
    process.off('SIGTERM', on);
  }
}
