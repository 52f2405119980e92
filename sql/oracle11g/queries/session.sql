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
