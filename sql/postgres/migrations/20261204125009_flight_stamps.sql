-- Modify "flight_schd" table
ALTER TABLE "flight_schd" ADD COLUMN "stamps" character varying(2000) NULL;
-- Set comment to column: "stamps" on table: "flight_schd"
COMMENT ON COLUMN "flight_schd"."stamps" IS 'Rule 19: the META DTTM of the message that last set each value, per DTTM (unix seconds, ascending) the names it stamps, as "secs:NAME NAME;secs:NAME" (SIS names, lifecycle, and * for every name without its own stamp). A snapshot sets a value only where its DTTM is not older. NULL: no stamp known.';
-- Modify "schd_snap_log" table
ALTER TABLE "schd_snap_log" ADD COLUMN "kept_newer" integer NOT NULL DEFAULT 0;
-- Set comment to column: "kept_newer" on table: "schd_snap_log"
COMMENT ON COLUMN "schd_snap_log"."kept_newer" IS 'Rule 19: values and flights a message sent after this snapshot had set, kept against it (a value not overwritten, a deleted flight not revived, a changed flight not pruned).';
-- Rule 19's upgrade: an existing flight is stamped with its last message's
-- META DTTM under "*" (every name). A flight whose last message is found in
-- neither proc_state nor proc_state_hst (or has no DTTM) keeps no stamp:
-- the next snapshot applies to it whole, as before rule 19.
UPDATE "flight_schd" f
SET "stamps" = floor(extract(epoch FROM p.meta_dttm))::bigint || ':*'
FROM (
  SELECT msg_id, meta_dttm FROM "proc_state" WHERE meta_dttm IS NOT NULL
  UNION ALL
  SELECT msg_id, meta_dttm FROM "proc_state_hst" WHERE meta_dttm IS NOT NULL
) p
WHERE p.msg_id = f.last_message_id AND f."stamps" IS NULL;
