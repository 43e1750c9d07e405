import { sqlMigration, type Migrations } from './migrations.js';

/**
 * The PostgreSQL roles `db grant` gave the service's rights (src/store/roles.ts): the owner's later
 * migrations and read-model rebuilds grant each of them the new tables. A released migration's
 * SQL never changes.
 */
export const rolesMigrations: Migrations = {
  '0013_control_service_roles': sqlMigration(`
      CREATE TABLE control.service_roles (
        name text PRIMARY KEY,
        granted_at timestamptz NOT NULL DEFAULT now()
      );
    `),
};
