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
#   AR_BIN=/abs/path/.build/bin [DEMO_SVG=chart.svg] sh tests/demo.sh

: "${AR_BIN:?set AR_BIN to the directory holding the ar binaries}"
TESTS=$(cd "$(dirname "$0")" && pwd) || exit 1
PATH=$AR_BIN:$PATH
LC_ALL=C
export PATH LC_ALL
unset AR_WAIT

T=$(mktemp -d "${TMPDIR:-/tmp}/ar-demo.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 130' HUP INT TERM
AR_STORE=$T/store
export AR_STORE

die() {
	echo "demo: $*" >&2
	exit 1
}

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
    --table
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
[ "$check" = 0 ]
