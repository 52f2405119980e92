-- msgx Oracle 11g migration 0003: ingress order and late rows (rules 16-17;
-- twin of the PostgreSQL migration ingress_order_late_rows): PROC_STATE and
-- PROC_STATE_HST get LATE_AFTER, and INGRESS_GAP records the holes the poller
-- gave up. Applied by 'msgx schema apply --dialect oracle11g' or by a DBA
-- with SQL*Plus (docs/schema.md); msgx records it in MSGX_SCHEMA_VERSION.

-- ---- 010_pipeline.sql
ALTER TABLE PROC_STATE ADD (LATE_AFTER NUMBER(19) NULL);
CREATE INDEX PROC_STATE_LATE_IX ON PROC_STATE (CASE WHEN LATE_AFTER IS NOT NULL THEN FIRST_SEEN_AT END);
COMMENT ON COLUMN PROC_STATE.LATE_AFTER IS 'Late row (rule 17): the largest MSG_ID already finished when this row was enqueued, so its effect lands after that one''s (shown as late:<id>). NULL for a row enqueued in order.';
ALTER TABLE PROC_STATE_HST ADD (LATE_AFTER NUMBER(19) NULL);
COMMENT ON COLUMN PROC_STATE_HST.LATE_AFTER IS 'As proc_state.late_after.';
CREATE TABLE INGRESS_GAP (
  SOURCE             VARCHAR2(32 CHAR)           NOT NULL,
  FROM_ID            NUMBER(19)                  NOT NULL,
  TO_ID              NUMBER(19)                  NOT NULL,
  SEEN_AT            TIMESTAMP(6) WITH TIME ZONE NOT NULL,
  GIVEN_UP_AT        TIMESTAMP(6) WITH TIME ZONE NOT NULL,
  CONSTRAINT INGRESS_GAP_PKEY PRIMARY KEY (SOURCE, FROM_ID),
  CONSTRAINT INGRESS_GAP_RANGE_CK CHECK (FROM_ID > 0 AND TO_ID >= FROM_ID)
);
CREATE INDEX INGRESS_GAP_GIVEN_UP_IX ON INGRESS_GAP (GIVEN_UP_AT);
COMMENT ON TABLE INGRESS_GAP IS 'Holes the poller gave up (rule 16): ids no mailbox row had while a larger id was visible, for longer than pipeline.gap-wait; the ids after them were then enqueued. A row that commits later in a gap is found by the rescan or the reconciliation pass and processed as a late row.';
COMMENT ON COLUMN INGRESS_GAP.FROM_ID IS 'First missing CMINMSGS_ID of the hole.';
COMMENT ON COLUMN INGRESS_GAP.TO_ID IS 'Last missing CMINMSGS_ID of the hole.';
COMMENT ON COLUMN INGRESS_GAP.SEEN_AT IS 'When the poller first saw the hole.';
COMMENT ON COLUMN INGRESS_GAP.GIVEN_UP_AT IS 'When the wait ran out and the hole was given up.';
