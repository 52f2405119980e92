-- Modify "req_track" table
ALTER TABLE "req_track" ADD CONSTRAINT "req_track_match_rule_ck" CHECK ((match_rule)::text = ANY (ARRAY[('exact'::character varying)::text, ('degraded'::character varying)::text])), ADD COLUMN "match_rule" character varying(12) NULL;
-- Set comment to column: "registered_at" on table: "req_track"
COMMENT ON COLUMN "req_track"."registered_at" IS 'Registration time; also the META DTTM written on the request.';
-- Set comment to column: "sent_at" on table: "req_track"
COMMENT ON COLUMN "req_track"."sent_at" IS 'COUTMSGS_DATE_INSERTED of the request: the insert into the outbound mailbox.';
-- Set comment to column: "expires_at" on table: "req_track"
COMMENT ON COLUMN "req_track"."expires_at" IS 'sent_at (registered_at until sent) + request.timeout: past it the request expires.';
-- Set comment to column: "note" on table: "req_track"
COMMENT ON COLUMN "req_track"."note" IS 'Why the request closed without an answer (superseded, timed out, never sent).';
-- Set comment to column: "match_rule" on table: "req_track"
COMMENT ON COLUMN "req_track"."match_rule" IS 'How the RESP matched: exact (an echoed field) or degraded (RESP DTTM >= sent_at).';
-- Create "req_seqn" table
CREATE TABLE "req_seqn" (
  "id" smallint NOT NULL,
  "seqn" bigint NOT NULL,
  PRIMARY KEY ("id"),
  CONSTRAINT "req_seqn_one_ck" CHECK (id = 1),
  CONSTRAINT "req_seqn_range_ck" CHECK ((seqn >= 1) AND (seqn <= 8388607))
);
-- Set comment to table: "req_seqn"
COMMENT ON TABLE "req_seqn" IS 'The last META SEQN msgx put on a request (one row).';
