/** Where background work (followers, the dispatcher, listeners) reports what went wrong: the service's logger. */
export interface Log {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** A log that drops everything (the default of classes that take an optional log). */
export const silentLog: Log = { warn: () => undefined, error: () => undefined };

/**
 * A log that writes to `initial` until `attach` names the real one: parts built before the app
 * (whose logger it is) log through the app once it exists.
 *
 * @example
 * const log = deferredLog(options.log);
 * const runner = new ProjectionRunner(db, reads, projectors, { log });
 * log.attach(app.log);
 */
export function deferredLog(initial?: Log): Log & { attach(target: Log): void } {
  let target: Log | undefined = initial;
  return {
    warn: (o, m) => target?.warn(o, m),
    error: (o, m) => target?.error(o, m),
    attach(next) {
      target ??= next;
    },
  };
}
