-- msgx Oracle 11g migration 0008: per-value stamps (rule 19; twin of the
-- PostgreSQL migration flight_stamps): FLIGHT_SCHD.STAMPS and
-- SCHD_SNAP_LOG.KEPT_NEWER, and existing flights stamped with their last
-- message's META DTTM. Applied by 'msgx schema apply --dialect oracle11g' or
-- by a DBA with SQL*Plus (docs/schema.md); msgx records it in
-- MSGX_SCHEMA_VERSION.

-- ---- 020_flight.sql
ALTER TABLE FLIGHT_SCHD ADD (STAMPS VARCHAR2(2000 BYTE) NULL);
COMMENT ON COLUMN FLIGHT_SCHD.STAMPS IS 'Rule 19: the META DTTM of the message that last set each value, per DTTM (unix seconds, ascending) the names it stamps, as "secs:NAME NAME;secs:NAME" (SIS names, lifecycle, and * for every name without its own stamp). A snapshot sets a value only where its DTTM is not older. NULL: no stamp known.';

-- ---- 030_snapshot.sql
ALTER TABLE SCHD_SNAP_LOG ADD (KEPT_NEWER NUMBER(10) DEFAULT 0 NOT NULL);
COMMENT ON COLUMN SCHD_SNAP_LOG.KEPT_NEWER IS 'Rule 19: values and flights a message sent after this snapshot had set, kept against it (a value not overwritten, a deleted flight not revived, a changed flight not pruned).';

-- ---- the upgrade's data: an existing flight is stamped with its last
-- message's META DTTM under "*" (every name); a flight whose last message
-- is in neither PROC_STATE nor PROC_STATE_HST (or has no DTTM) keeps no
-- stamp, and the next snapshot applies to it whole, as before rule 19.
UPDATE FLIGHT_SCHD f SET STAMPS = (
  SELECT TO_CHAR((CAST(SYS_EXTRACT_UTC(p.META_DTTM) AS DATE) - DATE '1970-01-01') * 86400) || ':*'
  FROM (
    SELECT MSG_ID, META_DTTM FROM PROC_STATE WHERE META_DTTM IS NOT NULL
    UNION ALL
    SELECT MSG_ID, META_DTTM FROM PROC_STATE_HST WHERE META_DTTM IS NOT NULL
  ) p
  WHERE p.MSG_ID = f.LAST_MESSAGE_ID AND ROWNUM = 1
)
WHERE f.STAMPS IS NULL;
