-- A year of history in msgx's PostgreSQL, for BenchmarkYearScale
-- (internal/pipeline/bench_scale_test.go, `make bench-scale`). Test data, not
-- a query of the service. The benchmark replaces the {{...}} placeholders:
--   {{HST}}      archived messages (PROC_STATE_HST), 10 000 000 at scale 1
--   {{LIVE}}     messages still in PROC_STATE (the archive.after week), 190 000
--   {{FLIGHTS}}  live flights over 14 operation days, 20 000
--   {{ARCHIVED}} archived flights (FLIGHT_HST), 300 000
--   {{EVENTS}}   delivered outbox rows (MSG_EVENT), 1 000 000
--   {{SNAPS}}    snapshot log rows over the snaplog.retention, 20 000
--   {{SKIP_DAY}} the benchmark DNLD's operation day, kept free (a new day)
--   {{SEQN}}     the archive's first SEQN: the live rows' SEQNs follow the
--                archive's, the benchmark's messages follow them; SEQN
--                rises per subtype (the ten subtypes share the year), so
--                every SEQN fits the mailbox's mediumint, as on site
-- Message ids: the archive 1..HST, PROC_STATE above it; the mailbox's
-- processed rows end at HST+LIVE, so the benchmark's messages come after.
-- Each job has what an hourly (archive, outbox) or daily (history, snaplog)
-- run finds on site: the rows of its last period past the retention.

-- The archive: a year of finished messages, 0.1 % of them late rows, 1 % duplicates.
-- Their identities are the AODB's, SEQN rising, over the FLOP subtypes of the
-- benchmark's mix: a run's keys then land beside the newest archived ones in
-- the identity index, as on site (keys of another sender would all sort
-- before or after the archive's, one leaf of the index).
INSERT INTO proc_state_hst (msg_id, status, identity_key, kind, msg_type, msg_subtype, meta_sndr, meta_seqn,
  meta_dttm_raw, meta_dttm, attempts, first_seen_at, error_class, reason, duplicate_of, replay_count,
  finished_at, created_at, archived_at, late_after, raw_digest)
SELECT i, CASE WHEN i % 100 = 7 THEN 'SKIPPED' WHEN i % 1000 = 3 THEN 'DEAD' ELSE 'SUCCEEDED' END,
  'AODB|FLOP|' || k.styp || '|' || k.seqn, 'flight-ops', 'FLOP', k.styp, 'AODB', k.seqn,
  to_char(t, 'YYYYMMDDHH24MISS'), t, CASE WHEN i % 1000 = 3 THEN 5 ELSE 0 END, t,
  CASE WHEN i % 1000 = 3 THEN 'MALFORMED' END,
  CASE WHEN i % 100 = 7 THEN 'duplicate-of:' || (i - 1) WHEN i % 1000 = 3 THEN 'malformed XML' END,
  CASE WHEN i % 100 = 7 THEN i - 1 END, 0,
  t + interval '1 second', t, t + interval '7 days 1 hour',
  CASE WHEN i % 1000 = 11 THEN i - 5 END, decode(md5(i::text), 'hex')
FROM generate_series(1, {{HST}}) AS i,
  LATERAL (SELECT now() - interval '372 days' + (i::float8 / {{HST}}) * interval '365 days' AS t) x,
  -- a duplicate repeats its holder's identity
  LATERAL (SELECT i - CASE WHEN i % 100 = 7 THEN 1 ELSE 0 END AS s) d,
  LATERAL (SELECT {{SEQN}} + d.s / 10 AS seqn,
    (ARRAY['STND','TOBT','EOBT','GTDT','CKDT','DELY','REMC','PEDT','CLDT','NEAT'])[1 + d.s % 10] AS styp) k;

-- The week in PROC_STATE (archive.after 168 h) and the hour past it the
-- hourly archive moves.
INSERT INTO proc_state (msg_id, status, identity_key, kind, msg_type, msg_subtype, meta_sndr, meta_seqn,
  meta_dttm_raw, meta_dttm, attempts, first_seen_at, error_class, reason, duplicate_of,
  finished_at, created_at, updated_at, late_after, raw_digest)
SELECT {{HST}} + i, CASE WHEN i % 100 = 7 THEN 'SKIPPED' WHEN i % 1000 = 3 THEN 'DEAD' ELSE 'SUCCEEDED' END,
  'AODB|FLOP|' || k.styp || '|' || k.seqn, 'flight-ops', 'FLOP', k.styp, 'AODB', k.seqn,
  to_char(t, 'YYYYMMDDHH24MISS'), t, CASE WHEN i % 1000 = 3 THEN 5 ELSE 0 END, t,
  CASE WHEN i % 1000 = 3 THEN 'MALFORMED' END,
  CASE WHEN i % 100 = 7 THEN 'duplicate-of:' || ({{HST}} + i - 1) WHEN i % 1000 = 3 THEN 'malformed XML' END,
  CASE WHEN i % 100 = 7 THEN {{HST}} + i - 1 END,
  t + interval '1 second', t, t + interval '1 second',
  CASE WHEN i % 1000 = 11 THEN {{HST}} + i - 5 END, decode(md5(({{HST}} + i)::text), 'hex')
FROM generate_series(1, {{LIVE}}) AS i,
  LATERAL (SELECT now() - interval '169 hours' + (i::float8 / {{LIVE}}) * interval '169 hours' - interval '1 minute' AS t) x,
  LATERAL (SELECT {{HST}} + i - CASE WHEN i % 100 = 7 THEN 1 ELSE 0 END AS s) d,
  LATERAL (SELECT {{SEQN}} + d.s / 10 AS seqn,
    (ARRAY['STND','TOBT','EOBT','GTDT','CKDT','DELY','REMC','PEDT','CLDT','NEAT'])[1 + d.s % 10] AS styp) k;

INSERT INTO ingress_mark (source, last_id) VALUES ('cminmsgs', {{HST}} + {{LIVE}});
-- Every message of the year is backfilled (the mailbox holds them processed):
-- the backfill mark is at the newest, as on a site that ran all year. Without
-- it the mark reads as 0 and the service's first sweep wrote the whole week
-- back to the mailbox inside the benchmark's first drain (the new day's
-- DNLD: 5 100–5 400 µs per flight instead of about 500).
INSERT INTO backfill_mark (id, through_msg_id) VALUES (1, {{HST}} + {{LIVE}});

-- Live flights over 14 operation days around today (the oldest one due for
-- the daily history sweep), each a member of its day's generation, with gates
-- and check-in counters; the benchmark's day stays free.
CREATE TEMP TABLE bench_days AS
SELECT row_number() OVER (ORDER BY d) - 1 AS k, d::date AS d FROM generate_series(current_date - 9, current_date + 6, interval '1 day') d
WHERE d::date <> DATE '{{SKIP_DAY}}' LIMIT 14;

INSERT INTO flight_schd (flid, operation_day, lifecycle, state_version, last_message_id, created_at, updated_at,
  alcd, flno, mvin, stnd, sodt, stamps)
SELECT 1000000 + i, d.d, 'ACTIVE', 3, {{HST}} + 1 + i % {{LIVE}}, d.d - 3, d.d - 1,
  'CA', 'CA' || (1000 + i % 5000), CASE WHEN i % 2 = 0 THEN 'A' ELSE 'D' END, (100 + i % 300)::text,
  upper(to_char(d.d, 'DDMonYY')) || '1030', NULL
FROM generate_series(1, {{FLIGHTS}}) AS i JOIN bench_days d ON d.k = i % 14;

INSERT INTO flight_gate (flid, ordinal, source_seq, gate, record_version, created_at, updated_at)
SELECT f.flid, g, g, 'G' || (f.flid % 90 + g), 3, f.created_at, f.updated_at FROM flight_schd f, generate_series(1, 2) g;

INSERT INTO schd_gen (fday, version, last_message_id, content_digest, updated_at)
SELECT d, 30, {{HST}}, NULL, d - 1 FROM bench_days;
INSERT INTO schd_gen_flid (fday, flid) SELECT operation_day, flid FROM flight_schd;

-- A year of flights swept to the archive.
INSERT INTO flight_hst (flid, operation_day, lifecycle, state_version, last_message_id, state, flight_created_at, purged_at)
SELECT 100000 + i, d, 'ACTIVE', 4, i * 30, repeat('{"ALCD":"CA","FLNO":"CA1234","STND":"101"}', 25), d - 3, d + 8
FROM generate_series(1, {{ARCHIVED}}) AS i,
  LATERAL (SELECT (current_date - 375 + (i * 365 / {{ARCHIVED}}))::date AS d) x;

-- The snapshot log of snaplog.retention (90 days) and the day past it.
INSERT INTO schd_snap_log (msg_id, msg_subtype, fday, gen_version, scope_begin, scope_end, record_count,
  changed, unchanged, pruned, kept_newer, recv_at, outcome, msg_dttm)
SELECT i * 400, 'DNLD', t::date, 1 + i % 30, t, t + interval '1 day', 1400, 20, 1380, 0, 0, t, 'APPLIED', t
FROM generate_series(1, {{SNAPS}}) AS i,
  LATERAL (SELECT now() - interval '93 days' + (i::float8 / {{SNAPS}}) * interval '92 days' AS t) x;

-- The delivered outbox of outbox.retention (168 h) and the hour past it: a
-- KAFKA:msg row below the watermark and its KAFKA:schd twin SENT per change.
INSERT INTO msg_event (event_id, target, partition_key, event_type, cminmsgs_id, flid, state_version,
  idempotency_key, payload, status, created_at, sent_at)
SELECT i, CASE WHEN i % 2 = 1 THEN 'KAFKA:msg' ELSE 'KAFKA:schd' END, f::text, 'UPSERT', m, f, v,
  m || ':' || f || ':' || v || CASE WHEN i % 2 = 1 THEN ':KAFKA:msg' ELSE ':KAFKA:schd' END,
  CASE WHEN i % 2 = 1 THEN repeat('{"flid":' || f || ',"STND":"101"}', 30) END,
  CASE WHEN i % 2 = 0 THEN 'SENT' END, t, CASE WHEN i % 2 = 0 THEN t + interval '50 milliseconds' END
FROM generate_series(1, {{EVENTS}}) AS i,
  LATERAL (SELECT {{HST}} + ((i + 1) / 2) % {{LIVE}} AS m, 1000000 + ((i + 1) / 2) % {{FLIGHTS}} AS f, 2 + (i + 1) / 2 AS v,
    now() - interval '169 hours' + (i::float8 / {{EVENTS}}) * interval '169 hours' - interval '1 minute' AS t) x;
SELECT setval(pg_get_serial_sequence('msg_event', 'event_id'), {{EVENTS}});
INSERT INTO msg_event_cursor (target, sent_through, sent_at) VALUES ('KAFKA:msg', {{EVENTS}} - {{EVENTS}} % 2 + CASE WHEN {{EVENTS}} % 2 = 1 THEN 1 ELSE -1 END, now());

-- Autovacuum caught up with the year (it has on site): the statistics are
-- current, except for what the benchmark's day writes next.
VACUUM ANALYZE;
-- And the year is on disk, as on site: without this the drain began while
-- the checkpointer and the kernel still wrote out the gigabytes the
-- generator and VACUUM (hint bits, visibility map) had just dirtied.
CHECKPOINT;
