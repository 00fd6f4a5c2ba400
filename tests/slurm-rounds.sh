#!/bin/sh
# slurm-rounds.sh ROUNDS SEED - random rounds of changes to a store in
# front of a Slurm controller, each exported by ar-map --slurm --apply
# that is SIGKILLed at a random moment in half the rounds (between its
# scontrol commands and its record), with the controller stopped before
# the first run in one round of ten; then run again.  After every round
# Slurm must hold exactly the plan: checked by --diff and, apart from
# it, by comparing scontrol's list with ar-report's: 0 lost, 0
# duplicated, 0 stale.
#
# Needs the ar commands on PATH, SLURM_CONF naming a controller that
# tests/slurm.sh started (its directory holds slurm.conf), and AR_STORE
# where no store is yet (a directory or a PostgreSQL URI).  Prints one
# line per round and the totals, then "N passed, N failed".

set -u
rounds=${1:?rounds} seed=${2:?seed}
: "${SLURM_CONF:?}" "${AR_STORE:?}"
unset AR_NOW
ctld=$(dirname "$SLURM_CONF")
tests=$(cd "$(dirname "$0")" && pwd)

# rand N: a number in [0, N) into R (not echoed: a command substitution
# would draw it in a subshell, and the sequence would never advance).
r=$seed R=0
rand() {
	r=$(( (r * 1103515245 + 12345) % 2147483648 ))
	R=$(( r / 65536 % $1 ))
}

ar-report --create --hosts 'cn[01-16]' >/dev/null || exit 3
passed=0 failed=0 kills=0 halts=0 lost=0 dup=0 stale=0 refused=0
for round in $(seq "$rounds"); do
	rand 4
	ops=$(( 3 + R ))
	for i in $(seq "$ops"); do
		ids=$(ar-report --list | sed -n 's/^id=\([0-9]*\) .*/\1/p')
		n=$(echo "$ids" | grep -c .)
		rand $(( n + 1 ))
		pick=$(echo "$ids" | sed -n "$(( R + 1 ))p")
		rand 360
		start=+$(( 10 + R ))m
		rand 150
		dur=$(( 30 + R ))m
		rand 4
		nodes=$(( 1 + R ))
		rand 7
		case $R in
		0|1) ar-add start=$start duration=$dur nodes=$nodes ;;
		2) ar-add start=$start duration=30m nodes=$nodes every=1h count=2 ;;
		3) ar-add start=$start duration=1h nodes=1 hold=$dur ;;
		4) [ -n "$pick" ] && ar-add --modify id="$pick" start=$start ;;
		5) [ -n "$pick" ] && ar-add --modify id="$pick" nodes=$nodes ;;
		6) [ -n "$pick" ] && ar-del id="$pick" ;;
		esac >/dev/null 2>&1
	done
	rand 10
	if [ "$R" = 0 ]; then
		sh "$tests/slurm.sh" halt "$ctld"
		ar-map --slurm --apply >/dev/null 2>&1
		[ $? = 3 ] || echo "round $round: ar-map without a controller did not exit 3"
		sh "$tests/slurm.sh" restart "$ctld" || exit 3
		halts=$((halts + 1))
	fi
	rand 2
	if [ "$R" = 0 ]; then
		rand 400
		ar-map --slurm --apply >/dev/null 2>&1 &
		pid=$!
		sleep "0.$(printf %03d "$R")"
		kill -KILL "$pid" 2>/dev/null && kills=$((kills + 1))
		wait "$pid" 2>/dev/null
	fi
	ar-map --slurm --apply >/dev/null 2>"$ctld/rounds.err"
	rc=$?
	[ $rc = 0 ] || refused=$((refused + 1))
	ar-map --slurm --diff >"$ctld/rounds.diff" 2>&1
	drc=$?
	# Apart from --diff: ar's plan against Slurm's list.
	ar-report --list | sed -n 's/^id=\([0-9]*\) .*/ar-\1/p' | sort >"$ctld/plan"
	scontrol show reservation --oneliner |
	    sed -n 's/^ReservationName=\(ar-[0-9]*\) .*/\1/p' | sort >"$ctld/held"
	l=$(comm -23 "$ctld/plan" "$ctld/held" | grep -c .)
	s=$(comm -13 "$ctld/plan" "$ctld/held" | sort -u | grep -c .)
	d=$(uniq -d "$ctld/held" | grep -c .)
	ar-report --check >/dev/null 2>&1
	crc=$?
	lost=$((lost + l)) stale=$((stale + s)) dup=$((dup + d))
	if [ $rc = 0 ] && [ $drc = 0 ] && [ "$l$s$d$crc" = 0000 ]; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		echo "round $round: apply $rc, diff $drc, lost $l, stale $s, duplicated $d, check $crc"
		cat "$ctld/rounds.err" "$ctld/rounds.diff"
	fi
done
echo "rounds=$rounds kills=$kills halts=$halts reservations=$(wc -l <"$ctld/plan") lost=$lost duplicated=$dup stale=$stale"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
