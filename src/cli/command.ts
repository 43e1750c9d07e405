import type { ParseArgsConfig } from 'node:util';
import type { Settings } from '../config.js';
import type { Store } from '../store/store.js';

/** Exit statuses: 0 done, 1 failed (store unreachable or locked, tenant or key not found), 2 usage. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

export interface CliEnvironment {
  env: Record<string, string | undefined>;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
}

/** Bad arguments: exit status 2, with a message saying what to send instead. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** A check that found something: exit status 1, `{"error": {code, message, ...details}}` on stdout. */
export class CheckFailed extends Error {
  override readonly name = 'CheckFailed';
  constructor(
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown>,
  ) {
    super(message);
  }
}

/**
 * A command's answer printed as a success, with another exit status: work done in part (rows of an
 * import refused), which a script must be able to tell from work done in full.
 */
export class PartialResult {
  constructor(
    readonly result: object,
    readonly exitStatus: number,
  ) {}
}

export interface CliIo {
  /** Human messages: progress, hints. Never parsed. */
  info(message: string): void;
  /** The stream the progress bar draws on. */
  progressStream: NodeJS.WriteStream;
  /** The service's settings (which ledger: EVENTSTORE_URL). */
  settings?: Settings;
  /** Prints a JSON object on stdout now (a long-running command announcing itself). */
  emit?(o: object): void;
}

export type Values = Record<string, string | boolean | undefined>;

export interface Command {
  /** `tenant create`, `projections rebuild`, ... */
  name: string;
  usage: string;
  summary: string;
  /** More for `--help` alone (fields, examples); a usage error prints the usage and summary only. */
  details?: string;
  options: NonNullable<ParseArgsConfig['options']>;
  /** Connections to the store it needs (default 2). */
  connections?: number;
  /** Whether the command takes positional arguments (file names), given to `parse`. */
  positionals?: boolean;
  /** Checks the arguments before anything is opened; throws UsageError. */
  parse(values: Values, positionals: readonly string[]): unknown;
  /** A `runOffline` command that reads the service's settings all the same (`io.settings`). */
  settings?: boolean;
  /**
   * Whether it may create the embedded store in a DATA_DIR that holds none (`tenant create`, a
   * first setup); every other command refuses such a folder rather than work on a new, empty store.
   */
  createsStore?: boolean;
  /**
   * Its implementation, loaded only when it runs, so that help and usage errors load neither the
   * store nor what the commands use: `load: () => import('./x.run.js').then((m) => m.x)`.
   */
  load(): Promise<CommandRun>;
}

/** What a command does with its parsed arguments (`input`, what `parse` answered). */
export interface CommandRun {
  run?(store: Store, input: never, io: CliIo): Promise<object>;
  /** Commands that need no store (the auditor's offline checks) run this instead of `run`; null prints nothing more. */
  runOffline?(input: never, io: CliIo): Promise<object | null>;
}
