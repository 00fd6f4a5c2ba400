#!/bin/sh
# campaign.sh BIN REPLAY SECONDS RUNS JOBS TARGET... - a fuzzing campaign
# (make fuzz): every target until RUNS executions, JOBS at a time (one
# per core), the whole campaign within SECONDS of wall time: a target
# started late gets what is left.  A TARGET written NAME:K runs as K
# processes on its corpus, together for RUNS, for a target several
# times slower per execution than the others; the processes are queued
# as the targets are, each taking a CPU as one is free.  The targets
# start in the order given: where not all can reach RUNS in SECONDS, the
# last gets what the others leave (make fuzz puts the fast ones before
# the slowest).
#
# The targets in BIN are the throughput build (make fuzz-fast: no
# sanitizer); those in REPLAY are built with ASan and UBSan.  When the
# fuzzing ends (at the latest a twentieth of SECONDS before the end, the
# time kept for this), every input of every target's corpus, all it
# found first, runs once more under REPLAY, so that what only the
# sanitizers see in an input kept is found (README, Fuzzing: what this
# split costs).  An input that fails there is named with the sanitizer's
# summary, and the replay goes on with the next.
#
# Each target fuzzes its corpus folder, fuzz/corpus/NAME, with
# fuzz/NAME.dict when there is one and the libFuzzer flags of
# fuzz/NAME.options (cmd, hostlist and model cap an input's length,
# and so the work of an execution), and leaves what it finds in fuzz/found/NAME
# as crash-* (timeout-*, leak-*, oom-*) files, which git ignores: keep a
# reproducer by moving it into the corpus under a name.  Not in the
# corpus folder, which a target's other processes read again as it
# grows: there a crash of one would stop them all.  A process that
# finds something starts again on the corpus, for the executions and
# the time left, at most ten times, so that one finding does not end a
# target's campaign.  Printed: a line per target (executions,
# executions a second in one process, coverage, findings of the fuzzing
# and of the replay; beside the rate of a target NAME:RATE of
# FUZZ_BEFORE names, what it is to RATE), then the campaign's wall time.
# Exit status 1 if a target found something.

artifacts='^(crash|timeout|leak|oom|slow-unit)-'

# One process of a target: --one NAME PART PARTS, from the queue; each
# run of it logged as NAME.PART.RUN, its exit status beside.
if [ "$1" = --one ]; then
	t=$2 corpus=fuzz/corpus/${2#fuzz_} found=fuzz/found/${2#fuzz_}
	# Part i of k: the executions from RUNS * (i - 1) / k to RUNS * i / k,
	# so that the parts add up to RUNS.
	want=$((runs * $3 / $4 - runs * ($3 - 1) / $4)) run=0
	dict= options=
	[ -f "fuzz/${t#fuzz_}.dict" ] && dict=-dict=fuzz/${t#fuzz_}.dict
	[ -f "fuzz/${t#fuzz_}.options" ] && options=$(cat "fuzz/${t#fuzz_}.options")
	mkdir -p "$found"
	while [ "$want" -gt 0 ] && [ "$run" -lt 10 ]; do
		left=$((deadline - $(date +%s)))
		[ "$left" -gt 0 ] || exit 0
		log=$logs/$t.$3.$run
		"$bin/$t" -runs="$want" -max_total_time="$left" \
			-print_final_stats=1 -close_fd_mask=3 $dict $options \
			-artifact_prefix="$found/" "$corpus" >"$log" 2>&1
		rc=$?
		echo $rc >"$log.rc"
		[ "$rc" = 0 ] && exit 0
		n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
		want=$((want - ${n:-0}))
		run=$((run + 1))
	done
	exit 0
fi

# A target's replay: --replay NAME, from the queue.  libFuzzer runs the
# files it is given one after another and stops at the first that
# fails: the input it was running is told, and the rest run again.  The
# files go BATCH at a time: a corpus grown to tens of thousands of
# inputs names more than the kernel takes as one command's arguments
# (ARG_MAX, 2 MB here: fuzz_cmd's 38,281 inputs were 2.2 MB of names,
# and the replay that was given them all ran none).
BATCH=1000
if [ "$1" = --replay ]; then
	t=$2 corpus=fuzz/corpus/${2#fuzz_} dir=fuzz/found/${2#fuzz_}
	list=$logs/$t.list log=$logs/$t.replay found=0 options=
	[ -f "fuzz/${t#fuzz_}.options" ] && options=$(cat "fuzz/${t#fuzz_}.options")
	{
		ls "$dir" 2>/dev/null | grep -E "$artifacts" | sed "s|^|$dir/|"
		ls "$corpus" | sed "s|^|$corpus/|"
	} >"$list"
	wc -l <"$list" >"$logs/$t.replayed"
	while [ -s "$list" ]; do
		# shellcheck disable=SC2046 # the names are libFuzzer's and ours
		if "$replay/$t" -close_fd_mask=3 $options \
		    $(head -n "$BATCH" "$list") >"$log" 2>&1; then
			sed "1,${BATCH}d" "$list" >"$list.rest"
			mv "$list.rest" "$list"
			continue
		fi
		found=$((found + 1))
		failed=$(sed -n 's/^Running: //p' "$log" | tail -1)
		summary=$(grep -E '^SUMMARY|^==[0-9]+==ERROR|^violation' "$log" |
			head -2 | tr '\n' ' ')
		summary=${summary:-exit status not 0}
		# Failed at exit, after its last input: a leak, of any input
		# this process ran, which LeakSanitizer tells only then; or
		# before its first, which says nothing of the inputs.  The
		# batch is told, and the replay goes on after it.
		if [ -z "$failed" ] || grep -q "^Executed $failed " "$log"; then
			echo "$t: replay: ${failed:+at exit, after $failed and}" \
				"the batch of $(head -n 1 "$list") and" \
				"$(($(head -n "$BATCH" "$list" | wc -l) - 1))" \
				"after it: $summary" >>"$logs/$t.findings"
			sed "1,${BATCH}d" "$list" >"$list.rest"
			mv "$list.rest" "$list"
			continue
		fi
		echo "$t: replay: $failed: $summary" >>"$logs/$t.findings"
		awk -v f="$failed" 'after { print } $0 == f { after = 1 }' \
			"$list" >"$list.rest"
		mv "$list.rest" "$list"
	done
	echo "$found" >"$logs/$t.replay.found"
	exit 0
fi

bin=$1 replay=$2 seconds=$3 runs=$4 jobs=$5
shift 5
logs=$(mktemp -d "${TMPDIR:-/tmp}/ar-campaign.XXXXXX") || exit 2
trap 'rm -rf "$logs"' EXIT
start=$(date +%s)
deadline=$((start + seconds - seconds / 20))
export bin replay runs deadline logs artifacts

for spec; do
	k=${spec#*:}
	[ "$k" = "$spec" ] && k=1
	i=1
	while [ "$i" -le "$k" ]; do
		echo "--one ${spec%%:*} $i $k"
		i=$((i + 1))
	done
done | xargs -P "$jobs" -L 1 sh "$0"
fuzzed=$(date +%s)

for spec; do
	echo "--replay ${spec%%:*}"
done | xargs -P "$jobs" -L 1 sh "$0"

status=0
for spec; do
	t=${spec%%:*}
	execs=0 secs=0 cov=0 found=0
	for rc in "$logs/$t".*.rc; do
		[ -f "$rc" ] || continue
		log=${rc%.rc}
		n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
		s=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log")
		# A run that found something ends without its Done line.
		r=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
		[ -z "$s" ] && [ "${r:-0}" -gt 0 ] && s=$((${n:-0} / r))
		c=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
		execs=$((execs + ${n:-0}))
		secs=$((secs + ${s:-0}))
		[ "${c:-0}" -gt "$cov" ] && cov=$c
		if [ "$(cat "$rc")" != 0 ]; then
			found=$((found + 1))
			status=1
			grep -E '^==[0-9]+==ERROR|^SUMMARY|Test unit written' \
				"$log" | head -5
		fi
	done
	rate=-
	[ "$secs" -gt 0 ] && rate=$((execs / secs))
	replayed=$(cat "$logs/$t.replayed")
	refound=$(cat "$logs/$t.replay.found")
	[ "$refound" = 0 ] || status=1
	printf '%-14s %10d executions  %6s/s  cov %5d  findings %d;' \
		"$t" "$execs" "$rate" "$cov" "$found"
	# Beside the rate, the one it had with a store on disk (#27's).
	for b in $FUZZ_BEFORE; do
		[ "${b%%:*}" = "$t" ] && [ "$rate" != - ] &&
			awk -v r="$rate" -v b="${b#*:}" 'BEGIN { printf \
			    " %.1fx the %d/s on disk;", r / b, b }'
	done
	printf ' replayed %d, findings %d\n' "$replayed" "$refound"
	[ -f "$logs/$t.findings" ] && cat "$logs/$t.findings"
done
end=$(date +%s)
echo "campaign: $((end - start)) s of wall time (at most $seconds):" \
	"$((fuzzed - start)) s fuzzing, $jobs targets at a time," \
	"$((end - fuzzed)) s replaying under the sanitizers"
exit $status
