#!/bin/sh
# pg.sh - a throwaway PostgreSQL cluster in a directory of its own, for
# the tests and the fault campaign.
#
#   sh tests/pg.sh start DIR [ADDRESSES [PORT]]
#	initdb a cluster in DIR (anything there before is stopped and
#	removed) and start it; print the libpq URI to reach it.  It
#	listens on a unix socket in DIR, and on TCP only at ADDRESSES
#	(listen_addresses, e.g. 127.0.0.1) when given.  Port 5432 unless
#	PORT: clusters in different directories may share it.
#   sh tests/pg.sh stop DIR
#	stop it at once (no checkpoint: nothing is kept) and remove DIR.
#   sh tests/pg.sh kill DIR
#	SIGKILL the postmaster and all its children, as a power cut would
#	leave them (minus the page cache); DIR stays.
#   sh tests/pg.sh restart DIR
#	start what a kill left, through crash recovery; print the URI.
#   sh tests/pg.sh standby PRIMARY_DIR STANDBY_DIR [PORT]
#	a streaming standby of the cluster in PRIMARY_DIR, made with
#	pg_basebackup -R, which the primary then waits for on every
#	commit (synchronous_standby_names); print the standby's URI.
#   sh tests/pg.sh promote DIR
#	make the standby in DIR a primary.
#   sh tests/pg.sh uri DIR
#	the URI of the cluster in DIR.
#
# The database superuser is "ar", trusted without a password on the
# socket (and on TCP at ADDRESSES); the database is "postgres".  fsync
# and synchronous_commit stay on: durability is what the tests are about.
# Run as root, the server runs as the user postgres, or nobody where
# there is none, and DIR is given to that user.

set -u

prog="pg.sh"

die() {
	echo "$prog: $*" >&2
	exit 3
}

# The server's programs: where pg_config says, else Debian's folder.
pg_bindir() {
	d=$(pg_config --bindir 2>/dev/null)
	if [ -n "$d" ] && [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ]; then
		echo "$d"
		return
	fi
	for d in /usr/lib/postgresql/*/bin; do
		[ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ] && last=$d
	done
	[ -n "${last:-}" ] || die "no initdb and pg_ctl (make deps installs postgresql)"
	echo "$last"
}

# The user the server runs as: initdb and postgres refuse root.
pg_user() {
	if [ "$(id -u)" != 0 ]; then
		id -un
	elif id postgres >/dev/null 2>&1; then
		echo postgres
	else
		echo nobody
	fi
}

# as CMD ARGS...: run a server program as that user.
as() {
	if [ "$(id -u)" = 0 ]; then
		runuser -u "$PGUSER_OS" -- "$@"
	else
		"$@"
	fi
}

# The directory as an absolute path, for the socket and the URI.
absdir() {
	case $1 in
	/*) echo "$1" ;;
	*) echo "$PWD/$1" ;;
	esac
}

uri() {
	port=$(sed -n "s/^port = \([0-9]*\)$/\1/p" "$1/data/postgresql.conf" |
	    tail -n 1)
	echo "postgresql://ar@/postgres?host=$1&port=$port"
}

# Is process $1 there, and not a zombie nobody has reaped yet?
running() {
	st=$(sed 's/.*) \([A-Z]\).*/\1/' "/proc/$1/stat" 2>/dev/null) &&
	    [ "$st" != Z ]
}

# The postmaster's pid, if it is running.
postmaster_pid() {
	[ -f "$1/data/postmaster.pid" ] || return 1
	pid=$(sed -n 1p "$1/data/postmaster.pid")
	[ -n "$pid" ] && running "$pid" && echo "$pid"
}

# The postmaster's children (its backends, checkpointer, walwriter...).
children() {
	for f in /proc/[0-9]*/stat; do
		# Field 4 is the parent; the name in field 2 has no blanks
		# for postgres processes.
		{ read -r p _ _ pp _ <"$f"; } 2>/dev/null || continue
		[ "$pp" = "$1" ] && echo "$p"
	done
}

# SIGKILL the postmaster, stopped first so that it forks no more, and
# every child it had, then wait until they are gone: a restart refuses
# while one still holds the shared memory.
kill_cluster() {
	pid=$(postmaster_pid "$1") || return 0
	kill -STOP "$pid"
	kids=$(children "$pid")
	kill -KILL "$pid" $kids 2>/dev/null
	for i in $(seq 500); do
		alive=
		for p in $pid $kids; do
			running "$p" && alive=1
		done
		# A zombie postmaster not yet reaped would still look
		# alive to the next one: its lock files go with it.
		if [ -z "$alive" ]; then
			rm -f "$1/data/postmaster.pid" "$1"/.s.PGSQL.*.lock
			return 0
		fi
		sleep 0.01
	done
	die "$1: the server's processes did not die"
}

# Remove DIR if it holds a cluster of ours (or nothing): never anything
# else, whatever path was given.
wipe() {
	[ -e "$1" ] || return 0
	if [ -e "$1/data/PG_VERSION" ] || [ -e "$1/.ar-pg" ] ||
	    [ -z "$(ls -A "$1")" ]; then
		kill_cluster "$1"
		rm -rf "$1"
	else
		die "$1: not a cluster of pg.sh, not removed"
	fi
}

# Give DIR to the server's user; its parents must let that user through.
own() {
	[ "$(id -u)" = 0 ] || return 0
	chown -R "$PGUSER_OS" "$1"
	as test -x "$1" || die "$1: the user $PGUSER_OS cannot reach it"
}

# start_server DIR: pg_ctl start, waiting until it takes connections.
start_server() {
	as "$BIN/pg_ctl" -D "$1/data" -l "$1/log" -w -t 60 -s start \
	    >/dev/null || { tail -n 20 "$1/log" >&2; die "$1: the server did not start"; }
}

# psql_c DIR SQL: run SQL on the cluster in DIR, print the result bare.
psql_c() {
	"$BIN/psql" -X -q -At -v ON_ERROR_STOP=1 "$(uri "$1")" -c "$2"
}

cmd_start() {
	dir=$(absdir "$1")
	listen=${2:-}
	port=${3:-5432}
	wipe "$dir"
	mkdir -p "$dir" || die "$dir: cannot make it"
	: >"$dir/.ar-pg"
	own "$dir"
	# --no-sync only spares initdb's own flush of a cluster that is
	# thrown away if the machine goes down during the tests; the
	# server itself runs with fsync on.
	as "$BIN/initdb" -D "$dir/data" -U ar --auth=trust -E UTF8 \
	    --locale=C --no-sync >"$dir/initdb.log" 2>&1 ||
	    { cat "$dir/initdb.log" >&2; die "$dir: initdb failed"; }
	cat >>"$dir/data/postgresql.conf" <<EOF

# pg.sh
listen_addresses = '$listen'
port = $port
unix_socket_directories = '$dir'
max_connections = ${AR_PG_MAX_CONNECTIONS:-300}
fsync = on
synchronous_commit = on
full_page_writes = on
wal_level = replica
logging_collector = off
log_min_messages = warning
EOF
	if [ -n "$listen" ]; then
		# A test cluster, reached only on the addresses asked for.
		printf '%s\n' 'host all all all trust' \
		    'host replication all all trust' >>"$dir/data/pg_hba.conf"
	fi
	start_server "$dir"
	uri "$dir"
}

cmd_stop() {
	dir=$(absdir "$1")
	if postmaster_pid "$dir" >/dev/null; then
		as "$BIN/pg_ctl" -D "$dir/data" -m immediate -s -w stop \
		    >/dev/null 2>&1
	fi
	wipe "$dir"
}

cmd_standby() {
	pri=$(absdir "$1")
	dir=$(absdir "$2")
	port=${3:-5432}
	postmaster_pid "$pri" >/dev/null || die "$pri: no server running"
	wipe "$dir"
	mkdir -p "$dir" || die "$dir: cannot make it"
	: >"$dir/.ar-pg"
	own "$dir"
	as "$BIN/pg_basebackup" -D "$dir/data" -R -X stream -c fast \
	    -d "$(uri "$pri")" >"$dir/basebackup.log" 2>&1 ||
	    { cat "$dir/basebackup.log" >&2; die "$dir: pg_basebackup failed"; }
	# The copied configuration names the primary's socket and port;
	# the last setting in the file wins.  The walreceiver gives the
	# cluster name as its application_name, which the primary's
	# synchronous_standby_names names.
	cat >>"$dir/data/postgresql.conf" <<EOF

# pg.sh standby
port = $port
unix_socket_directories = '$dir'
cluster_name = 'ar_standby'
hot_standby = on
EOF
	start_server "$dir"
	cat >>"$pri/data/postgresql.conf" <<EOF

# pg.sh: every commit waits for the standby to have it on disk
synchronous_standby_names = 'ar_standby'
synchronous_commit = on
EOF
	as "$BIN/pg_ctl" -D "$pri/data" -s reload >/dev/null ||
	    die "$pri: reload failed"
	for i in $(seq 300); do
		st=$(psql_c "$pri" "select sync_state from pg_stat_replication
		    where application_name = 'ar_standby'" 2>/dev/null)
		if [ "$st" = sync ]; then
			uri "$dir"
			return 0
		fi
		sleep 0.1
	done
	die "$dir: the standby is not synchronous after 30 s"
}

cmd_promote() {
	dir=$(absdir "$1")
	as "$BIN/pg_ctl" -D "$dir/data" -w -t 60 -s promote >/dev/null ||
	    die "$dir: promotion failed"
}

[ $# -ge 2 ] || {
	echo "usage: $prog start|stop|kill|restart|promote|uri DIR, $prog standby PRIMARY_DIR STANDBY_DIR" >&2
	exit 2
}
BIN=$(pg_bindir) || exit 3
PGUSER_OS=$(pg_user)
# The server and its tools find their way by the arguments given here,
# never by a PG* variable of whoever runs the tests.
unset PGHOST PGPORT PGDATA PGUSER PGDATABASE PGSERVICE PGHOSTADDR

case $1 in
start) cmd_start "$2" "${3:-}" "${4:-}" ;;
stop) cmd_stop "$2" ;;
kill) kill_cluster "$(absdir "$2")" ;;
restart)
	dir=$(absdir "$2")
	start_server "$dir"
	uri "$dir"
	;;
standby)
	[ $# -ge 3 ] || die "standby: which directories"
	cmd_standby "$2" "$3" "${4:-}"
	;;
promote) cmd_promote "$2" ;;
uri) uri "$(absdir "$2")" ;;
*)
	echo "$prog: unknown action '$1'" >&2
	exit 2
	;;
esac
