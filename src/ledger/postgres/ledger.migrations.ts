import { sqlMigration, type Migrations } from '../../store/migrations.js';

/**
 * The ledger's schema (see ledger.table.ts). A migration's SQL never changes once released:
 * stores that applied it are recognised by its name and never run it again.
 */
export const ledgerMigrations: Migrations = {
  '0001_ledger': sqlMigration(`
      CREATE SCHEMA IF NOT EXISTS ledger;
      CREATE TABLE ledger.events (
        global_position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
        event_id uuid NOT NULL UNIQUE,
        tenant_id uuid NOT NULL,
        stream_id text NOT NULL,
        stream_revision integer NOT NULL CHECK (stream_revision >= 0),
        event_type text NOT NULL,
        data json NOT NULL,
        metadata json NOT NULL,
        recorded_at timestamptz NOT NULL,
        prev_hash text,
        event_hash text NOT NULL,
        CONSTRAINT events_stream_revision_unique UNIQUE (stream_id, stream_revision)
      );
      CREATE INDEX events_ledger_order ON ledger.events (transaction_id, global_position);
      CREATE INDEX events_tenant_order ON ledger.events (tenant_id, transaction_id, global_position);

      -- The ledger is append-only, enforced by the database itself.
      CREATE FUNCTION ledger.refuse_change() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        RAISE EXCEPTION 'ledger.events is append-only: % refused', TG_OP USING ERRCODE = '42501';
      END
      $fn$;
      CREATE TRIGGER events_refuse_update_delete BEFORE UPDATE OR DELETE ON ledger.events
        FOR EACH ROW EXECUTE FUNCTION ledger.refuse_change();
      CREATE TRIGGER events_refuse_truncate BEFORE TRUNCATE ON ledger.events
        FOR EACH STATEMENT EXECUTE FUNCTION ledger.refuse_change();
    `),
  // Each event's authenticator (src/transparency/append-authenticator.ts), outside its hash; and
  // where the ledger stood when authenticators began: events up to there carry none. Insert-once,
  // kept by the same trigger as the events.
  '0011_ledger_authenticators': sqlMigration(`
      ALTER TABLE ledger.events ADD COLUMN authenticator text;
      CREATE TABLE ledger.authenticated_from (
        only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
        commit_position bigint NOT NULL,
        prepare_position bigint NOT NULL,
        recorded_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TRIGGER authenticated_from_refuse_update_delete BEFORE UPDATE OR DELETE ON ledger.authenticated_from
        FOR EACH ROW EXECUTE FUNCTION ledger.refuse_change();
      CREATE TRIGGER authenticated_from_refuse_truncate BEFORE TRUNCATE ON ledger.authenticated_from
        FOR EACH STATEMENT EXECUTE FUNCTION ledger.refuse_change();
    `),
  // Erasure finds a subject's consent events by this (src/privacy/subject-events.ts): without it,
  // a scan of the tenant's events reading each one's JSON.
  '0022_ledger_subject_index': sqlMigration(`
      CREATE INDEX events_consent_subject ON ledger.events (tenant_id, (data->>'subject'))
        WHERE event_type IN ('ConsentRecorded', 'ConsentWithdrawn');
    `),
  // The transaction id below which readers take rows (src/ledger/postgres/postgres.ledger.ts,
  // readAll): the oldest transaction still running in this database, else the snapshot's xmax. A
  // transaction seen running in another database (pg_stat_activity and pg_prepared_xacts, which
  // every role can read) cannot write here, so it holds nothing back; one not found there (it ended
  // between the snapshot and the look) counts as this one's. STABLE: it reads the caller's snapshot.
  // plpgsql: its plan is kept per session, so a read plans no catalog views.
  '0024_ledger_read_horizon': sqlMigration(`
      CREATE FUNCTION ledger.read_horizon() RETURNS xid8 LANGUAGE plpgsql STABLE AS $fn$
      DECLARE
        s pg_snapshot := pg_current_snapshot();
      BEGIN
        IF pg_snapshot_xmin(s) = pg_snapshot_xmax(s) THEN
          RETURN pg_snapshot_xmax(s);
        END IF;
        RETURN least(pg_snapshot_xmax(s), (
          SELECT min(x) FROM pg_snapshot_xip(s) AS x
          WHERE xid(x) NOT IN (
              SELECT a.backend_xid FROM pg_stat_activity a
              WHERE a.backend_xid IS NOT NULL AND a.datid <> (SELECT oid FROM pg_database WHERE datname = current_database()))
            AND xid(x) NOT IN (SELECT p.transaction FROM pg_prepared_xacts p WHERE p.database <> current_database())));
      END
      $fn$;
    `),
  // 0024's horizon, in doubt no more. A transaction in the snapshot that pg_stat_activity no longer
  // shows ended between the snapshot and the look, in this database or another: it counted as this
  // one's, and held the read back (a caller's read right after an append saw nothing). Now one that
  // aborted is passed over (nobody will ever see its rows); one that committed raises SQLSTATE CLH01,
  // for the reader to read again with a snapshot that sees it ended, unless `hold_in_doubt` asks for
  // 0024's answer (it holds the read back). The snapshot is an argument, so tests can give one.
  '0025_ledger_read_horizon_in_doubt': sqlMigration(`
      CREATE FUNCTION ledger.read_horizon_of(s pg_snapshot, hold_in_doubt boolean) RETURNS xid8 LANGUAGE plpgsql STABLE AS $fn$
      DECLARE
        x xid8;
      BEGIN
        IF pg_snapshot_xmin(s) = pg_snapshot_xmax(s) THEN
          RETURN pg_snapshot_xmax(s);
        END IF;
        FOR x IN
          SELECT t FROM pg_snapshot_xip(s) AS t
          WHERE xid(t) NOT IN (
              SELECT a.backend_xid FROM pg_stat_activity a
              WHERE a.backend_xid IS NOT NULL AND a.datid <> (SELECT oid FROM pg_database WHERE datname = current_database()))
            AND xid(t) NOT IN (SELECT p.transaction FROM pg_prepared_xacts p WHERE p.database <> current_database())
          ORDER BY t
        LOOP
          CASE pg_xact_status(x)
            WHEN 'in progress' THEN RETURN x;
            WHEN 'aborted' THEN CONTINUE;
            ELSE
              IF hold_in_doubt THEN RETURN x; END IF;
              RAISE EXCEPTION 'transaction % ended after this snapshot was taken: read again', x USING ERRCODE = 'CLH01';
          END CASE;
        END LOOP;
        RETURN pg_snapshot_xmax(s);
      END
      $fn$;
      CREATE OR REPLACE FUNCTION ledger.read_horizon() RETURNS xid8 LANGUAGE plpgsql STABLE AS $fn$
      BEGIN
        RETURN ledger.read_horizon_of(pg_current_snapshot(), true);
      END
      $fn$;
    `),
  // An event's position is the ledger's to give: its own transaction and the next number. A row
  // given an earlier one (OVERRIDING SYSTEM VALUE needs no more than INSERT) would sit behind
  // every reader's checkpoint and before the first authenticated event, never sealed or checked.
  // (A row given its number in a session that drew none fails on currval itself.) pg_restore
  // creates triggers after the data it copies, so a restore keeps the positions it restores.
  '0031_ledger_positions_given': sqlMigration(`
      CREATE FUNCTION ledger.refuse_given_position() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        IF NEW.transaction_id IS DISTINCT FROM pg_current_xact_id()
          OR NEW.global_position IS DISTINCT FROM currval('ledger.events_global_position_seq'::regclass) THEN
          RAISE EXCEPTION 'ledger.events: an event takes the position the ledger gives it (its transaction and the next number)'
            USING ERRCODE = 'restrict_violation';
        END IF;
        RETURN NEW;
      END
      $fn$;
      CREATE TRIGGER events_refuse_given_position BEFORE INSERT ON ledger.events
        FOR EACH ROW EXECUTE FUNCTION ledger.refuse_given_position();
    `),
};
