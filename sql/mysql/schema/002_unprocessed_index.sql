-- The one index msgx asks of the AODB's DBA (docs/design.md §1.1): the
-- reconciliation pass pages the unprocessed rows by id (InboundUnprocessedPage).
-- Without it each page scans the primary key from its start over processed
-- rows too. Dev and tests create it like the tables.
CREATE INDEX cminmsgs_unprocessed_ix ON cminmsgs (CMINMSGS_DATE_PROCESSED, CMINMSGS_ID);
