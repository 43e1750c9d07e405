// What the commands defined in commands.ts do once their arguments are parsed: imported by their
// `load` only when one runs, with the store and everything they use (src/cli/README.md).
import cliProgress from 'cli-progress';
import { rebuildReadModels } from '../../projections/rebuild.js';
import { ReadModelsNotReady, verifyReadModels } from '../../projections/verify.js';
import { MIGRATIONS } from '../migrations.js';
import { openStore } from '../store/store.js';
import { CheckFailed, type CommandRun } from './command.js';
import { eventIndexProjector } from '../../projections/event-index/event-index.projector.js';
import { allProjectors } from '../../projections/index.js';
import { serviceLedger, withRecordedTenants } from './service-ledger.js';
import { Stopped, stoppable, stoppedAnswer, throwIfStopped } from './stoppable.js';
import type { Plan } from '../tenants/plans.js';
import { TenantService, type NewKey } from '../tenants/tenants.service.js';

export const tenantCreate: CommandRun = {
  async run(store, input: { name: string; plan: Plan }, io) {
    const created = await withRecordedTenants(store, io.settings, (tenants) => tenants.create(input.name, input.plan));
    io.info(`Created tenant "${created.name}" on the ${created.plan} plan. Save the API secret now: only its hash is stored.`);
    return created;
  },
};

export const tenantList: CommandRun = {
  async run(store) {
    return { tenants: await new TenantService(store.db).list() };
  },
};

export const tenantSetPlan: CommandRun = {
  async run(store, input: { id: string; change: Parameters<TenantService['update']>[1] }, io) {
    return withRecordedTenants(store, io.settings, (tenants) => tenants.update(input.id, input.change));
  },
};

export const keyCreate: CommandRun = {
  async run(store, input: { tenant: string; key: NewKey }, io) {
    const issued = await withRecordedTenants(store, io.settings, (tenants) => tenants.issue(input.tenant, input.key));
    io.info(
      issued.apiSecret === null
        ? 'Issued a publishable key: it has no secret, and works only from the origins listed.'
        : 'Issued a new API key. Save the API secret now: only its hash is stored.',
    );
    return issued;
  },
};

export const keyRevoke: CommandRun = {
  async run(store, input: { tenant: string; key: string }, io) {
    await withRecordedTenants(store, io.settings, (tenants) => tenants.revokeKey(input.tenant, input.key));
    // Another process's cache of verified keys (TenantService) may trust it for up to 2 s more.
    io.info(`Revoked ${input.key}.`);
    return { revoked: true };
  },
};

export const projectionsRebuild: CommandRun = {
  // Ctrl-C stops after the batch under way: the projectors' checkpoints move with each batch, so the
  // service's projectors (or a rebuild again) go on from there.
  run: (store, _input, io) =>
    stoppable(io, 'stopping once the events being replayed are in', async (stopped) => {
      const bar = new cliProgress.SingleBar(
        {
          stream: io.progressStream,
          format: 'replaying the ledger [{bar}] {percentage}% | {value}/{total} events | {duration_formatted}',
          hideCursor: true,
        },
        cliProgress.Presets.shades_classic,
      );
      let started = false;
      let replayed = 0;
      const opened = await serviceLedger(store, io.settings);
      try {
        const result = await rebuildReadModels(
          store,
          opened.ledger,
          (applied, total) => {
            replayed = applied;
            throwIfStopped(stopped);
            if (!started) {
              started = true;
              io.info(`Dropped the read models; replaying ${total} ledger events.`);
              bar.start(total, applied);
            } else {
              bar.setTotal(total);
              bar.update(applied);
            }
          },
          {
            // EventStoreDB: its index is a read model too; it cannot count its events cheaply.
            ...(opened.external ? { projectors: [...allProjectors, eventIndexProjector], count: async () => 0 } : {}),
            log: {
              warn: (o, m) => io.info(`warning: ${m} ${JSON.stringify(o)}`),
              error: (o, m) => io.info(`error: ${m} ${JSON.stringify(o, (k, v: unknown) => (k === 'err' ? String(v) : v))}`),
            },
          },
        );
        bar.stop();
        io.info(`Rebuilt the read models from ${result.events} events in ${result.seconds} s.`);
        return result;
      } catch (error) {
        if (!(error instanceof Stopped)) throw error;
        bar.stop();
        const message = `Stopped by ${error.signal} after replaying ${replayed} events. The read models go on from there when the service runs (its projectors keep their place), or run \`projections rebuild\` again to start over.`;
        return stoppedAnswer(io, error.signal, message, { events: replayed });
      } finally {
        await opened.close();
        bar.stop();
      }
    }),
};

export const projectionsVerify: CommandRun = {
  async run(store, _input, io) {
    const opened = await serviceLedger(store, io.settings);
    const scratch = await openStore({ dataDir: 'memory://', migrations: MIGRATIONS });
    try {
      io.info('Replaying the ledger into a scratch copy of the read models…');
      const result = await verifyReadModels(store, opened.ledger, scratch, {
        ...(opened.external ? { projectors: [...allProjectors, eventIndexProjector] } : {}),
      }).catch((error: unknown) => {
        if (error instanceof ReadModelsNotReady) throw new CheckFailed('READ_MODELS_NOT_READY', error.message, {});
        throw error;
      });
      if (!result.consistent) {
        const rows = result.drift.reduce((n, d) => n + d.missing + d.extra + d.changed, 0);
        throw new CheckFailed(
          'READ_MODEL_DRIFT',
          `${rows} read-model row(s) are not what the ledger gives, in ${result.drift.map((d) => d.table).join(', ')}: run \`projections rebuild\` after finding out why`,
          { ...result },
        );
      }
      io.info(`The read models match the ledger: ${result.tables.reduce((n, t) => n + t.rows, 0)} rows, ${result.events} events replayed.`);
      return result;
    } finally {
      await scratch.close();
      await opened.close();
    }
  },
};
