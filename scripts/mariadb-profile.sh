#!/bin/sh
# mariadb-profile.sh: the load msgx puts on the AODB's mailbox (issue #23),
# measured on a PRIVATE MariaDB server so other clients of a shared one do
# not count. It starts mariadbd on its own port and data directory, runs
# BenchmarkTenantCPU (20 000 FLOPs drained by poller, pump and backfill)
# RUNS times against it (MariaDB CPU µs per message: take the smallest), then
# once more with the general log and the slow log (long_query_time=0) on,
# and prints the commands msgx sent per message by kind and the slow log's
# time and rows examined per statement kind. The server is stopped at the
# end; the logs stay in $DIR. docs/performance.md, "The mailbox (MariaDB)".
#
#   scripts/mariadb-profile.sh            # 3 runs, port 3399, /tmp/msgx-mariadb-profile
#   RUNS=5 PORT=3400 DIR=/tmp/x scripts/mariadb-profile.sh
#
# Needs mariadb-install-db and mariadbd (MariaDB 10.11 measured), the
# PostgreSQL of MSGX_TEST_PG_URL, and Go.
set -eu

RUNS=${RUNS:-3}
PORT=${PORT:-3399}
DIR=${DIR:-/tmp/msgx-mariadb-profile}
PG=${MSGX_TEST_PG_URL:-postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SQL="mariadb -h127.0.0.1 -P$PORT -uroot"

rm -rf "$DIR"
mkdir -p "$DIR"
mariadb-install-db --no-defaults --datadir="$DIR/data" --auth-root-authentication-method=normal \
	--user="$(id -un)" >"$DIR/install.log" 2>&1
# The settings that matter as on the dev server: utf8mb4, InnoDB 128 MiB.
mariadbd --no-defaults --datadir="$DIR/data" --port="$PORT" --bind-address=127.0.0.1 \
	--socket="$DIR/mariadb.sock" --pid-file="$DIR/mariadb.pid" --user="$(id -un)" \
	--skip-grant-tables --log-error="$DIR/error.log" --innodb-buffer-pool-size=128M \
	--character-set-server=utf8mb4 --collation-server=utf8mb4_general_ci \
	--general-log-file="$DIR/general.log" --slow-query-log-file="$DIR/slow.log" 2>>"$DIR/error.log" &
stop() { kill "$(cat "$DIR/mariadb.pid")" 2>/dev/null || true; }
trap stop EXIT
for _ in $(seq 50); do $SQL -e 'SELECT 1' >/dev/null 2>&1 && break; sleep 0.2; done

export MSGX_TEST_PG_URL="$PG" MSGX_TEST_MAILBOX_DSN="root@tcp(127.0.0.1:$PORT)/?parseTime=true"
cd "$ROOT"
go test -c -o "$DIR/pipeline.test" ./internal/pump/
bench() {
	(cd "$ROOT/internal/pump" && "$DIR/pipeline.test" -test.run '^$' -test.bench '^BenchmarkTenantCPU$' \
		-test.benchtime 1x -test.timeout 20m)
}
echo "== BenchmarkTenantCPU, $RUNS runs (mariadb-µs/msg: the smallest is the figure)"
for i in $(seq "$RUNS"); do
	bench | grep -o '[0-9.]* mariadb-µs/msg' | sed "s/^/run $i: /"
done

echo "== one run with the general and slow logs (long_query_time=0)"
$SQL -e "SET GLOBAL long_query_time=0; SET GLOBAL log_slow_verbosity='query_plan';
	SET GLOBAL slow_query_log=1; SET GLOBAL general_log=1"
bench | grep -E 'mariadb-µs/msg|deltas' | sed 's/^ *//'
$SQL -e "SET GLOBAL slow_query_log=0; SET GLOBAL general_log=0"

echo "== commands per message by kind (general log; the sqlc name, else the first words)"
awk -v n=20001 '
	{
		line = $0
		sub(/^[0-9][0-9][0-9][0-9][0-9][0-9] [ 0-9][0-9]:[0-9][0-9]:[0-9][0-9]/, "", line)
		if (line !~ /^\t+ *[0-9]+ [A-Za-z ]+\t/) next
		sub(/^\t+ *[0-9]+ /, "", line)
		tab = index(line, "\t"); cmd = substr(line, 1, tab - 1); arg = substr(line, tab + 1)
		kind = ""
		if (cmd == "Query" || cmd == "Prepare" || cmd == "Execute") {
			split(arg, a, " ")
			kind = (arg ~ /^-- name: /) ? a[3] : a[1] " " a[2] " " a[3]
		}
		count[cmd " " kind]++
	}
	END { for (k in count) printf "%8d %9.4f/msg  %s\n", count[k], count[k] / n, k }
' "$DIR/general.log" | sort -rn

echo "== slow log: statements, seconds, rows examined by kind"
awk -v n=20001 '
	/^# Query_time:/ { t = $3; ex = $NF }
	/^-- name: / { kind = $3 }
	/^(SET timestamp|use )/ { next }
	/^[A-Z]/ && kind == "" { kind = $1 " " $2 " " $3 }
	/;$/ && t != "" { calls[kind]++; secs[kind] += t; rows[kind] += ex; kind = ""; t = "" }
	END { for (k in calls) printf "%7d calls %8.3f s %9d rows examined  %s\n", calls[k], secs[k], rows[k], k }
' "$DIR/slow.log" | sort -k3 -rn
