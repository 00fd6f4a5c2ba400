# 86-price-store.sh - price classes kept in the store: --set, --show,
# quotes, admission under nested booking limits, the demand log and
# --update, and every bad configuration.

# price_classes: the thesis's Table 6.3 (book-ahead 0-12 slots at 100,
# 12-24 at 60, further at 40; 5-minute slots) with Table 5.1's limits.
price_classes() {
	printf '%s\n' \
	    'class=1 name=premium price=100 ahead_min=0 ahead_max=1h limit=40' \
	    'class=2 name=business price=60 ahead_min=1h ahead_max=2h limit=35' \
	    'class=3 name=budget price=40 ahead_min=2h limit=30' >"$D/classes"
}

# price_store: a store of 40 nodes with those classes.
price_store() {
	mkstore --nodes 40
	price_classes
	ar-price --set <"$D/classes" || fail 'ar-price --set failed'
}

begin 'price: --set keeps the classes, --show prints them as --set reads them'
mkstore --nodes 40
price_classes
run ar-price --set <"$D/classes"
expect_exit 0
expect_out
expect_err
run ar-price --show
expect_exit 0
expect_out <<'EOF'
class=1 name=premium price=100 ahead_min=0s ahead_max=1h limit=40 retention=90d
class=2 name=business price=60 ahead_min=1h ahead_max=2h limit=35 retention=90d
class=3 name=budget price=40 ahead_min=2h limit=30 retention=90d
EOF
keep shown
run ar-price --set --retention 30d <"$D/shown"
expect_exit 0
run ar-price --show
filter 's/ retention=30d$//'
expect_out <<'EOF'
class=1 name=premium price=100 ahead_min=0s ahead_max=1h limit=40
class=2 name=business price=60 ahead_min=1h ahead_max=2h limit=35
class=3 name=budget price=40 ahead_min=2h limit=30
EOF
expect_check

begin 'price: a store without classes shows none and admits as before'
mkstore --nodes 40
run ar-price --show
expect_exit 0
expect_out
run ar-add start=+3h duration=1h nodes=31
expect_exit 0
expect_out 'start=2026-11-21T03:00:00Z duration=1h nodes=31 id=1 end=2026-11-21T04:00:00Z free=40 status=granted'

begin 'price: a quote says the class, the price and whether the limits admit it'
price_store
run ar-price start=+30m duration=1h nodes=10
expect_exit 0
expect_out 'start=2026-11-21T00:30:00Z duration=1h nodes=10 end=2026-11-21T01:30:00Z free=40 class=1 price=12000 status=available'
run ar-price start=+3h duration=1h nodes=31
expect_exit 1
expect_out 'start=2026-11-21T03:00:00Z duration=1h nodes=31 end=2026-11-21T04:00:00Z free=40 class=3 price=14880 status=unavailable reason=booking-limit'
run ar-report --all
expect_out

begin 'price: admission honours the nested limits; records carry class and price'
price_store
run ar-add start=+3h duration=1h nodes=31
expect_exit 1
expect_out 'start=2026-11-21T03:00:00Z duration=1h nodes=31 end=2026-11-21T04:00:00Z free=40 class=3 price=14880 status=refused reason=booking-limit'
run ar-add start=+3h duration=1h nodes=30
expect_exit 0
expect_out 'start=2026-11-21T03:00:00Z duration=1h nodes=30 id=1 end=2026-11-21T04:00:00Z free=40 class=3 price=14400 status=granted'
# Business on top: classes 2 and 3 together hold at most 35.
run ar-add start=+90m duration=2h nodes=6
expect_exit 1
expect_out 'start=2026-11-21T01:30:00Z duration=2h nodes=6 end=2026-11-21T03:30:00Z free=10 class=2 price=8640 status=refused reason=booking-limit'
run ar-add start=+90m duration=2h nodes=5
expect_exit 0
# Premium may take the rest of the cluster.
run ar-add start=+10m duration=4h nodes=5
expect_exit 0
expect_out 'start=2026-11-21T00:10:00Z duration=4h nodes=5 id=3 end=2026-11-21T04:10:00Z free=5 class=1 price=24000 status=granted'
run ar-add start=+10m duration=4h nodes=1
expect_exit 1
run ar-report --all
expect_out <<'EOF'
id=1 start=2026-11-21T03:00:00Z end=2026-11-21T04:00:00Z nodes=30 owner=0 class=3 price=14400 status=granted running=no duration=1h created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z
id=2 start=2026-11-21T01:30:00Z end=2026-11-21T03:30:00Z nodes=5 owner=0 class=2 price=7200 status=granted running=no duration=2h created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z
id=3 start=2026-11-21T00:10:00Z end=2026-11-21T04:10:00Z nodes=5 owner=0 class=1 price=24000 status=granted running=no duration=4h created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z
EOF
expect_check

begin 'price: a refusal with classes is demand, and is written; --update forecasts from it'
price_store
ar-report --dump >"$D/before"
run ar-add start=+3h duration=1h nodes=31
expect_exit 1
run ar-report --dump
cmp -s "$D/.out" "$D/before" &&
    fail 'a refusal with classes left the demand log as it was'
# By hand: the requests ask for slots 2 to 59 (58 slots) of the day;
# premium 8 nodes x 12 slots, mean 96/58 = 1.655; business 5 and 3 x 12,
# also 1.655; budget 31 x 12 (refused: demand all the same) + 20 x 24 +
# 25 x 12 = 1152, mean 19.86.  EMSR-b: y1 = 1.655 + 3.241 Phi^-1(0.4)
# = 0.83 -> 0, so b2 = 40; the classes above budget, mean 3.31, sd 4.469,
# price 80: y2 = 3.31 + 4.469 Phi^-1(0.5) = 3.31 -> 3, so b3 = 37.
printf '%s\n' 'start=+90m duration=1h nodes=5' 'start=+100m duration=1h nodes=3' \
    'start=+3h duration=2h nodes=20' 'start=+4h duration=1h nodes=25' \
    'start=+10m duration=1h nodes=8' >"$D/demand"
run ar-add <"$D/demand"
run ar-price --update
expect_exit 0
expect_out <<'EOF'
class=1 name=premium price=100 ahead_min=0s ahead_max=1h limit=40 retention=90d mean=1.65517 sd=3.24065 protection=0 old_limit=40
class=2 name=business price=60 ahead_min=1h ahead_max=2h limit=40 retention=90d mean=1.65517 sd=3.0769 protection=3 old_limit=35
class=3 name=budget price=40 ahead_min=2h limit=37 retention=90d mean=19.8621 sd=23.7192 protection=40 old_limit=30
EOF
run ar-price --show
filter 's/.* limit=\([0-9]*\) .*/\1/'
expect_out 40 40 37
expect_check

begin 'price: --update warns on stderr, naming each class it closes or nearly closes'
price_store
run ar-add start=+10m duration=1d nodes=40
run ar-price --update
expect_exit 0
expect_out <<'EOF'
class=1 name=premium price=100 ahead_min=0s ahead_max=1h limit=40 retention=90d mean=40 sd=0 protection=40 old_limit=40
class=2 name=business price=60 ahead_min=1h ahead_max=2h limit=0 retention=90d mean=0 sd=0 protection=40 old_limit=35
class=3 name=budget price=40 ahead_min=2h limit=0 retention=90d mean=0 sd=0 protection=40 old_limit=30
EOF
expect_err <<'EOF'
ar-price: warning: class 2 (business): limit 0 of 40 nodes: the update closes it to advance booking (set a floor with min=)
ar-price: warning: class 3 (budget): limit 0 of 40 nodes: the update closes it to advance booking (set a floor with min=)
EOF
expect_check

begin 'price: a floor min= is set, shown, dumped and loaded, and honoured by --update; a class with one is not warned about'
price_store
sed 's/^class=3 .*/& min=4/' "$D/classes" >"$D/floored"
run ar-price --set <"$D/floored"
expect_exit 0
run ar-price --show
expect_out <<'EOF'
class=1 name=premium price=100 ahead_min=0s ahead_max=1h limit=40 retention=90d
class=2 name=business price=60 ahead_min=1h ahead_max=2h limit=35 retention=90d
class=3 name=budget price=40 ahead_min=2h limit=30 min=4 retention=90d
EOF
keep shown
# EMSR-b would close business and budget (40 nodes protected for
# premium): budget's floor keeps 4 open, and business, nested above it,
# as many; the protection printed is what the limits leave.
run ar-add start=+10m duration=1d nodes=40
run ar-price --update
expect_exit 0
expect_out <<'EOF'
class=1 name=premium price=100 ahead_min=0s ahead_max=1h limit=40 retention=90d mean=40 sd=0 protection=36 old_limit=40
class=2 name=business price=60 ahead_min=1h ahead_max=2h limit=4 retention=90d mean=0 sd=0 protection=36 old_limit=35
class=3 name=budget price=40 ahead_min=2h limit=4 min=4 retention=90d mean=0 sd=0 protection=40 old_limit=30
EOF
expect_err 'ar-price: warning: class 2 (business): limit 4 of 40 nodes: the update nearly closes it to advance booking (set a floor with min=)'
run ar-price --set <"$D/shown"
run ar-report --dump
keep dump
run ar-report --store "$D/copy" --load <"$D/dump"
expect_exit 0
run ar-price --store "$D/copy" --show
expect_out <"$D/shown"
expect_check

begin 'price: a floor above the limit or the nodes is refused, naming its line'
price_store
ar-price --show >"$D/before"
for floor in 3:31 1:41; do
	sed "s/^class=${floor%:*} .*/& min=${floor#*:}/" "$D/classes" >"$D/bad"
	run ar-price --set <"$D/bad"
	expect_exit 2
	expect_err "ar-price: line ${floor%:*}: field 'min': a floor is at most the class's limit"
	run ar-price --show
	expect_out <"$D/before"
done
expect_check

begin 'price: --update on a store without classes is refused'
mkstore --nodes 40
run ar-price --update
expect_exit 1
expect_err "ar-price: $AR_STORE: the store has no price classes (set them with --set)"

begin 'price: a bad configuration names its line and field, and changes nothing'
price_store
ar-price --show >"$D/before"
for cfg in \
    '2 price=100|price=60|not below the class before' \
    '1 limit=35|limit=40|a booking limit is at most the one before, and the first is the capacity' \
    '3 limit=36|limit=30|a booking limit is at most the one before, and the first is the capacity' \
    '2 ahead_min=50m|ahead_min=1h|the book-ahead ranges must cover 0 to forever, without gap or overlap, the last open' \
    '3 ahead_min=3h|ahead_min=2h|the book-ahead ranges must cover 0 to forever, without gap or overlap, the last open'
do
	line=${cfg%% *} rest=${cfg#* }
	new=${rest%%|*} rest=${rest#*|} old=${rest%%|*} msg=${rest#*|}
	field=${new%%=*}
	sed "${line}s/$old/$new/" "$D/classes" >"$D/bad"
	run ar-price --set <"$D/bad"
	expect_exit 2
	expect_err "ar-price: line $line: field '$field': $msg"
	run ar-price --show
	expect_out <"$D/before"
done
printf 'class=1 price=100 ahead_min=0 limit=40\nclass=3 price=50\n' >"$D/bad"
run ar-price --set <"$D/bad"
expect_exit 2
expect_err "ar-price: line 2: field 'class': not 2, its place in price order"
printf 'name=0123456789012345678901234567890123 price=100\n' >"$D/bad"
run ar-price --set <"$D/bad"
expect_exit 2
expect_err "ar-price: line 1: field 'name': longer than 31 bytes"
printf 'price=cheap\n' >"$D/bad"
run ar-price --set <"$D/bad"
expect_exit 2
expect_err "ar-price: line 1: field 'price': not a number: 'cheap'"
printf 'price=100 ahead_max=soon\n' >"$D/bad"
run ar-price --set <"$D/bad"
expect_exit 2
run ar-price --show
expect_out <"$D/before"
expect_check

begin 'price: the number of classes stays while reservations with a class live'
price_store
run ar-add start=+3h duration=1h nodes=3
expect_exit 0
printf 'price=100 limit=40\n' >"$D/one"
run ar-price --set <"$D/one"
expect_exit 1
expect_err "ar-price: $AR_STORE: the number of classes cannot change while reservations with a class are live"
run ar-del id=1
run ar-price --set <"$D/one"
expect_exit 0
run ar-price --show
expect_out 'class=1 price=100 ahead_min=0s limit=40 retention=90d'
expect_check

begin 'price: --show, --set, --update and --capacity go alone'
mkstore --nodes 40
run ar-price --show --set
expect_exit 2
usage_of ar-price >"$D/usage"
{ echo 'ar-price: --capacity, --show, --set and --update go alone'
    cat "$D/usage"; } >"$D/err"
expect_err <"$D/err"

begin 'price: --history and --retention take durations'
price_store
usage_of ar-price >"$D/usage"
run ar-price --update --history soon
expect_exit 2
{ echo "ar-price: option '--history': invalid duration 'soon'"
    cat "$D/usage"; } >"$D/err"
expect_err <"$D/err"
run ar-price --set --retention -1 <"$D/classes"
expect_exit 2
{ echo "ar-price: option '--retention': invalid duration '-1'"
    cat "$D/usage"; } >"$D/err"
expect_err <"$D/err"
run ar-price --show
filter 's/.* limit=\([0-9]*\) retention=\(.*\)/\1 \2/'
expect_out '40 90d' '35 90d' '30 90d'
