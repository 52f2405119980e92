-- What a DBA adds to msgx's schema on a site (TestSchemaKeepUnowned): a
-- table of their own and a view on msgx's tables.
CREATE TABLE dba_notes (flid bigint PRIMARY KEY, note text NOT NULL);
CREATE VIEW dba_busy_stands AS SELECT flid FROM flight_schd;
