# 83-charts.sh - what both charts (ar-report --usage --svg, ar-map --svg)
# show, rendered to pixels: time ticks on round hours and days with
# short labels, windows as wide as they are long, a line at the clock, a
# title naming the store and the time drawn, colours that mean something
# (used or booked, a class, a user) with a legend, round value ticks.
# Needs rsvg-convert (librsvg2-bin) and tests/pngpixel.c ($AR_TESTS).

PNGPIXEL=${AR_TESTS:+$AR_TESTS/pngpixel}
black='0 0 0' white='255 255 255'

# svg_texts FILE: the text of every <text> element, one per line.
svg_texts() {
	sed -n 's/.*<text[^>]*>\([^<]*\)<\/text>.*/\1/p' "$1"
}

# pixels PNG X Y ...: the colours there, one per line (no size line).
pixels() {
	run "$PNGPIXEL" "$@"
	filter 1d
}

# shown_store: how a title names $AR_STORE: a PostgreSQL store by its
# store= name alone, so that no credential of the URI is drawn.
shown_store() {
	case $AR_STORE in
	postgres*://*) echo "${AR_STORE##*store=} (PostgreSQL)" ;;
	*) echo "$AR_STORE" ;;
	esac
}

if ! command -v rsvg-convert >/dev/null 2>&1 || [ ! -x "$PNGPIXEL" ]; then
	skip 'charts: rendered to pixels' \
	    'no rsvg-convert (librsvg2-bin) or tests/pngpixel'
else

# 12.5 hours from 18:00 on 600 pixels from x 70: 48 px an hour, so
# t hours after 18:00 is at x = 70 + 48 t; the plot's bottom is at
# y 252, a value v% drawn up to y = 252 - 2 v.  Used before the clock
# (01:00, x 406) is grey, booked after it blue.
usage_store() {
	mkstore --now 2026-11-20T12:00Z
	ar-add --now 2026-11-20T12:00Z start=2026-11-20T18:00Z duration=4h \
	    nodes=32 >/dev/null
	ar-add --now 2026-11-20T12:00Z start=2026-11-21T00:00Z duration=2h \
	    nodes=48 >/dev/null
	ar-add --now 2026-11-20T12:00Z start=2026-11-21T06:00Z duration=2h \
	    nodes=64 >/dev/null
	ar-report --now 2026-11-21T01:00Z --usage --from 2026-11-20T18:00Z \
	    --to 2026-11-21T06:30Z --window 1h --svg "$D/u.svg" ||
	    fail 'ar-report --usage --svg failed'
	rsvg-convert -o "$D/u.png" "$D/u.svg" || fail 'rsvg-convert failed'
}

begin 'charts: usage: time ticks every 2 hours, labelled HH:MM, the date at midnight'
usage_store
svg_texts "$D/u.svg" | grep -E '^[0-9]{2}[:-][0-9]{2}$' >"$D/labels"
run cat "$D/labels"
expect_out 18:00 20:00 22:00 11-21 02:00 04:00 06:00
# Below the axis: a tick at 20:00 (x 166) and midnight (x 358), none at
# 21:00 (x 214) or 23:00 (x 310).
pixels "$D/u.png" 165 255 357 255 214 255 310 255
expect_out "$black" "$black" "$white" "$white"

begin 'charts: usage: round value ticks, their unit, the title with store and range'
usage_store
svg_texts "$D/u.svg" | grep -E '^[0-9]+$' >"$D/values"
run cat "$D/values"
expect_out 0 20 40 60 80 100
# The tick at 20 (y 212) left of the axis, none at 30 (y 192).
pixels "$D/u.png" 67 211 67 192
expect_out "$black" "$white"
svg_texts "$D/u.svg" | sed -n '1,2p;/(%)/p' >"$D/title"
run cat "$D/title"
expect_out 'Utilisation and acceptance per 1h window' \
    "store $(shown_store), 2026-11-20 18:00 to 2026-11-21 06:30 UTC" \
    'utilisation, acceptance (%)'

begin 'charts: usage: used before the clock, booked after it, a line at the clock'
usage_store
# 50% from 18:00 to 22:00 (the window 19-20 at x 140), 75% from 00:00
# to 02:00: grey before 01:00 (x 380), blue after (x 430); the line at
# 01:00 (x 405-406), labelled now.
pixels "$D/u.png" 140 200 140 145 380 160 430 160 430 95 405 100 395 100
expect_out '119 119 119' "$white" '119 119 119' '68 119 170' "$white" \
    "$black" "$white"
run grep -c '>now</text>' "$D/u.svg"
expect_out 1

begin 'charts: usage: the last window, half an hour, is drawn half as wide'
usage_store
# 06:00-06:30 is x 646-670, its bar a tenth in from each side: 648.4 to
# 667.6 (a whole hour's would reach 689); the hour before it is empty.
pixels "$D/u.png" 643 150 649 150 666 150 669 150
expect_out "$white" '68 119 170' '68 119 170' "$white"

begin 'charts: usage: the legend says which colour is what'
usage_store
pixels "$D/u.png" 76 288 226 288 376 288
expect_out '119 119 119' '68 119 170' '238 102 119'
svg_texts "$D/u.svg" | grep -E 'before|after|^acceptance$' >"$D/legend"
run cat "$D/legend"
expect_out 'used (before now)' 'booked (after now)' acceptance

begin 'charts: usage: revenue counts in round steps of its unit, one colour per class'
mkstore --nodes 40
ar-price --set >/dev/null <<'EOF'
class=1 name=premium price=100 ahead_min=0 ahead_max=1h limit=40
class=2 name=budget price=40 ahead_min=1h limit=30
EOF
ar-add start=+30m duration=1h nodes=8 >/dev/null
ar-add start=+3h duration=1h nodes=30 >/dev/null
run ar-report --usage --from now --to +4h --window 1h --svg "$D/r.svg"
expect_exit 0
# The windows earn 4800, 4800, 0 and 14400 (30 nodes, 12 slots at 40):
# the axis goes to 15000 by 5000.
svg_texts "$D/r.svg" | sed -n '/^Revenue/,$p' | grep -E '^[0-9]+$' >"$D/values"
run cat "$D/values"
expect_out 0 5000 10000 15000
svg_texts "$D/r.svg" | sed -n '/^Revenue/,$p' |
    grep -E 'units|^premium$|^budget$' >"$D/legend"
run cat "$D/legend"
expect_out 'revenue (minor units)' premium budget

# 5 hours from 23:00 on 900 pixels from x 90: 180 px an hour; 4 hosts
# of 16 px from y 50, the time axis at y 114.  The clock at 00:10 is at
# x 300.
map_store() {
	mkstore --hosts 'cn[1-4]'
	ar-add start=+1h duration=2h nodes=2 user=alice >/dev/null
	ar-add start=+2h duration=2h hosts='cn[3-4]' user=bob >/dev/null
	ar-add start=+3h duration=1h nodes=2 user=alice >/dev/null
	ar-map --now 2026-11-21T00:10Z --svg "$D/m.svg" \
	    --from 2026-11-20T23:00Z --to 2026-11-21T04:00Z ||
	    fail 'ar-map --svg failed'
	rsvg-convert -o "$D/m.png" "$D/m.svg" || fail 'rsvg-convert failed'
}

begin 'charts: map: time ticks every half hour, labelled HH:MM, the date at midnight'
map_store
svg_texts "$D/m.svg" | grep -E '^[0-9]{2}[:-][0-9]{2}$' | paste -sd ' ' - \
    >"$D/labels"
run cat "$D/labels"
expect_out '23:00 23:30 11-21 00:30 01:00 01:30 02:00 02:30 03:00 03:30 04:00'
# Below the axis: ticks at 23:30 (x 180) and 01:00 (x 450), none at
# 23:45 (x 225).
pixels "$D/m.png" 179 117 449 117 225 117
expect_out "$black" "$black" "$white"

begin 'charts: map: a line at the clock, the title with store and range'
map_store
pixels "$D/m.png" 299 60 310 60
expect_out "$black" "$white"
svg_texts "$D/m.svg" | sed -n '1,2p;/^now$/p' >"$D/title"
run cat "$D/title"
expect_out 'The plan on hosts (time in UTC across, hosts down)' \
    "store $(shown_store), 2026-11-20 23:00 to 2026-11-21 04:00 UTC" now

begin 'charts: map: a colour per user, the same for all of a user, and a legend'
map_store
# alice's first (cn1-2, 01:00-03:00) and second (03:00-04:00), bob's
# (cn3-4, 02:00-04:00); the legend's swatches at y 144 from x 90, 110
# apart.
pixels "$D/m.png" 500 60 900 60 700 100 96 150 206 150
expect_out '68 119 170' '68 119 170' '238 102 119' '68 119 170' \
    '238 102 119'
svg_texts "$D/m.svg" | grep -Ex 'alice|bob' >"$D/legend"
run cat "$D/legend"
expect_out alice bob

fi
