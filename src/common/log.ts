/** Where background work (followers, the dispatcher, listeners) reports what went wrong: the service's logger. */
export interface Log {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** A log that drops everything (the default of classes that take an optional log). */
export const silentLog: Log = { warn: () => undefined, error: () => undefined };

/** What a deferred log keeps of what is said before it has a log to say it to. */
const EARLY_KEPT = 100;

/**
 * A log that writes to `initial` until `attach` names the real one: parts built before the app
 * (whose logger it is) log through the app once it exists. What they say before that (Redis
 * unreachable at start, say, which they say once) is kept and said on `attach`, not lost.
 *
 * @example
 * const log = deferredLog(options.log);
 * const runner = new ProjectionRunner(db, reads, projectors, { log });
 * log.attach(app.log);
 */
export function deferredLog(initial?: Log): Log & { attach(target: Log): void } {
  let target: Log | undefined = initial;
  const early: { level: keyof Log; obj: object; msg: string }[] = [];
  const say = (level: keyof Log) => (obj: object, msg: string) => {
    if (target) target[level](obj, msg);
    else if (early.length < EARLY_KEPT) early.push({ level, obj, msg });
  };
  return {
    warn: say('warn'),
    error: say('error'),
    attach(next) {
      if (target) return;
      target = next;
      for (const e of early.splice(0)) next[e.level](e.obj, e.msg);
    },
  };
}
