# bench-quick.sh - every benchmark program builds and runs, each in a
# quick mode, and says what it should: so that a target README names
# cannot rot unseen.  No timing is checked, only that each run ends well
# and its output is whole.  Cases for tests/e2e.sh, not in tests/e2e/
# since they need the bench programs: make bench-quick runs them, as
#
#   AR_BIN=$PWD/.build/bin AR_BENCH=$PWD/.build/bench \
#       sh tests/e2e.sh tests/bench-quick.sh

SRC=$(dirname "$TESTS")
: "${AR_BENCH:?set AR_BENCH to the directory holding the bench programs}"

# The replays commit once a slot, and fsyncs on a disk other jobs share
# took flexbench from 12 s to over a minute: their stores go to a file
# system in memory where there is one, as timings are not checked.
MEMDIR=${TMPDIR:-/tmp}
[ -d /dev/shm ] && [ -w /dev/shm ] && MEMDIR=/dev/shm

# lines_like ERE: how many lines of the last stdout match ERE.
lines_like() {
	grep -Ec -- "$1" "$D/.out"
}

# expect_lines N ERE: the last stdout has exactly N lines matching ERE.
expect_lines() {
	got=$(lines_like "$2")
	[ "$got" = "$1" ] || fail "$LAST: $got lines like '$2', expected $1"
}

begin 'bench: every program under tests/bench is built'
for f in "$SRC"/tests/bench/*.c; do
	grep -q '^main[^[:alnum:]_]' "$f" || continue
	p=${f##*/}
	p=${p%.c}
	[ -x "$AR_BENCH/$p" ] || fail "tests/bench/$p.c has a main, but" \
	    "$AR_BENCH/$p was not built"
done

# A target is named in backquotes, `make bench`, or at the start of a
# line of code, as in "    make demo" or "    $ make install".
begin 'bench: every make target README names is one the Makefile has'
{
	grep -o '`make [a-z][a-z-]*' "$SRC/README"
	grep -E '^ +(\$ )?make [a-z]' "$SRC/README" | sed 's/^ *\$* *//' |
	    grep -o '^make [a-z][a-z-]*'
} | sed 's/^`*make //' | sort -u >"$D/named"
[ -s "$D/named" ] || fail 'README names no make target'
for t in $(cat "$D/named"); do
	grep -q "^$t:" "$SRC/Makefile" ||
	    fail "README names 'make $t'; the Makefile has no such target"
done

# argen's generator is what flexbench and rmbench replay in-process.
begin 'bench: argen prints records ar-add takes, parametric and MPI'
mkstore --nodes 30
for shape in --parametric --mpi; do
	run sh -c '"$1" "$2" --slots 24 --rate 2 | ar-add' sh \
	    "$AR_BENCH/argen" "$shape"
	[ "$RC" = 0 ] || [ "$RC" = 1 ] || fail "argen $shape | ar-add:" \
	    "exit status $RC"
	expect_err
	[ "$(lines_like ' id=')" -gt 0 ] ||
	    fail "argen $shape | ar-add: nothing granted"
done
expect_check

# The shortest run each table allows (its warm-up and one window).
begin 'bench: flexbench prints Tables 6.1 and 6.2, every row whole'
run env TMPDIR="$MEMDIR" "$AR_BENCH/flexbench" --slots 132
expect_exit 0
expect_err
expect_lines 2 '^Table 6\.[12]: '
# rate, share, requests, then four numbers for each of five methods.
expect_lines 16 '^ +[0-9]+ +[0-9]+% +[0-9]+( \|( +[0-9.]+){4}){5} (fixed|ff|EDS|LRH)$'
expect_lines 2 '^FCFS-EDS vs first fit: '
expect_lines 2 '^FCFS-LRH vs FCFS-EDS: '
expect_lines 2 '^node-slots per granted request: '

begin 'bench: flexbench refuses fewer slots than a table needs, before any'
run "$AR_BENCH/flexbench" --slots 131
expect_exit 2
expect_out
expect_err "flexbench: bad value '131' (--slots: 132-1000000)"

begin 'bench: rmbench runs every experiment of its three studies'
run env TMPDIR="$MEMDIR" "$AR_BENCH/rmbench" --slots 228
expect_exit 0
expect_err
expect_lines 3 '^Section 6\.[67][^:]*(\)|request)$'
expect_lines 3 '^[0-9]+ nodes; (parametric|MPI) requests: '
expect_lines 12 '^Experiment [1-4]: '
expect_lines 12 '^  ar: +[a-z]+ [<=] [a-z]+ [<=] [a-z]+ '
expect_lines 3 ': what holds$'
expect_lines 1 '^In short '

# The excerpt of SDSC Blue Horizon's log make demo replays, under the
# name of the whole log, which is the file bench (and compare) looks for.
begin 'bench: compare runs every scheme, each through ar_add as in memory'
mkdir "$D/traces"
gzip -c "$DATA/sdsc-blue-excerpt.swf" \
    >"$D/traces/SDSC-BLUE-2000-4.2-cln.swf.gz"
run "$AR_BENCH/schemes" --slots 300 --days 2 "$D/traces"
expect_exit 0
expect_err
expect_lines 1 '^KTH-SP2-1996: .* missing: skipped$'
expect_lines 5 '^== (parametric|MPI) [23]/slot (50|100)% flexible: |^== SDSC-BLUE-2000: '
# acc% util% busy% AWT late RIT RIT/copy pieces lowered reclaimed
expect_lines 30 '^  (FCFS rigid|FCFS-EDS|RSPB|ORR|TARR|DRR) +( +[0-9.]+){8} +[0-9.]+% +[0-9.]+$'
expect_lines 10 '^  check: FCFS(-EDS| rigid) +through ar_add: [0-9]+ reservations, hash [0-9a-f]{16} = the memory.s$'
expect_lines 20 '^  check: (RSPB|ORR|TARR|DRR) +through ar_add: [0-9]+ reservations, hash [0-9a-f]{16} = the memory.s$'
expect_lines 0 'in memory only'
expect_lines 0 'MISMATCH'
expect_lines 5 '^    \(DRR.s replay: [0-9]+ write transactions of a cron job'
expect_lines 15 '^  (AWT|RIT|RIT per copy) \((min|node-h|node-min)\): DRR .* RSPB [0-9.]+: (holds|does not hold)$'
expect_lines 1 '^== Where the seed.s direction holds '
expect_lines 1 '^The seed.s conclusion, DRR the best of the four: lowest '

begin 'bench: compare refuses too few slots, and wants a share without traces'
run "$AR_BENCH/schemes" --slots 100 "$D"
expect_exit 2
expect_out
expect_err "schemes: bad value '100' (--slots: 288-1000000)"
run "$AR_BENCH/schemes" --slots 300 "$D"
expect_exit 2
expect_err "schemes: no trace in $D to take the share of unused reservations from: give --unused"


begin 'bench: bench on a trace excerpt: every backend grants as the floor'
mkdir "$D/traces"
gzip -c "$DATA/sdsc-blue-excerpt.swf" \
    >"$D/traces/SDSC-BLUE-2000-4.2-cln.swf.gz"
run env BENCH_QUICK=1 AR_BENCH_PG= "$AR_BENCH/bench" "$AR_BIN" \
    "$AR_BENCH/true" "$D/traces"
expect_exit 0
expect_err
expect_lines 1 '^== SDSC-BLUE-2000, shuffled order: '
expect_lines 5 "^  check: .* = the floor's$"
expect_lines 0 'MISMATCH'
expect_lines 1 '^  ar on 4 partitions with borrowing \([0-9]+ granted'
# The pins row's refusals and the sweep's, over the eight orders.
expect_lines 1 '^  ([0-9]+/[0-9]+, ){7}[0-9]+/[0-9]+; in all [0-9]+ and [0-9]+ \([-+][0-9.]+ % of [0-9]+\)$'
for part in 'Cost curve' 'Horizon' 'ar-report --usage' \
    'ar_modify against' 'holds' 'One invocation'; do
	expect_lines 1 "^== $part"
done
expect_lines 1 '^bench: done in [0-9]+ s$'

begin 'bench: garq on a trace excerpt: every structure grants as the floor'
mkdir "$D/traces"
gzip -c "$DATA/sdsc-blue-excerpt.swf" \
    >"$D/traces/SDSC-BLUE-2000-4.2-cln.swf.gz"
run env BENCH_QUICK=1 "$AR_BENCH/garq" "$D/traces"
expect_exit 0
expect_err
expect_lines 2 '^== SDSC-BLUE-2000, (original|shuffled) order: '
expect_lines 8 "^  check: .* = the floor's$"
expect_lines 0 'MISMATCH'
for part in 'Growth' 'The price of slots'; do
	expect_lines 1 "^== $part"
done
expect_lines 1 '^garq: done in [0-9]+ s$'

# The host study's prototypes (issue 23) on the excerpt: every plan they
# hold checked exact at every period's end, today's sweep in memory
# granting as the library, the pools and bitmaps as the floor where
# nothing is named, and the brute force run.
begin 'bench: hostbench on a trace excerpt: every plan exact, the library refusing no more than the sweep'
mkdir "$D/traces"
gzip -c "$DATA/sdsc-blue-excerpt.swf" \
    >"$D/traces/SDSC-BLUE-2000-4.2-cln.swf.gz"
run env BENCH_QUICK=1 "$AR_BENCH/hostbench" "$D/traces"
expect_exit 0
expect_err
expect_lines 1 '^== SDSC-BLUE-2000, shuffled order: '
expect_lines 0 'MISMATCH|NOT EXACT'
expect_lines 11 "^  check: "
expect_lines 1 '^  check: ar \(library\), pins refuses [0-9]+ of [0-9]+ requests, sweep \(today\) [0-9]+$'
for part in '\(1\) plain' '\(2\) pins' '\(3\) partitions' '\(4\) the same' \
    '\(5\) maintenance that wins'; do
	expect_lines 1 "^  $part"
done
expect_lines 1 '^== The brute force: '
expect_lines 1 '^hostbench: done in [0-9]+ s$'
