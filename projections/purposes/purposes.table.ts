import type { ColumnType, Kysely, Selectable } from 'kysely';
import type { Database } from '../../src/store/schema.js';

/** `read.purposes`: one row per purpose a tenant defined, as its events left it. */
export interface PurposesTable {
  tenant_id: string;
  key: string;
  name: string;
  description: string;
  legal_basis: string;
  consent_valid_for: string | null;
  dpv: string | null;
  created_at: ColumnType<Date, string, string>;
  updated_at: ColumnType<Date, string, string>;
}
export type PurposeRow = Selectable<PurposesTable>;

// A type alias (not an interface) so that it has the index signature `withTables` asks for.
export type PurposesDatabase = { 'read.purposes': PurposesTable };

/** The store's handle (or a transaction's), seeing `read.purposes` too. */
export const purposesDb = (db: Kysely<Database>) => db.withTables<PurposesDatabase>();

/** Its part of the read schema (projections/read-schema.ts runs it). */
export const PURPOSES_DDL = `
  CREATE TABLE IF NOT EXISTS read.purposes (
    tenant_id uuid NOT NULL,
    key text NOT NULL,
    name text NOT NULL,
    description text NOT NULL,
    legal_basis text NOT NULL,
    consent_valid_for text,
    dpv text,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    PRIMARY KEY (tenant_id, key)
  );
`;
