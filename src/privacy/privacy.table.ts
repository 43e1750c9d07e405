import type { ColumnType, Kysely } from 'kysely';
import type { Database } from '../store/schema.js';

/**
 * `privacy` schema (migrations 0006, 0007): keys wrapped by the master key. Not rebuilt:
 * deleting a row is an erasure.
 */
export interface SecretsTable {
  name: string;
  wrapped: string;
  created_at: ColumnType<Date, string | undefined, never>;
}
export interface DataKeysTable {
  key_id: string;
  wrapped: string;
  created_at: ColumnType<Date, string | undefined, never>;
}

// A type alias (not an interface) so that it has the index signature `withTables` asks for.
export type PrivacyDatabase = {
  'privacy.secrets': SecretsTable;
  'privacy.data_keys': DataKeysTable;
};

export type PrivacyDb = Kysely<Database & PrivacyDatabase>;

/** The store's handle, seeing the `privacy` tables too. */
export const privacyDb = (db: Kysely<Database>): PrivacyDb => db.withTables<PrivacyDatabase>();
