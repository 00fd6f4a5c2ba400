#!/bin/sh
# pg-faults.sh - the fault campaign of the PostgreSQL backend (make
# pg-faults; never part of make check).
#
#   sh tests/pg-faults.sh [clients] [server] [standby] [hosts] [lmdb]
#
# Every part runs rounds of concurrent writers: each writer is a loop of
# ar-add processes, one per chunk of one to four requests, on a store of
# its own per round, and the part's fault strikes while they run:
#
#   clients  ar-add processes SIGKILLed at random moments;
#   server   the postmaster and all its children SIGKILLed mid-load,
#            then restarted through crash recovery;
#   standby  a primary with a synchronous streaming standby, the primary
#            SIGKILLed mid-load and the standby promoted; the writers
#            name both in a multi-host URI and reconnect to whichever
#            takes writes;
#   hosts    writers in network namespaces of their own, as separate
#            hosts reaching the server over TCP through veth pairs;
#   lmdb     the clients part on an LMDB store, for comparison.
#
# After each round, on the store as it is (the new primary for standby):
# ar-report --check passes; every grant a writer printed (a whole line)
# is there, same id, job and nodes (else "lost"); no id was printed for
# two requests; the granted reservations never sum to more nodes than
# the store has at any moment (else "overbooked"); and the requests of
# the store's grants, replayed in id order (the order of their commits)
# into a new LMDB store on one host, are all granted and end in the
# same places (flexible ones are moved within their windows to make
# room for later ones): the store went through the states of one host
# taking the requests one at a time.
#
# AR_BIN (default .build/bin), PG_FAULTS_ROUNDS (rounds a part, 6),
# PG_FAULTS_WRITERS (4), PG_FAULTS_CHUNKS (chunks a writer a round, 40),
# PG_FAULTS_SEED.  Closes with "N passed, N failed", a part a test.

set -u

here=$(cd "$(dirname "$0")" && pwd)
BIN=${AR_BIN:-$here/../.build/bin}
ROUNDS=${PG_FAULTS_ROUNDS:-6}
WRITERS=${PG_FAULTS_WRITERS:-4}
CHUNKS=${PG_FAULTS_CHUNKS:-40}
SEED=${PG_FAULTS_SEED:-20261124}
RNG=$SEED
NROUND=0
NODES=64
T0=1795219200           # 2026-11-21T00:00:00Z, every command's --now
PG="sh $here/pg.sh"

D=$(mktemp -d "${TMPDIR:-/tmp}/ar-faults.XXXXXX") || exit 3
# The servers' clusters are in it, run by another user when we are root.
chmod 755 "$D"
NETNS=
cleanup() {
	for c in "$D"/pg*; do
		[ -d "$c" ] && $PG stop "$c"
	done
	for n in $NETNS; do
		ip netns del "$n" 2>/dev/null
	done
	rm -rf "$D"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

passed=0
failed=0

# rnd N: a number below N, from a seeded LCG (the requests and the
# moments of the faults; how the processes interleave is the machine's).
rnd() {
	RNG=$(((RNG * 1103515245 + 12345) % 2147483648))
	R_=$(((RNG >> 8) % $1))
}

# ms N: sleep N milliseconds.
ms() {
	sleep "$(printf '%d.%03d' $(($1 / 1000)) $(($1 % 1000)))"
}

# make_requests W: the requests of writer W in this round, in chunks of
# one to four lines, $R/wW.NNN.in: rigid and flexible requests for one
# day of a 64-node store, each with a job name of its own; the same for
# a seed, a round and a writer, whatever the faults drew before.
make_requests() {
	keep=$RNG
	RNG=$((SEED + 1000 * NROUND + $1))
	k=0
	for c in $(seq -w 1 "$CHUNKS"); do
		rnd 4
		n=$((R_ + 1))
		: >"$R/w$1.$c.in"
		while [ "$n" -gt 0 ]; do
			k=$((k + 1))
			rnd 288
			start=$((T0 + 300 * (R_ + 1)))
			rnd 48
			dur=$((5 * (R_ + 1)))
			rnd 16
			nodes=$((R_ + 1))
			rnd 3
			if [ "$R_" = 0 ]; then
				rnd 24
				when="earliest=@$start latest=@$((start + 300 * R_))"
			else
				when="start=@$start"
			fi
			echo "$when duration=${dur}m nodes=$nodes user=w$1 job=w$1r$k" \
			    >>"$R/w$1.$c.in"
			n=$((n - 1))
		done
	done
	RNG=$keep
}

# writer W STORE [NETNS]: W's chunks, one ar-add each, in turn; the pid
# of the one running is in $R/wW.pid for the killer, its exit status
# goes to the chunk's .rc.
writer() {
	for f in "$R/w$1".*.in; do
		c=${f%.in}
		if [ -n "${3:-}" ]; then
			ip netns exec "$3" "$BIN/ar-add" --store "$2" \
			    --now "@$T0" --wait 30s <"$f" >"$c.out" 2>"$c.err" &
		else
			"$BIN/ar-add" --store "$2" --now "@$T0" --wait 30s \
			    <"$f" >"$c.out" 2>"$c.err" &
		fi
		echo $! >"$R/w$1.pid"
		wait $!
		echo $? >"$c.rc"
	done
	rm -f "$R/w$1.pid"
}

# writing: is a writer still at it?
writing() {
	for p in "$R"/w*.pid; do
		[ -e "$p" ] && return 0
	done
	return 1
}

# done_by N: wait until the writers have run N ar-add between them (or
# have all ended), so that a fault strikes at the same point of the
# load however fast the machine.
done_by() {
	while writing; do
		set -- "$1" "$R"/w*.rc
		[ $# -gt "$1" ] && return
		ms 5
	done
}

# kill_clients: while writers run, SIGKILL one of their ar-add at a
# random moment, 0-60 ms apart; the kills are counted in $R/kills.
kill_clients() {
	while writing; do
		rnd 60
		ms "$R_"
		rnd "$WRITERS"
		pid=$(cat "$R/w$R_.pid" 2>/dev/null) || continue
		[ "$(cat "/proc/$pid/comm" 2>/dev/null)" = ar-add ] || continue
		kill -KILL "$pid" 2>/dev/null && echo "$pid" >>"$R/kills"
	done
}

# create STORE: a new store of NODES nodes, at T0.
create() {
	"$BIN/ar-report" --store "$1" --create --simulated --nodes "$NODES" \
	    --now "@$T0" --info >/dev/null 2>"$R/create.err" || {
		echo "cannot create $1: $(cat "$R/create.err")"
		return 1
	}
}

# start_writers STORE [NETNS...]: one writer a namespace when given.
start_writers() {
	store=$1
	shift
	wpids=
	w=0
	while [ "$w" -lt "$WRITERS" ]; do
		make_requests "$w"
		ns=
		if [ $# -gt 0 ]; then
			eval "ns=\${$((w % $# + 1))}"
		fi
		: >"$R/w$w.pid"
		# The shell's own "Killed" about an ar-add is no news.
		writer "$w" "$store" "$ns" 2>/dev/null &
		wpids="$wpids $!"
		w=$((w + 1))
	done
}

# Totals of a part, over its rounds.
reset_totals() {
	t_rounds=0 t_req=0 t_runs=0 t_kills=0 t_acked=0 t_refused=0
	t_stored=0 t_lost=0 t_dup=0 t_over=0 t_replay=0 t_check=0 t_bad=0
	t_down=0
	t_start=$(date +%s)
}

# f(name): the value of the field name= of a record, for awk.
FIELD='
function f(name,   i) {
	for (i = 1; i <= NF; i++)
		if (index($i, name "=") == 1)
			return substr($i, length(name) + 2)
	return ""
}'

# verify STORE: the checks of a round on STORE, added to the totals.
verify() {
	t_rounds=$((t_rounds + 1))
	cat "$R"/w*.in >"$R/requests"
	t_req=$((t_req + $(wc -l <"$R/requests")))
	runs=0 bad=0 down=0
	for f in "$R"/w*.rc; do
		runs=$((runs + 1))
		case $(cat "$f") in
		0 | 1) ;;
		137) ;;
		3) down=$((down + 1)) ;;
		*) bad=$((bad + 1))
		   echo "  ${f%.rc}: exit $(cat "$f"): $(head -n 1 "${f%.rc}.err")" ;;
		esac
	done
	t_runs=$((t_runs + runs))
	t_bad=$((t_bad + bad))
	t_down=$((t_down + down))
	[ -e "$R/kills" ] && t_kills=$((t_kills + $(wc -l <"$R/kills")))

	if ! "$BIN/ar-report" --store "$1" --now "@$T0" --check \
	    >"$R/check.out" 2>&1 || [ -s "$R/check.out" ]; then
		echo "  ar-report --check: $(head -n 3 "$R/check.out")"
		t_check=$((t_check + 1))
	fi
	if ! "$BIN/ar-report" --store "$1" --now "@$T0" --all \
	    >"$R/all" 2>"$R/all.err"; then
		echo "  ar-report --all: $(cat "$R/all.err")"
		t_check=$((t_check + 1))
		return
	fi

	# What the writers printed, whole lines only: a line cut short by
	# a kill has no newline, and the marker joins it.
	for f in "$R"/w*.out; do
		cat "$f"
		echo '#end'
	done >"$R/printed"
	awk "$FIELD"'
	/#end/ { next }
	/ status=granted/ { print "g", f("job"), f("id"), f("nodes"); next }
	/ status=refused/ { print "r", f("job") }
	' "$R/printed" >"$R/answers"

	# Lost, duplicated, overbooked; the replay's input.
	awk -v lostf="$R/lost" -v replay="$R/replay.in" -v jobs="$R/replay.jobs" "$FIELD"'
	FILENAME ~ /requests$/ { req[f("job")] = $0; next }
	FILENAME ~ /all$/ {
		if ($0 !~ / status=granted/)
			next
		id = f("id"); sj[id] = f("job"); sn[id] = f("nodes")
		order[++n] = id
		next
	}
	$1 == "g" {
		acked++
		if (($3 in sj) == 0 || sj[$3] != $2 || sn[$3] != $4) {
			lost++
			print "lost: id=" $3 " job=" $2 >lostf
		}
		if (($3 in seen) && seen[$3] != $2) {
			dup++
			print "id=" $3 " printed for " seen[$3] " and " $2 >lostf
		}
		seen[$3] = $2
		next
	}
	$1 == "r" { nr++ }
	END {
		# Ids are given in the order of the commits.
		for (i = 1; i <= n; i++)
			for (j = i; j > 1 && order[j - 1] + 0 > order[j] + 0; j--) {
				t = order[j]; order[j] = order[j - 1]; order[j - 1] = t
			}
		for (i = 1; i <= n; i++) {
			id = order[i]
			print req[sj[id]] >replay
			print "g", sj[id] >jobs
		}
		print acked + 0, nr + 0, n + 0, lost + 0, dup + 0
	}
	' "$R/requests" "$R/all" "$R/answers" >"$R/counts"
	read -r acked refused stored lost dup <"$R/counts"
	[ -s "$R/lost" ] && head -n 5 "$R/lost" | sed 's/^/  /'
	t_acked=$((t_acked + acked))
	t_refused=$((t_refused + refused))
	t_stored=$((t_stored + stored))
	t_lost=$((t_lost + lost))
	t_dup=$((t_dup + dup))

	# The most nodes granted at any moment: ends before starts.
	over=$(awk "$FIELD"'
	/ status=granted/ {
		print f("start"), 1, f("nodes")
		print f("end"), 0, -f("nodes")
	}' "$R/all" | sort -k1,1 -k2,2n | awk -v cap="$NODES" '
	{ sum += $3; if (sum > cap) over++ }
	END { print over + 0 }')
	t_over=$((t_over + over))

	# The same requests on one host, one at a time.
	"$BIN/ar-report" --store "$R/replay" --create --simulated \
	    --nodes "$NODES" --now "@$T0" --info >/dev/null &&
	    "$BIN/ar-add" --store "$R/replay" --now "@$T0" \
	    <"$R/replay.in" >"$R/replay.out" 2>&1
	mism=$(awk '
	FILENAME ~ /jobs$/ { n++; next }
	/ status=moved/ { next }
	{
		m++
		if ($0 !~ / status=granted/) {
			bad++
			if (bad <= 3)
				print "replay: " $0 >"/dev/stderr"
		}
	}
	END { if (m != n) bad++; print bad + 0 }' \
	    "$R/replay.jobs" "$R/replay.out" 2>"$R/replay.bad")
	# Flexible reservations are moved within their windows to make
	# room for later ones: the places are compared at the end.
	"$BIN/ar-report" --store "$R/replay" --now "@$T0" --all >"$R/replay.all"
	for f in all replay.all; do
		awk '/ status=granted/ { print $3, $4, $5, $6 }' "$R/$f" |
		    sort >"$R/$f.places"
	done
	moved=$(diff "$R/all.places" "$R/replay.all.places" | grep -c '^[<>]')
	if [ "$moved" != 0 ]; then
		diff "$R/all.places" "$R/replay.all.places" | grep '^[<>]' |
		    head -n 4 | sed 's/^/  replay: /'
	fi
	[ -s "$R/replay.bad" ] && sed 's/^/  /' "$R/replay.bad"
	mism=$((mism + moved))
	t_replay=$((t_replay + mism))
	rm -rf "$R/replay"
}

# report NAME: the figures of a part, and whether it passed.
report() {
	echo "$1: $t_rounds rounds, $t_req requests, $t_runs ar-add runs," \
	    "$t_kills killed, $t_down met no server; $t_acked grants and" \
	    "$t_refused refusals printed, $t_stored reservations stored;" \
	    "$t_lost lost, $t_dup ids twice, $t_over moments overbooked," \
	    "$t_replay answers unlike one host's, $t_check failed checks," \
	    "$t_bad bad exits; $(($(date +%s) - t_start)) s"
	if [ $((t_lost + t_dup + t_over + t_replay + t_check + t_bad)) = 0 ] &&
	    [ "$t_acked" -gt 0 ]; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
	fi
}

# new_round NAME: a fresh round directory $R.
new_round() {
	NROUND=$((NROUND + 1))
	R=$D/$1
	rm -rf "$R"
	mkdir -p "$R"
}

# Clients killed at random under concurrent writers, on STORE_BASE
# with a store name a round appended by store_of.
part_clients() {
	reset_totals
	for r in $(seq "$ROUNDS"); do
		new_round "clients$r"
		s=$(store_of "$1" "c$r")
		create "$s" || { t_check=$((t_check + 1)); continue; }
		start_writers "$s"
		kill_clients
		wait $wpids
		verify "$s"
	done
	report "$2"
}

# The store named NAME at BASE: a URI gets store=NAME, a path a folder.
store_of() {
	case $1 in
	postgresql:*\?* | postgres:*\?*) echo "$1&store=$2" ;;
	postgresql:* | postgres:*) echo "$1?store=$2" ;;
	*) echo "$1/$2" ;;
	esac
}

part_server() {
	reset_totals
	for r in $(seq "$ROUNDS"); do
		new_round "server$r"
		s=$(store_of "$1" "s$r")
		create "$s" || { t_check=$((t_check + 1)); continue; }
		start_writers "$s"
		# Twice a round, once 10-40 % of the way and once 50-80 %:
		# down for 0-300 ms, then up again.
		for k in 10 50; do
			rnd 30
			done_by $(((k + R_) * WRITERS * CHUNKS / 100))
			$PG kill "$2"
			echo server >>"$R/kills"
			rnd 300
			ms "$R_"
			$PG restart "$2" >/dev/null || t_check=$((t_check + 1))
		done
		wait $wpids
		verify "$s"
	done
	report server
}

part_standby() {
	reset_totals
	for r in $(seq "$ROUNDS"); do
		new_round "standby$r"
		$PG start "$D/pga" '' 5432 >/dev/null &&
		    $PG standby "$D/pga" "$D/pgb" 5433 >/dev/null || {
			t_check=$((t_check + 1))
			continue
		}
		s="postgresql://ar@/postgres?host=$D/pga,$D/pgb&port=5432,5433&target_session_attrs=read-write&store=x"
		create "$s" || { t_check=$((t_check + 1)); continue; }
		start_writers "$s"
		rnd 50
		done_by $(((20 + R_) * WRITERS * CHUNKS / 100))
		$PG kill "$D/pga"
		echo primary >>"$R/kills"
		$PG promote "$D/pgb" || t_check=$((t_check + 1))
		wait $wpids
		verify "$($PG uri "$D/pgb")&store=x"
		$PG stop "$D/pga"
		$PG stop "$D/pgb"
	done
	report standby
}

# Writers in network namespaces of their own, each joined to the
# server's namespace by a veth pair: a host of its own as far as the
# network goes.  The addresses exist only inside these namespaces.
part_hosts() {
	reset_totals
	srv=arf$$s
	if ! ip netns add "$srv" 2>"$D/netns.err"; then
		echo "hosts: no network namespaces here ($(cat "$D/netns.err")):" \
		    "writers on TCP over loopback instead"
		$PG start "$D/pgh" 127.0.0.1 5432 >/dev/null || {
			t_check=1
			report hosts
			return
		}
		base="postgresql://ar@127.0.0.1:5432/postgres?sslmode=disable"
		hosts=
	else
		NETNS="$srv"
		ip netns exec "$srv" ip link set lo up
		hosts=
		w=0
		while [ "$w" -lt "$WRITERS" ]; do
			c=arf$$c$w
			ip netns add "$c" && NETNS="$NETNS $c"
			ip link add "arf$$a$w" netns "$srv" type veth \
			    peer name "arf$$b$w" netns "$c"
			ip -n "$srv" addr add "10.231.$w.1/30" dev "arf$$a$w"
			ip -n "$c" addr add "10.231.$w.2/30" dev "arf$$b$w"
			ip -n "$srv" link set "arf$$a$w" up
			ip -n "$c" link set "arf$$b$w" up
			ip -n "$c" link set lo up
			hosts="$hosts $c"
			w=$((w + 1))
		done
		ip netns exec "$srv" $PG start "$D/pgh" '*' 5432 >/dev/null || {
			t_check=1
			report hosts
			return
		}
	fi
	for r in $(seq "$ROUNDS"); do
		new_round "hosts$r"
		create "$($PG uri "$D/pgh")&store=h$r" || {
			t_check=$((t_check + 1))
			continue
		}
		if [ -n "$hosts" ]; then
			# Each writer reaches the server at its own link's
			# address: the store name is the same.
			start_hosts "h$r" $hosts
		else
			start_writers "$base&store=h$r"
		fi
		wait $wpids
		verify "$($PG uri "$D/pgh")&store=h$r"
	done
	$PG stop "$D/pgh"
	report hosts
}

# start_hosts STORE_NAME NETNS...: writer W in the W-th namespace, at
# 10.231.W.1.
start_hosts() {
	name=$1
	shift
	wpids=
	w=0
	for ns in "$@"; do
		make_requests "$w"
		: >"$R/w$w.pid"
		writer "$w" \
		    "postgresql://ar@10.231.$w.1:5432/postgres?sslmode=disable&store=$name" \
		    "$ns" 2>/dev/null &
		wpids="$wpids $!"
		w=$((w + 1))
	done
}

[ -x "$BIN/ar-add" ] || { echo "pg-faults: no $BIN/ar-add (make all)" >&2; exit 3; }
[ $# -gt 0 ] || set -- clients server standby hosts
echo "pg-faults: $ROUNDS rounds a part, $WRITERS writers of $CHUNKS ar-add runs" \
    "a round, $NODES nodes, seed $SEED"
for part in "$@"; do
	case $part in
	lmdb)
		mkdir -p "$D/lmdb"
		part_clients "$D/lmdb" lmdb
		;;
	clients | server)
		$PG start "$D/pg" >/dev/null || exit 3
		if [ "$part" = clients ]; then
			part_clients "$($PG uri "$D/pg")" clients
		else
			part_server "$($PG uri "$D/pg")" "$D/pg"
		fi
		$PG stop "$D/pg"
		;;
	standby) part_standby ;;
	hosts) part_hosts ;;
	*)
		echo "pg-faults: unknown part '$part'" >&2
		exit 2
		;;
	esac
done
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
