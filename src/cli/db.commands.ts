import { ROLE_NAME } from '../store/role-name.js';
import { UsageError, type Command } from './command.js';

/**
 * `db grant --role NAME [--create]`: run with the database owner's `DATABASE_URL`, it brings the
 * store up to date (every open migrates), creates the read models of this version, and grants a
 * role what the service needs and no more:
 * the ledger's events to read and insert, never to change (docs/verifying.md, Database roles).
 * The service then runs with that role's `DATABASE_URL`. Run it again after an upgrade.
 */
export const dbGrant: Command = {
  name: 'db grant',
  // Run by the owner on a new database before the service's first start: it migrates the store.
  createsStore: true,
  usage: 'db grant --role NAME [--create]',
  summary:
    "Grant a PostgreSQL role the service's rights: the ledger read and append only (run as the owner, after every upgrade: it migrates the store and creates the read models, which the role may not); prints {role, created}",
  options: { role: { type: 'string' }, create: { type: 'boolean' } },
  parse(values) {
    const role = values.role;
    if (typeof role !== 'string') throw new UsageError('--role is required');
    if (!ROLE_NAME.test(role))
      throw new UsageError(`--role must be a plain PostgreSQL name: lower-case letters, digits and _ (got "${role}")`);
    return { role, create: values.create === true };
  },
  load: () => import('./db.run.js').then((m) => m.dbGrant),
};
