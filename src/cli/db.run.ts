// What the commands defined in db.commands.ts do once their arguments are parsed: imported by their
// `load` only when one runs, with the store and everything they use (src/cli/README.md).
import { ensureReadSchema } from '../../projections/read-schema.js';
import { grantServiceRole } from '../store/roles.js';
import { UsageError, type CommandRun } from './command.js';

export const dbGrant: CommandRun = {
  async run(store, input: { role: string; create: boolean }, io) {
    if (store.kind !== 'postgres')
      throw new UsageError('db grant needs a PostgreSQL server (DATABASE_URL): the embedded store has no roles');
    // The read models too, as the owner: the role creates nothing, and finds them made (or, after an
    // upgrade that changed their shape, dropped and made anew; the service replays the ledger into them).
    const { recreated } = await ensureReadSchema(store.db);
    const { created } = await grantServiceRole(store.db, input.role, { create: input.create });
    if (recreated) io.info('The read models had another shape: recreated empty; the service rebuilds them from the ledger on its start.');
    io.info(
      `Granted ${input.role}: the ledger's events to read and insert only; the other tables to read and write. Run the service with its DATABASE_URL.`,
    );
    return { role: input.role, created };
  },
};
