-- Oracle-only statements of the adapter's transaction handling (PostgreSQL
-- has them in pgx). The adapter appends the nesting depth to the savepoint
-- name (msgx_sp_1, msgx_sp_2, ...): Oracle has no RELEASE SAVEPOINT, and a
-- name reused at another depth would erase the outer savepoint.

-- name: Savepoint :exec
-- oracle only: store.Tx.Begin inside a transaction
SAVEPOINT msgx_sp_

-- name: RollbackToSavepoint :exec
-- oracle only: a nested store.Tx rolled back
ROLLBACK TO SAVEPOINT msgx_sp_

-- name: TestSchemaReset :exec
-- oracle only: the conformance suite empties its dedicated test schema
-- (MSGX_TEST_ORACLE_DSN) before each test; never run on a site's schema.
BEGIN
  FOR t IN (SELECT table_name FROM user_tables) LOOP
    EXECUTE IMMEDIATE 'DROP TABLE "' || t.table_name || '" CASCADE CONSTRAINTS PURGE';
  END LOOP;
  FOR s IN (SELECT sequence_name FROM user_sequences) LOOP
    EXECUTE IMMEDIATE 'DROP SEQUENCE "' || s.sequence_name || '"';
  END LOOP;
END;

-- name: SchemaVersionCreate :exec
-- oracle only: msgx schema apply --dialect oracle11g creates its version
-- table once (ORA-00955, name already used, means it exists).
BEGIN
  EXECUTE IMMEDIATE 'CREATE TABLE MSGX_SCHEMA_VERSION (VERSION VARCHAR2(64 CHAR) NOT NULL, APPLIED_AT TIMESTAMP(6) WITH TIME ZONE NOT NULL, CONSTRAINT MSGX_SCHEMA_VERSION_PKEY PRIMARY KEY (VERSION))';
EXCEPTION
  WHEN OTHERS THEN
    IF SQLCODE != -955 THEN
      RAISE;
    END IF;
END;

-- name: SchemaVersionList :many
-- oracle only: the migrations applied, in order.
SELECT version FROM msgx_schema_version ORDER BY version

-- name: SchemaVersionAdd :exec
-- oracle only: records an applied migration.
INSERT INTO msgx_schema_version (version, applied_at) VALUES (:version, :now)
