#!/bin/sh
# demo.sh - replay a real trace excerpt through the ar commands (make demo).
#
# The excerpt, tests/data/sdsc-blue-excerpt.swf, is the header and 1500
# consecutive jobs (68986..70485, submitted 26-30 March 2001) of the SDSC
# Blue Horizon log SDSC-BLUE-2000-4.2-cln from the Parallel Workloads
# Archive (https://www.cs.huji.ac.il/labs/parallel/workload/); the log's
# acknowledgement, as in its header: Travis Earheart and Nancy
# Wilkins-Diehr (SDSC), conversion by Dror Feitelson.
#
# tests/swf2ar.awk turns each job into a rigid reservation request at the
# time it really started (GarQ section 5.1); the store is the GarQ setup,
# 64 nodes, 5-minute slots, 30 days, its clock the excerpt's first start.
#
#   AR_BIN=/abs/path/.build/bin [DEMO_DIR=dir] [DEMO_SVG=chart.svg] \
#       sh tests/demo.sh
#
# The store, and the files made on the way (the requests, ar-add's
# answers), stay in DEMO_DIR (make demo: .build/demo; else a new
# directory under TMPDIR) for the user to explore; a store an earlier
# run left there is replaced.

: "${AR_BIN:?set AR_BIN to the directory holding the ar binaries}"
TESTS=$(cd "$(dirname "$0")" && pwd) || exit 1
PATH=$AR_BIN:$PATH
LC_ALL=C
export PATH LC_ALL
unset AR_WAIT

die() {
	echo "demo: $*" >&2
	exit 1
}

if [ -n "${DEMO_DIR:-}" ]; then
	mkdir -p "$DEMO_DIR" && T=$(cd "$DEMO_DIR" && pwd) || exit 1
else
	T=$(mktemp -d "${TMPDIR:-/tmp}/ar-demo.XXXXXX") || exit 1
fi
trap 'exit 130' HUP INT TERM
# Under the current directory (make demo's), the store is named from
# there, in the messages and in the chart's title alike.
case $T in
"$PWD"/*) AR_STORE=${T#"$PWD"/}/store ;;
*) AR_STORE=$T/store ;;
esac
export AR_STORE
# Only a store's own files are removed: anything else there stays.
if [ -e "$AR_STORE" ]; then
	rm -f "$AR_STORE/data.mdb" "$AR_STORE/lock.mdb" \
	    "$AR_STORE/writer.lock"
	rmdir "$AR_STORE" 2>/dev/null ||
	    die "$AR_STORE holds more than an ar store: move it away"
fi

# count FILE WORD...: how many lines of FILE hold every WORD.
count() {
	f=$1
	shift
	awk -v w="$*" 'BEGIN { n = split(w, a, " ") }
	    { for (i = 1; i <= n; i++) if (index(" " $0 " ", " " a[i] " ") == 0) next; c++ }
	    END { print c + 0 }' "$f"
}

swf=$TESTS/data/sdsc-blue-excerpt.swf
awk -f "$TESTS/swf2ar.awk" "$swf" >"$T/requests" || die "swf2ar.awk failed"
jobs=$(grep -vc '^;' "$swf")
n=$(wc -l <"$T/requests")
first=$(sed 's/^start=@\([0-9]*\) .*/\1/' "$T/requests" | sort -n | head -n 1)
AR_NOW=@$first
export AR_NOW

echo "ar demo: SDSC Blue Horizon, March 2001 (Parallel Workloads Archive)"
echo
echo "== a store: 64 nodes, 5-minute slots, 30 days, simulated from the first start"
ar-report --create --simulated --info || die "cannot create the store"
echo
echo "== $jobs jobs -> $n requests ($((jobs - n)) never ran); the first three:"
head -n 3 "$T/requests"
echo
echo "== ar-add: every request, at the time the job really started"
ar-add <"$T/requests" >"$T/added"
echo "exit $?: $(count "$T/added" status=granted) granted," \
    "$(count "$T/added" reason=full) refused (full)," \
    "$(count "$T/added" reason=horizon) refused (beyond the horizon)"
grep -m 1 reason=full "$T/added"
echo
echo "== ar-search: room for an hour at 04:45 the next morning?"
for nodes in 1 16 64; do
	ar-search start=2001-03-27T04:45Z duration=1h nodes=$nodes
done
echo
# Each refused request may start up to 12 hours late: ar-suggest finds the
# earliest start that fits, and the window (latest) lets ar-add slide it on
# if an earlier request of the same stream took that start meanwhile.
echo "== ar-suggest | ar-add: the refused (full) ones, up to 12 hours later"
awk 'NR == FNR { if (/reason=full/ && match($0, / job=[^ ]*/))
		late[substr($0, RSTART + 1, RLENGTH - 1)] = 1
	    next }
    match($0, / job=[^ ]*/) && (substr($0, RSTART + 1, RLENGTH - 1) in late) {
	split($1, s, "@")
	printf "%s latest=@%.0f\n", $0, s[2] + 43200 }' \
    "$T/added" "$T/requests" >"$T/late"
ar-suggest --limit 12h <"$T/late" | ar-add >"$T/moved"
echo "exit $?: $(wc -l <"$T/late") asked, $(count "$T/moved" status=granted)" \
    "granted, $(count "$T/moved" status=refused) refused"
grep -m 1 status=granted "$T/moved"
echo
later=$((first + 2 * 86400))
echo "== ar-del --purge two days later (--now @$later)"
ar-del --purge --now @$later >"$T/purged"
echo "exit $?: $(wc -l <"$T/purged") reservations finished;" \
    "$(ar-report --list | wc -l) still live"
echo
echo "== ar-report --info, ar-report --check"
ar-report --info
ar-report --check
check=$?
echo "check: exit $check"
echo
# What the demo did: the four days from the first start, per 6 hours;
# DEMO_SVG=FILE also draws it (the README's chart is made so).
echo "== ar-report --usage: the four days from the first start, per 6 hours"
ar-report --usage --from @$first --to @$((first + 4 * 86400)) --window 6h \
    --table >"$T/usage"
cat "$T/usage"
if [ -n "${DEMO_SVG:-}" ]; then
	ar-report --usage --from @$first --to @$((first + 4 * 86400)) \
	    --window 6h --svg "$DEMO_SVG" && echo "chart: $DEMO_SVG"
fi
echo
granted=$(($(count "$T/added" status=granted) + $(count "$T/moved" status=granted)))
echo "summary: $n requests, $granted granted" \
    "($(count "$T/added" status=granted) as asked," \
    "$(count "$T/moved" status=granted) moved by ar-suggest)," \
    "$((n - granted)) refused; store check exit $check"
echo
# The demand of the jobs asked to start in the four days, in node-hours,
# against what 64 nodes (and Blue Horizon's 1152 processors) have then.
awk -v from="$first" -v to=$((first + 4 * 86400)) '
    { split($1, s, "@"); split($2, d, "[=s]"); split($3, k, "=")
      if (s[2] < to) { jobs++; nh += k[2] * d[2] / 3600 } }
    END { have = 64 * (to - from) / 3600; real = 1152 * (to - from) / 3600
	printf "why so many are refused: Blue Horizon had 144 nodes of 8 " \
	    "processors (1152);\nthe trace counts processors, and here, as " \
	    "in GarQ\047s experiments, each one is\na node of a 64-node " \
	    "store (a job of more than 64 asks all 64).  The %d jobs\nasked " \
	    "to start in these four days want %.0f node-hours, %.1f times " \
	    "the %.0f\nthe store has (on the real machine, %.0f%% of its " \
	    "%.0f).\n", jobs, nh, nh / have, have, 100 * nh / real, real }' \
    "$T/requests"
echo
awk -v granted="$granted" -v n="$n" '$2 == "total" {
	printf "why the table\047s acceptance, %s%%, is below the %.1f%% " \
	    "here (%d of %d): the\ntable counts every attempt the store\047s " \
	    "demand log keeps, by the start it\nasked for: a job refused " \
	    "by ar-add and granted after ar-suggest counts once\nrefused " \
	    "and once granted, one refused both times counts twice.\n",
	    $7, 100 * granted / n, granted, n }' "$T/usage"
echo
echo "the store stays in $AR_STORE (the next make demo replaces it);" \
    "to explore it from here:"
echo "    export PATH=\"$AR_BIN:\$PATH\" AR_STORE=\"$AR_STORE\" AR_NOW=@$later"
echo "    ar-report --list | head -n 5"
echo "    ar-report --usage --from @$first --to @$((first + 4 * 86400))" \
    "--window 1d --table"
[ "$check" = 0 ]
