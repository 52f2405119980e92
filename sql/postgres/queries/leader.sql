-- Single active instance (issue #6): a session-level advisory lock held on a
-- dedicated connection. The PIPELINE_LOCK row lock keeps business
-- transactions serial regardless; this lock keeps a standby from competing.

-- name: LeaderTryLock :one
-- Takes the lock for this session if free; true when held afterwards.
SELECT pg_try_advisory_lock(@lock_id::bigint) AS acquired;

-- name: LeaderWaitLock :exec
-- A standby's wait: takes the lock for this session as soon as it is free,
-- waiting at most @timeout ms (then 55P03 lock_not_available; the elector
-- waits again). The subquery sets lock_timeout for this statement's own
-- implicit transaction before the outer select waits (OFFSET 0 keeps the
-- two steps apart), so a standby takes over the moment the server ends the
-- leader's session instead of at its next retry.
SELECT pg_advisory_lock(@lock_id::bigint)
FROM (SELECT set_config('lock_timeout', @timeout::text, true) OFFSET 0) AS wait;

-- name: LeaderUnlock :one
SELECT pg_advisory_unlock(@lock_id::bigint) AS released;

-- name: LeaderSessionTimeouts :exec
-- Bounds how long the server keeps a session whose client vanished, so a
-- leader that lost its network releases the lock within seconds: TCP
-- keepalives on the server side of this connection.
SELECT set_config('tcp_keepalives_idle', @keepalive_idle::text, false),
       set_config('tcp_keepalives_interval', @keepalive_interval::text, false),
       set_config('tcp_keepalives_count', @keepalive_count::text, false);

-- name: LeaderIdleSessionTimeout :exec
-- PostgreSQL 14+: the server ends this session when the leader stops pinging
-- it (a hung or partitioned leader), which releases the lock.
SELECT set_config('idle_session_timeout', @timeout::text, false);

-- name: LeaderSessions :many
-- The lock connections of every instance on this database (named
-- 'msgx-lock <host>:<pid>' by their application_name) and which one holds
-- the lock: the leader and its standbys, for status and operators. The
-- advisory lock's bigint key is split over classid (high) and objid (low).
SELECT a.pid::int AS pid,
       a.application_name::text AS application_name,
       coalesce(host(a.client_addr), 'local')::text AS client_addr,
       a.backend_start::timestamptz AS backend_start,
       EXISTS (
         SELECT 1 FROM pg_catalog.pg_locks l
         WHERE l.pid = a.pid AND l.locktype = 'advisory' AND l.granted
           AND l.objsubid = 1 AND l.database = a.datid
           AND ((l.classid::bigint << 32) | l.objid::bigint) = @lock_id::bigint
       ) AS leader
FROM pg_catalog.pg_stat_activity a
WHERE a.datname = current_database() AND a.application_name LIKE 'msgx-lock %'
ORDER BY 5 DESC, a.backend_start, a.pid;

-- name: LeaderTerminate :one
-- Ends an instance's lock session (operators forcing a hung leader off; the
-- failover tests cutting a leader's connection).
SELECT pg_terminate_backend(@pid::int) AS terminated;
