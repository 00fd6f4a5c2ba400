# 81-help.sh - what --help says of the fields, held against what each
# command does: it lists the fields the command reads, and no other is
# read (found by adding a field to a request and watching the answer);
# it lists the fields it prints.  And the man pages reach one another
# and the overview, ar-intro(7).

SRC=$(dirname "$TESTS")
COMMANDS='ar-add ar-del ar-map ar-price ar-report ar-search ar-suggest'

# help_list CMD reads|prints: the fields CMD's --help lists, one a line.
help_list() {
	"$1" --help | awk -v want="$2:" '
	    $1 ~ /:$/ { on = $1 == want; sub(/^[a-z]+:/, "") }
	    /^See / { on = 0 }
	    on { for (i = 1; i <= NF; i++) print $i }'
}

# The fields of every list of every command, and a label of our own,
# into $D/fields.
all_fields() {
	for c in $COMMANDS; do
		help_list "$c" reads
		help_list "$c" prints
	done | sed 's/_cN$/_c1/' | sort -u >"$D/fields"    # a class's: c1 to c8
	echo ticket >>"$D/fields"
}

# A store for the probes: a price class, reservation 1 (user u, job j)
# and a hold, 2.
probe_store() {
	mkstore --hosts 'cn[1-8]'
	echo 'class=1 name=p price=100 ahead_min=0 limit=8' |
	    ar-price --set >/dev/null
	ar-add start=+1h duration=1h nodes=2 user=u job=j >/dev/null
	ar-add start=+2h duration=1h nodes=2 hold=10m >/dev/null
	cp -R "$AR_STORE" "$D/orig"
}

# outcome WRITES CMD [ARG ...]: run CMD (on a fresh copy of the probe
# store if WRITES is w); its exit status, stderr, and stdout's fields
# sorted, less the fields in $D/added, into $D/o.
outcome() {
	if [ "$1" = w ]; then
		rm -rf "$AR_STORE"
		cp -R "$D/orig" "$AR_STORE"
	fi
	shift
	invoke "$@" >"$D/o.out" 2>"$D/o.err"
	echo "exit $?" >"$D/o"
	cat "$D/o.err" >>"$D/o"
	grep -h 'internal error' "$D/o.err" >>"$D/internal"
	tr ' ' '\n' <"$D/o.out" | grep -vxFf "$D/added" | sort >>"$D/o"
}

# invoke CMD [ARG ...]: CMD with the record in ARG, but ar-price --set,
# which reads records from stdin only, with them there.
invoke() {
	if [ "$1 $2" = 'ar-price --set' ]; then
		shift 2
		echo "$*" | ar-price --set
	else
		"$@"
	fi
}

# The ways each command reads records, one a line: w if it writes, the
# command, its options and a record (with a field left out, for that
# field to be probed).
modes() {
	for c in ar-price ar-search ar-suggest; do
		echo "r $c start=+1h duration=1h nodes=1"
		echo "r $c start=+1h duration=1h"
		echo "r $c duration=1h"
		echo "r $c start=+1h"
	done
	echo 'r ar-suggest --extend ticket=t'
	printf '%s\n' 'w ar-add start=+1h duration=1h nodes=1' \
	    'w ar-add --modify id=1 end=+3h' 'w ar-add --modify end=+3h' \
	    'w ar-add --confirm id=2' \
	    'w ar-del id=1' 'w ar-del user=u' 'w ar-del job=j' \
	    'w ar-map id=1' 'w ar-map job=j' \
	    'w ar-price --set price=10' 'w ar-price --set name=x' \
	    'r ar-price --capacity 10 price=10' 'r ar-report --list'
}

# probe CMD: each field CMD's --help lists as read ($D/listed), added to
# a record of one of the ways CMD reads them with a value it cannot
# take ("zz", or 300 bytes) or one it can ("1"), is printed if it
# changes the answer.  Then, for each way, every other field ($D/fields)
# is added at once, as zz, and must change nothing (a line says so if
# it does).  ar-report refuses a field it does not select by: it is
# given them one at a time, and each must be refused so.
probe() {
	long=$(printf '%0300d' 0)
	: >"$D/internal"
	grep -vxFf "$D/listed" "$D/fields" >"$D/unlisted"
	modes | grep "^. $1 " >"$D/modes"
	: >"$D/added"
	n=0
	while read -r w cmd args; do
		n=$((n + 1))
		outcome $w $cmd $args
		mv "$D/o" "$D/base$n"
	done <"$D/modes"
	for f in $(cat "$D/listed"); do
		n=0 read=
		while read -r w cmd args; do
			n=$((n + 1))
			case " $args " in *" $f="*) continue ;; esac
			for v in zz "$long" 1; do
				echo "$f=$v" >"$D/added"
				outcome $w $cmd $args "$f=$v"
				cmp -s "$D/o" "$D/base$n" || { read=$f; break 2; }
			done
		done <"$D/modes"
		[ -z "$read" ] || echo "$read"
	done
	n=0
	while read -r w cmd args; do
		n=$((n + 1))
		printf '%s\n' $args | sed -n 's/=.*//p' >"$D/given"
		grep -vxFf "$D/given" "$D/unlisted" | sed 's/$/=zz/' >"$D/all"
		if [ "$cmd" = ar-report ]; then
			for f in $(sed 's/=zz$//' "$D/all"); do
				echo "$f=zz" >"$D/added"
				outcome $w $cmd $args "$f=zz"
				grep -q "field '$f': not one to select by" "$D/o" ||
				    echo "unlisted $f changes an answer"
			done
			continue
		fi
		mv "$D/all" "$D/added"
		outcome $w $cmd $args $(cat "$D/added")
		cmp -s "$D/o" "$D/base$n" ||
		    echo "unlisted fields change the answer of $cmd $args"
	done <"$D/modes"
	# A field read but not listed stops the command (cmd_get).
	sort -u "$D/internal"
}

begin 'help: every --help lists the fields the command reads and prints, on one screen'
for c in $COMMANDS; do
	run "$c" --help
	expect_exit 0
	expect_err
	[ "$(wc -l <"$D/.out")" -le 24 ] || fail "$c --help: over 24 lines"
	grep -q '^reads: ' "$D/.out" || fail "$c --help: no 'reads:' line"
	grep -q '^prints: ' "$D/.out" || fail "$c --help: no 'prints:' line"
	sed -n '/^reads:/,$p' "$D/.out" | awk -v c="$c" 'length($0) > 80 {
	    print c " --help: a line over 80 columns: " $0 }' >"$D/wide"
	[ ! -s "$D/wide" ] || fail "$(cat "$D/wide")"
	grep -q "^See $c(1) .* ar-records(5) " "$D/.out" ||
	    fail "$c --help: does not point to $c(1) and ar-records(5)"
	grep -q 'ar-intro(7)' "$D/.out" || fail "$c --help: no ar-intro(7)"
done

for c in $COMMANDS; do
	begin "help: the fields $c --help says it reads are the fields it reads"
	probe_store
	all_fields
	# --load reads a dump, not records: 98-move.sh has table, key,
	# value and entries.
	help_list "$c" reads | grep -vx 'table\|key\|value\|entries' |
	    sort >"$D/listed"
	[ -s "$D/listed" ] || fail "$c --help lists no field it reads"
	probe "$c" | sort >"$D/probed"
	run diff "$D/listed" "$D/probed"
	expect_out
done

# The probes above find what a command reads among the fields some
# --help lists; a field read past cmd_get would be listed nowhere.
begin 'help: the commands read a record'"'"'s fields only through cmd_get'
run grep -n 'ar_record_get(&\(it->rec\|items\)' "$SRC"/cmd/*.c
expect_exit 1
expect_out

# Input fields are those of the record given; the others a command
# printed must be in its --help (a class's number read as N).
begin 'help: every field a command prints is one its --help lists'
mkstore --hosts 'cn[1-8]'
ar-price --set >/dev/null <<'EOF'
class=1 name=p price=100 ahead_min=0 ahead_max=1h limit=8
class=2 name=b price=40 ahead_min=1h limit=6
EOF
while read -r cmd args; do
	run $cmd $args
	[ "$RC" -lt 128 ] || fail "$cmd $args: exit status $RC: $(cat "$D/.err")"
	help_list "$cmd" prints >"$D/prints"
	printf '%s\n' $args | sed -n 's/=.*//p' >>"$D/prints"
	tr ' ' '\n' <"$D/.out" | sed -n 's/=.*//p' |
	    sed 's/^\(granted\|refused\|revenue\)_c[0-9]*$/\1_cN/' | sort -u |
	    grep -vxFf "$D/prints" >"$D/extra"
	[ ! -s "$D/extra" ] || fail "$cmd $args: printed fields its --help" \
	    "does not list: $(tr '\n' ' ' <"$D/extra")"
done <<'EOF'
ar-add start=+30m duration=1h nodes=2 user=a job=j client_key=k1 hold=5m
ar-add earliest=+2h latest=+4h duration=1h nodes=8 user=b
ar-add earliest=+2h latest=+4h duration=1h nodes=4 jobs=2 user=c
ar-add start=+3h duration=1h nodes=2 every=daily count=2 user=d
ar-add start=+30m duration=1h nodes=2 user=a job=j client_key=k1 hold=5m
ar-add --modify id=1 end=+2h
ar-add --confirm id=1
ar-add start=+3h duration=1h nodes=8
ar-add start=+3h duration=1h hosts=cn[1-2] user=e
ar-search start=+1h duration=1h nodes=8
ar-suggest -k 2 start=+1h duration=1h nodes=8
ar-map
ar-map --plan
ar-price start=+30m duration=1h nodes=2
ar-price --show
ar-price --update
ar-report --list
ar-report --all
ar-report --info
ar-report --usage --from now --to +6h --window 2h
ar-report --usage --from now --to +6h --by user
ar-report --usage --from now --to +6h --by class
ar-report --free --from +2h --to +3h
ar-report --dump
ar-del id=3
ar-del series=5
ar-del user=a job=j
ar-del --purge --now +10h
ar-del --forget now-1d
EOF

# see_also PAGE: the pages PAGE's SEE ALSO names, as "name(section)".
see_also() {
	sed -n '/^\.Sh SEE ALSO/,/^\.Sh /s/^\.Xr \([^ ]*\) \([0-9]\).*/\1(\2)/p' \
	    "$1"
}

begin 'man: every page'"'"'s SEE ALSO names ar-intro(7), ar-records(5) and every command'
for page in "$SRC"/cmd/*.1 "$SRC"/cmd/ar-intro.7 "$SRC"/format/ar-records.5; do
	[ -f "$page" ] || { fail "no page $page"; continue; }
	self=${page##*/}
	self="${self%.*}(${self##*.})"
	see_also "$page" >"$D/see"
	for want in ar-intro'(7)' ar-records'(5)' $(for c in $COMMANDS; do
	    echo "$c(1)"; done); do
		[ "$want" = "$self" ] && continue
		grep -qxF "$want" "$D/see" ||
		    fail "$self: SEE ALSO does not name $want"
	done
done

begin 'man: every page an ar page refers to is one of ar'"'"'s'
for page in "$SRC"/cmd/*.1 "$SRC"/cmd/ar-intro.7 "$SRC"/format/ar-records.5; do
	sed -n 's/^\.Xr \(ar-[^ ]*\) \([0-9]\).*/\1.\2/p' "$page" | sort -u |
	    while read -r ref; do
		[ -f "$SRC/cmd/$ref" ] || [ -f "$SRC/format/$ref" ] ||
		    echo "${page##*/} refers to $ref, which is not a page"
	    done
done >"$D/dangling"
run cat "$D/dangling"
expect_out

begin 'man: ar-intro(7) names every command, the records, the store and the exit codes'
page=$SRC/cmd/ar-intro.7
for c in $COMMANDS; do
	grep -q "^\.Xr $c 1" "$page" || fail "ar-intro(7) does not name $c"
done
grep -q '^\.Xr ar-records 5' "$page" || fail 'ar-intro(7) does not name ar-records(5)'
grep -q '^\.Ev AR_STORE' "$page" || fail 'ar-intro(7) does not say AR_STORE'
run sh -c 'sed -n "/^\.Sh EXIT STATUS/,/^\.Sh /p" "$1" | grep "^\.It [0-9]"' \
    sh "$page"
expect_out '.It 0' '.It 1' '.It 2' '.It 3'

# README's list, before its first section, is what a reader meets first.
begin 'man: README'"'"'s list of commands names every command there is, and no other'
sed -n '/^Two commands$/q; s/^    \(ar-[a-z]*\)  .*/\1/p' "$SRC/README" |
    sort >"$D/listed"
(cd "$AR_BIN" && ls ar-*) | sort >"$D/built"
run diff "$D/built" "$D/listed"
expect_exit 0
expect_out
