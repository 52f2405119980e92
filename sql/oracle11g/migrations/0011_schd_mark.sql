-- msgx Oracle 11g migration 0011: SCHD_MARK, KAFKA:schd as one pending mark
-- per flight (rule 8, issue #34; twin of the PostgreSQL migration
-- schd_mark). Applied by 'msgx schema apply --dialect oracle11g' or by a DBA
-- with SQL*Plus (docs/schema.md); msgx records it in MSGX_SCHEMA_VERSION.

-- ---- 040_outbox.sql
-- KAFKA:schd delivery (rule 8): one pending mark per flight, not a row per
-- change (PostgreSQL's 040_outbox.sql says how it is written and cleared).
-- EVENT_ID is the twin's. No sequence of its own: the key is FLID.
CREATE TABLE SCHD_MARK (
  FLID               NUMBER(19)                  NOT NULL,
  EVENT_ID           NUMBER(19)                  NOT NULL,
  CMINMSGS_ID        NUMBER(19)                  NOT NULL,
  STATE_VERSION      NUMBER(19)                  NOT NULL,
  EVENT_TYPE         VARCHAR2(16 CHAR)           NOT NULL,
  ATTEMPTS           NUMBER(10)                  DEFAULT 0 NOT NULL,
  NEXT_ATTEMPT_AT    TIMESTAMP(6) WITH TIME ZONE NULL,
  LAST_ERROR         VARCHAR2(1000 CHAR)         NULL,
  CREATED_AT         TIMESTAMP(6) WITH TIME ZONE NOT NULL,
  PENDING_SINCE      TIMESTAMP(6) WITH TIME ZONE NOT NULL,
  CONSTRAINT SCHD_MARK_PKEY PRIMARY KEY (FLID),
  CONSTRAINT SCHD_MARK_TYPE_CK CHECK (EVENT_TYPE IN ('UPSERT', 'TOMBSTONE')),
  CONSTRAINT SCHD_MARK_ATTEMPTS_CK CHECK (ATTEMPTS >= 0)
);

COMMENT ON TABLE SCHD_MARK IS 'KAFKA:schd: per flight its latest change not yet delivered to the schd topic (rule 8). Deleted when delivered; moved to msg_event as a DEAD KAFKA:schd row when its attempts are exhausted.';
COMMENT ON COLUMN SCHD_MARK.FLID IS 'The flight; its Kafka record key as text.';
COMMENT ON COLUMN SCHD_MARK.EVENT_ID IS 'EVENT_ID of the KAFKA:msg event of the latest change (its twin): the record''s event-id header, and what the relay compares before it deletes the mark.';
COMMENT ON COLUMN SCHD_MARK.CMINMSGS_ID IS 'Mailbox id of the message of the latest change.';
COMMENT ON COLUMN SCHD_MARK.STATE_VERSION IS 'Flight STATE_VERSION after the latest change.';
COMMENT ON COLUMN SCHD_MARK.EVENT_TYPE IS 'UPSERT (the value is the KAFKA:msg twin''s payload) or TOMBSTONE (a null value).';
COMMENT ON COLUMN SCHD_MARK.ATTEMPTS IS 'Failed deliveries of this change; a newer change starts again at 0.';
COMMENT ON COLUMN SCHD_MARK.NEXT_ATTEMPT_AT IS 'Backoff: the flight waits until then.';
COMMENT ON COLUMN SCHD_MARK.LAST_ERROR IS 'Reason of the last failed delivery.';
COMMENT ON COLUMN SCHD_MARK.CREATED_AT IS 'When the latest change was written.';
COMMENT ON COLUMN SCHD_MARK.PENDING_SINCE IS 'When the oldest change not yet delivered was written (outbox lag).';
COMMENT ON TABLE MSG_EVENT IS 'Outbox of flight change events. KAFKA:msg is delivered one by one in EVENT_ID order, its progress kept in msg_event_cursor; KAFKA:schd is the latest state per FLID, pending as one mark per flight (schd_mark); its rows here are dead letters (and SENT rows of earlier releases). DEAD rows are the dead-letter record.';
COMMENT ON COLUMN MSG_EVENT.STATUS IS 'KAFKA:schd: DEAD (a mark whose attempts were exhausted; kept as the DLQ record), or SENT/PENDING from an earlier release. KAFKA:msg: NULL (delivery state by the watermark: SENT when EVENT_ID <= msg_event_cursor.sent_through, else PENDING) or DEAD (kept as the DLQ record).';
COMMENT ON COLUMN MSG_EVENT.LAST_ERROR IS 'Reason of the last failed delivery; for a DEAD row the dead-letter reason. KAFKA:msg keeps it as history.';
COMMENT ON COLUMN MSG_EVENT.SENT_AT IS 'KAFKA:schd rows of earlier releases: when the row was marked SENT. Always NULL for KAFKA:msg (see msg_event_cursor.sent_at).';
COMMENT ON COLUMN MSG_EVENT_CURSOR.TARGET IS 'The outbox target (KAFKA:msg only; KAFKA:schd keeps its state in schd_mark).';

-- Data: the PENDING KAFKA:schd rows (one per change) become marks, per flight
-- the latest (it stands for the older ones, which go, as a delivery of the
-- latest marked them SENT before). SENT and DEAD rows stay as they are: the
-- flight history and the dead letters read them. The relay adopts rows an
-- older binary writes after this (rolling upgrade) the same way.
INSERT INTO SCHD_MARK (FLID, EVENT_ID, CMINMSGS_ID, STATE_VERSION, EVENT_TYPE, ATTEMPTS,
  NEXT_ATTEMPT_AT, LAST_ERROR, CREATED_AT, PENDING_SINCE)
SELECT FLID, EVENT_ID, CMINMSGS_ID, STATE_VERSION, EVENT_TYPE, ATTEMPTS,
  NEXT_ATTEMPT_AT, LAST_ERROR, CREATED_AT, PENDING_SINCE
FROM (
  SELECT e.FLID, e.EVENT_ID, e.CMINMSGS_ID, e.STATE_VERSION, e.EVENT_TYPE, e.ATTEMPTS,
    e.NEXT_ATTEMPT_AT, e.LAST_ERROR, e.CREATED_AT,
    MIN(e.CREATED_AT) OVER (PARTITION BY e.FLID) AS PENDING_SINCE,
    ROW_NUMBER() OVER (PARTITION BY e.FLID ORDER BY e.STATE_VERSION DESC, e.EVENT_ID DESC) AS RN
  FROM MSG_EVENT e
  WHERE CASE WHEN e.STATUS = 'PENDING' THEN e.TARGET END = 'KAFKA:schd'
)
WHERE RN = 1;
DELETE FROM MSG_EVENT WHERE CASE WHEN STATUS = 'PENDING' THEN TARGET END = 'KAFKA:schd';
