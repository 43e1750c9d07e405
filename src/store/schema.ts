import type { ColumnType, Selectable } from 'kysely';

/**
 * `control.migrations`: the name of every migration applied to this store (src/store/migrations.ts).
 * The store's own table; every other table belongs to a feature, which declares it in its
 * `<feature>.table.ts` and reaches it through a typed handle (`db.withTables<FeatureDatabase>()`).
 */
export interface MigrationsTable {
  name: string;
  applied_at: ColumnType<Date, string | undefined, never>;
}
export type MigrationRow = Selectable<MigrationsTable>;

/**
 * The store's base database type: the tables of the store itself. Features widen a handle with
 * their own tables (`ledgerDb(db)`, `controlDb(db)`, `webhooksDb(db)`, …), so this list does not
 * grow with them.
 */
export interface Database {
  'control.migrations': MigrationsTable;
}
