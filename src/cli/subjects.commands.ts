import { UsageError, type Command } from './command.js';
import { serviceLedger } from './service-ledger.js';
import { isUuid } from '../common/ids.js';
import { USER_REFERENCE_MAX } from '../http/routes/consent/consent.schemas.js';
import { ReceiptStore } from '../receipts/receipt.store.js';
import { TenantService } from '../tenants/tenants.service.js';
import { CommandHandler } from '../application/command-handler.js';
import { SubjectErasure } from '../application/subjects/erasure.js';
import { subjectRecords } from '../privacy/subject-events.js';
import { scrubDeliveries } from '../webhooks/scrub.js';
import { servicePrivacy } from './service-privacy.js';

/**
 * `subjects erase --tenant ID --user-reference REF`: the operator's form of
 * `POST /api/v1/subjects/erase` (docs/erasure.md), for a request that reached the operator
 * rather than the tenant's application. Prints the erasure as the API answers it.
 */
export const subjectsErase: Command = {
  name: 'subjects erase',
  usage: 'subjects erase --tenant TENANT_ID --user-reference REF',
  summary: "Erase a data subject's personal data (crypto-shredding); prints {erased, erasedAt, consentIds, receiptsDeleted, replayed}",
  options: { tenant: { type: 'string' }, 'user-reference': { type: 'string' } },
  parse(values) {
    const tenant = values.tenant;
    if (typeof tenant !== 'string') throw new UsageError('--tenant is required');
    if (!isUuid(tenant)) throw new UsageError('--tenant must be a tenant id (a UUID, as `tenant list` shows it)');
    const reference = values['user-reference'];
    if (typeof reference !== 'string') throw new UsageError('--user-reference is required');
    const length = [...reference].length;
    if (length < 1 || length > USER_REFERENCE_MAX || reference.includes('\0') || !reference.isWellFormed()) {
      throw new UsageError(`--user-reference must be 1 to ${USER_REFERENCE_MAX} characters, without NUL`);
    }
    return { tenant: tenant.toLowerCase(), reference };
  },
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
        subjectRecords: (tenantId, subject) => subjectRecords(store.db, tenantId, subject),
        purgeReceipts: (tenantId, consentIds) => receipts.purge(tenantId, consentIds),
        scrubDeliveries: (tenantId, subject) => scrubDeliveries(store.db, tenantId, subject),
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
