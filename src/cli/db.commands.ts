import { grantServiceRole, ROLE_NAME } from '../store/roles.js';
import { UsageError, type Command } from './command.js';

/**
 * `db grant --role NAME [--create]`: run with the database owner's `DATABASE_URL`, it brings the
 * store up to date (every open migrates) and grants a role what the service needs and no more:
 * the ledger's events to read and insert, never to change (docs/verifying.md, Database roles).
 * The service then runs with that role's `DATABASE_URL`. Run it again after an upgrade.
 */
export const dbGrant: Command = {
  name: 'db grant',
  usage: 'db grant --role NAME [--create]',
  summary: "Grant a PostgreSQL role the service's rights: the ledger read and append only (run as the owner); prints {role, created}",
  options: { role: { type: 'string' }, create: { type: 'boolean' } },
  parse(values) {
    const role = values.role;
    if (typeof role !== 'string') throw new UsageError('--role is required');
    if (!ROLE_NAME.test(role))
      throw new UsageError(`--role must be a plain PostgreSQL name: lower-case letters, digits and _ (got "${role}")`);
    return { role, create: values.create === true };
  },
  async run(store, input: { role: string; create: boolean }, io) {
    if (store.kind !== 'postgres')
      throw new UsageError('db grant needs a PostgreSQL server (DATABASE_URL): the embedded store has no roles');
    const { created } = await grantServiceRole(store.db, input.role, { create: input.create });
    io.info(
      `Granted ${input.role}: the ledger's events to read and insert only; the other tables to read and write. Run the service with its DATABASE_URL.`,
    );
    return { role: input.role, created };
  },
};
