-- Drop the views before the tables change
DROP VIEW "flight_report";
-- Modify "msg_event" table
ALTER TABLE "msg_event" ALTER COLUMN "target" TYPE character varying(16) COLLATE "C", ALTER COLUMN "partition_key" TYPE character varying(32) COLLATE "C", ALTER COLUMN "idempotency_key" TYPE character varying(200) COLLATE "C";
-- Modify "proc_state" table
ALTER TABLE "proc_state" ALTER COLUMN "identity_key" TYPE character varying(300) COLLATE "C";
-- Modify "proc_state_hst" table
ALTER TABLE "proc_state_hst" ALTER COLUMN "identity_key" TYPE character varying(300) COLLATE "C";
CREATE VIEW flight_report AS
SELECT
  f.flid,
  f.operation_day,
  f.fday,
  f.lifecycle,
  f.alcd,
  f.flno,
  f.mvin,
  f.sodt,
  f.sodt_at,
  f.stnd,
  COALESCE(gn.n, 0) AS gate_count,
  g1.gate AS gate_1, g1.pgot_at AS gate_1_pgot_at, g1.pgct_at AS gate_1_pgct_at,
  g2.gate AS gate_2, g2.pgot_at AS gate_2_pgot_at, g2.pgct_at AS gate_2_pgct_at,
  COALESCE(kn.n, 0) AS checkin_count,
  k1.chkc AS checkin_1, k1.pcot_at AS checkin_1_pcot_at, k1.pcct_at AS checkin_1_pcct_at,
  k2.chkc AS checkin_2, k2.pcot_at AS checkin_2_pcot_at, k2.pcct_at AS checkin_2_pcct_at,
  COALESCE(bn.n, 0) AS belt_count,
  b1.belt AS belt_1, b1.pcot_at AS belt_1_pcot_at, b1.pcct_at AS belt_1_pcct_at,
  b2.belt AS belt_2, b2.pcot_at AS belt_2_pcot_at, b2.pcct_at AS belt_2_pcct_at,
  COALESCE(sn.n, 0) AS stand_plan_count,
  s1.psst AS stand_plan_1, s1.stst_at AS stand_plan_1_stst_at, s1.stet_at AS stand_plan_1_stet_at,
  s2.psst AS stand_plan_2, s2.stst_at AS stand_plan_2_stst_at, s2.stet_at AS stand_plan_2_stet_at,
  COALESCE(cn.n, 0) AS chute_count,
  c1.chut AS chute_1, c1.pcbt_at AS chute_1_pcbt_at, c1.pcet_at AS chute_1_pcet_at,
  c2.chut AS chute_2, c2.pcbt_at AS chute_2_pcbt_at, c2.pcet_at AS chute_2_pcet_at,
  COALESCE(d.n, 0) AS delay_count,
  COALESCE(d.total_minutes, 0) AS delay_total_minutes,
  dl.code AS last_delay_code,
  dl.dura_minutes AS last_delay_minutes,
  COALESCE(a.n, 0) AS bridge_op_count,
  al.abdg AS bridge,
  al.abop AS bridge_state,
  al.aotm_at AS bridge_at,
  COALESCE(h.n, 0) AS chock_op_count,
  hl.chid AS chock_state,
  hl.chtm_at AS chock_at
FROM flight_schd f
LEFT JOIN (SELECT flid, COUNT(*) AS n FROM flight_gate GROUP BY flid) gn ON gn.flid = f.flid
LEFT JOIN flight_gate g1 ON g1.flid = f.flid AND g1.ordinal = 1
LEFT JOIN flight_gate g2 ON g2.flid = f.flid AND g2.ordinal = 2
LEFT JOIN (SELECT flid, COUNT(*) AS n FROM flight_checkin GROUP BY flid) kn ON kn.flid = f.flid
LEFT JOIN flight_checkin k1 ON k1.flid = f.flid AND k1.ordinal = 1
LEFT JOIN flight_checkin k2 ON k2.flid = f.flid AND k2.ordinal = 2
LEFT JOIN (SELECT flid, COUNT(*) AS n FROM flight_belt GROUP BY flid) bn ON bn.flid = f.flid
LEFT JOIN flight_belt b1 ON b1.flid = f.flid AND b1.ordinal = 1
LEFT JOIN flight_belt b2 ON b2.flid = f.flid AND b2.ordinal = 2
LEFT JOIN (SELECT flid, COUNT(*) AS n FROM flight_stand_plan GROUP BY flid) sn ON sn.flid = f.flid
LEFT JOIN flight_stand_plan s1 ON s1.flid = f.flid AND s1.ordinal = 1
LEFT JOIN flight_stand_plan s2 ON s2.flid = f.flid AND s2.ordinal = 2
LEFT JOIN (SELECT flid, COUNT(*) AS n FROM flight_chute GROUP BY flid) cn ON cn.flid = f.flid
LEFT JOIN flight_chute c1 ON c1.flid = f.flid AND c1.ordinal = 1
LEFT JOIN flight_chute c2 ON c2.flid = f.flid AND c2.ordinal = 2
LEFT JOIN (
  SELECT flid, COUNT(*) AS n, SUM(dura_minutes) AS total_minutes, MAX(ordinal) AS last_ordinal
  FROM flight_delay GROUP BY flid
) d ON d.flid = f.flid
LEFT JOIN flight_delay dl ON dl.flid = d.flid AND dl.ordinal = d.last_ordinal
LEFT JOIN (SELECT flid, COUNT(*) AS n, MAX(ordinal) AS last_ordinal FROM flight_bridge_op GROUP BY flid) a ON a.flid = f.flid
LEFT JOIN flight_bridge_op al ON al.flid = a.flid AND al.ordinal = a.last_ordinal
LEFT JOIN (SELECT flid, COUNT(*) AS n, MAX(ordinal) AS last_ordinal FROM flight_chock_op GROUP BY flid) h ON h.flid = f.flid
LEFT JOIN flight_chock_op hl ON hl.flid = h.flid AND hl.ordinal = h.last_ordinal;
COMMENT ON VIEW flight_report IS 'One row per flight (DELETED ones too, see lifecycle) in the old fixed-slot shape: first and second gate, check-in counter, belt, planned stand and chute by ORDINAL with their planned times, each list''s count, the last delay and the total delay, the last bridge and chock operation. The detail tables stay the full record (docs/reporting.md).';
COMMENT ON COLUMN flight_report.gate_count IS 'Number of GTDT items (0 when none).';
COMMENT ON COLUMN flight_report.gate_1 IS 'GATE of the gate item with ORDINAL 1 (the first as sent), NULL when there is none.';
COMMENT ON COLUMN flight_report.gate_2 IS 'GATE of the gate item with ORDINAL 2.';
COMMENT ON COLUMN flight_report.checkin_1 IS 'CHKC of the check-in item with ORDINAL 1.';
COMMENT ON COLUMN flight_report.belt_1 IS 'BELT of the belt item with ORDINAL 1.';
COMMENT ON COLUMN flight_report.stand_plan_1 IS 'PSST of the planned stand item with ORDINAL 1 (the current stand is STND).';
COMMENT ON COLUMN flight_report.chute_1 IS 'CHUT of the chute item with ORDINAL 1.';
COMMENT ON COLUMN flight_report.delay_total_minutes IS 'Sum of the parsed DURA of every delay (0 when none; a DURA that did not parse counts nothing).';
COMMENT ON COLUMN flight_report.last_delay_code IS 'CODE of the delay with the highest ORDINAL (the last sent).';
COMMENT ON COLUMN flight_report.bridge IS 'ABDG of the last bridge operation (highest ORDINAL).';
COMMENT ON COLUMN flight_report.bridge_state IS 'ABOP of the last bridge operation: A attached, D detached; NULL when there was none.';
COMMENT ON COLUMN flight_report.chock_state IS 'CHID of the last chock operation: ON or OFF; NULL when there was none.';
