# 82-report-usage.sh - ar-report --usage: the figures per window and per
# label, by hand on the thesis's Table 3.4 plan; the output forms (records,
# JSON, --table, --svg rendered to pixels); bad ranges and windows; and
# the retention of history (ar-del --forget).
#
# The --svg case needs rsvg-convert (librsvg2-bin) and the pixel reader
# tests/pngpixel.c ($AR_TESTS); it skips without them.

PNGPIXEL=${AR_TESTS:+$AR_TESTS/pngpixel}

# Table 3.4 (see 70-table34.sh): slots 11..18 (00:55 to 01:35) have
# 5 4 3 1 4 2 2 0 of 5 nodes in use; the copies asked per slot are
# 11: 5, 12: 1, 13: 1, 15: 4, 16: 1; user 11 asks 3 copies at slot 12
# and is refused (full).
table34() {
	mkstore --nodes 5 --slot 5m
	run ar-add <"$DATA/table-3.4.ar"
	run ar-add user=11 start=2026-11-21T01:00:00Z duration=15m nodes=1 jobs=3
}
range34='--from 2026-11-21T00:55Z --to 2026-11-21T01:35Z'

begin 'usage: table 3.4 in windows of two slots, by hand'
table34
run ar-report --usage $range34 --window 10m
expect_exit 0
expect_out <<'EOF'
from=2026-11-21T00:55:00Z to=2026-11-21T01:05:00Z utilisation=0.9 reserved=9 idle=1 granted=6 refused=3 refused_full=3 refused_past=0 refused_horizon=0 refused_capacity=0 refused_key_reused=0 refused_booking_limit=0 refused_hosts=0 refused_no_slices=0 acceptance=0.666667 awt=0 awt_max=0 moved=0
from=2026-11-21T01:05:00Z to=2026-11-21T01:15:00Z utilisation=0.4 reserved=4 idle=6 granted=1 refused=0 refused_full=0 refused_past=0 refused_horizon=0 refused_capacity=0 refused_key_reused=0 refused_booking_limit=0 refused_hosts=0 refused_no_slices=0 acceptance=1 awt=0 awt_max=0 moved=0
from=2026-11-21T01:15:00Z to=2026-11-21T01:25:00Z utilisation=0.6 reserved=6 idle=4 granted=5 refused=0 refused_full=0 refused_past=0 refused_horizon=0 refused_capacity=0 refused_key_reused=0 refused_booking_limit=0 refused_hosts=0 refused_no_slices=0 acceptance=1 awt=0 awt_max=0 moved=0
from=2026-11-21T01:25:00Z to=2026-11-21T01:35:00Z utilisation=0.2 reserved=2 idle=8 granted=0 refused=0 refused_full=0 refused_past=0 refused_horizon=0 refused_capacity=0 refused_key_reused=0 refused_booking_limit=0 refused_hosts=0 refused_no_slices=0 acceptance=- awt=- awt_max=- moved=0
window=total from=2026-11-21T00:55:00Z to=2026-11-21T01:35:00Z utilisation=0.525 reserved=21 idle=19 granted=12 refused=3 refused_full=3 refused_past=0 refused_horizon=0 refused_capacity=0 refused_key_reused=0 refused_booking_limit=0 refused_hosts=0 refused_no_slices=0 acceptance=0.8 awt=0 awt_max=0 moved=0
EOF
expect_err
expect_check

begin 'usage: the default window is 12 slots; a window may be cut by --to'
table34
run ar-report --usage --from 2026-11-21T00:55Z --to 2026-11-21T02:05Z
expect_exit 0
filter 's/ reserved.*//'
expect_out 'from=2026-11-21T00:55:00Z to=2026-11-21T01:55:00Z utilisation=0.35' \
    'from=2026-11-21T01:55:00Z to=2026-11-21T02:05:00Z utilisation=0' \
    'window=total from=2026-11-21T00:55:00Z to=2026-11-21T02:05:00Z utilisation=0.3'

begin 'usage: a waiting time is the granted start less the asked one'
mkstore --nodes 2 --slot 5m
run ar-add start=+1h duration=1h nodes=2
run ar-add start=+1h latest=+3h duration=30m nodes=1 jobs=2 user=late
expect_exit 0
run ar-report --usage --from +1h --to +3h --window 2h --by user
expect_exit 0
filter 's/ refused=.* \(awt=\)/ \1/'
expect_out 'user="" from=2026-11-21T01:00:00Z to=2026-11-21T03:00:00Z utilisation=0.5 reserved=24 granted=1 awt=0 awt_max=0 moved=0' \
    'user=late from=2026-11-21T01:00:00Z to=2026-11-21T03:00:00Z utilisation=0.25 reserved=12 granted=2 awt=3600 awt_max=3600 moved=0' \
    'window=total from=2026-11-21T01:00:00Z to=2026-11-21T03:00:00Z utilisation=0.75 reserved=36 idle=12 granted=3 awt=2400 awt_max=3600 moved=0'

begin 'usage: --by user cannot tell refusals (the demand log has no labels)'
table34
run ar-report --usage $range34 --by user
expect_exit 0
filter '/user=1[01]* /!d; s/ reserved.*refused_no_slices=unknown//'
expect_out 'user=1 from=2026-11-21T00:55:00Z to=2026-11-21T01:35:00Z utilisation=0.05 acceptance=unknown awt=0 awt_max=0 moved=0' \
    'user=10 from=2026-11-21T00:55:00Z to=2026-11-21T01:35:00Z utilisation=0.075 acceptance=unknown awt=0 awt_max=0 moved=0'

begin 'usage: --by class counts refusals per class, and revenue'
mkstore --nodes 4 --slot 5m
run ar-price --set <<'EOF'
class=1 name=late price=30 ahead_min=0 ahead_max=2h
class=2 name=early price=10 ahead_min=2h
EOF
expect_exit 0
run ar-add <<'EOF'
start=+1h duration=10m nodes=4
start=+1h duration=10m nodes=1
start=+3h duration=5m nodes=2
EOF
expect_exit 1
run ar-report --usage --from +1h --to +4h --window 3h --by class
expect_exit 0
filter 's/ reserved=[^ ]*//; s/ refused_[a-z_]*=0//g; s/ acceptance.*moved=0//'
expect_out 'class=1 name=late from=2026-11-21T01:00:00Z to=2026-11-21T04:00:00Z utilisation=0.0555556 granted=1 refused=1 refused_full=1 revenue=240 granted_c1=1 refused_c1=1 revenue_c1=240 granted_c2=0 refused_c2=0 revenue_c2=0' \
    'class=2 name=early from=2026-11-21T01:00:00Z to=2026-11-21T04:00:00Z utilisation=0.0138889 granted=1 refused=0 revenue=20 granted_c1=0 refused_c1=0 revenue_c1=0 granted_c2=1 refused_c2=0 revenue_c2=20' \
    'window=total from=2026-11-21T01:00:00Z to=2026-11-21T04:00:00Z utilisation=0.0694444 idle=134 granted=2 refused=1 refused_full=1 revenue=260 granted_c1=1 refused_c1=1 revenue_c1=240 granted_c2=1 refused_c2=0 revenue_c2=20'
expect_check

begin 'usage: --json writes the same figures as JSON Lines'
table34
run ar-report --json --usage $range34 --window 40m
expect_exit 0
filter 's/"refused_past".*"acceptance"/…"acceptance"/'
expect_out '{"from":"2026-11-21T00:55:00Z","to":"2026-11-21T01:35:00Z","utilisation":0.525,"reserved":21,"idle":19,"granted":12,"refused":3,"refused_full":3,…"acceptance":0.8,"awt":0,"awt_max":0,"moved":0}' \
    '{"window":"total","from":"2026-11-21T00:55:00Z","to":"2026-11-21T01:35:00Z","utilisation":0.525,"reserved":21,"idle":19,"granted":12,"refused":3,"refused_full":3,…"acceptance":0.8,"awt":0,"awt_max":0,"moved":0}'

begin 'usage: a window with nothing granted has no waits: awt and awt_max are - (null in JSON), not 0'
table34
run ar-report --usage --from 2026-11-21T01:25Z --to 2026-11-21T01:35Z
expect_exit 0
filter 's/ refused_past.* acceptance/ … acceptance/'
expect_out 'from=2026-11-21T01:25:00Z to=2026-11-21T01:35:00Z utilisation=0.2 reserved=2 idle=8 granted=0 refused=0 refused_full=0 … acceptance=- awt=- awt_max=- moved=0' \
    'window=total from=2026-11-21T01:25:00Z to=2026-11-21T01:35:00Z utilisation=0.2 reserved=2 idle=8 granted=0 refused=0 refused_full=0 … acceptance=- awt=- awt_max=- moved=0'
run ar-report --json --usage --from 2026-11-21T01:25Z --to 2026-11-21T01:35Z
expect_exit 0
filter 's/"refused_past".*"acceptance"/…"acceptance"/'
expect_out '{"from":"2026-11-21T01:25:00Z","to":"2026-11-21T01:35:00Z","utilisation":0.2,"reserved":2,"idle":8,"granted":0,"refused":0,"refused_full":0,…"acceptance":null,"awt":null,"awt_max":null,"moved":0}' \
    '{"window":"total","from":"2026-11-21T01:25:00Z","to":"2026-11-21T01:35:00Z","utilisation":0.2,"reserved":2,"idle":8,"granted":0,"refused":0,"refused_full":0,…"acceptance":null,"awt":null,"awt_max":null,"moved":0}'
expect_err

begin 'usage: --table aligns the figures under headings with units'
table34
run ar-report --usage $range34 --window 20m --table
expect_exit 0
expect_out <<'EOF'
from                  to                    utilisation(%)  idle(node-slots)  granted  refused  acceptance(%)  awt(s)  awt_max(s)  moved
2026-11-21T00:55:00Z  2026-11-21T01:15:00Z            65.0                 7        7        3           70.0       0           0      0
2026-11-21T01:15:00Z  2026-11-21T01:35:00Z            40.0                12        5        0          100.0       0           0      0
2026-11-21T00:55:00Z  total                           52.5                19       12        3           80.0       0           0      0
EOF
expect_err

while IFS='|' read -r opt msg <&3; do
	begin "usage: $opt is bad usage, exit 2, nothing written"
	table34
	run ar-report --usage --from 2026-11-21T00:55Z $opt
	expect_exit 2
	expect_out
	expect_err "ar-report: $msg"
done 3<<'EOF'
--to 2026-11-21T00:55Z|option '--to': not after '--from'
--window 7m|option '--window': not a whole number of slots (300 s)
--window 0s|option '--window': duration must be positive: '0s'
--by host|option '--by': unknown label 'host' (use user, job, class or partition)
--window 5m --to 2036-11-21T00:55Z|option '--window': more than 1000000 windows
--svg /nonexistent/x.svg|/nonexistent/x.svg: No such file or directory
EOF

if ! command -v rsvg-convert >/dev/null 2>&1 || [ ! -x "$PNGPIXEL" ]; then
	skip 'usage: --svg draws each window where its figures say' \
	    'no rsvg-convert (librsvg2-bin) or tests/pngpixel'
else
	# The plot is 600 x 200 pixels from (70, 52): window i of 4 spans
	# x 70 + 150 i to 220 + 150 i, its bar 15 in from each side; a
	# value v is drawn up to y = 252 - 200 v.
	begin 'usage: --svg draws each window where its figures say'
	table34
	run ar-report --usage $range34 --window 10m --svg "$D/u.svg"
	expect_exit 0
	expect_out
	run rsvg-convert -o "$D/u.png" "$D/u.svg"
	expect_exit 0
	# Utilisation 0.9 0.4 0.6 0.2: the bar just under its top and the
	# white just above it, in the middle of the bar's left half.
	# (pngpixel prints the image's size first, then R G B per point.)
	run "$PNGPIXEL" "$D/u.png" 110 76 110 68 260 176 260 168 410 136 \
	    410 128 560 216 560 208
	filter 1d
	bar='68 119 170' white='255 255 255'
	expect_out "$bar" "$white" "$bar" "$white" "$bar" "$white" "$bar" \
	    "$white"
	# Acceptance 2/3, 1, 1: the dots at the windows' middles.
	run "$PNGPIXEL" "$D/u.png" 145 119 295 52 445 52
	filter 1d
	expect_out '238 102 119' '238 102 119' '238 102 119'
	# Title and store, 6 values and the unit, 9 times (every 5
	# minutes from 00:55 to 01:35), 3 legend entries.
	run grep -c '<text' "$D/u.svg"
	expect_out 21
fi

begin 'usage: --svg draws revenue per class when there are classes'
mkstore --nodes 4 --slot 5m
run ar-price --set <<'EOF'
class=1 name=late price=30 ahead_min=0 ahead_max=2h
class=2 name=early price=10 ahead_min=2h
EOF
run ar-add start=+1h duration=10m nodes=4
run ar-report --usage --from +1h --to +2h --window 30m --svg -
expect_exit 0
run sh -c 'ar-report --usage --from +1h --to +2h --window 30m --svg - | grep -c "Revenue per class\|>late<\|>early<"'
expect_out 3

begin 'usage: history forgotten is told as unknown, not as zeros'
mkstore --nodes 4 --slot 5m --horizon 1d
run ar-add start=+1h duration=1h nodes=2
run ar-add start=+2h duration=1h nodes=9
run ar-del -q --forget 2026-11-22T00:00Z --now 2026-11-22T12:00Z
expect_exit 0
expect_out 'forgot_before=2026-11-22T00:00:00Z records=1 demand=2'
run ar-report --usage --from 2026-11-21T00:00Z --to 2026-11-21T12:00Z --window 12h
expect_exit 0
filter 's/refused_past.*refused_no_slices=unknown/…/'
expect_out 'from=2026-11-21T00:00:00Z to=2026-11-21T12:00:00Z known=no utilisation=unknown reserved=unknown idle=unknown granted=unknown refused=unknown refused_full=unknown … acceptance=unknown awt=unknown awt_max=unknown moved=unknown' \
    'window=total from=2026-11-21T00:00:00Z to=2026-11-21T12:00:00Z known=no utilisation=unknown reserved=unknown idle=unknown granted=unknown refused=unknown refused_full=unknown … acceptance=unknown awt=unknown awt_max=unknown moved=unknown'
expect_check

# A steady load, day after day: each day's requests, then the cron line
# that forgets what ended more than two days before.  The file stops
# growing, and a report over the days kept is what it was.
begin 'usage: under a steady load with --forget the store stops growing'
mkstore --nodes 16 --slot 5m --horizon 1d
awk 'BEGIN { for (i = 0; i < 200; i++)
	printf "start=+%dm duration=%dm nodes=%d user=u%d\n",
	    (i * 37) % 1200 + 5, (i * 13) % 120 + 5, i % 5 + 1, i % 7 }' \
    >"$D/day"
day=0
while [ $day -lt 24 ]; do
	now=$(date -u -d "2026-11-21 + $day days" +%Y-%m-%dT%H:%M:%SZ)
	ar-add --now "$now" <"$D/day" >/dev/null
	[ $day = 23 ] && ar-report --now "$now" --usage --from now-2d \
	    --to now >"$D/before"
	ar-del -q --now "$now" --forget now-3d >/dev/null
	stat -c %s "$AR_STORE/data.mdb" >>"$D/sizes"
	day=$((day + 1))
done
# Days 12 to 24 add less than 5% (a page or two of LMDB's); without
# --forget each day would add some 40 KiB.
run sh -c 'a=$(sed -n 12p "$1"); b=$(sed -n 24p "$1")
	test $(((b - a) * 20)) -lt "$a"' sh "$D/sizes"
expect_exit 0
run ar-report --now "$now" --usage --from now-2d --to now
expect_out <"$D/before"
run grep -c 'known=no' "$D/before"
expect_out 0
expect_check
