# 95-concurrency.sh - many processes at once on one store: writers
# serialized, readers never waiting and never seeing half a transaction,
# overlapping cron jobs, the writer lock's bounded wait, killed processes.

# conc_gen SEED N: N requests on 16 nodes over the next day, always the
# same for a seed (an LCG in awk, exact in doubles).
conc_gen() {
	awk -v seed="$1" -v n="$2" '
	function r(m) { x = (x * 69069 + 1) % 4294967296; return int(x / 65536) % m }
	BEGIN {
		x = seed
		for (i = 1; i <= n; i++)
			printf "start=+%dm duration=%dm nodes=%d user=w%d job=r%d\n",
			    r(288) * 5 + 5, (r(24) + 1) * 5, r(8) + 1, seed, i
	}'
}

# conc_feed FILE: FILE on stdout, pausing after every ten lines, so that
# a stream is read as many batches (many transactions), not one or two.
conc_feed() {
	i=0
	while IFS= read -r l; do
		printf '%s\n' "$l"
		i=$((i + 1))
		[ $((i % 10)) -ne 0 ] || sleep 0.02
	done <"$1"
}

# conc_ids FILE...: the ids of the lines printed as granted, sorted.
conc_ids() {
	sed -n 's/.* id=\([0-9]*\) .*status=granted$/\1/p' "$@" | sort -n
}

# conc_stored: the ids of every record in the store, sorted.
conc_stored() {
	ar-report --all | sed 's/^id=\([0-9]*\) .*/\1/' | sort -n
}

# conc_snap NAME / conc_same: the store holds what it held at conc_snap.
conc_snap() {
	ar-report --all >"$D/$1.all" 2>&1
	ar-report --free --to +6h >"$D/$1.free" 2>&1
}
conc_same() {
	run ar-report --all
	expect_out <"$D/before.all"
	run ar-report --free --to +6h
	expect_out <"$D/before.free"
}

# Readers, looping until $D/done exists (at least once).  Anything wrong
# is appended to $D/bad: a --check that fails or prints, a --free line
# that is not a count between 0 and the capacity, an ar-search that is
# neither available nor unavailable.
conc_checker() {
	n=0
	while :; do
		n=$((n + 1))
		ar-report --check >"$D/chk.out" 2>&1
		rc=$?
		if [ "$rc" != 0 ] || [ -s "$D/chk.out" ]; then
			echo "ar-report --check, pass $n: exit status $rc"
			cat "$D/chk.out"
		fi
		ar-report --free --to +1d >"$D/free.out" 2>&1
		rc=$?
		[ "$rc" = 0 ] || echo "ar-report --free, pass $n: exit status $rc"
		awk -v cap="$1" -v n="$n" '
		!/^start=[0-9TZ:-]+ free=[0-9]+$/ { print "ar-report --free, pass " n ": " $0; next }
		{ f = substr($2, 6) + 0; if (f < 0 || f > cap) print "ar-report --free, pass " n ": " $0 }
		END { if (NR != 288) print "ar-report --free, pass " n ": " NR " slots" }' "$D/free.out"
		[ ! -e "$D/done" ] || break
	done >>"$D/bad"
	echo "$n" >"$D/checks"
}
conc_searcher() {
	n=0
	while :; do
		n=$((n + 1))
		ar-search start=+1h duration=2h nodes=4 >"$D/search.out" 2>&1
		rc=$?
		case $rc in
		0 | 1) awk -v cap="$1" -v n="$n" '
			!/ free=[0-9]+ status=(available|unavailable reason=full)$/ ||
			    substr($0, index($0, " free=") + 6) + 0 > cap {
				print "ar-search, pass " n ": " $0 }' "$D/search.out" ;;
		*) echo "ar-search, pass $n: exit status $rc"
		   cat "$D/search.out" ;;
		esac
		[ ! -e "$D/done" ] || break
	done >>"$D/bad"
	echo "$n" >"$D/searches"
}

begin 'concurrency: 4 writers at once, readers checking all along'
mkstore --nodes 16
for w in 1 2 3 4; do
	conc_gen "$w" 300 >"$D/req$w"
done
: >"$D/bad"
conc_checker 16 &
r1=$!
conc_searcher 16 &
r2=$!
for w in 1 2 3 4; do
	conc_feed "$D/req$w" | ar-add >"$D/out$w" 2>"$D/err$w" &
	eval "p$w=\$!"
done
for w in 1 2 3 4; do
	eval "wait \$p$w"
	rc=$?
	# Some requests are refused (1); none is bad, no store error.
	case $rc in
	0 | 1) ;;
	*) fail "writer $w: exit status $rc:"
	   sed 's/^/    | /' "$D/err$w" >>"$D/.log" ;;
	esac
done
touch "$D/done"
wait "$r1" "$r2"
run cat "$D/err1" "$D/err2" "$D/err3" "$D/err4"
expect_out
run cat "$D/bad"
expect_out
# Every request was answered, granted or refused, once.
run sh -c 'cat "$@" | grep -c -e " status=granted$" -e " status=refused reason=full$"' sh \
    "$D/out1" "$D/out2" "$D/out3" "$D/out4"
expect_out 1200
expect_check
# What was printed as granted is exactly what the store holds.
conc_ids "$D/out1" "$D/out2" "$D/out3" "$D/out4" >"$D/granted"
run conc_stored
expect_out <"$D/granted"
run ar-report --info
filter 's/.* live=\([0-9]*\) .*/\1/'
expect_out "$(wc -l <"$D/granted" | tr -d ' ')"
[ "$(cat "$D/checks")" -ge 1 ] && [ "$(cat "$D/searches")" -ge 1 ] ||
    fail 'the readers did not run'

# Cron: two purges started together at a later clock.  One waits for the
# other; between them each ended reservation is purged once, and what
# they print together is exactly the history the store now holds.
begin 'concurrency: two overlapping purges purge each reservation once'
mkstore --nodes 16
conc_gen 5 300 >"$D/req"
run ar-add <"$D/req"
run ar-report --list
keep list
ended=$(awk '{ for (i = 1; i <= NF; i++)
	if ($i ~ /^end=/ && substr($i, 5) <= "2026-11-21T06:00:00Z") n++ }
	END { print n + 0 }' "$D/list")
[ "$ended" -gt 0 ] || fail 'nothing ends before 06:00: a poor test'
ar-del --purge --now 2026-11-21T06:00:00Z >"$D/p1" 2>"$D/e1" &
a=$!
ar-del --purge --now 2026-11-21T06:00:00Z >"$D/p2" 2>"$D/e2" &
b=$!
wait "$a"
ra=$?
wait "$b"
rb=$?
[ "$ra" = 0 ] && [ "$rb" = 0 ] || fail "ar-del --purge: exit status $ra and $rb"
run cat "$D/e1" "$D/e2"
expect_out
run sh -c 'cat "$1" "$2" | wc -l' sh "$D/p1" "$D/p2"
filter 's/ //g'
expect_out "$ended"
sort "$D/p1" "$D/p2" >"$D/purged"
# ar-del prints a reservation as ar-report does, without the fields
# from running= on.
run sh -c 'ar-report --all status=finished | sed "s/ running=.*//" | sort'
expect_out <"$D/purged"
run sh -c 'ar-report --all status=finished | wc -l'
filter 's/ //g'
expect_out "$ended"
expect_check

if command -v flock >/dev/null 2>&1; then

# conc_hold: hold the writer lock, an flock on the store's writer.lock, from
# the shell until conc_release.
conc_hold() {
	rm -f "$D/held" "$D/release"
	flock "$AR_STORE/writer.lock" sh -c 'touch "$1/held"
		while [ ! -e "$1/release" ]; do sleep 0.02; done' sh "$D" &
	holder=$!
	i=0
	while [ ! -e "$D/held" ] && [ "$i" -lt 500 ]; do
		sleep 0.01
		i=$((i + 1))
	done
	[ -e "$D/held" ] || fail 'flock(1) did not take the lock'
}
conc_release() {
	touch "$D/release"
	wait "$holder"
}

# conc_bg CMD...: start CMD in the background, its output kept aside;
# conc_reap: wait for it and make it the last run (RC, stdout, stderr).
conc_bg() {
	LAST=$*
	"$@" >"$D/bg.out" 2>"$D/bg.err" &
	bg=$!
}
conc_reap() {
	wait "$bg" 2>/dev/null
	RC=$?
	cp "$D/bg.out" "$D/.out"
	cp "$D/bg.err" "$D/.err"
}

begin 'concurrency: a writer that may not wait times out at once; readers go on'
mkstore --nodes 8
run ar-add start=+1h duration=1h nodes=2
conc_snap before
conc_hold
run ar-add --wait 0 start=+2h duration=1h
expect_exit 3
expect_out
expect_err "ar-add: $AR_STORE: timed out waiting for another writer"
run env AR_WAIT=1s ar-del id=1
expect_exit 3
expect_out
expect_err "ar-del: $AR_STORE: timed out waiting for another writer"
# Readers never wait for the writer lock.
run ar-search start=+1h duration=1h nodes=6
expect_exit 0
expect_out 'start=2026-11-21T01:00:00Z duration=1h nodes=6 end=2026-11-21T02:00:00Z free=6 status=available'
run ar-report --check
expect_exit 0
expect_out
conc_release
conc_same
expect_check

begin 'concurrency: a writer with --wait 5s waits for the lock, then succeeds'
mkstore --nodes 8
conc_hold
conc_bg ar-add --wait 5s start=+1h duration=1h
sleep 0.5
kill -0 "$bg" 2>/dev/null || fail 'ar-add did not wait for the lock'
[ ! -s "$D/bg.out" ] || fail 'ar-add granted while another writer held the lock'
conc_release
conc_reap
expect_exit 0
expect_out 'start=2026-11-21T01:00:00Z duration=1h id=1 end=2026-11-21T02:00:00Z free=8 status=granted'
expect_err
expect_check

begin 'concurrency: a writer killed while it waits leaves the store as it was'
mkstore --nodes 8
run ar-add start=+1h duration=1h nodes=2
conc_snap before
conc_hold
conc_bg ar-add --wait 10s start=+2h duration=1h
sleep 0.5
kill -9 "$bg"
conc_reap
expect_exit 137
expect_out
expect_err
conc_release
conc_same
expect_check
# The lock died with it: the next writer needs no wait.
run ar-add --wait 0 start=+3h duration=1h
expect_exit 0
expect_out 'start=2026-11-21T03:00:00Z duration=1h id=2 end=2026-11-21T04:00:00Z free=8 status=granted'
expect_check

else
	for what in 'a writer that may not wait times out at once' \
	    'a writer with --wait 5s waits for the lock' \
	    'a writer killed while it waits'; do
		skip "concurrency: $what" 'no flock(1) (util-linux)'
	done
fi

# DESIGN.md: any process may be killed at any moment; nothing printed as
# granted may be lost.  Kill a writer in the middle of its stream.
begin 'concurrency: a writer killed mid-stream loses nothing it printed'
mkstore --nodes 16
conc_gen 9 300 >"$D/req"
conc_feed "$D/req" | ar-add >"$D/out" 2>"$D/err" &
w=$!
sleep 0.3
kill -9 "$w" 2>/dev/null
wait "$w" 2>/dev/null
expect_check
# Only whole lines count: the last one may have been cut by the kill.
conc_ids "$D/out" >"$D/granted"
conc_stored >"$D/stored"
run comm -23 "$D/granted" "$D/stored"
expect_out
run ar-add --wait 0 start=+1h duration=5m nodes=1 user=after
expect_exit 0
expect_check
