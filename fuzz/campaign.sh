#!/bin/sh
# campaign.sh BIN SECONDS RUNS JOBS TARGET... - a fuzzing campaign (make
# fuzz, make fuzz-short): every target until RUNS executions, JOBS at a
# time (one per core), the whole campaign within SECONDS of wall time: a
# target started late gets what is left.  A TARGET written NAME:K runs
# as K processes on its corpus, each for RUNS / K, for a target several
# times slower per execution than the others (fuzz_model); give the
# targets slowest first, so that no long one starts last.
#
# Each target fuzzes its corpus folder, fuzz/corpus/NAME, with
# fuzz/NAME.dict when there is one and the libFuzzer flags of
# fuzz/NAME.options (fuzz/model.options caps an input's length, and so
# the work of an execution), and leaves what it finds there as
# crash-* (timeout-*, leak-*, oom-*) files, which git ignores: keep a
# reproducer by renaming it.  Printed: a line per target (executions,
# executions a second in one process, coverage, findings), then the
# campaign's wall time.  Exit status 1 if a target found something.

# One process of a target: --one NAME PART PARTS, from the queue.
if [ "$1" = --one ]; then
	t=$2 corpus=fuzz/corpus/${2#fuzz_}
	left=$((deadline - $(date +%s)))
	[ "$left" -gt 0 ] || exit 0
	dict= options=
	[ -f "fuzz/${t#fuzz_}.dict" ] && dict=-dict=fuzz/${t#fuzz_}.dict
	[ -f "fuzz/${t#fuzz_}.options" ] && options=$(cat "fuzz/${t#fuzz_}.options")
	"$bin/$t" -runs=$((runs / $4)) -max_total_time="$left" \
		-print_final_stats=1 -close_fd_mask=3 $dict $options \
		-artifact_prefix="$corpus/" "$corpus" >"$logs/$t.$3" 2>&1
	echo $? >"$logs/$t.$3.rc"
	exit 0
fi

bin=$1 seconds=$2 runs=$3 jobs=$4
shift 4
logs=$(mktemp -d "${TMPDIR:-/tmp}/ar-campaign.XXXXXX") || exit 2
trap 'rm -rf "$logs"' EXIT
start=$(date +%s)
deadline=$((start + seconds))
export bin runs deadline logs

for spec; do
	k=${spec#*:}
	[ "$k" = "$spec" ] && k=1
	i=1
	while [ "$i" -le "$k" ]; do
		echo "--one ${spec%%:*} $i $k"
		i=$((i + 1))
	done
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
	printf '%-14s %10d executions  %6s/s  cov %5d  findings %d\n' \
		"$t" "$execs" "$rate" "$cov" "$found"
done
echo "campaign: $(($(date +%s) - start)) s of wall time (at most" \
	"$seconds), $jobs targets at a time"
exit $status
