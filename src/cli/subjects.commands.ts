import { UsageError, type Command } from './command.js';
import { isUuid } from '../common/ids.js';
import { USER_REFERENCE_MAX } from '../domain/consent/user-reference.js';

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
  load: () => import('./subjects.run.js').then((m) => m.subjectsErase),
};
