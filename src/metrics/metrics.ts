import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Every metric of the service starts with this (docs/operations.md lists them). */
export const PREFIX = 'consent_ledger_';

/** What a follower's lag is made of: how many events it has still to apply, and how old the oldest is. */
export interface Lag {
  events: number;
  seconds: number;
}

/** A part of the service that lags behind the ledger or the clock, as `/metrics` reports it. */
export interface LagSource {
  /** The `follower` label: projections, sealer, webhooks, expiry, witnesses. */
  follower: string;
  lag(): Promise<Lag>;
}

/**
 * The service's metrics in one registry of its own (a second service in the same process, as in
 * the tests, keeps its own). Counters and histograms are moved by the parts that do the work;
 * gauges are read when scraped. Served as Prometheus text at `GET /metrics` (docs/operations.md).
 *
 * @example
 * const metrics = new ServiceMetrics();
 * metrics.ledgerAppend.observe(0.004);
 * const text = await metrics.text();
 */
export class ServiceMetrics {
  readonly registry = new Registry();

  readonly httpRequests = new Counter({
    name: `${PREFIX}http_requests_total`,
    help: 'HTTP requests answered, by method, route (its template) and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });

  readonly httpDuration = new Histogram({
    name: `${PREFIX}http_request_duration_seconds`,
    help: 'Time from a request arriving to its answer being sent, by method, route and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  readonly rateLimited = new Counter({
    name: `${PREFIX}rate_limited_total`,
    help: 'Requests refused 429 by a rate limit, by the window that ran out (minute, day).',
    labelNames: ['window'] as const,
    registers: [this.registry],
  });

  readonly ledgerAppend = new Histogram({
    name: `${PREFIX}ledger_append_duration_seconds`,
    help: "A command's append to the ledger, from the call to its durable commit.",
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });

  readonly ledgerGroupEvents = new Histogram({
    name: `${PREFIX}ledger_group_events`,
    help: 'Events written by one ledger transaction (group commit takes the appends that queued up together).',
    buckets: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000],
    registers: [this.registry],
  });

  readonly ledgerGroupAppends = new Histogram({
    name: `${PREFIX}ledger_group_appends`,
    help: 'Appends (commands) committed together by one ledger transaction.',
    buckets: [1, 2, 4, 8, 16, 32, 64, 128],
    registers: [this.registry],
  });

  readonly ledgerHorizonDoubts = new Counter({
    name: `${PREFIX}ledger_read_horizon_doubts_total`,
    help: "Ledger reads whose horizon was in doubt (a transaction of the read's snapshot ended before it could tell where it ran), by what followed: read_again with a new snapshot, or held_back below it after four in a row.",
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly readFenceTimeouts = new Counter({
    name: `${PREFIX}read_fence_timeouts_total`,
    help: "Reads answered from read models behind the tenant's writes: the read fence gave up waiting (docs/architecture.md).",
    registers: [this.registry],
  });

  readonly webhookAttempts = new Counter({
    name: `${PREFIX}webhook_attempts_total`,
    help: 'Webhook delivery attempts made by this process, by outcome (delivered; refused: a non-2xx answer; unreachable: no answer).',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  constructor() {
    // Process figures (CPU, memory, handles) and the event loop's delay, as prom-client names them.
    collectDefaultMetrics({ register: this.registry });
  }

  /**
   * Each follower's lag, read when scraped: `consent_ledger_follower_lag_events` and
   * `…_lag_seconds`, labelled by follower. A source that fails to answer is left out of that scrape.
   */
  followers(sources: readonly LagSource[]): void {
    const read = async () =>
      (
        await Promise.all(
          sources.map(async (s) => {
            try {
              return { follower: s.follower, lag: await s.lag() };
            } catch {
              return null;
            }
          }),
        )
      ).filter((x): x is { follower: string; lag: Lag } => x !== null);
    // One reading serves both gauges of a scrape.
    let pending: Promise<{ follower: string; lag: Lag }[]> | undefined;
    const reading = () => {
      pending ??= read().finally(() => setImmediate(() => (pending = undefined)));
      return pending;
    };
    new Gauge({
      name: `${PREFIX}follower_lag_events`,
      help: 'Events (or deadlines, or checkpoints) a follower has still to handle, counted up to 10,000.',
      labelNames: ['follower'] as const,
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const { follower, lag } of await reading()) this.set({ follower }, lag.events);
      },
    });
    new Gauge({
      name: `${PREFIX}follower_lag_seconds`,
      help: 'How long the oldest thing a follower has still to handle has waited (0 when it is caught up).',
      labelNames: ['follower'] as const,
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const { follower, lag } of await reading()) this.set({ follower }, lag.seconds);
      },
    });
  }

  /**
   * A gauge read when scraped; `read` answering null, or failing, leaves it out of that scrape (a
   * gauge without labels would otherwise show 0, and an alert on it would see a healthy value).
   */
  gauge(name: string, help: string, read: () => Promise<number | null>): void {
    const unread = this.unread;
    const full = `${PREFIX}${name}`;
    new Gauge({
      name: full,
      help,
      registers: [this.registry],
      async collect() {
        this.reset();
        const value = await read().catch(() => null);
        if (value === null) unread.add(full);
        else {
          unread.delete(full);
          this.set(value);
        }
      },
    });
  }

  /** Gauges whose read gave nothing in the latest scrape. */
  private readonly unread = new Set<string>();

  /** The Prometheus text exposition of every metric, without the gauges that could not be read. */
  async text(): Promise<string> {
    const text = await this.registry.metrics();
    if (this.unread.size === 0) return text;
    const left = (line: string) => {
      const name = line.startsWith('# ') ? line.split(' ')[2] : line.split(/[ {]/, 1)[0];
      return name === undefined || !this.unread.has(name);
    };
    return text.split('\n').filter(left).join('\n');
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
