#!/bin/sh
# floors.sh - every call in lib/ goes down the stack or sideways, never up.
#
#   sh tests/floors.sh OBJDIR      (from the top of the tree)
#
# The floors are those lib/internal.h names, listed here in the same
# order, a file's place in the list its rank: within storage, records
# and reports a file may call any of its floor; within booking only the
# files named before it (and itself), as internal.h says.  What each
# object of OBJDIR (lib's, as the Makefile builds them) needs is read
# with nm, and found where it is defined: a need met by a file of a
# higher floor, or of a later booking file, is a call up and fails.
#
# The last line is "N passed, N failed".
OBJ=${1:?usage: floors.sh OBJDIR}

# floor file ... (storage's backends are the files under lmdb/ pg/ mem/)
FLOORS='
1 kv array times where store lmdb/* pg/* mem/*
2 ring slots resv classes unused demand hostset hostlist layout partpolicy
3 track map
4 mold slices search savepoint added hold cancel reclaim flex series split add modify longest
5 pricing price report check frames
6 txn create
'
# Booking is ordered within the floor.
ORDERED=4

passed=0 failed=0
tab=$(mktemp) || exit 2
trap 'rm -f "$tab"' EXIT

# rank and position of every object: "floor pos file.o"
echo "$FLOORS" | while read -r floor files; do
	[ -n "$floor" ] || continue
	pos=0
	for f in $files; do
		pos=$((pos + 1))
		for o in "$OBJ"/$f.o; do
			[ -f "$o" ] && echo "$floor $pos ${o#"$OBJ"/}"
		done
	done
done >"$tab"

# every source of lib/ is built and placed on a floor
for c in $(cd lib && find . -name '*.c' | sed 's|^\./||' | sort); do
	o=${c%.c}.o
	if [ ! -f "$OBJ/$o" ]; then
		echo "FAIL floors: $OBJ/$o: not built"
		failed=$((failed + 1))
	elif grep -q " $o\$" "$tab"; then
		passed=$((passed + 1))
	else
		echo "FAIL floors: lib/$c is on no floor (place it in tests/floors.sh and lib/internal.h)"
		failed=$((failed + 1))
	fi
done

# symbols defined: "symbol file.o"
defs=$(mktemp) || exit 2
trap 'rm -f "$tab" "$defs"' EXIT
while read -r floor pos o; do
	nm -g --defined-only "$OBJ/$o" | awk -v o="$o" '$2 ~ /[TDBR]/ {print $3, o}'
done <"$tab" | sort >"$defs"

while read -r floor pos o; do
	bad=$(nm -u "$OBJ/$o" | awk '{print $2}' | sort | join - "$defs" |
	    while read -r sym def; do
		line=$(grep " $def\$" "$tab")
		dfloor=${line%% *}
		rest=${line#* }
		dpos=${rest%% *}
		if [ "$dfloor" -gt "$floor" ] ||
		    { [ "$dfloor" = "$floor" ] && [ "$floor" = "$ORDERED" ] &&
		    [ "$dpos" -gt "$pos" ]; }; then
			echo "$sym ($def)"
		fi
	done)
	if [ -z "$bad" ]; then
		passed=$((passed + 1))
	else
		echo "FAIL floors: $o (floor $floor) calls up:" $bad
		failed=$((failed + 1))
	fi
done <"$tab"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
