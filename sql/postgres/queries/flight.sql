-- name: FlightGet :one
SELECT * FROM flight_schd WHERE flid = @flid;

-- name: FlightGetMany :many
-- The current rows of the given flights, for a snapshot or multi-record message.
SELECT * FROM flight_schd WHERE flid = ANY(@flids::bigint[]) ORDER BY flid;

-- name: FlightStampMany :many
-- The write stamp of the given flights: state_version, and updated_at, which
-- every write sets, also one that bumps no version (snapshot-day
-- bookkeeping). The pump checks its cached states against it. A join on the
-- id list: primary-key probes however many dead row versions a busy day has
-- left behind (flid = ANY(...) over a quarter of the day's flights chose a
-- sequential scan of the whole bloated table).
SELECT s.flid, s.state_version, s.updated_at
FROM (SELECT DISTINCT unnest(@flids::bigint[]) AS flid) f
JOIN flight_schd s ON s.flid = f.flid;

-- name: FlightInsert :copyfrom
-- New flights (a snapshot's first generation creates thousands): COPY, no
-- conflict handling needed since the pump read that they do not exist.
INSERT INTO flight_schd (
  flid, ffid, alcd, alsc, flno, mvin, sodt, sodt_at, flty, flin, acft, reno, taop, tafl, taid,
  trml, maxp, csop, csft, maid, estt, estt_at, actt, actt_at, stnd, phag, fhag, mhag, cncl, remc,
  botm, botm_at, lacl, fint, appt, egsr, egst, egst_at, vipp, vipr, lbno, lbwt, paxc, exsc, exsr,
  ftss, pedt, pedt_at, neat, neat_at, padt, padt_at, naat, naat_at, stdt, stdt_at, eddt, eddt_at,
  dyop, scht, scht_minutes, cobt, cobt_at, tobt, tobt_at, eobt, eobt_at, ctot, ctot_at, iest,
  iest_at, runw, fdiv_ddes, fdiv_ddir, fdiv_text, fret_reid, fret_text, flab_ares, flab_text,
  operation_day, fday, lifecycle, deleted_at, state_version, last_message_id, created_at,
  updated_at, stamps)
VALUES (
  @flid, @ffid, @alcd, @alsc, @flno, @mvin, @sodt, @sodt_at, @flty, @flin, @acft, @reno, @taop,
  @tafl, @taid, @trml, @maxp, @csop, @csft, @maid, @estt, @estt_at, @actt, @actt_at, @stnd, @phag,
  @fhag, @mhag, @cncl, @remc, @botm, @botm_at, @lacl, @fint, @appt, @egsr, @egst, @egst_at, @vipp,
  @vipr, @lbno, @lbwt, @paxc, @exsc, @exsr, @ftss, @pedt, @pedt_at, @neat, @neat_at, @padt,
  @padt_at, @naat, @naat_at, @stdt, @stdt_at, @eddt, @eddt_at, @dyop, @scht, @scht_minutes, @cobt,
  @cobt_at, @tobt, @tobt_at, @eobt, @eobt_at, @ctot, @ctot_at, @iest, @iest_at, @runw, @fdiv_ddes,
  @fdiv_ddir, @fdiv_text, @fret_reid, @fret_text, @flab_ares, @flab_text, @operation_day, @fday,
  @lifecycle, @deleted_at, @state_version, @last_message_id, @created_at, @updated_at, @stamps);

-- name: FlightUpsert :exec
-- Writes the computed next states of flights (every column; the pump
-- computes them all; CREATED_AT is kept on update). The rows travel as one
-- JSON array shaped like the table (keys = column names), so a snapshot of
-- thousands of flights is one statement.
-- json, not jsonb: the rows are read once, and converting them to jsonb
-- took longer than the upsert itself (the same holds for the other
-- json_to_recordset statements).
INSERT INTO flight_schd (
  flid, ffid, alcd, alsc, flno, mvin, sodt, sodt_at, flty, flin, acft, reno, taop, tafl, taid,
  trml, maxp, csop, csft, maid, estt, estt_at, actt, actt_at, stnd, phag, fhag, mhag, cncl, remc,
  botm, botm_at, lacl, fint, appt, egsr, egst, egst_at, vipp, vipr, lbno, lbwt, paxc, exsc, exsr,
  ftss, pedt, pedt_at, neat, neat_at, padt, padt_at, naat, naat_at, stdt, stdt_at, eddt, eddt_at,
  dyop, scht, scht_minutes, cobt, cobt_at, tobt, tobt_at, eobt, eobt_at, ctot, ctot_at, iest,
  iest_at, runw, fdiv_ddes, fdiv_ddir, fdiv_text, fret_reid, fret_text, flab_ares, flab_text,
  operation_day, fday, lifecycle, deleted_at, state_version, last_message_id, created_at,
  updated_at, stamps)
SELECT
  flid, ffid, alcd, alsc, flno, mvin, sodt, sodt_at, flty, flin, acft, reno, taop, tafl, taid,
  trml, maxp, csop, csft, maid, estt, estt_at, actt, actt_at, stnd, phag, fhag, mhag, cncl, remc,
  botm, botm_at, lacl, fint, appt, egsr, egst, egst_at, vipp, vipr, lbno, lbwt, paxc, exsc, exsr,
  ftss, pedt, pedt_at, neat, neat_at, padt, padt_at, naat, naat_at, stdt, stdt_at, eddt, eddt_at,
  dyop, scht, scht_minutes, cobt, cobt_at, tobt, tobt_at, eobt, eobt_at, ctot, ctot_at, iest,
  iest_at, runw, fdiv_ddes, fdiv_ddir, fdiv_text, fret_reid, fret_text, flab_ares, flab_text,
  operation_day, fday, lifecycle, deleted_at, state_version, last_message_id, created_at,
  updated_at, stamps
FROM json_to_recordset(@flights::json) AS v(
  flid bigint,
  ffid varchar,
  alcd varchar,
  alsc varchar,
  flno varchar,
  mvin varchar,
  sodt varchar,
  sodt_at timestamptz,
  flty varchar,
  flin varchar,
  acft varchar,
  reno varchar,
  taop varchar,
  tafl varchar,
  taid varchar,
  trml varchar,
  maxp varchar,
  csop varchar,
  csft varchar,
  maid varchar,
  estt varchar,
  estt_at timestamptz,
  actt varchar,
  actt_at timestamptz,
  stnd varchar,
  phag varchar,
  fhag varchar,
  mhag varchar,
  cncl varchar,
  remc varchar,
  botm varchar,
  botm_at timestamptz,
  lacl varchar,
  fint varchar,
  appt varchar,
  egsr varchar,
  egst varchar,
  egst_at timestamptz,
  vipp varchar,
  vipr varchar,
  lbno varchar,
  lbwt varchar,
  paxc varchar,
  exsc varchar,
  exsr varchar,
  ftss varchar,
  pedt varchar,
  pedt_at timestamptz,
  neat varchar,
  neat_at timestamptz,
  padt varchar,
  padt_at timestamptz,
  naat varchar,
  naat_at timestamptz,
  stdt varchar,
  stdt_at timestamptz,
  eddt varchar,
  eddt_at timestamptz,
  dyop varchar,
  scht varchar,
  scht_minutes integer,
  cobt varchar,
  cobt_at timestamptz,
  tobt varchar,
  tobt_at timestamptz,
  eobt varchar,
  eobt_at timestamptz,
  ctot varchar,
  ctot_at timestamptz,
  iest varchar,
  iest_at timestamptz,
  runw varchar,
  fdiv_ddes varchar,
  fdiv_ddir varchar,
  fdiv_text varchar,
  fret_reid varchar,
  fret_text varchar,
  flab_ares varchar,
  flab_text varchar,
  operation_day date,
  fday date,
  lifecycle varchar,
  deleted_at timestamptz,
  state_version bigint,
  last_message_id bigint,
  created_at timestamptz,
  updated_at timestamptz,
  stamps text)
ON CONFLICT (flid) DO UPDATE SET
  ffid = EXCLUDED.ffid,
  alcd = EXCLUDED.alcd,
  alsc = EXCLUDED.alsc,
  flno = EXCLUDED.flno,
  mvin = EXCLUDED.mvin,
  sodt = EXCLUDED.sodt,
  sodt_at = EXCLUDED.sodt_at,
  flty = EXCLUDED.flty,
  flin = EXCLUDED.flin,
  acft = EXCLUDED.acft,
  reno = EXCLUDED.reno,
  taop = EXCLUDED.taop,
  tafl = EXCLUDED.tafl,
  taid = EXCLUDED.taid,
  trml = EXCLUDED.trml,
  maxp = EXCLUDED.maxp,
  csop = EXCLUDED.csop,
  csft = EXCLUDED.csft,
  maid = EXCLUDED.maid,
  estt = EXCLUDED.estt,
  estt_at = EXCLUDED.estt_at,
  actt = EXCLUDED.actt,
  actt_at = EXCLUDED.actt_at,
  stnd = EXCLUDED.stnd,
  phag = EXCLUDED.phag,
  fhag = EXCLUDED.fhag,
  mhag = EXCLUDED.mhag,
  cncl = EXCLUDED.cncl,
  remc = EXCLUDED.remc,
  botm = EXCLUDED.botm,
  botm_at = EXCLUDED.botm_at,
  lacl = EXCLUDED.lacl,
  fint = EXCLUDED.fint,
  appt = EXCLUDED.appt,
  egsr = EXCLUDED.egsr,
  egst = EXCLUDED.egst,
  egst_at = EXCLUDED.egst_at,
  vipp = EXCLUDED.vipp,
  vipr = EXCLUDED.vipr,
  lbno = EXCLUDED.lbno,
  lbwt = EXCLUDED.lbwt,
  paxc = EXCLUDED.paxc,
  exsc = EXCLUDED.exsc,
  exsr = EXCLUDED.exsr,
  ftss = EXCLUDED.ftss,
  pedt = EXCLUDED.pedt,
  pedt_at = EXCLUDED.pedt_at,
  neat = EXCLUDED.neat,
  neat_at = EXCLUDED.neat_at,
  padt = EXCLUDED.padt,
  padt_at = EXCLUDED.padt_at,
  naat = EXCLUDED.naat,
  naat_at = EXCLUDED.naat_at,
  stdt = EXCLUDED.stdt,
  stdt_at = EXCLUDED.stdt_at,
  eddt = EXCLUDED.eddt,
  eddt_at = EXCLUDED.eddt_at,
  dyop = EXCLUDED.dyop,
  scht = EXCLUDED.scht,
  scht_minutes = EXCLUDED.scht_minutes,
  cobt = EXCLUDED.cobt,
  cobt_at = EXCLUDED.cobt_at,
  tobt = EXCLUDED.tobt,
  tobt_at = EXCLUDED.tobt_at,
  eobt = EXCLUDED.eobt,
  eobt_at = EXCLUDED.eobt_at,
  ctot = EXCLUDED.ctot,
  ctot_at = EXCLUDED.ctot_at,
  iest = EXCLUDED.iest,
  iest_at = EXCLUDED.iest_at,
  runw = EXCLUDED.runw,
  fdiv_ddes = EXCLUDED.fdiv_ddes,
  fdiv_ddir = EXCLUDED.fdiv_ddir,
  fdiv_text = EXCLUDED.fdiv_text,
  fret_reid = EXCLUDED.fret_reid,
  fret_text = EXCLUDED.fret_text,
  flab_ares = EXCLUDED.flab_ares,
  flab_text = EXCLUDED.flab_text,
  operation_day = EXCLUDED.operation_day,
  fday = EXCLUDED.fday,
  lifecycle = EXCLUDED.lifecycle,
  deleted_at = EXCLUDED.deleted_at,
  state_version = EXCLUDED.state_version,
  last_message_id = EXCLUDED.last_message_id,
  updated_at = EXCLUDED.updated_at,
  stamps = EXCLUDED.stamps;

-- name: FlightListByDay :many
-- One page of the flights of an operation day in FLID order (keyset paging).
SELECT * FROM flight_schd
WHERE operation_day = @operation_day AND flid > @after_flid
ORDER BY flid
LIMIT @page_size;

-- name: FlightListPruneCandidates :many
-- Previous-generation members of a flight day that are still ACTIVE on that
-- operation day and absent from the new snapshot: the only flights a snapshot
-- may prune. The day's members (primary-key prefix) minus the new list is an
-- EXCEPT, which PostgreSQL runs only by hashing or sorting both sides, so the
-- flights are read for the difference alone (none on a resend of the same
-- flights), each by its key behind an OFFSET 0 fence the planner cannot
-- flatten: on a new day the statistics know none of the day's rows, and the
-- join the planner then chose compared every member with every flight of the
-- day (issue #35). The probe names the whole day index key too: on a table
-- never analyzed the planner took that index for a probe on flid alone, a
-- scan of the whole index per member (issue #34).
SELECT f.* FROM (
  SELECT g.flid FROM schd_gen_flid g WHERE g.fday = @fday
  EXCEPT
  SELECT unnest(@keep_flids::bigint[])
) c
CROSS JOIN LATERAL (
  SELECT s.* FROM flight_schd s
  WHERE s.flid = c.flid AND s.operation_day = @fday
  OFFSET 0
) f
WHERE f.lifecycle = 'ACTIVE'
ORDER BY f.flid;

-- name: FlightDelete :execrows
-- Physical delete (history sweep only). The detail tables and the snapshot
-- memberships have no foreign key (020_flight.sql, 030_snapshot.sql), so
-- their rows go in the same statement; payloads cascade.
WITH gate AS (DELETE FROM flight_gate d WHERE d.flid = @flid),
  checkin AS (DELETE FROM flight_checkin d WHERE d.flid = @flid),
  belt AS (DELETE FROM flight_belt d WHERE d.flid = @flid),
  stand_plan AS (DELETE FROM flight_stand_plan d WHERE d.flid = @flid),
  chute AS (DELETE FROM flight_chute d WHERE d.flid = @flid),
  delay AS (DELETE FROM flight_delay d WHERE d.flid = @flid),
  bridge_op AS (DELETE FROM flight_bridge_op d WHERE d.flid = @flid),
  chock_op AS (DELETE FROM flight_chock_op d WHERE d.flid = @flid),
  route_point AS (DELETE FROM flight_route_point d WHERE d.flid = @flid),
  member AS (DELETE FROM schd_gen_flid m WHERE m.flid = @flid)
DELETE FROM flight_schd f WHERE f.flid = @flid;

-- name: FlightCountByLifecycle :many
SELECT lifecycle, count(*) AS flights FROM flight_schd GROUP BY lifecycle ORDER BY lifecycle;

-- name: FlightHstListByFlight :many
SELECT * FROM flight_hst WHERE flid = @flid ORDER BY state_version, hst_id;
