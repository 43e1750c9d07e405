import { configAggregate, configStream, decideConfig, type ConfigChanges, type ConfigEvent } from '../../domain/config/config.events.js';
import { write, type CommandHandler } from '../command-handler.js';

/**
 * Writes configuration changes to the tenant's log (docs/audit-log.md) through the one command
 * path, so that each names its actor and is hashed, chained and sealed like any event. The caller
 * applies the change to its table once this resolves: the log may name a change whose apply then
 * failed (the caller answered an error), never the reverse.
 *
 * @example
 * await configLog.record(tenantId, { type: 'ApiKeyRevoked', data: { apiKey, at } });
 */
export class ConfigLog implements ConfigChanges {
  constructor(private readonly commands: CommandHandler) {}

  /** The entry's id is its ledger event's, which `GET /audit-log/:id/proof` takes. */
  record(tenantId: string, event: ConfigEvent): Promise<string | null> {
    return this.commands.run(tenantId, async (attempt) => {
      const loaded = await attempt.load(configAggregate, configStream(tenantId, event));
      const events = decideConfig(event, loaded.state);
      return { writes: events.length > 0 ? [write(loaded, events)] : [], answer: (appended) => appended?.events[0]?.id ?? null };
    });
  }
}
