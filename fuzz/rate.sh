#!/bin/sh
# rate.sh BIN TARGET RUNS [TIMES] - what an execution of a fuzz target
# costs (README, Fuzzing): TIMES runs (3) of BIN/TARGET for RUNS
# executions, the corpus's included, from -seed=1 on a scratch copy of
# its corpus with its dictionary and options, as the campaign runs it;
# a line each: executions, CPU seconds (user and system, by
# /usr/bin/time), executions per CPU second, coverage.  Run from the
# top of the tree; BIN is $(B)/fuzz or $(B)/fuzz-fast.
bin=$1 t=$2 runs=$3 times=${4:-3}
name=${t#fuzz_}
dict= options=
[ -f "fuzz/$name.dict" ] && dict=-dict=fuzz/$name.dict
[ -f "fuzz/$name.options" ] && options=$(cat "fuzz/$name.options")
i=0
while [ "$i" -lt "$times" ]; do
	d=$(mktemp -d "${TMPDIR:-/tmp}/ar-rate.XXXXXX") || exit 2
	mkdir "$d/new" && cp -r "fuzz/corpus/$name" "$d/corpus" || exit 2
	/usr/bin/time -f '%U %S' -o "$d/time" "$bin/$t" -seed=1 -runs="$runs" \
		-print_final_stats=1 -close_fd_mask=3 $dict $options \
		-artifact_prefix="$d/" "$d/new" "$d/corpus" >"$d/log" 2>&1
	rc=$?
	n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$d/log")
	cov=$(grep -o 'cov: [0-9]*' "$d/log" | tail -1 | cut -d' ' -f2)
	awk -v t="$t" -v n="${n:-0}" -v cov="${cov:-0}" '{ c = $1 + $2;
		printf("%s: %d executions in %.2f CPU s, %d per CPU s, " \
		    "cov %d\n", t, n, c, c > 0 ? n / c : 0, cov) }' "$d/time"
	if [ "$rc" != 0 ]; then
		echo "$t: exit status $rc; its log: $d/log" >&2
		exit 1
	fi
	rm -rf "$d"
	i=$((i + 1))
done
