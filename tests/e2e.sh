#!/bin/sh
# e2e.sh - end-to-end tests of the ar commands.
#
#   AR_BIN=/abs/path/.build/bin sh tests/e2e.sh [tests/e2e/FILE.sh ...]
#
# Every case runs the real binaries in $AR_BIN on a real store in a fresh
# directory of its own, a simulated store with the clock fixed at
# 2026-11-21T00:00:00Z (AR_NOW) unless the case makes a live one, and
# compares the exact stdout, stderr and exit status.  The cases are in
# tests/e2e/*.sh (all of them, or the files named); this file holds the
# helpers.  A case reads like this:
#
#   begin 'add: a grant prints the record with its id'
#   mkstore --nodes 5
#   run ar-add start=+1h duration=1h nodes=2
#   expect_exit 0
#   expect_out 'start=2026-11-21T01:00:00Z ... status=granted'
#   expect_err
#   expect_check
#
#   begin NAME        start a case: a fresh directory $D, AR_STORE=$D/store
#   mkstore [ARG ...] create a simulated store, whose clock AR_NOW sets
#                     (ar-report --create --simulated ARG ...)
#   mklive [ARG ...]  create a live store, whose clock is the system's
#   live CMD [ARG ...]
#                     CMD without AR_NOW: on a live store, what a user
#                     who gives no clock runs
#   run CMD [ARG ...] run a command (stdin as redirected, else /dev/null);
#                     its stdout, stderr and exit status are kept
#   expect_exit N     the last run exited with status N
#   expect_out [LINE ...]
#                     its stdout is exactly these lines; with no LINE, what
#                     stdin holds (a here-document; nothing if none is given)
#   expect_err [LINE ...]
#                     the same for stderr
#   expect_check      ar-report --check passes: exit 0, no output
#   keep NAME         save the last stdout as $D/NAME
#   filter SED        edit the last stdout with sed (to drop varying fields)
#   skip NAME WHY     a case that cannot run here: shown, not counted
#   as_nobody CMD     run CMD as uid 65534 (root only; see can_be_nobody)
#   set_format N      make the store's meta say format N (1 to 15), as a
#                     store of another version would
#   $D, $DATA, $ME    the case's directory, tests/data, and our uid (the
#                     owner of the reservations we make)
#
# With AR_E2E_PG set to a libpq URI (no store= in it), each case's store
# is a store of its own in that PostgreSQL database, and the cases named
# in tests/e2e/lmdb-only, which work on LMDB's files, are skipped (they
# run on LMDB, their verdict unheeded).
#
# Feed expect_* from a file or a here-document, never from a pipe: the end
# of a pipeline runs in a subshell and its verdict would be lost.
#
# With AR_E2E_JOBS=N (make e2e: 2) the files run N at a time, each in a
# shell of its own begun from these helpers alone; their lines come out
# in the files' order, numbered as in one run, when all have ended.
#
# With AR_E2E_TRANSCRIPT set to a file, every command run and its stdout,
# stderr and exit status are appended to it, the temporary directory
# written as $TOP: two builds that print the same transcript behave the
# same on every case (how a reshaping shows that nothing changed).  The
# files then run one at a time, whatever AR_E2E_JOBS says.
#
# The last line is "N passed, N failed"; the exit status is 1 if any failed.

: "${AR_BIN:?set AR_BIN to the directory holding the ar binaries}"
case $AR_BIN in
/*) ;;
*) AR_BIN=$(cd "$AR_BIN" && pwd) || exit 2 ;;
esac
for c in ar-add ar-del ar-map ar-price ar-report ar-search ar-suggest; do
	if [ ! -x "$AR_BIN/$c" ]; then
		echo "e2e: $AR_BIN/$c: not found (run make all)" >&2
		exit 2
	fi
done

TESTS=$(cd "$(dirname "$0")" && pwd) || exit 2
DATA=$TESTS/data
PATH=$AR_BIN:$PATH
AR_NOW=2026-11-21T00:00:00Z
LC_ALL=C
export PATH AR_NOW LC_ALL
unset AR_STORE AR_WAIT

TOP=$(mktemp -d "${TMPDIR:-/tmp}/ar-e2e.XXXXXX") || exit 2
# A Slurm controller a case file started (SLURM_DIR) goes with the rest.
SLURM_DIR=
trap '[ -z "$SLURM_DIR" ] || sh "$TESTS/slurm.sh" stop "$SLURM_DIR"; rm -rf "$TOP"' EXIT
trap 'exit 130' HUP INT TERM
exec </dev/null

ME=$(id -u)
RUN=$$          # store names differ from another run's in one database
n=0 passed=0 failed=0 skipped=0 NAME= D= RC= LAST= skipping=

# Record a failure of the current case; the details are shown after it.
fail() {
	[ -z "$skipping" ] || return 0
	bad=1
	printf '    %s\n' "$@" >>"$D/.log"
}

# usage_of CMD: the usage text every command prints, with its own tail.
# (Not piped into expect_*: a pipeline runs it in a subshell.)
usage_of() {
	pad=$(printf '%s' "$1" | sed 's/./ /g')
	case $1 in
	ar-add) tail='[-cmenpf] [key=value ...]' ;;
	ar-del) tail='[-pq] [--forget time] [key=value ...]' ;;
	ar-suggest) tail='[-l limit] [-k count] [--fit first | best | worst] [--longest | --extend [--move]] [key=value ...] | --frames [--from time] [--to time]' ;;
	ar-report) tail='[-c | -i | [-a | -l] [--from time] [--to time] [key=value ...] | -f [--from time] [--to time] | -u [--from time] [--to time] [--window duration] [--by label] [--table] [--svg file] | --host-list | --dump | --load | --drain hosts [--from time] [--force] | --remove hosts [--from time] [--force] | --undrain hosts | --add-hosts file]' ;;
	ar-map) tail='[--first-fit] [-p | --slurm [--apply | --diff] [--lead duration] [--prefix name] [--scontrol program] | --svg file] [--from time] [--to time] [key=value ...]' ;;
	ar-price) tail='[--show | --set | --update | --capacity n] [--method m] [--history duration] [--retention duration] [--reclaim duration | no | store] [--partition name] [key=value ...]' ;;
	*) tail='[key=value ...]' ;;
	esac
	printf '%s\n' "usage: $1 [-jV] [-s store] [--now time] [--wait duration] [--upgrade]" \
	    "       $pad [--create [--nodes n | --hosts list | --hosts-from file]" \
	    "       $pad   [--slot duration] [--horizon duration] [--max-size mib]" \
	    "       $pad   [--group group] [--owners uid | role]] [--simulated]" \
	    "       $pad $tail"
}

# fill_requests: 20000 requests, each with a label of 100 bytes: far
# more than a store of 1 MiB holds.
fill_requests() {
	awk 'BEGIN { for (i = 1; i <= 20000; i++)
		printf "start=+%dm duration=5m user=%0100d job=j%d\n",
		    (i % 8000) * 5 + 5, i, i }'
}

end_case() {
	[ -n "$NAME" ] || return 0
	if [ -n "$skipping" ]; then
		skipped=$((skipped + 1))
		echo "skip $n - $NAME (LMDB's files)"
	elif [ "$bad" = 0 ]; then
		passed=$((passed + 1))
		echo "ok $n - $NAME"
	else
		failed=$((failed + 1))
		echo "FAIL $n - $NAME"
		cat "$D/.log"
	fi
	NAME=
}

begin() {
	end_case
	n=$((n + 1))
	NAME=$1 bad=0 RC= LAST= skipping=
	D=$TOP/$n
	mkdir "$D" || exit 2
	: >"$D/.log"
	[ -z "${AR_E2E_TRANSCRIPT:-}" ] || printf '## %s\n' "$NAME" >>"$AR_E2E_TRANSCRIPT"
	AR_STORE=$D/store
	unset AR_SCONTROL       # a case's own Slurm ends with it
	# A case skipped on PostgreSQL runs on LMDB, unheeded.
	if [ -n "$AR_E2E_PG" ] && ! grep -Fqx -- "$1" "$TESTS/e2e/lmdb-only"
	then
		AR_STORE=$(pg_store "e2e_${RUN}_$n")
	elif [ -n "$AR_E2E_PG" ]; then
		skipping=1
	fi
	export AR_STORE
}

# empty_slurm: $D/scontrol, a Slurm that holds no reservations and takes
# every change, for a case that runs the export without a controller
# (88-slurm.sh has the real one).
empty_slurm() {
	printf '%s\n' '#!/bin/sh' 'case "$*" in "show reservation"*)' \
	    '	echo "No reservations in the system" ;; esac' >"$D/scontrol"
	chmod +x "$D/scontrol"
}

# copy_store FROM: make $AR_STORE a copy of the store FROM (a directory):
# on PostgreSQL, a load of its dump.
copy_store() {
	if [ -n "$AR_E2E_PG" ]; then
		ar-report --store "$1" --dump | ar-report --load ||
		    fail "copying $1 failed"
	else
		cp -R "$1" "$AR_STORE"
	fi
}

# store_sum: a checksum of the store that any write changes: on LMDB
# of data.mdb (a commit writes a new transaction id even when nothing
# else changes), on PostgreSQL of its dump.
store_sum() {
	if [ -n "$AR_E2E_PG" ]; then
		ar-report --dump | cksum
	else
		cksum <"$AR_STORE/data.mdb"
	fi
}

# pg_store NAME: the URI of store NAME in the AR_E2E_PG database.
pg_store() {
	case $AR_E2E_PG in
	*\?*) echo "$AR_E2E_PG&store=$1" ;;
	*) echo "$AR_E2E_PG?store=$1" ;;
	esac
}

skip() {
	end_case
	skipped=$((skipped + 1))
	echo "skip - $1 ($2)"
}

run() {
	LAST=$*
	"$@" >"$D/.out" 2>"$D/.err"
	RC=$?
	[ -z "${AR_E2E_TRANSCRIPT:-}" ] || transcribe
}

transcribe() {
	{
		printf '$ %s\n' "$LAST"
		cat "$D/.out"
		printf '%s\n' '- stderr'
		cat "$D/.err"
		printf -- '- exit %s\n' "$RC"
	} | sed "s|$TOP|\$TOP|g" >>"$AR_E2E_TRANSCRIPT"
}

mkstore() {
	if ! ar-report --create --simulated "$@" >"$D/.mk" 2>&1; then
		fail "ar-report --create --simulated $*: failed:"
		sed 's/^/    /' "$D/.mk" >>"$D/.log"
	fi
}

live() {
	env -u AR_NOW "$@"
}

mklive() {
	if ! live ar-report --create "$@" >"$D/.mk" 2>&1; then
		fail "ar-report --create $*: failed:"
		sed 's/^/    /' "$D/.mk" >>"$D/.log"
	fi
}

expect_exit() {
	[ "$RC" = "$1" ] && return 0
	fail "$LAST: exit status $RC, expected $1; stderr:"
	sed 's/^/    | /' "$D/.err" >>"$D/.log"
}

# compare WHICH FILE [LINE ...]: the last run's FILE against the lines
# given, or against stdin.
compare() {
	what=$1 f=$2
	shift 2
	if [ $# -gt 0 ]; then
		printf '%s\n' "$@" >"$D/.exp"
	else
		cat >"$D/.exp"
	fi
	if ! diff -u "$D/.exp" "$f" >"$D/.diff"; then
		fail "$LAST: $what differs from the expected (-) text:"
		sed '1,2d; s/^/    /' "$D/.diff" >>"$D/.log"
	fi
}

expect_out() {
	compare stdout "$D/.out" "$@"
}

expect_err() {
	compare stderr "$D/.err" "$@"
}

expect_check() {
	ar-report --check >"$D/.chk" 2>&1
	rc=$?
	if [ "$rc" != 0 ] || [ -s "$D/.chk" ]; then
		fail "ar-report --check: exit status $rc:"
		sed 's/^/    | /' "$D/.chk" >>"$D/.log"
	fi
}

keep() {
	cp "$D/.out" "$D/$1"
}

filter() {
	sed "$1" "$D/.out" >"$D/.sed" && mv "$D/.sed" "$D/.out"
}

# SCHEMA.md: the meta value begins with the magic 0x61725354 and the
# format (u32, little-endian here).  Every copy of those 8 bytes in
# data.mdb is patched, older pages included.
set_format() {
	od -An -v -tx1 "$AR_STORE/data.mdb" |
	    awk '{ for (i = 1; i <= NF; i++) b[n++] = $i }
	    END { for (i = 0; i + 7 < n; i++)
		if (b[i] == "54" && b[i+1] == "53" && b[i+2] == "72" &&
		    b[i+3] == "61" && b[i+4] ~ /^0[1-9a-f]$/ &&
		    b[i+5] == "00" && b[i+6] == "00" && b[i+7] == "00")
			print i + 4 }' >"$D/.meta"
	[ -s "$D/.meta" ] || fail 'the meta record (magic TSra) is not in data.mdb'
	for off in $(cat "$D/.meta"); do
		printf "\\$(printf %03o "$1")" |
		    dd of="$AR_STORE/data.mdb" bs=1 seek="$off" conv=notrunc 2>/dev/null
	done
}

# Running as another user: root can drop to nobody with setpriv(1).
as_nobody() {
	setpriv --reuid=65534 --regid=65534 --clear-groups -- "$@"
}

can_be_nobody() {
	[ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1 &&
	    as_nobody ar-report --version >/dev/null 2>&1
}

# run_file K FILE: FILE's cases in a shell of their own, begun from this
# one's helpers alone (so a file never leans on another's), its lines in
# $TOP/K.out and its counts in $TOP/K.counts, which a file that stopped
# before its end (exit 2) does not write.  Its cases are numbered from
# K * 1000: their directories and PostgreSQL stores are no other file's.
run_file() {
	(
	n=$(($1 * 1000)) passed=0 failed=0 skipped=0 SLURM_DIR=
	E2E_COUNTS=$TOP/$1.counts       # a file may set -- or use k
	trap '[ -z "$SLURM_DIR" ] || sh "$TESTS/slurm.sh" stop "$SLURM_DIR"' EXIT
	. "$2"
	end_case
	echo "$passed $failed $skipped" >"$E2E_COUNTS"
	) >"$TOP/$1.out" 2>&1
}

# worker FILE ...: run each file no other worker has taken (mkdir is
# the claim: it succeeds for one of them alone), in their order.
worker() {
	k=0
	for f in "$@"; do
		k=$((k + 1))
		! mkdir "$TOP/$k.claim" 2>/dev/null || run_file "$k" "$f"
	done
}

if [ $# -eq 0 ]; then
	set -- "$TESTS"/e2e/*.sh
fi
# AR_E2E_JOBS workers, each taking the next file no other has taken.
jobs=${AR_E2E_JOBS:-1}
[ -z "${AR_E2E_TRANSCRIPT:-}" ] || jobs=1
if [ "$jobs" -gt 1 ] && [ $# -gt 1 ]; then
	i=0
	while [ "$i" -lt "$jobs" ]; do
		worker "$@" &
		i=$((i + 1))
	done
	wait
	k=0 stopped=
	for f in "$@"; do
		k=$((k + 1))
		cat "$TOP/$k.out"
		if read -r p fl s 2>/dev/null <"$TOP/$k.counts"; then
			passed=$((passed + p)) failed=$((failed + fl))
			skipped=$((skipped + s))
		else
			echo "e2e: $f stopped before its end"
			stopped=1
		fi
	done >"$TOP/all.out"
	awk '/^(ok|FAIL|skip) [0-9]+ - / { sub(/ [0-9]+ - /, " " ++n " - ") }
	    { print }' "$TOP/all.out"
	[ -z "$stopped" ] || exit 2
else
	for f in "$@"; do
		. "$f"
	done
	end_case
fi

[ "$skipped" = 0 ] || echo "($skipped skipped)"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
