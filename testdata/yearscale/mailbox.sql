-- The AODB mailbox after a year, for BenchmarkYearScale: {{MAILBOX}}
-- processed rows (2 000 000 at scale 1) ending at CMINMSGS_ID {{LAST}} (the
-- newest of msgx's PostgreSQL), so the benchmark's messages come after.
-- Test data, not a query of the service.
INSERT INTO cminmsgs (CMINMSGS_ID, CMINMSGS_CLOB_MSG, CMINMSGS_DATE_RECEIVED, CMINMSGS_DATE_PROCESSED,
  CMINMSGS_SUBSYSTEM_NAME, CMINMSGS_SUBSYSTEM_SEQUENCE, CMINMSGS_SUBSYSTEM_TYPE, CMINMSGS_SUBSYSTEM_SUBTYPE, CMINMSGS_STATUS)
SELECT {{LAST}} - {{MAILBOX}} + seq,
  CONCAT('<MSG><META><SNDR>OLD</SNDR><TYPE>FLOP</TYPE><STYP>STND</STYP><SEQN>', seq, '</SEQN></META><FLOP><FLID>', 1000000 + seq % 20000,
    '</FLID><STND>', 100 + seq % 300, '</STND>', REPEAT(' ', 500), '</FLOP></MSG>'),
  NOW() - INTERVAL 30 DAY, NOW() - INTERVAL 30 DAY, 'OLD', seq % 8000000, 'FLOP', 'STND', 'SUCCEEDED'
FROM seq_1_to_{{MAILBOX}};
ANALYZE TABLE cminmsgs;
