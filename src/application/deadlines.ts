import { sql, type Kysely } from 'kysely';
import { countOutdated } from '../../projections/user-status/reconsent.queries.js';
import { versionsByPurpose } from '../../projections/user-status/user-status.queries.js';
import { consentsDb } from '../../projections/consents/consents.table.js';
import { readDb } from '../../projections/read-schema.js';
import { actingAs } from '../common/actor.js';
import type { Log } from '../common/log.js';
import { PokeLoop } from '../common/poke-loop.js';
import { consentAggregate, decideConsent } from '../domain/consent/consent.decider.js';
import { consentStream } from '../domain/consent/consent.events.js';
import { versionsBefore } from '../domain/consent/standing.js';
import { consentStreamSql } from '../ledger/postgres/ledger.table.js';
import { decidePolicy, policyAggregate } from '../domain/policy/policy.decider.js';
import { policyStream } from '../domain/policy/policy.events.js';
import type { Database } from '../store/schema.js';
import { write, type CommandHandler } from './command-handler.js';

export interface DeadlinesOptions {
  /** Items per step: consents to expire, and versions to announce. */
  batchSize: number;
  /** The longest sleep between steps; a step sleeps less when the next deadline is nearer. */
  pollMs: number;
  log: Log;
  /** Runs a step while no other process runs one (a PostgreSQL server shared by processes); absent: always. */
  exclusive?: <T>(run: () => Promise<T>) => Promise<T | null>;
  clock?: () => Date;
  /** Other deadlines met by the same step (keys' expiries): each records what came due, at most `limit`. */
  others?: readonly DeadlineSource[];
  /**
   * The ledger lives in this database (`ledger.events`): the lag leaves out the expiries already
   * appended that the read models do not show yet (their own lag, reported apart).
   */
  ledgerInStore?: boolean;
}

/** A kind of deadline kept outside the read models: records those due, and says when the next falls. */
export interface DeadlineSource {
  recordExpiries(now: Date, limit: number): Promise<{ done: number; next: Date | null }>;
}

/** What one step appended, and when the next deadline falls (null: none known). */
export interface DeadlinesStep {
  expired: number;
  announced: number;
  /** Done by the other sources (keys expired). */
  others: number;
  next: Date | null;
}

/** The order versions of a purpose take effect in (effectiveDate, then the higher version), as a row of alias `t`. */
const versionOrder = (t: string) => sql.raw(`(${t}.effective_date, ${t}.major, ${t}.minor, ${t}.patch)`);

/**
 * The deadlines follower (docs/purposes.md): turns time into ledger facts. Each step appends a
 * `ConsentExpired` to every consent given whose `expiresAt` has come, and a
 * `PolicyReconsentRequired` (with the number of standing decisions it outdated) to every version
 * requiring re-consent whose `effectiveDate` has come; the webhook subscription turns them into
 * `consent.expired` and `policy.reconsent_required`; with `others`, it meets their deadlines too
 * (an API key's expiry, recorded in the tenant's log). It finds them in the read models and decides
 * on the ledger's streams, so a step repeated (a restart, a read model behind) appends nothing
 * twice; on a shared server one process at a time runs a step. It sleeps until the nearest
 * deadline, `pollMs` at most, so a deadline is met within a few seconds.
 *
 * @example
 * const deadlines = new Deadlines(commands, db, { batchSize: 500, pollMs: 10_000, log });
 * deadlines.start();
 */
export class Deadlines {
  readonly name = 'deadlines';
  private readonly loop: PokeLoop;
  private readonly clock: () => Date;

  constructor(
    private readonly commands: CommandHandler,
    private readonly db: Kysely<Database>,
    private readonly options: DeadlinesOptions,
  ) {
    this.clock = options.clock ?? (() => new Date());
    this.loop = new PokeLoop(
      'deadlines',
      async () => {
        const step = await this.runOnce();
        if (!step) return { more: false };
        const more = Math.max(step.expired, step.announced, step.others) >= options.batchSize;
        const untilNext = step.next ? step.next.getTime() - this.clock().getTime() : options.pollMs;
        return { more, waitMs: Math.max(25, Math.min(options.pollMs, untilNext)) };
      },
      { pollMs: options.pollMs, log: options.log },
    );
  }

  start(): void {
    this.loop.start();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
  }

  /** Wakes the loop (a record or a version was just written here with a deadline). */
  poke(): void {
    this.loop.poke();
  }

  /** One step now; null when another process is running one. */
  async runOnce(): Promise<DeadlinesStep | null> {
    const run = async (): Promise<DeadlinesStep> => {
      const now = this.clock();
      const expired = await this.expire(now);
      const announced = await this.announce(now);
      let others = 0;
      let next = await this.nextDeadline(now);
      for (const source of this.options.others ?? []) {
        const step = await source.recordExpiries(now, this.options.batchSize);
        others = Math.max(others, step.done);
        if (step.next && (!next || step.next < next)) next = step.next;
      }
      return { expired, announced, others, next };
    };
    // What a step appends is the service's own doing: its events name it as their actor.
    return actingAs({ type: 'service' }, () => (this.options.exclusive ? this.options.exclusive(run) : run()));
  }

  /**
   * The read.consents rows to mark expired at `now`: active and past expiresAt, not those already
   * past it when recorded (imported history, which no ConsentExpired marks; a read model built
   * before that rule may still hold them as active).
   */
  private due(now: Date) {
    return consentsDb(this.db)
      .selectFrom('read.consents')
      .where('status', '=', 'active')
      .where('expires_at', 'is not', null)
      .where('expires_at', '<=', now)
      .whereRef('expires_at', '>', 'created_at');
  }

  /** Consents given whose expiry came and that are not marked yet, tenant by tenant, each tenant's in one append. */
  private async expire(now: Date): Promise<number> {
    const due = await this.due(now).select(['tenant_id', 'id']).orderBy('expires_at').limit(this.options.batchSize).execute();
    const byTenant = new Map<string, string[]>();
    for (const r of due) byTenant.set(r.tenant_id, [...(byTenant.get(r.tenant_id) ?? []), r.id]);
    let appended = 0;
    for (const [tenantId, ids] of byTenant) {
      appended += await this.commands.run(tenantId, async (attempt) => {
        const loaded = await Promise.all(ids.map((id) => attempt.load(consentAggregate, consentStream(tenantId, id))));
        const writes = loaded.flatMap((c) => {
          const events = decideConsent({ type: 'ExpireConsent', data: { now: attempt.now.toISOString() } }, c.state);
          return events.length > 0 ? [write(c, events)] : [];
        });
        return { writes, answer: () => writes.length };
      });
    }
    return appended;
  }

  /**
   * Versions requiring re-consent whose taking effect is still to be announced, and will be: active,
   * of a purpose the tenant defined, with an earlier version when it took effect; not passed by a
   * later version requiring re-consent already in force at `now` (that one is announced, counting
   * what both outdate), nor by any later version in force before it could take effect (a version
   * published back-dated, behind the one in force, never takes effect as the purpose's version:
   * nobody is asked again for it). A later version that asks nobody again (a typo fixed in 2.0.1)
   * does not take the announcement of the change before it (2.0.0).
   */
  private announceable(now: Date) {
    return (
      readDb(this.db)
        .selectFrom('read.policy_versions as v')
        .where('v.reconsent_due', '=', true)
        .where('v.is_active', '=', true)
        .where('v.deleted', '=', false)
        // Only versions published while their purpose was defined: the spec's six types without
        // purposes keep exactly their events, and a type defined as a purpose later is announced
        // from its next version on, not for its history (docs/purposes.md). A purpose's first
        // version asks nobody again.
        .where(({ exists, selectFrom }) =>
          exists(
            selectFrom('read.purposes as p')
              .select('p.key')
              .whereRef('p.tenant_id', '=', 'v.tenant_id')
              .whereRef('p.key', '=', 'v.purpose')
              .whereRef('p.created_at', '<=', 'v.created_at'),
          ),
        )
        .where(({ exists, selectFrom }) =>
          exists(
            selectFrom('read.policy_versions as o')
              .select('o.id')
              .whereRef('o.tenant_id', '=', 'v.tenant_id')
              .whereRef('o.purpose', '=', 'v.purpose')
              .where(sql<boolean>`${versionOrder('o')} < ${versionOrder('v')}`)
              // ... that existed when this one took effect: one published back-dated later does not
              // make a first version a change.
              .where(sql<boolean>`o.created_at <= greatest(v.created_at, v.effective_date)`),
          ),
        )
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('read.policy_versions as n')
                .select('n.id')
                .whereRef('n.tenant_id', '=', 'v.tenant_id')
                .whereRef('n.purpose', '=', 'v.purpose')
                .where('n.is_active', '=', true)
                .where('n.deleted', '=', false)
                .where('n.effective_date', '<=', now)
                .where(sql<boolean>`${versionOrder('n')} > ${versionOrder('v')}`)
                .where(
                  sql<boolean>`(n.requires_reconsent OR greatest(n.created_at, n.effective_date) < greatest(v.created_at, v.effective_date))`,
                ),
            ),
          ),
        )
    );
  }

  /** Versions requiring re-consent that took effect and are not announced yet, each with the decisions it outdates. */
  private async announce(now: Date): Promise<number> {
    const due = await this.announceable(now)
      .select(['v.tenant_id', 'v.id', 'v.purpose'])
      .where('v.effective_date', '<=', now)
      .orderBy('v.effective_date')
      .limit(this.options.batchSize)
      .execute();
    let announced = 0;
    for (const v of due) {
      const versions = (await versionsByPurpose(this.db, v.tenant_id, [v.purpose])).get(v.purpose)!;
      const self = versions.find((x) => x.id === v.id);
      if (!self) continue;
      const counts = await countOutdated(this.db, v.tenant_id, v.purpose, { since: self, outdated: versionsBefore(versions, self) }, now);
      const { appended } = await this.commands.handle(v.tenant_id, policyAggregate, policyStream(v.tenant_id, v.id), (state, at) =>
        decidePolicy({ type: 'AnnounceReconsent', data: { outdated: counts.reduce((a, b) => a + b, 0), now: at } }, state),
      );
      announced += appended.length;
    }
    return announced;
  }

  /**
   * Consents whose expiry has come and that carry no ConsentExpired yet (counted up to `cap`), and
   * how long the oldest of them is overdue: the expiry follower's lag on /metrics. Found in the read
   * models; with the ledger in the store, those whose ConsentExpired it holds already are left out.
   */
  async lag(cap: number): Promise<{ events: number; seconds: number }> {
    const now = this.clock();
    const due = this.options.ledgerInStore
      ? this.due(now).where(
          sql<boolean>`NOT EXISTS (SELECT 1 FROM ledger.events e
            WHERE e.stream_id = ${consentStreamSql(sql.ref('read.consents.tenant_id'), sql.ref('read.consents.id'))} AND e.event_type = 'ConsentExpired')`,
        )
      : this.due(now);
    const [oldest, counted] = await Promise.all([
      due.select('expires_at').orderBy('expires_at').limit(1).executeTakeFirst(),
      this.db
        .selectFrom(due.select('id').limit(cap).as('d'))
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    const seconds = oldest?.expires_at ? Math.max(0, (now.getTime() - new Date(oldest.expires_at).getTime()) / 1000) : 0;
    return { events: Number(counted.n), seconds };
  }

  /** The nearest deadline after `now` the read models know of. */
  private async nextDeadline(now: Date): Promise<Date | null> {
    const [consent, version] = await Promise.all([
      consentsDb(this.db)
        .selectFrom('read.consents')
        .select('expires_at')
        .where('status', '=', 'active')
        .where('expires_at', 'is not', null)
        .where('expires_at', '>', now)
        .orderBy('expires_at')
        .limit(1)
        .executeTakeFirst(),
      // Only versions that will be announced: another would wake the loop for nothing.
      this.announceable(now)
        .select('v.effective_date')
        .where('v.effective_date', '>', now)
        .orderBy('v.effective_date')
        .limit(1)
        .executeTakeFirst(),
    ]);
    const times = [consent?.expires_at, version?.effective_date].filter((d): d is Date => d instanceof Date);
    return times.length === 0 ? null : new Date(Math.min(...times.map((d) => d.getTime())));
  }
}
