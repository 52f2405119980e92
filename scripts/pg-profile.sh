#!/usr/bin/env bash
# pg-profile.sh: PostgreSQL's work per statement while BenchmarkTenantCPU
# drains 20 000 FLOP messages (issue #23 item 3, docs/performance.md).
#
# pg_stat_statements needs shared_preload_libraries, a server setting, so this
# starts a PRIVATE PostgreSQL 15 cluster (never the shared one): initdb into
# $PGPROF_DIR (default /tmp/pgprof), port $PGPROF_PORT (default 5499), trust
# auth, the stock settings otherwise. The benchmark sees
# MSGX_BENCH_PG_STATEMENTS=1, resets the statistics just before the drain and
# logs the statements of the drain, per message, sorted by total time. The
# cluster is stopped at the end (PGPROF_KEEP=1 keeps it running).
#
# Usage: scripts/pg-profile.sh [extra go test flags, e.g. -count 3]
set -euo pipefail

dir=${PGPROF_DIR:-/tmp/pgprof}
port=${PGPROF_PORT:-5499}
bin=${PGBIN:-/usr/lib/postgresql/15/bin}
cd "$(dirname "$0")/.."

# initdb and postgres refuse to run as root.
as_pg() {
	if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

if [ ! -f "$dir/PG_VERSION" ]; then
	mkdir -p "$dir"
	[ "$(id -u)" = 0 ] && chown postgres: "$dir"
	as_pg "$bin/initdb" -D "$dir" -U postgres --auth=trust -E UTF8 >/dev/null
	cat >>"$dir/postgresql.conf" <<CONF
port = $port
listen_addresses = '127.0.0.1'
unix_socket_directories = '$dir'
shared_preload_libraries = 'pg_stat_statements'
pg_stat_statements.max = 1000
pg_stat_statements.track = all
track_io_timing = on
CONF
fi
if ! as_pg "$bin/pg_ctl" -D "$dir" status >/dev/null 2>&1; then
	as_pg "$bin/pg_ctl" -D "$dir" -l "$dir/server.log" -w start >/dev/null
fi
if [ "${PGPROF_KEEP:-}" != 1 ]; then
	trap 'as_pg "$bin/pg_ctl" -D "$dir" -m fast stop >/dev/null' EXIT
fi

export MSGX_TEST_PG_URL="postgres://postgres@127.0.0.1:$port/postgres?sslmode=disable"
export MSGX_TEST_MAILBOX_DSN=${MSGX_TEST_MAILBOX_DSN:-'root@tcp(127.0.0.1:3306)/?parseTime=true'}
export MSGX_BENCH_PG_STATEMENTS=1
go test -run '^$' -bench 'BenchmarkTenantCPU$' -benchtime 1x -v "$@" ./internal/pump/
