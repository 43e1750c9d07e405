/** A piece of a running service that starts and stops: a store, a worker pool, followers, the app. */
export interface Part {
  readonly name: string;
  start(): Promise<void> | void;
  stop(): Promise<void> | void;
}

export interface LifecycleOptions {
  /** Called before each part starts (tests: a start that fails part-way). */
  beforeStart?: (part: Part) => Promise<void> | void;
}

/**
 * Starts parts in order and stops them in reverse: a part starts after those it needs, and stops
 * before them. If a start fails, every part already started is stopped, in reverse, and the error
 * is rethrown, so nothing keeps running against a part that was closed.
 *
 * @example
 * const life = new Lifecycle();
 * const store = await life.open('store', () => openStore(options), (s) => s.close());
 * await life.start(followers);
 * await life.stop(); // followers, then the store
 */
export class Lifecycle {
  private readonly started: Part[] = [];
  private stopping: Promise<void> | undefined;

  constructor(private readonly options: LifecycleOptions = {}) {}

  /** The parts started so far, in order. */
  get parts(): readonly Part[] {
    return this.started;
  }

  /** Starts `part` after those already started; on failure stops them all (in reverse) and rethrows. */
  async start<T extends Part>(part: T): Promise<T> {
    if (this.stopping) throw new Error(`cannot start ${part.name}: the service is stopping`);
    try {
      await this.options.beforeStart?.(part);
      await part.start();
    } catch (error) {
      await this.stop().catch(() => undefined);
      throw error;
    }
    this.started.push(part);
    return part;
  }

  /**
   * A resource as a part: `open()` now, `close(resource)` when the lifecycle stops.
   *
   * @example
   * const privacy = await life.open('privacy', () => Privacy.open(db, key), (p) => p.close());
   */
  async open<T>(name: string, open: () => Promise<T> | T, close: (resource: T) => Promise<void> | void): Promise<T> {
    let resource!: T;
    await this.start({
      name,
      start: async () => {
        resource = await open();
      },
      stop: () => close(resource),
    });
    return resource;
  }

  /**
   * Runs `build`, which starts parts; if it throws, stops what it started (in reverse) and
   * rethrows. For the steps between starts that can fail too (a schema check, a key load).
   */
  async build<T>(build: (life: this) => Promise<T>): Promise<T> {
    try {
      return await build(this);
    } catch (error) {
      await this.stop().catch(() => undefined);
      throw error;
    }
  }

  /**
   * Stops every started part in reverse order, once (a second call waits for the first). A part
   * that fails to stop does not keep the others running: they stop too, then the first failure
   * is thrown.
   */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      let failure: { error: unknown } | undefined;
      for (const part of [...this.started].reverse()) {
        try {
          await part.stop();
        } catch (error) {
          failure ??= { error };
        }
      }
      this.started.length = 0;
      if (failure) throw failure.error;
    })();
    return this.stopping;
  }
}
