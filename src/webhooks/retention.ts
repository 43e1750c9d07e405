import { sql, type Kysely } from 'kysely';
import type { Log } from '../common/log.js';
import { PokeLoop } from '../common/poke-loop.js';
import type { Database } from '../store/schema.js';

export interface HistoryPrunerOptions {
  /** WEBHOOK_HISTORY_DAYS: attempts and settled deliveries older than this go. */
  days: number;
  /** Rows per statement: small, so that no statement holds the store long. */
  batchSize?: number;
  /** Between rounds once nothing is left to prune. */
  pollMs?: number;
  log: Log;
  /** One process at a time on a shared PostgreSQL server (null: another is pruning). */
  exclusive?: <T>(run: () => Promise<T>) => Promise<T | null>;
  clock?: () => Date;
}

/** What one step removed. */
export interface PruneStep {
  attempts: number;
  deliveries: number;
}

/**
 * Keeps the webhook history from growing without bound (docs/operations.md): removes attempts
 * older than `days`, and deliveries settled (delivered, failed, cancelled) and last changed before
 * then, a batch at a time, again and again while there is more, then every `pollMs`. A pending
 * delivery is never removed, however old. The history API and the console show what is left.
 *
 * @example
 * const pruner = new WebhookHistoryPruner(db, { days: 90, log });
 * pruner.start();
 */
export class WebhookHistoryPruner {
  readonly name = 'webhook history pruner';
  private readonly loop: PokeLoop;
  private readonly batchSize: number;
  private readonly clock: () => Date;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly options: HistoryPrunerOptions,
  ) {
    this.batchSize = options.batchSize ?? 500;
    this.clock = options.clock ?? (() => new Date());
    this.loop = new PokeLoop(
      'webhook history pruner',
      async () => {
        const step = await this.runOnce();
        return { more: step !== null && Math.max(step.attempts, step.deliveries) >= this.batchSize };
      },
      { pollMs: options.pollMs ?? 3_600_000, log: options.log },
    );
  }

  start(): void {
    this.loop.start();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
  }

  /** One batch of each; null when another process is pruning. */
  async runOnce(): Promise<PruneStep | null> {
    const cutoff = new Date(this.clock().getTime() - this.options.days * 86_400_000).toISOString();
    const run = async (): Promise<PruneStep> => {
      const attempts = await sql`
        DELETE FROM webhooks.attempts WHERE id IN (
          SELECT id FROM webhooks.attempts WHERE attempted_at < ${cutoff}::timestamptz LIMIT ${this.batchSize})`.execute(this.db);
      // Settled and untouched since the cutoff: every attempt of theirs is older too (gone above,
      // or in a later batch: the NOT EXISTS keeps the foreign key satisfied meanwhile).
      const deliveries = await sql`
        DELETE FROM webhooks.deliveries WHERE id IN (
          SELECT d.id FROM webhooks.deliveries d
          WHERE d.status <> 'pending' AND d.updated_at < ${cutoff}::timestamptz
            AND NOT EXISTS (SELECT 1 FROM webhooks.attempts a WHERE a.delivery_id = d.id)
          LIMIT ${this.batchSize})`.execute(this.db);
      return { attempts: Number(attempts.numAffectedRows ?? 0), deliveries: Number(deliveries.numAffectedRows ?? 0) };
    };
    return this.options.exclusive ? this.options.exclusive(run) : run();
  }
}
