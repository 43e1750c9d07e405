// What the commands defined in subjects.commands.ts do once their arguments are parsed: imported by their
// `load` only when one runs, with the store and everything they use (src/cli/README.md).
import { UsageError, type CommandRun } from './command.js';
import { serviceLedger } from './service-ledger.js';
import { ReceiptStore } from '../receipts/receipt.store.js';
import { TenantService } from '../tenants/tenants.service.js';
import { CommandHandler } from '../application/command-handler.js';
import { SubjectErasure } from '../application/subjects/erasure.js';
import { ledgerFinalThrough, subjectRecords } from '../privacy/subject-events.js';
import { scrubDeliveries } from '../webhooks/scrub.js';
import { servicePrivacy } from './service-privacy.js';

export const subjectsErase: CommandRun = {
  async run(store, input: { tenant: string; reference: string }, io) {
    if (!io.settings) throw new UsageError('subjects erase needs the service settings');
    if (io.settings.eventStoreUrl) {
      // The subject's records are found through read.event_index, which only the running service keeps up.
      throw new UsageError('with EVENTSTORE_URL set, erase through the running service: POST /api/v1/subjects/erase');
    }
    await new TenantService(store.db).get(input.tenant); // NOT_FOUND, exit status 1, when there is none
    const privacy = await servicePrivacy(store, io.settings);
    const { ledger, close } = await serviceLedger(store, io.settings, { appends: true });
    try {
      const receipts = new ReceiptStore(store.db);
      const erasure = new SubjectErasure({
        commands: new CommandHandler(ledger),
        privacy,
        subjectRecords: (tenantId, subject, before) => subjectRecords(store.db, tenantId, subject, 'ledger', before),
        settled: (_tenantId, position) => ledgerFinalThrough(store.db, position),
        purgeReceipts: (tenantId, consentIds) => receipts.purge(tenantId, consentIds),
        scrubDeliveries: (tenantId, subject) => scrubDeliveries(store.db, privacy, tenantId, subject),
      });
      const { view, replayed } = await erasure.erase(input.tenant, input.reference);
      io.info(
        replayed
          ? 'This subject was erased before; nothing changed.'
          : `Erased: ${view.consentIds.length} record(s) keep their decision, time and hash, without personal fields.`,
      );
      return { ...view, replayed };
    } finally {
      await close();
      await privacy.close();
    }
  },
};
