#!/bin/sh
# fuzzdict.sh - fuzz/cmd.dict holds every option the man pages list and
# every field a command reads, so that fuzz_cmd's mutations can reach
# them all (fuzz_cmd explores by the dictionary far sooner than by
# guessing a name byte by byte).
#
#   sh tests/fuzzdict.sh       (from the top of the tree)
#
# Options are the --words of cmd/*.1 (but --oneliner, scontrol's, which
# ar-map(1) quotes); their values are the literal words the pages give
# an option after Cm (--owners uid | role: "uid" and "role", not
# --reclaim's Ar duration); fields are those of cmd/fields.c's table
# that some command reads (its second column is not 0).  The last line
# is "N passed, N failed".
dict=fuzz/cmd.dict
passed=0 failed=0

check() {
	if grep -q -F -- "\"$1\"" "$dict"; then
		passed=$((passed + 1))
	else
		echo "FAIL: $dict lacks \"$1\" ($2)"
		failed=$((failed + 1))
	fi
}

for o in $(grep -oh -- '--[a-z][a-z0-9-]*' cmd/*.1 | sort -u); do
	[ "$o" = --oneliner ] || check "$o" "an option of cmd/*.1"
done
for v in $(grep -h '^\.\(It\|Op\) .*Fl -[a-z]' cmd/*.1 | awk '{
	sub(/.*Fl -[a-z][a-z0-9-]* /, "")
	n = split($0, alt, /[|]/)
	literal = 0
	for (i = 1; i <= n; i++) {
		w = alt[i]; gsub(/^ +| +$/, "", w)
		if (w ~ /^Cm /) { literal = 1; sub(/^Cm /, "", w) }
		else if (w ~ /^[A-Z][a-z] /) literal = 0
		if (literal && w ~ /^[a-z][a-z0-9-]*$/) print w
	}
    }' | sort -u); do
	check "$v" "a value of an option of cmd/*.1"
done
for f in $(sed -n '/^const struct cmd_field cmd_fields/,/^};/p' \
    cmd/fields.c | awk -F, '/^\t\{ "/ {
	name = $1; sub(/^[^"]*"/, "", name); sub(/".*/, "", name)
	readers = $2; gsub(/ /, "", readers)
	if (readers != "0") print name
    }'); do
	check "$f=" "a field cmd/fields.c says a command reads"
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
