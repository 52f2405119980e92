-- Oracle 11g twin of sql/postgres/queries/leader.sql: single active instance
-- through a DBMS_LOCK user lock held by a dedicated session (release_on_commit
-- FALSE: held past commits, released when the session ends). The schema user
-- needs EXECUTE ON SYS.DBMS_LOCK; LeaderSessions needs SELECT on V_$SESSION
-- and V_$LOCK; LeaderTerminate needs ALTER SYSTEM (all granted by a DBA). The
-- lock id is the PostgreSQL advisory key folded into DBMS_LOCK's id range.

-- name: LeaderTryLock :one
-- 0 = granted, 4 = already held by this session: both mean held.
BEGIN
  :acquired := DBMS_LOCK.REQUEST(MOD(:lock_id, 1073741824), DBMS_LOCK.X_MODE, 0, FALSE);
END;

-- name: LeaderWaitLock :exec
-- A standby's wait: DBMS_LOCK.REQUEST blocks until the lock is granted (0)
-- or :timeout seconds pass (1; the elector waits again), so a standby takes
-- over the moment the server ends the leader's session.
BEGIN
  :acquired := DBMS_LOCK.REQUEST(MOD(:lock_id, 1073741824), DBMS_LOCK.X_MODE, :timeout, FALSE);
END;

-- name: LeaderUnlock :one
-- 0 = released, 4 = not held.
BEGIN
  :released := DBMS_LOCK.RELEASE(MOD(:lock_id, 1073741824));
END;

-- name: LeaderSessionTimeouts :exec
-- Oracle has no per-session keepalive settings (SQLNET.EXPIRE_TIME in the
-- server's sqlnet.ora does it for every session); this names the lock session
-- ('msgx-lock <host>:<pid>') so LeaderSessions finds it.
BEGIN
  DBMS_APPLICATION_INFO.SET_MODULE(:module_name, NULL);
END;

-- name: LeaderIdleSessionTimeout :exec
-- The idle limit is the profile's IDLE_TIME (minutes, set by a DBA); this
-- only records the wanted value in the session's client info.
BEGIN
  DBMS_APPLICATION_INFO.SET_CLIENT_INFO('idle ' || :timeout);
END;

-- name: LeaderSessions :many
SELECT s.sid AS pid,
       s.module AS application_name,
       NVL(s.machine, 'local') AS client_addr,
       CAST(s.logon_time AS TIMESTAMP WITH TIME ZONE) AS backend_start,
       CASE WHEN EXISTS (
         SELECT 1 FROM v$lock l
         WHERE l.sid = s.sid AND l.type = 'UL' AND l.lmode = 6
           AND l.id1 = MOD(:lock_id, 1073741824)
       ) THEN 1 ELSE 0 END AS leader
FROM v$session s
WHERE s.module LIKE 'msgx-lock %'
ORDER BY 5 DESC, s.logon_time, s.sid

-- name: LeaderTerminate :one
BEGIN
  :terminated := 0;
  FOR s IN (SELECT sid, serial# AS serial FROM v$session WHERE sid = :pid) LOOP
    EXECUTE IMMEDIATE 'ALTER SYSTEM KILL SESSION ''' || s.sid || ',' || s.serial || ''' IMMEDIATE';
    :terminated := 1;
  END LOOP;
END;
