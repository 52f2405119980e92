#!/usr/bin/env bash
# scripts/demo.sh — the newcomer's demo behind `make run` (after the services,
# the build and the schema): starts `msgx serve` in dev with the embedded Kafka
# broker, sends the sample day through the mailbox, shows the status and
# where to look, and keeps the service running until Ctrl-C.
set -euo pipefail

BIN=${BIN:-bin/msgx}
ADDR=${MSGX_HTTP_ADDR:-127.0.0.1:8080}
# One log per address: a second demo on another port keeps the first's log.
if [[ $ADDR == 127.0.0.1:8080 ]]; then LOG=${DEMO_LOG:-bin/serve.log}; else LOG=${DEMO_LOG:-bin/serve-${ADDR##*:}.log}; fi
DAY=${DEMO_DAY:-testdata/sample-day}
export MSGX_ENV=${MSGX_ENV:-dev}
# The day's last message is refused (015: a FLOP subtype msgx does not know,
# UNSUPPORTED) and retried until DEAD(EXHAUSTED): a dead letter to replay from
# the console. A short first retry makes that 3 s instead of 15 s.
export MSGX_BACKOFF_BASE=${MSGX_BACKOFF_BASE:-200ms}
# The tokens, fresh random ones unless given, printed at the end with the
# commands that use them: the send token of POST /cminmsgs/send (serve
# requires it, msgx send sends it: both read the variable) and the admin
# token of /admin/* and the console's actions (replay, requests, raw XML).
random_token() { echo "demo-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"; }
export MSGX_HTTP_SEND_TOKEN=${MSGX_HTTP_SEND_TOKEN:-$(random_token)}
export MSGX_ADMIN_TOKEN=${MSGX_ADMIN_TOKEN:-$(random_token)}

mkdir -p "$(dirname "$LOG")"
# The port must be free: otherwise our serve would die at once and the day
# would go to whatever answers there (often a demo still running).
if curl -fsS -o /dev/null --max-time 2 "http://$ADDR/healthz" 2>/dev/null; then
  echo "run: $ADDR already answers (another msgx serve, a previous demo?): stop it, or pick another address: make run MSGX_HTTP_ADDR=127.0.0.1:8081"
  exit 1
fi
# Its own session: Ctrl-C reaches this script only, which sends serve exactly
# one SIGTERM (a second signal would make serve exit at once).
setsid "$BIN" serve >"$LOG" 2>&1 &
pid=$!
stop() {
  trap - INT TERM EXIT
  echo "run: stopping msgx serve (graceful)"
  kill -TERM "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}
trap 'stop; exit 0' INT TERM
trap stop EXIT

# Wait for OUR server: it must be alive when the address answers.
died() { echo "run: msgx serve exited; the end of its log ($LOG):"; tail -n 20 "$LOG"; exit 1; }
for _ in $(seq 1 150); do
  kill -0 "$pid" 2>/dev/null || died
  if curl -fsS "http://$ADDR/healthz" >/dev/null 2>&1; then break; fi
  sleep 0.2
done
kill -0 "$pid" 2>/dev/null || died
curl -fsS "http://$ADDR/healthz" >/dev/null || { echo "run: msgx serve did not answer on $ADDR; see $LOG"; exit 1; }
brokers=$(grep -o '"brokers":\["[^"]*"' "$LOG" | head -n1 | sed 's/.*\["//; s/"$//' || true)

# Another msgx on the same database (a demo on another port) holds the leader
# lock: this one is a standby and processes nothing. Say so, and how to run
# an independent demo.
for _ in $(seq 1 25); do
  role=$(curl -sS "http://$ADDR/readyz" 2>/dev/null | grep -o '"role": *"[a-z]*"' | sed 's/.*"\([a-z]*\)"$/\1/' || true)
  [[ -n $role && $role != starting ]] && break
  sleep 0.2
done
if [[ ${role:-} == standby ]]; then
  cat <<MSG
run: this msgx is a STANDBY: another msgx (a demo still running?) holds the leader lock on the same
run: database ${MSGX_PG_URL:-msgx}, so this one processes nothing and its broker stays empty.
run: An independent second demo needs its own databases too, e.g.:
run:   MSGX_HTTP_ADDR=127.0.0.1:8081 MSGX_PG_URL='postgres://postgres@127.0.0.1:5432/msgx2?sslmode=disable' \\
run:     MSGX_MAILBOX_DSN='root@tcp(127.0.0.1:3306)/msgx2_mailbox?parseTime=true' make run
MSG
  exit 1
fi

echo "run: sending the sample day ($DAY) through the mailbox"
"$BIN" send --url "http://$ADDR" "$DAY"

# Wait (bounded) until the queue has drained (the refused message DEAD).
for _ in $(seq 1 150); do
  if "$BIN" status --json 2>/dev/null | grep -q '"backlog": *0[,}]'; then break; fi
  sleep 0.2
done

# A request and its answer (docs/requests.md): msgx asks for the airline list
# (RQRD into coutmsgs); the demo then plays the AODB and inserts the RESP,
# stamped now, into the mailbox. It applies because it answers the request.
echo
echo "run: asking the AODB for the airline list: msgx request ref AIRL"
req_id=$("$BIN" request ref AIRL | cut -f1)
echo "run: request $req_id sent"
resp="$(dirname "$LOG")/airl-resp.xml"
# Stamped now, with a sequence number of its own: a second demo's answer is a
# new message, not a duplicate of the first one's.
sed -e "s/@DTTM@/$(TZ="${MSGX_AIRPORT_TZ:-Asia/Shanghai}" date +%Y%m%d%H%M%S)/" -e "s/@SEQN@/$(date +%s)/" \
  testdata/requests/airl-resp.xml.tmpl >"$resp"
echo "run: the AODB answers (AIRL/RESP inserted into the mailbox)"
"$BIN" send --direct "$resp"
for _ in $(seq 1 100); do
  # This request (not an earlier demo's) answered: its object says DONE.
  if "$BIN" request list --json --limit 5 2>/dev/null | tr -d ' \n' | grep -q "\"id\":$req_id,[^}]*\"status\":\"DONE\""; then break; fi
  sleep 0.2
done
"$BIN" request list --limit 5

echo
"$BIN" status
cat <<MSG

msgx is serving on http://$ADDR (pid $pid, log $LOG), with an embedded Kafka broker at ${brokers:-?}.
This demo's tokens (fresh each run unless set): the console asks for the admin token (top right).
  export MSGX_ADMIN_TOKEN=$MSGX_ADMIN_TOKEN
  export MSGX_HTTP_SEND_TOKEN=$MSGX_HTTP_SEND_TOKEN
Look around (from a second terminal, after the two exports):
  http://$ADDR/console/                               the operator console (in a browser)
  $BIN send --url http://$ADDR $DAY/002-estt-ca1501.xml   send a message (the send token)
  curl -H "Authorization: Bearer \$MSGX_ADMIN_TOKEN" http://$ADDR/admin/queue   the admin API (the admin token)
  curl http://$ADDR/flights/30001                     a flight's full current state
  curl 'http://$ADDR/all/flights?day=2026-12-03'      the day's flights, paged
  curl http://$ADDR/messages/1                        a message's processing status
  curl http://$ADDR/readyz                            dependencies and role (leader/standby)
  curl http://$ADDR/metrics                           Prometheus metrics
  $BIN status                                     queue head, backlog, dead letters, outbox lag, open requests
  http://$ADDR/console/dead-letters                   the day's dead letter (015, EXHAUSTED): preview and replay it
  $BIN request list                               requests to the AODB and their answers
  MSGX_KAFKA_BROKERS=${brokers:-<broker>} $BIN tail --topic msg --from-start   the events on Kafka (all of them)
Press Ctrl-C to stop.
MSG
wait "$pid"
