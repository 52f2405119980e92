#!/usr/bin/env bash
# scripts/services.sh — bring up the two databases msgx needs, idempotently.
#
#   PostgreSQL  127.0.0.1:5432, user postgres, trust auth (no password);
#               database "msgx" (for `make run`; tests create their own
#               databases from the "postgres" maintenance database).
#   MariaDB     127.0.0.1:3306, user root, empty password over TCP;
#               database "msgx_mailbox" (the shared mailbox for `make run`).
#
# On a machine where both already run (the normal case) this only checks and
# creates the two databases if missing. On a fresh Debian 12 machine it installs
# the packages (apt-get), initialises, configures auth and starts the servers.
# One line per step; exits non-zero with a clear message when something cannot
# be brought up. Every wait is bounded. Runs as root (installs and starts
# daemons); no systemd needed.
#
# Environment (all optional):
#   PG_PORT (5432), MARIADB_PORT (3306), MARIADB_SOCKET (/run/mysqld/mysqld.sock),
#   SERVICES_WAIT (seconds per wait, 60)
set -euo pipefail

PG_HOST=127.0.0.1
PG_PORT=${PG_PORT:-5432}
# The databases of `make run`: those MSGX_PG_URL and MSGX_MAILBOX_DSN name
# (the Makefile's defaults: msgx and msgx_mailbox).
pg_url=${MSGX_PG_URL:-postgres://postgres@127.0.0.1:5432/msgx}
PG_DB=${pg_url%%\?*}
PG_DB=${PG_DB##*/}
MY_HOST=127.0.0.1
MY_PORT=${MARIADB_PORT:-3306}
my_dsn=${MSGX_MAILBOX_DSN:-root@tcp(127.0.0.1:3306)/msgx_mailbox}
MY_DB=${my_dsn##*/}
MY_DB=${MY_DB%%\?*}
[[ $PG_DB =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]] || { echo "services: MSGX_PG_URL names no plain database: $pg_url" >&2; exit 2; }
[[ $MY_DB =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]] || { echo "services: MSGX_MAILBOX_DSN names no plain database: $my_dsn" >&2; exit 2; }
MY_SOCKET=${MARIADB_SOCKET:-/run/mysqld/mysqld.sock}
WAIT=${SERVICES_WAIT:-60}

export DEBIAN_FRONTEND=noninteractive
# Never let a stray environment redirect the checks below.
unset PGHOST PGPORT PGUSER PGPASSWORD PGDATABASE PGSERVICE MYSQL_PWD MYSQL_HOST MYSQL_TCP_PORT || true

log() { printf 'services: %s\n' "$*"; }
die() {
	printf 'services: ERROR: %s\n' "$*" >&2
	exit 1
}

# ---------------------------------------------------------------- apt helpers

APT_UPDATED=0
POLICY_RC_CREATED=0
cleanup() {
	if [[ $POLICY_RC_CREATED == 1 ]]; then rm -f /usr/sbin/policy-rc.d; fi
}
trap cleanup EXIT

apt_install() {
	[[ $(id -u) == 0 ]] || die "must run as root to install $* (apt-get)"
	command -v apt-get >/dev/null || die "apt-get not found: install $* by hand"
	if [[ $APT_UPDATED == 0 ]]; then
		log "apt-get update"
		apt-get update -q >/tmp/msgx-apt-update.log 2>&1 ||
			{ tail -n 20 /tmp/msgx-apt-update.log >&2; die "apt-get update failed (log: /tmp/msgx-apt-update.log)"; }
		APT_UPDATED=1
	fi
	# Keep package scripts from starting daemons through an init system this
	# machine may not have; this script starts them itself below.
	if [[ ! -e /usr/sbin/policy-rc.d ]]; then
		printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
		chmod +x /usr/sbin/policy-rc.d
		POLICY_RC_CREATED=1
	fi
	log "apt-get install $*"
	apt-get install -y -q --no-install-recommends "$@" >/tmp/msgx-apt-install.log 2>&1 ||
		{ tail -n 30 /tmp/msgx-apt-install.log >&2; die "apt-get install $* failed (log: /tmp/msgx-apt-install.log)"; }
	if [[ $POLICY_RC_CREATED == 1 ]]; then
		rm -f /usr/sbin/policy-rc.d
		POLICY_RC_CREATED=0
	fi
}

# wait_for DESCRIPTION COMMAND...: retry COMMAND once a second, at most $WAIT s.
wait_for() {
	local what=$1 i
	shift
	for ((i = 0; i < WAIT; i++)); do
		if "$@" >/dev/null 2>&1; then
			log "$what: ready after ${i}s"
			return 0
		fi
		sleep 1
	done
	return 1
}

# ---------------------------------------------------------------- PostgreSQL

pg_sql() { # run SQL over TCP as postgres, never prompting for a password
	psql -X -w -q -h "$PG_HOST" -p "$PG_PORT" -U postgres -d postgres -v ON_ERROR_STOP=1 -Atc "$1"
}
pg_tcp_ready() { pg_isready -q -h "$PG_HOST" -p "$PG_PORT" -t 2; }
pg_auth_ok() { pg_sql 'SELECT 1' 2>/dev/null | grep -qx 1; }

pg_version() { # newest installed server major version
	ls /usr/lib/postgresql 2>/dev/null | sort -V | tail -n 1
}

ensure_postgres() {
	if ! command -v psql >/dev/null || ! command -v pg_isready >/dev/null ||
		[[ -z $(pg_version) ]] || ! command -v pg_ctlcluster >/dev/null; then
		apt_install postgresql
	fi
	local ver
	ver=$(pg_version)
	[[ -n $ver ]] || die "PostgreSQL server binaries not found under /usr/lib/postgresql after install"
	log "postgres: server version $ver installed"

	if pg_tcp_ready; then
		log "postgres: already accepting connections on $PG_HOST:$PG_PORT"
	else
		# The cluster to start: the existing one whose port is ours, else create one.
		local cver="" cname=""
		read -r cver cname < <(pg_lsclusters -h 2>/dev/null | awk -v p="$PG_PORT" '$3 == p {print $1, $2; exit}') || true
		if [[ -z $cver ]]; then
			cver=$ver cname=main
			if [[ -d /etc/postgresql/$ver/main ]]; then cname=msgx; fi # main exists on another port
			log "postgres: no cluster on port $PG_PORT, creating $cver/$cname"
			pg_createcluster --port "$PG_PORT" "$cver" "$cname" >/tmp/msgx-pg-create.log 2>&1 ||
				{ cat /tmp/msgx-pg-create.log >&2; die "pg_createcluster $cver $cname failed"; }
		fi
		if pg_lsclusters -h 2>/dev/null | awk -v v="$cver" -v n="$cname" '$1 == v && $2 == n && $4 ~ /online/ {f=1} END {exit !f}'; then
			log "postgres: cluster $cver/$cname is online but not yet accepting on $PG_HOST:$PG_PORT, waiting"
		else
			log "postgres: starting cluster $cver/$cname"
			pg_ctlcluster --skip-systemctl-redirect "$cver" "$cname" start ||
				die "could not start PostgreSQL cluster $cver/$cname (see /var/log/postgresql/)"
		fi
		wait_for "postgres" pg_tcp_ready ||
			die "PostgreSQL does not accept connections on $PG_HOST:$PG_PORT after ${WAIT}s (see /var/log/postgresql/)"
	fi

	if pg_auth_ok; then
		log "postgres: user postgres logs in over TCP without a password"
	else
		# A fresh Debian cluster asks for a password (scram-sha-256) over TCP:
		# put trust lines for the loopback addresses first in pg_hba.conf.
		local hba
		hba=$(runuser -u postgres -- psql -X -p "$PG_PORT" -Atc 'SHOW hba_file' 2>/dev/null) ||
			die "PostgreSQL refuses postgres over TCP and the local socket is not usable to fix it"
		[[ -f $hba ]] || die "pg_hba.conf not found at '$hba'"
		log "postgres: configuring trust auth for 127.0.0.1 and ::1 in $hba"
		cp -p "$hba" "$hba.msgx-bak"
		{
			echo '# added by msgx scripts/services.sh: local development and tests'
			echo 'host all all 127.0.0.1/32 trust'
			echo 'host all all ::1/128 trust'
			cat "$hba.msgx-bak"
		} >"$hba"
		runuser -u postgres -- psql -X -p "$PG_PORT" -Atc 'SELECT pg_reload_conf()' >/dev/null ||
			die "could not reload PostgreSQL configuration"
		wait_for "postgres auth" pg_auth_ok ||
			die "PostgreSQL still refuses user postgres over TCP without a password (check $hba)"
	fi

	if [[ $(pg_sql "SELECT 1 FROM pg_database WHERE datname = '$PG_DB'") == 1 ]]; then
		log "postgres: database $PG_DB exists"
	else
		pg_sql "CREATE DATABASE $PG_DB" || die "could not create PostgreSQL database $PG_DB"
		log "postgres: created database $PG_DB"
	fi
}

# ---------------------------------------------------------------- MariaDB

my_tcp() { # the client over TCP as root with an empty password, ignoring option files
	mariadb --no-defaults --protocol=TCP -h "$MY_HOST" -P "$MY_PORT" -uroot --connect-timeout=3 "$@"
}
my_socket() { # the client over the unix socket as root (unix_socket auth)
	mariadb --no-defaults --protocol=SOCKET -S "$MY_SOCKET" -uroot --connect-timeout=3 "$@"
}
# mariadb-admin ping exits 0 when the server answers, even with "access denied".
my_alive() { mariadb-admin --no-defaults --protocol=TCP -h "$MY_HOST" -P "$MY_PORT" -uroot --connect-timeout=2 ping; }
my_auth_ok() { my_tcp -N -e 'SELECT 1' 2>/dev/null | grep -qx 1; }

ensure_mariadb() {
	if [[ ! -x /usr/sbin/mariadbd ]] || ! command -v mariadb >/dev/null || ! command -v mariadb-admin >/dev/null; then
		apt_install mariadb-server mariadb-client
	fi
	log "mariadb: $(/usr/sbin/mariadbd --version 2>/dev/null | head -n 1 || echo 'server installed')"

	if my_alive >/dev/null 2>&1; then
		log "mariadb: already answering on $MY_HOST:$MY_PORT"
	else
		local datadir
		datadir=$(/usr/sbin/mariadbd --print-defaults 2>/dev/null | tr ' ' '\n' | sed -n 's/^--datadir=//p' | tail -n 1)
		datadir=${datadir:-/var/lib/mysql}
		id mysql >/dev/null 2>&1 || die "system user mysql missing: reinstall mariadb-server"
		install -d -o mysql -g mysql /run/mysqld
		install -d -o mysql -g adm /var/log/mysql 2>/dev/null || install -d -o mysql /var/log/mysql
		if [[ ! -d $datadir/mysql ]]; then
			log "mariadb: initialising data directory $datadir"
			install -d -o mysql -g mysql "$datadir"
			mariadb-install-db --user=mysql --datadir="$datadir" --skip-test-db >/tmp/msgx-mariadb-install.log 2>&1 ||
				{ tail -n 20 /tmp/msgx-mariadb-install.log >&2; die "mariadb-install-db failed"; }
		fi
		log "mariadb: starting /usr/sbin/mariadbd"
		start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd -- --user=mysql ||
			die "could not start MariaDB"
		wait_for "mariadb" my_alive ||
			die "MariaDB does not answer on $MY_HOST:$MY_PORT after ${WAIT}s (see /var/log/mysql/error.log)"
	fi

	if my_auth_ok; then
		log "mariadb: root logs in over TCP with an empty password"
	else
		# Debian's root@localhost authenticates by unix socket only: allow the
		# empty password over TCP as well (development and test machines only).
		log "mariadb: configuring root with an empty password over TCP"
		my_socket -e "
			CREATE USER IF NOT EXISTS 'root'@'127.0.0.1' IDENTIFIED BY '';
			ALTER USER 'root'@'127.0.0.1' IDENTIFIED BY '';
			GRANT ALL PRIVILEGES ON *.* TO 'root'@'127.0.0.1' WITH GRANT OPTION;
			ALTER USER 'root'@'localhost' IDENTIFIED VIA mysql_native_password USING PASSWORD('') OR unix_socket;
			FLUSH PRIVILEGES;" ||
			die "MariaDB refuses root over TCP and the socket $MY_SOCKET is not usable to fix it"
		my_auth_ok || die "MariaDB still refuses root with an empty password on $MY_HOST:$MY_PORT"
		log "mariadb: root over TCP works now"
	fi

	if [[ $(my_tcp -N -e "SELECT COUNT(*) FROM information_schema.schemata WHERE schema_name = '$MY_DB'") == 1 ]]; then
		log "mariadb: database $MY_DB exists"
	else
		my_tcp -e "CREATE DATABASE IF NOT EXISTS \`$MY_DB\` CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci" ||
			die "could not create MariaDB database $MY_DB"
		log "mariadb: created database $MY_DB"
	fi
}

start=$SECONDS
ensure_postgres
ensure_mariadb
log "ok: postgres://postgres@$PG_HOST:$PG_PORT/$PG_DB and root@tcp($MY_HOST:$MY_PORT)/$MY_DB ready ($((SECONDS - start))s)"
