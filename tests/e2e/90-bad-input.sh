# 90-bad-input.sh - malformed and hostile input: a clear message and the
# right exit status, never a crash, a hang or a damaged store.
#
# First a table, one case per row, each run on a copy of one small store
# (8 nodes; reservation 1 of user=base job=b holds 3 nodes 00:10-00:40).
# The columns, separated by '|':
#
#   name     the case is "bad input: NAME"
#   command  the command and its arguments, as the shell would read them
#   stdin    a printf(1) format for standard input; empty: /dev/null;
#            <FILE: the file $BADIN/FILE made below
#   exit     the exit status expected
#   same     y: ar-report --all and --free are the same after the run
#   stderr   exactly what stderr holds, lines separated by \n; a line
#            @USAGE@ stands for the command's usage lines
#   stdout   the same for stdout; <FILE: exactly $BADIN/FILE
#
# In every column @S@ is the store's path, @L255@ and @L256@ labels of
# 255 and 256 bytes, @K65@ a field name of 65 bytes, and @D32@ and @D33@
# JSON arrays nested 31 and 32 deep (32 and 33 levels in a record).
#
# Then, after the table, the hostile stores and descriptors: a missing
# store, a directory that is not a store, a truncated store, a read-only
# one, another format version, a full disk, a full map, closed and full
# standard descriptors, a pipe closed early.

BADIN=$TOP/bad-input
mkdir "$BADIN" || exit 2

L255=$(awk 'BEGIN { while (n++ < 255) printf "u" }')
L256=${L255}u
K65=$(awk 'BEGIN { while (n++ < 65) printf "k" }')
D32=$(awk 'BEGIN { for (i = 0; i < 31; i++) printf "["; printf "1"
	for (i = 0; i < 31; i++) printf "]" }')
D33=[$D32]

# bad_subst TEXT: TEXT with the @TOKEN@s above replaced.
bad_subst() {
	s=$1 r=
	while :; do
		case $s in
		*@*@*) ;;
		*) break ;;
		esac
		pre=${s%%@*} rest=${s#*@}
		case ${rest%%@*} in
		S) v=$AR_STORE ;;
		L255) v=$L255 ;;
		L256) v=$L256 ;;
		K65) v=$K65 ;;
		D32) v=$D32 ;;
		D33) v=$D33 ;;
		*) r=$r$pre@ s=$rest; continue ;;
		esac
		r=$r$pre$v s=${rest#*@}
	done
	printf '%s' "$r$s"
}

# Long lines: 65537 bytes (then a good line), 300000 bytes without a
# newline, exactly 65536 bytes (and what ar-search makes of it), 65536
# bytes and a carriage return (65537 before the CR is dropped), and 65535
# bytes and a carriage return (accepted).
awk 'BEGIN { s = "start=+1h duration=1h note="
	while (length(s) < 65537) s = s "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
	print substr(s, 1, 65537); print "start=+2h duration=1h" }' >"$BADIN/long"
awk 'BEGIN { s = "start=+1h duration=1h note="
	while (length(s) < 300000) s = s "yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy"
	printf "%s", substr(s, 1, 300000) }' >"$BADIN/huge"
# exact: the line, exact.out: ar-search's answer; cr65536: the same line
# and a CR; cr65535: one byte shorter and a CR, cr65535.out its answer.
awk -v dir="$BADIN" 'BEGIN {
	p = "start=+1h duration=1h note="
	x = ""
	while (length(p) + length(x) < 65536) x = x "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz"
	x = substr(x, 1, 65536 - length(p))
	a = "start=2026-11-21T01:00:00Z duration=1h note="
	z = " end=2026-11-21T02:00:00Z free=8 status=available"
	print p x >(dir "/exact")
	print a x z >(dir "/exact.out")
	printf "%s\r\n", p x >(dir "/cr65536")
	x = substr(x, 2)
	printf "%s\r\n", p x >(dir "/cr65535")
	print a x z >(dir "/cr65535.out")
}'


# bad_expect TEXT CMD FILE: write the expected lines of TEXT to FILE: the
# \n between lines split, @USAGE@ and the tokens replaced; <NAME copies
# a file.
bad_expect() {
	t=$(bad_subst "$1")
	: >"$3"
	case $t in
	'') return 0 ;;
	'<'*) cp "$BADIN/${t#<}" "$3"; return 0 ;;
	esac
	while :; do
		case $t in
		*\\n*) l=${t%%\\n*} t=${t#*\\n} ;;
		*) l=$t t= ;;
		esac
		case $l in
		@USAGE@) usage_of "$2" >>"$3" ;;
		*) printf '%s\n' "$l" >>"$3" ;;
		esac
		[ -n "$t" ] || break
	done
}

# The store every row starts from, copied for each.
BADBASE=$TOP/bad-base
ar-report --store "$BADBASE" --create --simulated --nodes 8 >/dev/null &&
    ar-add --store "$BADBASE" start=+10m duration=30m nodes=3 user=base job=b \
    >/dev/null || exit 2

# bad_snap NAME: keep what the store holds as $D/NAME.all and $D/NAME.free.
bad_snap() {
	ar-report --all >"$D/$1.all" 2>&1
	ar-report --free --to +3h >"$D/$1.free" 2>&1
}

# bad_same: the store holds what it held before the run (bad_snap before).
bad_same() {
	run ar-report --all
	expect_out <"$D/before.all"
	run ar-report --free --to +3h
	expect_out <"$D/before.free"
}

while IFS='|' read -r name cmd input rc same err out <&3; do
	case $name in
	'#'* | '') continue ;;
	esac
	begin "bad input: $name"
	copy_store "$BADBASE"
	bad_snap before
	case $input in
	'') cp /dev/null "$D/in" ;;
	'<'*) cp "$BADIN/${input#<}" "$D/in" ;;
	*) printf "$(bad_subst "$input")" >"$D/in" ;;
	esac
	eval "set -- $(bad_subst "$cmd")"
	run "$@" <"$D/in"
	expect_exit "$rc"
	bad_expect "$err" "$1" "$D/err.exp"
	expect_err <"$D/err.exp"
	bad_expect "$out" "$1" "$D/out.exp"
	expect_out <"$D/out.exp"
	[ "$same" = y ] && bad_same
	expect_check
done 3<<'EOF'
# name|command|stdin|exit|same|stderr|stdout
#
# Times.
a time without a zone is ambiguous|ar-add|start=2026-11-21T01:00:00 duration=1h\n|2|y|ar-add: line 1: field 'start': missing time zone in '2026-11-21T01:00:00' (add Z or an offset)|
month 13|ar-add|start=2026-13-01T00:00Z duration=1h\n|2|y|ar-add: line 1: field 'start': invalid month 13 in '2026-13-01T00:00Z'|
February 30|ar-add|start=2027-02-30T00:00Z duration=1h\n|2|y|ar-add: line 1: field 'start': invalid day 30 in '2027-02-30T00:00Z'|
February 29 of a common year|ar-add|start=2027-02-29T00:00Z duration=1h\n|2|y|ar-add: line 1: field 'start': invalid day 29 in '2027-02-29T00:00Z'|
hour 24|ar-add|start=2026-11-21T24:00Z duration=1h\n|2|y|ar-add: line 1: field 'start': invalid hour 24 in '2026-11-21T24:00Z'|
second 60 (a leap second)|ar-add|start=2026-11-21T10:00:60Z duration=1h\n|2|y|ar-add: line 1: field 'start': invalid second 60 in '2026-11-21T10:00:60Z'|
year 1969|ar-add|start=1969-12-31T23:59Z duration=1h\n|2|y|ar-add: line 1: field 'start': invalid year 1969 in '1969-12-31T23:59Z'|
year 10000|ar-add|start=10000-01-01T00:00Z duration=1h\n|2|y|ar-add: line 1: field 'start': invalid time '10000-01-01T00:00Z' (use 2026-11-21T10:00Z, @EPOCH or now+DURATION)|
fractions of a second|ar-add|start=2026-11-21T10:00:00.5Z duration=1h\n|2|y|ar-add: line 1: field 'start': fractions of a second are not supported in '2026-11-21T10:00:00.5Z'|
an offset of 24 hours|ar-add|start=2026-11-21T10:00:00+24:00 duration=1h\n|2|y|ar-add: line 1: field 'start': invalid time zone offset in '2026-11-21T10:00:00+24:00'|
a date without a time|ar-add|start=2026-11-21 duration=1h\n|2|y|ar-add: line 1: field 'start': missing time of day in '2026-11-21'|
a lower-case t|ar-add|start=2026-11-21t10:00Z duration=1h\n|2|y|ar-add: line 1: field 'start': invalid time '2026-11-21t10:00Z' (use 2026-11-21T10:00Z, @EPOCH or now+DURATION)|
garbage for a time|ar-add|start=tomorrow duration=1h\n|2|y|ar-add: line 1: field 'start': invalid time 'tomorrow' (use 2026-11-21T10:00Z, @EPOCH or now+DURATION)|
an empty time|ar-add|start= duration=1h\n|2|y|ar-add: line 1: field 'start': empty time|
a quoted empty end|ar-add|start=+1h end=""\n|2|y|ar-add: line 1: field 'end': empty time|
garbage after now|ar-add|start=now*2 duration=1h\n|2|y|ar-add: line 1: field 'start': invalid time 'now*2' (use now, now+DURATION or now-DURATION)|
a relative time with a sign inside|ar-add|start=+-1h duration=1h\n|2|y|ar-add: line 1: field 'start': invalid duration '-1h'|
minus without now|ar-add|start=-1h duration=1h\n|2|y|ar-add: line 1: field 'start': invalid time '-1h' (use 2026-11-21T10:00Z, @EPOCH or now+DURATION)|
now minus 60000 days|ar-add|start=now-60000d duration=1h\n|2|y|ar-add: line 1: field 'start': duration longer than 100 years: '60000d'|
an @EPOCH that overflows 64 bits|ar-add|start=@99999999999999999999 duration=1h\n|2|y|ar-add: line 1: field 'start': invalid epoch time '@99999999999999999999' (0 to 253402300799)|
an @EPOCH of INT64_MAX|ar-add|start=@9223372036854775807 duration=1h\n|2|y|ar-add: line 1: field 'start': invalid epoch time '@9223372036854775807' (0 to 253402300799)|
an @EPOCH past 9999|ar-search|start=@253402300800 duration=1h\n|2|y|ar-search: line 1: field 'start': invalid epoch time '@253402300800' (0 to 253402300799)|
a negative @EPOCH|ar-add|start=@-1 duration=1h\n|2|y|ar-add: line 1: field 'start': invalid epoch time '@-1' (0 to 253402300799)|
an @EPOCH with a leading zero|ar-add|start=@0123 duration=1h\n|2|y|ar-add: line 1: field 'start': invalid epoch time '@0123' (0 to 253402300799)|
# Slurm's spelled-out units are read beside durations; an unknown one is
# named, and the next line still goes through.
Slurm's now+1hour is read|ar-search|start=now+1hour duration=1h\nstart=+30minutes end=now+2hours\n|0|y||start=2026-11-21T01:00:00Z duration=1h end=2026-11-21T02:00:00Z free=8 status=available\nstart=2026-11-21T00:30:00Z end=2026-11-21T02:00:00Z free=5 status=available
a spelled-out unit is for times, not durations|ar-search start=+1h duration=30minutes||2|y|ar-search: arguments: field 'duration': invalid duration '30minutes'|
an unknown spelled-out unit|ar-add|start=now+2fortnights duration=1h\nstart=+30minutes duration=1h nodes=2\n|2|n|ar-add: line 1: field 'start': unknown unit in '2fortnights' (use w d h m s, or seconds, minutes, hours, days, weeks)|start=2026-11-21T00:30:00Z duration=1h nodes=2 id=2 end=2026-11-21T01:30:00Z free=5 status=granted
a spelled-out unit of zero|ar-search start=now+0hours duration=1h||2|y|ar-search: arguments: field 'start': duration must be positive: '0hours'|
#
# Durations.
a bare number of a duration|ar-add|start=+1h duration=90\n|2|y|ar-add: line 1: field 'duration': duration needs a unit: '90'|
a zero duration|ar-add|start=+1h duration=0s\n|2|y|ar-add: line 1: field 'duration': duration must be positive: '0s'|
a negative duration|ar-add|start=+1h duration=-1h\n|2|y|ar-add: line 1: field 'duration': invalid duration '-1h'|
units out of order|ar-add|start=+1h duration=1m1h\n|2|y|ar-add: line 1: field 'duration': units out of order in duration '1m1h'|
a repeated unit|ar-add|start=+1h duration=1h1h\n|2|y|ar-add: line 1: field 'duration': repeated unit in duration '1h1h'|
MM:SS is ambiguous|ar-add|start=+1h duration=10:30\n|2|y|ar-add: line 1: field 'duration': ambiguous duration '10:30' (use HH:MM:SS, or units as in 1h30m)|
a duration over 100 years|ar-add|start=+1h duration=36526d\n|2|y|ar-add: line 1: field 'duration': duration longer than 100 years: '36526d'|
a duration that overflows 64 bits|ar-add|start=+1h duration=99999999999999999999d\n|2|y|ar-add: line 1: field 'duration': duration longer than 100 years: '99999999999999999999d'|
one second over 100 years|ar-add|start=+1h duration=3155760001s\n|2|y|ar-add: line 1: field 'duration': duration longer than 100 years: '3155760001s'|
a fraction of an hour|ar-add|start=+1h duration=1.5h\n|2|y|ar-add: line 1: field 'duration': unknown unit in duration '1.5h' (use w d h m s)|
an upper-case unit|ar-add|start=+1h duration=1H\n|2|y|ar-add: line 1: field 'duration': unknown unit in duration '1H' (use w d h m s)|
an empty duration|ar-add|start=+1h duration=\n|2|y|ar-add: line 1: field 'duration': empty duration|
hours of 24 with days|ar-add|start=+1h duration=1-24:00\n|2|y|ar-add: line 1: field 'duration': hours must be below 24 in duration '1-24:00'|
seconds of 60|ar-add|start=+1h duration=00:00:60\n|2|y|ar-add: line 1: field 'duration': seconds must be below 60 in duration '00:00:60'|
a blank inside a duration|ar-add|start=+1h duration="1h 30m"\n|2|y|ar-add: line 1: field 'duration': invalid duration '1h 30m'|
#
# Counts and ids.
nodes 0|ar-add|start=+1h duration=1h nodes=0\n|2|y|ar-add: line 1: field 'nodes': must be between 1 and 1000000|
nodes -1|ar-add|start=+1h duration=1h nodes=-1\n|2|y|ar-add: line 1: field 'nodes': not a number: '-1'|
nodes 1000001|ar-add|start=+1h duration=1h nodes=1000001\n|2|y|ar-add: line 1: field 'nodes': must be between 1 and 1000000|
nodes 2^64|ar-add|start=+1h duration=1h nodes=18446744073709551616\n|2|y|ar-add: line 1: field 'nodes': must be between 1 and 1000000|
nodes with a leading zero|ar-add|start=+1h duration=1h nodes=01\n|2|y|ar-add: line 1: field 'nodes': leading zero in number: '01'|
nodes empty|ar-add|start=+1h duration=1h nodes=\n|2|y|ar-add: line 1: field 'nodes': not a number: ''|
nodes with a plus sign|ar-add|start=+1h duration=1h nodes=+1\n|2|y|ar-add: line 1: field 'nodes': not a number: '+1'|
nodes in exponent form|ar-add|start=+1h duration=1h nodes=1e3\n|2|y|ar-add: line 1: field 'nodes': not a number: '1e3'|
jobs 0|ar-add|start=+1h duration=1h jobs=0\n|2|y|ar-add: line 1: field 'jobs': must be between 1 and 4096|
jobs -1|ar-add|start=+1h duration=1h jobs=-1\n|2|y|ar-add: line 1: field 'jobs': not a number: '-1'|
jobs 1000001|ar-add|start=+1h duration=1h jobs=1000001\n|2|y|ar-add: line 1: field 'jobs': must be between 1 and 4096|
jobs 2^64|ar-add|start=+1h duration=1h jobs=18446744073709551616\n|2|y|ar-add: line 1: field 'jobs': must be between 1 and 4096|
jobs with a leading zero|ar-add|start=+1h duration=1h jobs=01\n|2|y|ar-add: line 1: field 'jobs': leading zero in number: '01'|
# jobs is 1..4096 (AR_JOBS_MAX, ar-add.1): more is bad input naming the
# limit, for every command that reads requests, and the next line still
# goes through.
jobs 4097 is bad input|ar-add|start=+1h duration=1h jobs=4097\nstart=+2h duration=1h\n|2|n|ar-add: line 1: field 'jobs': must be between 1 and 4096|start=2026-11-21T02:00:00Z duration=1h id=2 end=2026-11-21T03:00:00Z free=8 status=granted
jobs 4097 is bad input to ar-search|ar-search|start=+1h duration=1h jobs=4097\n|2|y|ar-search: line 1: field 'jobs': must be between 1 and 4096|
jobs 4097 is bad input to ar-suggest|ar-suggest jobs=4097 start=+1h duration=1h||2|y|ar-suggest: arguments: field 'jobs': must be between 1 and 4096|
# 4096 copies of one node cannot all fit 8 nodes at once: refused, full.
jobs 4096 on 8 nodes is refused, full|ar-add|start=+1h duration=1h jobs=4096\n|1|y||start=2026-11-21T01:00:00Z duration=1h jobs=4096 end=2026-11-21T02:00:00Z free=8 status=refused reason=full
jobs 4096 on 8 nodes is unavailable for capacity|ar-search|start=+1h duration=1h jobs=4096\n|1|y||start=2026-11-21T01:00:00Z duration=1h jobs=4096 end=2026-11-21T02:00:00Z status=unavailable reason=capacity
id 0|ar-del id=0||2|y|ar-del: arguments: field 'id': must be between 1 and 18446744073709551615|
id -1|ar-del id=-1||2|y|ar-del: arguments: field 'id': not a number: '-1'|
id 1000001 is not found|ar-del id=1000001||1|y|ar-del: arguments: reservation 1000001: no such reservation|id=1000001 status=refused reason=not-found
id 2^64|ar-del id=18446744073709551616||2|y|ar-del: arguments: field 'id': must be between 1 and 18446744073709551615|
id with a leading zero|ar-del|id=01\n|2|y|ar-del: line 1: field 'id': leading zero in number: '01'|
id not a number|ar-del|id=one\n|2|y|ar-del: line 1: field 'id': not a number: 'one'|
# The largest id is read; the record must say the same id back.
id 2^64-1 is not found and printed as given|ar-del id=18446744073709551615||1|y|ar-del: arguments: reservation 18446744073709551615: no such reservation|id=18446744073709551615 status=refused reason=not-found
#
# Intervals.
a start in the past is refused|ar-add start=now-1h duration=1h||1|y||start=2026-11-20T23:00:00Z duration=1h end=2026-11-21T00:00:00Z status=refused reason=past
a start beyond the horizon is refused|ar-add start=+30d duration=1h||1|y||start=2026-12-21T00:00:00Z duration=1h end=2026-12-21T01:00:00Z status=refused reason=horizon
an end before the start|ar-add start=+2h end=+1h||2|y|ar-add: arguments: field 'end': not after 'start'|
an end equal to the start|ar-add start=+2h end=+2h||2|y|ar-add: arguments: field 'end': not after 'start'|
latest before earliest|ar-add earliest=+2h latest=+1h duration=1h||2|y|ar-add: arguments: field 'latest': before 'earliest'|
a start before earliest|ar-add start=+1h earliest=+2h latest=+3h duration=1h||2|y|ar-add: arguments: field 'start': before 'earliest'|
a start after latest|ar-add start=+4h earliest=+2h latest=+3h duration=1h||2|y|ar-add: arguments: field 'latest': before 'start'|
no start|ar-add duration=1h||2|y|ar-add: arguments: missing field 'start' (or 'earliest')|
no duration nor end|ar-add start=+1h||2|y|ar-add: arguments: missing field 'duration' (or 'end')|
#
# key=value syntax.
unknown fields pass through|ar-add|zz=1 start=+1h duration=1h ticket=OPS-12 a.b-c_d=x\n|0|n||zz=1 start=2026-11-21T01:00:00Z duration=1h ticket=OPS-12 a.b-c_d=x id=2 end=2026-11-21T02:00:00Z free=8 status=granted
a duplicated field|ar-add|start=+1h duration=1h start=+2h\n|2|y|ar-add: line 1: duplicate field 'start'|
a duplicated unknown field|ar-add|start=+1h duration=1h x=1 x=1\n|2|y|ar-add: line 1: duplicate field 'x'|
a key without =|ar-add|start=+1h duration=1h urgent\n|2|y|ar-add: line 1: missing '=' after 'urgent'|
an argument without =|ar-add start=+1h duration=1h urgent||2|y|ar-add: arguments: expected key=value, got 'urgent'|
a key with @|ar-add|start=+1h duration=1h a@b=1\n|2|y|ar-add: line 1: invalid field name at byte 24|
a key starting with a digit|ar-add|start=+1h duration=1h 9x=1\n|2|y|ar-add: line 1: invalid field name at byte 23|
a key of 65 bytes|ar-add|start=+1h duration=1h @K65@=1\n|2|y|ar-add: line 1: field name longer than 64 bytes at byte 23|
no key before =|ar-add|start=+1h duration=1h =x\n|2|y|ar-add: line 1: missing field name at byte 23|
an unterminated quote|ar-add|start=+1h duration=1h note="two words\n|2|y|ar-add: line 1: unterminated quote in field 'note'|
a bad escape|ar-add|start=+1h duration=1h note="a\\qb"\n|2|y|ar-add: line 1: invalid escape in field 'note' at byte 30|
text after a closing quote|ar-add|start=+1h duration=1h note="a"b\n|2|y|ar-add: line 1: text after closing quote in field 'note' at byte 31|
a quote inside a bare value|ar-add|start=+1h duration=1h note=a"b\n|2|y|ar-add: line 1: unexpected quote in field 'note' at byte 29|
a control character|ar-add|start=+1h duration=1h user=a\001b\n|2|y|ar-add: line 1: control character in field 'user' at byte 29|
a DEL character|ar-add|start=+1h duration=1h user=a\177b\n|2|y|ar-add: line 1: control character in field 'user' at byte 29|
a carriage return inside the line|ar-add|start=+1h duration=1h\r user=x\n|2|y|ar-add: line 1: control character in field 'duration' at byte 22|
two carriage returns at the end|ar-add|start=+1h duration=1h\r\r\n|2|y|ar-add: line 1: control character in field 'duration' at byte 22|
a line over 65536 bytes, then a good one|ar-search|<long|2|y|ar-search: line 1: line longer than 65536 bytes|start=2026-11-21T02:00:00Z duration=1h end=2026-11-21T03:00:00Z free=8 status=available
a line of 300000 bytes without a newline|ar-add|<huge|2|y|ar-add: line 1: line longer than 65536 bytes|
a line of exactly 65536 bytes is read|ar-search|<exact|0|y||<exact.out
65536 bytes and a CR are too long|ar-search|<cr65536|2|y|ar-search: line 1: line longer than 65536 bytes|
65535 bytes and a CR are read|ar-search|<cr65535|0|y||<cr65535.out
a NUL byte|ar-add|start=+1h duration=1h\0 x=1\n|2|y|ar-add: line 1: NUL byte at byte 22|
invalid UTF-8: an overlong slash|ar-add|start=+1h duration=1h user=\300\257\n|2|y|ar-add: line 1: invalid UTF-8 at byte 28|
invalid UTF-8: a lone continuation byte|ar-add|start=+1h duration=1h user=\200\n|2|y|ar-add: line 1: invalid UTF-8 at byte 28|
invalid UTF-8: a surrogate|ar-add|start=+1h duration=1h user=\355\240\200\n|2|y|ar-add: line 1: invalid UTF-8 at byte 28|
invalid UTF-8: above U+10FFFF|ar-add|start=+1h duration=1h user=\364\220\200\200\n|2|y|ar-add: line 1: invalid UTF-8 at byte 28|
invalid UTF-8: a truncated sequence|ar-add|start=+1h duration=1h user=\303\n|2|y|ar-add: line 1: invalid UTF-8 at byte 28|
valid UTF-8 passes|ar-search|start=+1h duration=1h user=élodie\n|0|y||start=2026-11-21T01:00:00Z duration=1h user=élodie end=2026-11-21T02:00:00Z free=8 status=available
CRLF line endings are read|ar-add|start=+1h duration=1h\r\nstart=+2h duration=1h\r\n|0|n||start=2026-11-21T01:00:00Z duration=1h id=2 end=2026-11-21T02:00:00Z free=8 status=granted\nstart=2026-11-21T02:00:00Z duration=1h id=3 end=2026-11-21T03:00:00Z free=8 status=granted
# Blank lines and comments hold no request: they are skipped, and the
# lines after them keep their numbers.
an empty line is skipped|ar-add|\n|0|y||
a line of blanks is skipped|ar-add| \t \r\n|0|y||
comments and blank lines keep the line numbers|ar-search|# requests\n\nstart=+1h duration=1h # one hour\n  # indented\n\t\nstart=+1h\n|2|y|ar-search: line 6: missing field 'duration' (or 'end')|start=2026-11-21T01:00:00Z duration=1h end=2026-11-21T02:00:00Z free=8 status=available
a comment ends the fields but not a value|ar-search|start=+1h duration=1h user=a#b job="x # y" #note=1\n|0|y||start=2026-11-21T01:00:00Z duration=1h user=a#b job="x # y" end=2026-11-21T02:00:00Z free=8 status=available
ar-del reads comments too|ar-del|# the base reservation\nid=1 # base\n|0|n||id=1 status=cancelled
a comment line cut short is still refused|ar-add|# no newline|2|y|ar-add: line 1: no newline at the end: the line may be cut short|
an argument that would be a comment|ar-search start=+1h duration=1h '#x=1'||2|y|ar-search: arguments: expected key=value, got '#x=1'|
empty input is no request|ar-add||0|y||
the bad line of three is named|ar-search|start=+1h duration=1h\nstart=+1h\nstart=+1h duration=1h nodes=9\n|2|y|ar-search: line 2: missing field 'duration' (or 'end')|start=2026-11-21T01:00:00Z duration=1h end=2026-11-21T02:00:00Z free=8 status=available\nstart=2026-11-21T01:00:00Z duration=1h nodes=9 end=2026-11-21T02:00:00Z status=unavailable reason=capacity
#
# JSON Lines.
JSON: an array is not an object|ar-add --json|[1,2]\n|2|y|ar-add: line 1: expected '{' at byte 1|
JSON: a string is not an object|ar-add --json|"start"\n|2|y|ar-add: line 1: expected '{' at byte 1|
JSON: key=value is not an object|ar-add --json|start=+1h duration=1h\n|2|y|ar-add: line 1: expected '{' at byte 1|
JSON: an empty line is skipped|ar-add --json|\n|0|y||
JSON: comment lines are skipped|ar-search --json|# c\n\n  # d\n{"start":"+1h","duration":"1h"}\n\t\n{"start":"+1h"}\n|2|y|ar-search: line 6: missing field 'duration' (or 'end')|{"start":"2026-11-21T01:00:00Z","duration":"1h","end":"2026-11-21T02:00:00Z","free":8,"status":"available"}
JSON: no comment after the object|ar-add --json|{"start":"+1h","duration":"1h"} # x\n|2|y|ar-add: line 1: text after the object at byte 33|
JSON: nested 33 levels|ar-add --json|{"start":"+1h","duration":"1h","x":@D33@}\n|2|y|ar-add: line 1: nested deeper than 32 levels at byte 67|
JSON: nested 32 levels is fine|ar-search --json|{"start":"+1h","duration":"1h","x":@D32@}\n|0|y||{"start":"2026-11-21T01:00:00Z","duration":"1h","x":@D32@,"end":"2026-11-21T02:00:00Z","free":8,"status":"available"}
JSON: text after the object|ar-add --json|{"start":"+1h","duration":"1h"} x\n|2|y|ar-add: line 1: text after the object at byte 33|
JSON: two objects on a line|ar-add --json|{"start":"+1h","duration":"1h"}{}\n|2|y|ar-add: line 1: text after the object at byte 32|
JSON: a duplicate key|ar-add --json|{"start":"+1h","duration":"1h","start":"+2h"}\n|2|y|ar-add: line 1: duplicate field 'start'|
JSON: an unterminated object|ar-add --json|{"start":"+1h","duration":"1h"\n|2|y|ar-add: line 1: expected ',' or '}' at end of line|
JSON: an unterminated string|ar-add --json|{"start":"+1h\n|2|y|ar-add: line 1: unterminated string at byte 10|
JSON: \u0000 in a string|ar-add --json|{"start":"+1h","duration":"1h","user":"\\u0000"}\n|2|y|ar-add: line 1: \u0000 is not allowed at byte 40|
JSON: a lone surrogate|ar-add --json|{"start":"+1h","duration":"1h","user":"\\ud800"}\n|2|y|ar-add: line 1: lone surrogate at byte 40|
JSON: a number with a leading zero|ar-add --json|{"start":"+1h","duration":"1h","x":01}\n|2|y|ar-add: line 1: invalid number at byte 36|
JSON: a bad member name|ar-add --json|{"9a":1}\n|2|y|ar-add: line 1: invalid field name at byte 2|
JSON: a number for a time|ar-add --json|{"start":1,"duration":"1h"}\n|2|y|ar-add: line 1: field 'start': invalid time '1' (use 2026-11-21T10:00Z, @EPOCH or now+DURATION)|
JSON: a fraction of a node|ar-add --json|{"start":"+1h","duration":"1h","nodes":2.5}\n|2|y|ar-add: line 1: field 'nodes': not a number: '2.5'|
JSON: true for nodes|ar-add --json|{"start":"+1h","duration":"1h","nodes":true}\n|2|y|ar-add: line 1: field 'nodes': not a number: 'true'|
#
# Labels.
a user of 256 bytes|ar-add start=+1h duration=1h user=@L256@||2|y|ar-add: arguments: field 'user': longer than 255 bytes|
a job of 256 bytes on stdin|ar-search|start=+1h duration=1h job=@L256@\n|2|y|ar-search: line 1: field 'job': longer than 255 bytes|
a user of 255 bytes is kept|ar-add start=+1h duration=1h user=@L255@||0|n||start=2026-11-21T01:00:00Z duration=1h user=@L255@ id=2 end=2026-11-21T02:00:00Z free=8 status=granted
ar-del by a user of 256 bytes|ar-del user=@L256@ job=b||2|y|ar-del: arguments: missing field 'id' (or 'series', or 'user' and 'job' of at most 255 bytes)|
#
# Options.
--now garbage|ar-add --now soon start=+1h duration=1h||2|y|ar-add: option '--now': invalid time 'soon' (use 2026-11-21T10:00Z, @EPOCH or now+DURATION)|
--now without a zone|ar-search --now 2026-11-21T10:00 start=+1h duration=1h||2|y|ar-search: option '--now': missing time zone in '2026-11-21T10:00' (add Z or an offset)|
--now empty|ar-add --now '' start=+1h duration=1h||2|y|ar-add: option '--now': empty time|
AR_NOW garbage|env AR_NOW=yesterday ar-search start=+1h duration=1h||2|y|ar-search: AR_NOW: invalid time 'yesterday' (use 2026-11-21T10:00Z, @EPOCH or now+DURATION)|
--wait garbage|ar-add --wait forever start=+1h duration=1h||2|y|ar-add: option '--wait': invalid duration 'forever'|
--wait a bare number|ar-add --wait 5 start=+1h duration=1h||2|y|ar-add: option '--wait': duration needs a unit: '5'|
--wait negative|ar-del --wait -1s id=1||2|y|ar-del: option '--wait': invalid duration '-1s'|
AR_WAIT garbage|env AR_WAIT=later ar-add start=+1h duration=1h||2|y|ar-add: AR_WAIT: invalid duration 'later'|
ar-suggest -k 0|ar-suggest -k 0 start=+1h duration=1h||2|y|ar-suggest: option '--count': must be between 1 and 100\n@USAGE@|
ar-suggest -k 101|ar-suggest -k 101 start=+1h duration=1h||2|y|ar-suggest: option '--count': must be between 1 and 100\n@USAGE@|
ar-suggest -k garbage|ar-suggest --count many start=+1h duration=1h||2|y|ar-suggest: option '--count': not a number: 'many'\n@USAGE@|
ar-suggest -l 0s|ar-suggest -l 0s start=+1h duration=1h||2|y|ar-suggest: option '--limit': duration must be positive: '0s'\n@USAGE@|
ar-del with neither id nor user and job|ar-del note=x||2|y|ar-del: arguments: missing field 'id' (or 'series', or 'user' and 'job' of at most 255 bytes)|
ar-del with a user and no job|ar-del|user=base\n|2|y|ar-del: line 1: missing field 'id' (or 'series', or 'user' and 'job' of at most 255 bytes)|
ar-del of a user and job with no match|ar-del user=base job=none||1|y|ar-del: arguments: no live reservation with that user and job|user=base job=none status=refused reason=not-found
ar-report --from garbage|ar-report --free --from noon||2|y|ar-report: option '--from': invalid time 'noon' (use 2026-11-21T10:00Z, @EPOCH or now+DURATION)|
ar-report --free before the clock|ar-report --free --from now-1h||2|y|ar-report: option '--free': slot 2026-11-20T23:00:00Z is outside the ring (from the clock to the horizon)|
ar-report --info with a filter record|ar-report --info id=1||2|y|ar-report: a filter record goes with --list or --all|
# Series: every, count and until; series= for ar-del, --modify, ar-report.
a series every nothing|ar-add|start=+1h duration=1h every=never count=2\n|2|y|ar-add: line 1: field 'every': invalid duration 'never' (or daily, weekly, Nslots)|
a series every 0 slots|ar-add start=+1h duration=1h every=0slots count=2||2|y|ar-add: arguments: field 'every': must be between 1 and 3155760000|
a series every slots past 100 years|ar-add start=+1h duration=1h every=3155760000slots count=2||2|y|ar-add: arguments: field 'every': longer than 100 years|
a series of 0|ar-add start=+1h duration=1h every=1h count=0||2|y|ar-add: arguments: field 'count': must be between 1 and 4096|
a series of 4097|ar-add start=+1h duration=1h every=1h count=4097||2|y|ar-add: arguments: field 'count': must be between 1 and 4096|
a series without its end|ar-add start=+1h duration=1h every=daily||2|y|ar-add: arguments: missing field 'count' (or 'until')|
a series with count and until|ar-add start=+1h duration=1h every=daily count=2 until=+3d||2|y|ar-add: arguments: field 'until': give 'count' or 'until', not both|
a series until before it starts|ar-add start=+1h duration=1h every=daily until=+30m||2|y|ar-add: arguments: field 'until': before 'start'|
a series until garbage|ar-add start=+1h duration=1h every=daily until=later||2|y|ar-add: arguments: field 'until': invalid time 'later' (use 2026-11-21T10:00Z, @EPOCH or now+DURATION)|
a series that is a hold|ar-add start=+1h duration=1h every=daily count=2 hold=10m||2|y|ar-add: arguments: field 'hold': not for a series|
a count without every|ar-add start=+1h duration=1h count=2||2|y|ar-add: arguments: field 'count': goes with 'every'|
an until without every|ar-add start=+1h duration=1h until=+1d||2|y|ar-add: arguments: field 'until': goes with 'every'|
a series of two jobs|ar-add start=+1h duration=1h jobs=2 every=1h count=2||2|y|ar-add: arguments: field 'jobs': a series repeats one job|
a series of more than 4096 until|ar-add start=+1h duration=5m every=5m until=+15d||1|y||start=2026-11-21T01:00:00Z duration=5m every=5m until=+15d end=2026-11-21T01:05:00Z status=refused reason=capacity
ar-del series 0|ar-del series=0||2|y|ar-del: arguments: field 'series': must be between 1 and 18446744073709551615|
ar-del series of nothing|ar-del series=1||1|y|ar-del: arguments: no live reservation in that series|series=1 status=refused reason=not-found
ar-add --modify series garbage|ar-add --modify series=x nodes=2||2|y|ar-add: arguments: field 'series': not a number: 'x'|
ar-add --modify series of nothing|ar-add --modify series=1 nodes=2||1|y|ar-add: arguments: series 1: no live reservation|series=1 nodes=2 status=refused reason=not-found
ar-report series 0|ar-report series=0||2|y|ar-report: arguments: field 'series': must be between 1 and 18446744073709551615|
# The filter record of ar-report --list and --all.
ar-report status unknown|ar-report --all status=running||2|y|ar-report: arguments: field 'status': must be granted, held, cancelled, finished, expired or reclaimed|
ar-report --list of cancelled ones|ar-report status=cancelled||2|y|ar-report: arguments: field 'status': --list shows granted and held reservations only (use --all)|
ar-report running neither yes nor no|ar-report running=1||2|y|ar-report: arguments: field 'running': must be yes or no|
ar-report id 0|ar-report id=0||2|y|ar-report: arguments: field 'id': must be between 1 and 18446744073709551615|
ar-report id not a number|ar-report --all id=one||2|y|ar-report: arguments: field 'id': not a number: 'one'|
ar-report owner -1|ar-report owner=-1||2|y|ar-report: arguments: field 'owner': not a number: '-1'|
ar-report owner 2^32|ar-report owner=4294967296||2|y|ar-report: arguments: field 'owner': must be between 0 and 4294967295|
ar-report a user of 256 bytes|ar-report user=@L256@||2|y|ar-report: arguments: field 'user': longer than 255 bytes|
ar-report a field that selects nothing|ar-report user=base state=granted||2|y|ar-report: arguments: field 'state': not one to select by (use id, series, user, job, owner, status or running)|
ar-report a filter without =|ar-report user||2|y|ar-report: arguments: expected key=value, got 'user'|
ar-report --list --from garbage|ar-report --list --from noon||2|y|ar-report: option '--from': invalid time 'noon' (use 2026-11-21T10:00Z, @EPOCH or now+DURATION)|
ar-report --all --to garbage|ar-report --all --to later user=base||2|y|ar-report: option '--to': invalid time 'later' (use 2026-11-21T10:00Z, @EPOCH or now+DURATION)|
EOF

# RECORDS.md: whatever is printed can be parsed again.  A start that
# rounds up past 9999-12-31T23:59:59Z is refused, but it must still be
# printed as a time the next command of a pipe can read.
begin 'bad input: a start rounded past the year 9999 prints a readable time'
copy_store "$BADBASE"
run ar-search start=9999-12-31T23:59:59Z duration=1h
expect_exit 1
keep answer
run ar-search <"$D/answer"
expect_err
expect_check

# --- Stores that are not what they should be. ---

begin 'bad store: a missing store is exit 3 and nothing is created'
printf 'start=+1h duration=1h\n' >"$D/in"
run ar-add <"$D/in"
expect_exit 3
expect_out
expect_err "ar-add: $AR_STORE: no store there (create one with --create)"
run test -e "$AR_STORE"
expect_exit 1

# A directory holding a data.mdb of junk (deterministic bytes): every
# command, --create too, is a store error, and the file is not touched.
begin 'bad store: a directory with a junk data.mdb is not a store'
mkdir "$AR_STORE"
awk 'BEGIN { x = 7; for (i = 0; i < 12288; i++) {
	x = (x * 69069 + 1) % 4294967296; printf "%c", 32 + int(x / 65536) % 95 } }' \
    >"$AR_STORE/data.mdb"
sum=$(sha256sum <"$AR_STORE/data.mdb")
for c in 'ar-report --info' 'ar-search start=+1h duration=1h' \
    'ar-add start=+1h duration=1h' 'ar-del --purge' 'ar-report --create --simulated --info'; do
	set -- $c
	run "$@"
	expect_exit 3
	expect_out
	expect_err "$1: $AR_STORE: not a store (no LMDB environment there)"
done
run sha256sum <"$AR_STORE/data.mdb"
expect_out "$sum"

# An empty data.mdb (a copy that failed at once) is not a store either:
# no writer may make it one behind the user's back, and the message must
# say what is wrong (not "Bad file descriptor").
begin 'bad store: an empty data.mdb is not a store and stays empty'
mkdir "$AR_STORE"
: >"$AR_STORE/data.mdb"
run ar-report --info
expect_exit 3
expect_out
expect_err "ar-report: $AR_STORE: not a store (no LMDB environment there)"
run ar-add start=+1h duration=1h
expect_exit 3
expect_out
expect_err "ar-add: $AR_STORE: not a store (no LMDB environment there)"
run wc -c <"$AR_STORE/data.mdb"
expect_out 0

begin 'bad store: a data.mdb that is a directory'
mkdir -p "$AR_STORE/data.mdb"
run ar-search start=+1h duration=1h
expect_exit 3
expect_out
expect_err "ar-search: $AR_STORE: not a store (no LMDB environment there)"

begin 'bad store: a plain file where the store should be'
printf 'not a store\n' >"$AR_STORE"
run ar-report --list
expect_exit 3
expect_out
expect_err "ar-report: $AR_STORE: Not a directory"
run ar-report --create --simulated --list
expect_exit 3
expect_err "ar-report: $AR_STORE: Not a directory"
run cat "$AR_STORE"
expect_out 'not a store'

# A data.mdb cut short (a copy interrupted, a disk that filled up while
# copying): LMDB maps pages past the end of the file, and touching them is
# SIGBUS.  A damaged store must be a store error, not a crash.
begin 'bad store: a truncated data.mdb is a store error, not a crash'
mkstore
awk 'BEGIN { for (i = 1; i <= 300; i++)
	printf "start=+%dm duration=1h user=u%d job=j%d\n", i * 5, i, i }' >"$D/in"
run ar-add <"$D/in"
expect_exit 0
mv "$AR_STORE/data.mdb" "$D/whole.mdb"
rm -f "$AR_STORE/lock.mdb"
dd if="$D/whole.mdb" of="$AR_STORE/data.mdb" bs=4096 count=2 2>/dev/null
for c in 'ar-report --info' 'ar-report --check' 'ar-search start=+1h duration=1h' \
    'ar-add start=+1h duration=1h'; do
	set -- $c
	run "$@"
	expect_exit 3
	expect_out
	expect_err "$1: $AR_STORE: the store is corrupt"
done

# SCHEMA.md: a store whose meta says another format version is refused
# with exit 3, and nothing converts it: version 2, as a store made before
# the end list's buckets would say (format 3 is for --upgrade, see
# 15-upgrade.sh).
begin 'bad store: another format version is exit 3 and left as it is'
mkstore --nodes 8
run ar-add start=+1h duration=1h
expect_exit 0
set_format 2
sum=$(sha256sum <"$AR_STORE/data.mdb")
for c in 'ar-report --info' 'ar-report --check' 'ar-search start=+2h duration=1h' \
    'ar-add start=+2h duration=1h' 'ar-del id=1' 'ar-del --purge' \
    'ar-suggest start=+2h duration=1h' 'ar-report --create --simulated --info'; do
	set -- $c
	run "$@"
	expect_exit 3
	expect_out
	expect_err "$1: $AR_STORE: the store has another format version"
done
run sha256sum <"$AR_STORE/data.mdb"
expect_out "$sum"

# Read-only: files and directory without write permission.  Root ignores
# permissions, so as root this runs as nobody (uid 65534).  Readers need
# to write lock.mdb (LMDB's reader table): with lock.mdb read-only too
# nothing can be opened; with lock.mdb writable, readers work and writers
# are refused.  Either way a clean message and exit 3.
bad_ro=
if [ "$(id -u)" != 0 ]; then
	bad_ro=command
elif can_be_nobody; then
	bad_ro=as_nobody
fi
if [ -n "$bad_ro" ]; then
	# denied FILE CMD...: each command, run as the other user, is
	# refused with exit 3, naming the store's FILE it may not use; then
	# the store is given back and must be as it was.
	denied() {
		file=$1
		shift
		for c in "$@"; do
			set -- $c
			run $bad_ro "$@"
			expect_exit 3
			expect_out
			expect_err "$1: $AR_STORE/$file: Permission denied"
		done
		chmod 755 "$AR_STORE"
		chmod 644 "$AR_STORE/data.mdb" "$AR_STORE/lock.mdb"
		bad_same
		expect_check
	}

	begin 'bad store: read-only, lock.mdb too: every command is exit 3'
	mkstore --nodes 8
	run ar-add start=+1h duration=1h nodes=2
	chmod a+x "$TOP" "$D"
	bad_snap before
	chmod 444 "$AR_STORE/data.mdb" "$AR_STORE/lock.mdb"
	chmod 555 "$AR_STORE"
	denied lock.mdb 'ar-search start=+1h duration=1h' 'ar-report --all' \
	    'ar-add start=+2h duration=1h' 'ar-del id=1' 'ar-del --purge'

	begin 'bad store: read-only with a writable lock.mdb: readers work, writers exit 3'
	mkstore --nodes 8
	run ar-add start=+1h duration=1h nodes=2
	chmod a+x "$TOP" "$D"
	bad_snap before
	chmod 444 "$AR_STORE/data.mdb"
	chmod 666 "$AR_STORE/lock.mdb"
	chmod 555 "$AR_STORE"
	run $bad_ro ar-search start=+1h duration=1h nodes=6
	expect_exit 0
	expect_out 'start=2026-11-21T01:00:00Z duration=1h nodes=6 end=2026-11-21T02:00:00Z free=6 status=available'
	expect_err
	run $bad_ro ar-report --check
	expect_exit 0
	expect_out
	expect_err
	run $bad_ro ar-report --list
	expect_exit 0
	expect_out "id=1 start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=2 owner=$ME status=granted running=no duration=1h created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z"
	denied data.mdb 'ar-add start=+2h duration=1h' 'ar-del id=1' \
	    'ar-del --purge'
else
	skip 'bad store: read-only, lock.mdb too' 'root without setpriv(1)'
	skip 'bad store: read-only with a writable lock.mdb' 'root without setpriv(1)'
fi

# --- Full disk, full map. ---

# More than 1 MiB holds, and more than one batch (4096 lines): a batch
# that finds no room is run again in halves, so what fits is granted and
# committed.
fill_requests >"$BADIN/fill"

# bad_granted_kept: every id printed as granted (in $D/.out) is in the
# store, and the store holds no other.
bad_granted_kept() {
	sed -n 's/.* id=\([0-9]*\) .*status=granted$/\1/p' "$D/.out" >"$D/granted"
	ar-report --all | sed 's/^id=\([0-9]*\) .*/\1/' >"$D/stored"
	if ! cmp -s "$D/granted" "$D/stored"; then
		fail "the ids printed as granted ($(wc -l <"$D/granted")) are not those stored ($(wc -l <"$D/stored"))"
	fi
}

# A tmpfs of 1 MiB; LMDB reports a short write as EIO, a write of nothing
# as ENOSPC: either is the disk being full, and the message says so.
bad_mnt=$TOP/bad-tmpfs
if [ "$(id -u)" = 0 ] && mkdir "$bad_mnt" &&
    mount -t tmpfs -o size=1m tmpfs "$bad_mnt" 2>/dev/null; then
	begin 'bad store: a full disk is exit 3; what was granted is there'
	AR_STORE=$bad_mnt/store
	mkstore --nodes 1000000
	run ar-add <"$BADIN/fill"
	expect_exit 3
	case $(cat "$D/.err") in
	"ar-add: $AR_STORE: no space left on the disk") ;;
	*) fail "ar-add: stderr is not the disk being full:"
	   sed 's/^/    | /' "$D/.err" >>"$D/.log" ;;
	esac
	[ -s "$D/.out" ] || fail 'nothing was granted before the disk was full'
	bad_granted_kept
	expect_check
	# Room for a small one is still there or not; either way no damage.
	run ar-search start=+1h duration=1h
	expect_exit 0
	umount "$bad_mnt"
else
	skip 'bad store: a full disk' 'needs root and mount -t tmpfs'
fi

begin 'bad store: a full map (--max-size 1) is exit 3; what was granted is there'
mkstore --nodes 1000000 --max-size 1
run ar-add <"$BADIN/fill"
expect_exit 3
expect_err "ar-add: $AR_STORE: the store is full (its maximum size is reached; raise it with --create --max-size)"
[ -s "$D/.out" ] || fail 'nothing was granted before the map was full'
grep -v 'status=granted$' "$D/.out" >"$D/other" && fail 'a line not granted:' && sed 's/^/    | /' "$D/other" >>"$D/.log"
bad_granted_kept
expect_check
run ar-report --info
filter 's/ map_size=[0-9]*//; s/ live=[0-9]* records=[0-9]* next_id=[0-9]*//'
expect_out 'nodes=1000000 hosts=node[0000001-1000000] slot=5m horizon=30d clock=2026-11-21T00:00:00Z clock_mode=simulated owners=uid map_max=1048576 format=10'

# --- Standard descriptors. ---

if [ -c /dev/full ]; then
	# The reservation is committed before it is printed, so it is there
	# even though nobody could read its id: the exit status says so.
	begin 'bad output: ar-add to /dev/full is exit 3, and the grant is committed'
	mkstore --nodes 8
	run sh -c 'ar-add start=+1h duration=1h > /dev/full'
	expect_exit 3
	expect_err 'ar-add: write error: No space left on device'
	run ar-report --list
	expect_out "id=1 start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=1 owner=$ME status=granted running=no duration=1h created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z"
	expect_check

	begin 'bad output: ar-report --all to /dev/full is exit 3'
	mkstore --nodes 8
	run ar-add start=+1h duration=1h
	run sh -c 'ar-report --all > /dev/full'
	expect_exit 3
	expect_err 'ar-report: write error: No space left on device'
	expect_check
else
	skip 'bad output: /dev/full' 'no /dev/full'
fi

# A closed descriptor 0, 1 or 2 is the next one open() returns: LMDB's
# lock.mdb takes it, and the command reads its requests from, or writes
# its records and messages into, the store's own files.  The commands
# must keep them apart: output to a closed stdout is a write error, input
# from a closed stdin a read error, and the store files are left alone.
begin 'bad output: a closed stdout is a write error, not lock.mdb'
mkstore --nodes 8
size=$(wc -c <"$AR_STORE/lock.mdb")
run sh -c 'ar-add start=+1h duration=1h >&-'
expect_exit 3
expect_out
expect_err 'ar-add: write error: Bad file descriptor'
run wc -c <"$AR_STORE/lock.mdb"
expect_out "$size"
expect_check

begin 'bad output: a closed stderr does not write into lock.mdb'
mkstore --nodes 8
size=$(wc -c <"$AR_STORE/lock.mdb")
run sh -c 'ar-add start=garbage duration=1h 2>&-'
expect_exit 2
expect_out
run wc -c <"$AR_STORE/lock.mdb"
expect_out "$size"
expect_check

begin 'bad input: a closed stdin is a read error, not lock.mdb read as records'
mkstore --nodes 8
run sh -c 'ar-search <&-'
expect_exit 3
expect_out
expect_err 'ar-search: read error: Bad file descriptor'
expect_check

# A reader whose pipe closes early dies of SIGPIPE (141) or reports the
# write error (3, when SIGPIPE is ignored); it never hangs.
begin 'bad output: ar-report --all | head -0 ends at once, the store unchanged'
mkstore --nodes 1000000
awk 'BEGIN { for (i = 1; i <= 3000; i++)
	printf "start=+%dm duration=1h user=u%d job=j%d\n", (i % 8000) * 5 + 5, i, i }' >"$D/in"
run ar-add <"$D/in"
expect_exit 0
bad_snap before
bad_timeout=
command -v timeout >/dev/null 2>&1 && bad_timeout='timeout 20'
$bad_timeout sh -c 'ar-report --all; echo $? >"$1"' sh "$D/rc" | head -0
case $(cat "$D/rc" 2>/dev/null) in
141 | 3) ;;
'') fail 'ar-report --all | head -0: killed after 20 s' ;;
*) fail "ar-report --all | head -0: exit status $(cat "$D/rc"), expected 141 or 3" ;;
esac
bad_same
expect_check
