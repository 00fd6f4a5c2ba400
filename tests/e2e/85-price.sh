# 85-price.sh - ar-price --capacity: booking limits of price classes,
# without a store (Umar's thesis, ch. 5).  No case here makes a store,
# and none is needed.

# The thesis's Tables 5.1 and 5.2, class 3's forecast given though unused.
table52() {
	cat >"$D/in" <<'EOF'
class=1 price=100 mean=10 sd=1.5
class=2 price=60 mean=13 sd=1.7
class=3 price=40 mean=20 sd=2.3
EOF
}

begin 'price: Table 5.3 end to end, EMSR-b by default, and no store'
table52
run ar-price --capacity 40 <"$D/in"
expect_exit 0
expect_out <<'EOF'
class=1 price=100 mean=10 sd=1.5 protection=9 limit=40
class=2 price=60 mean=13 sd=1.7 protection=22 limit=31
class=3 price=40 mean=20 sd=2.3 protection=40 limit=18
EOF
expect_err
run test -e "$D/store"
expect_exit 1

begin 'price: the last class needs only its price; --method emsr-b is the default'
printf '%s\n' 'price=100 mean=10 sd=1.5' 'price=60 mean=13 sd=1.7' \
    'price=40' >"$D/in"
run ar-price --capacity 40 --method emsr-b <"$D/in"
expect_exit 0
expect_out 'price=100 mean=10 sd=1.5 protection=9 limit=40' \
    'price=60 mean=13 sd=1.7 protection=22 limit=31' \
    'price=40 protection=40 limit=18'
expect_err

# Where the methods part: EMSR-b pools classes 1 and 2 (y2 = 25.4),
# EMSR-a adds up their own levels (y2 = 13.8 + 13.8 = 27.6); see
# tests/test_price.c for the working.
begin 'price: --method emsr-a protects more than emsr-b where they differ'
printf '%s\n' 'price=100 mean=10 sd=3' 'price=95 mean=10 sd=3' \
    'price=10' >"$D/in"
run ar-price --capacity 40 <"$D/in"
expect_exit 0
expect_out 'price=100 mean=10 sd=3 protection=5 limit=40' \
    'price=95 mean=10 sd=3 protection=25 limit=35' \
    'price=10 protection=40 limit=15'
run ar-price --capacity 40 --method emsr-a <"$D/in"
expect_exit 0
expect_out 'price=100 mean=10 sd=3 protection=5 limit=40' \
    'price=95 mean=10 sd=3 protection=27 limit=35' \
    'price=10 protection=40 limit=13'
expect_err

# 20 + 5 * Phi^-1(1 - 50/200) = 20 + 5 * 0.674490 = 23.4: 23 kept.
begin 'price: --method littlewood for two classes, as emsr-b gives'
printf '%s\n' 'class=full price=200 mean=20 sd=5' \
    'class=discount price=50' >"$D/in"
run ar-price --capacity 50 --method littlewood <"$D/in"
expect_exit 0
expect_out 'class=full price=200 mean=20 sd=5 protection=23 limit=50' \
    'class=discount price=50 protection=50 limit=27'
expect_err
keep littlewood
run ar-price --capacity 50 <"$D/in"
expect_out <"$D/littlewood"

begin 'price: --json reads and writes JSON Lines, numbers as numbers'
cat >"$D/in" <<'EOF'
{"class":"gold","price":100,"mean":10,"sd":1.5}
{"class":"silver","price":"60","mean":13,"sd":1.7}
{"class":"bronze","price":40}
EOF
run ar-price --json --capacity 40 <"$D/in"
expect_exit 0
expect_out <<'EOF'
{"class":"gold","price":100,"mean":10,"sd":1.5,"protection":9,"limit":40}
{"class":"silver","price":60,"mean":13,"sd":1.7,"protection":22,"limit":31}
{"class":"bronze","price":40,"protection":40,"limit":18}
EOF
expect_err

begin 'price: other fields pass through in order; protection and limit are replaced'
printf '%s\n' 'limit=1 name="first class" price=100 mean=10 sd=1.5 x=y' \
    'price=60 mean=13 sd=1.7 protection=0' 'price=40 mean=0.5e1' >"$D/in"
run ar-price --capacity 40 <"$D/in"
expect_exit 0
expect_out 'limit=40 name="first class" price=100 mean=10 sd=1.5 x=y protection=9' \
    'price=60 mean=13 sd=1.7 protection=22 limit=31' \
    'price=40 mean=0.5e1 protection=40 limit=18'

begin 'price: six classes, and one class on the command line'
cat >"$D/in" <<'EOF'
price=600 mean=10 sd=3
price=500 mean=15 sd=4
price=400 mean=20 sd=5
price=300 mean=25 sd=6
price=200 mean=30 sd=7
price=100
EOF
run ar-price --capacity 200 <"$D/in"
expect_exit 0
expect_out <<'EOF'
price=600 mean=10 sd=3 protection=7 limit=200
price=500 mean=15 sd=4 protection=21 limit=193
price=400 mean=20 sd=5 protection=42 limit=179
price=300 mean=25 sd=6 protection=70 limit=158
price=200 mean=30 sd=7 protection=106 limit=130
price=100 protection=200 limit=94
EOF
run ar-price --capacity 7 class=only price=12.5
expect_exit 0
expect_out 'class=only price=12.5 protection=7 limit=7'
expect_err

begin 'price: demand above the capacity shuts the cheaper classes out'
table52
run ar-price --capacity 20 <"$D/in"
expect_exit 0
expect_out 'class=1 price=100 mean=10 sd=1.5 protection=9 limit=20' \
    'class=2 price=60 mean=13 sd=1.7 protection=20 limit=11' \
    'class=3 price=40 mean=20 sd=2.3 protection=20 limit=0'

# A set with a bad line is bad as a whole: the limits depend on every
# class, so nothing is printed, and every bad line is named.
begin 'price: a price not below the class before: exit 2, nothing printed'
printf '%s\n' 'price=100 mean=10 sd=1.5' 'price=100 mean=13 sd=1.7' \
    'price=40' >"$D/in"
run ar-price --capacity 40 <"$D/in"
expect_exit 2
expect_out
expect_err "ar-price: line 2: field 'price': not below the class before"
printf '%s\n' 'price=60 mean=10 sd=1.5' 'price=100 mean=13 sd=1.7' \
    'price=40' >"$D/in"
run ar-price --capacity 40 <"$D/in"
expect_exit 2
expect_out
expect_err "ar-price: line 2: field 'price': not below the class before"

begin 'price: a negative sd or mean, and every bad line is named'
printf '%s\n' 'price=100 mean=10 sd=-1.5' 'price=60 mean=-13 sd=1.7' \
    'price=40' >"$D/in"
run ar-price --capacity 40 <"$D/in"
expect_exit 2
expect_out
expect_err "ar-price: line 1: field 'sd': must be between 0 and 1e+12" \
    "ar-price: line 2: field 'mean': must be between 0 and 1e+12"

begin 'price: a missing mean or sd on a class but the last'
printf '%s\n' 'price=100 sd=1.5' 'price=60 mean=13' 'price=40' >"$D/in"
run ar-price --capacity 40 <"$D/in"
expect_exit 2
expect_out
expect_err "ar-price: line 1: missing field 'mean' (only the last class may go without)" \
    "ar-price: line 2: missing field 'sd' (only the last class may go without)"

begin 'price: a missing, zero or unreadable price'
printf '%s\n' 'mean=10 sd=1.5' 'price=0 mean=1 sd=1' 'price=1,5' \
    'price=.5' 'price=-3' >"$D/in"
run ar-price --capacity 40 <"$D/in"
expect_exit 2
expect_out
expect_err "ar-price: line 1: missing field 'price'" \
    "ar-price: line 2: field 'price': must be above 0" \
    "ar-price: line 3: field 'price': not a number: '1,5'" \
    "ar-price: line 4: field 'price': not a number: '.5'" \
    "ar-price: line 5: field 'price': must be between 0 and 1e+12"

begin 'price: a line that is no record, or has no newline, spoils the set'
printf 'price=100 mean=10 sd=1.5\nprice=60 mean=1 "sd=1\nprice=40' >"$D/in"
run ar-price --capacity 40 <"$D/in"
expect_exit 2
expect_out
expect_err "ar-price: line 2: invalid field name at byte 17" \
    "ar-price: line 3: no newline at the end: the line may be cut short"

begin 'price: at most 8 classes'
awk 'BEGIN { for (i = 9; i > 0; i--)
	printf "price=%d mean=1 sd=1\n", i * 10 }' >"$D/in"
run ar-price --capacity 40 <"$D/in"
expect_exit 2
expect_out
expect_err 'ar-price: line 9: more than 8 classes'
sed '$d' "$D/in" >"$D/in8"
run ar-price --capacity 40 <"$D/in8"
expect_exit 0
expect_err

begin 'price: littlewood takes exactly two classes'
table52
run ar-price --capacity 40 --method littlewood <"$D/in"
expect_exit 2
expect_out
expect_err "ar-price: option '--method': littlewood takes two classes, not 3"
run ar-price --capacity 40 --method littlewood price=10
expect_exit 2
expect_out
expect_err "ar-price: option '--method': littlewood takes two classes, not 1"

begin 'price: no records at all'
run ar-price --capacity 40
expect_exit 2
expect_out
expect_err 'ar-price: no classes in the input'

begin 'price: --capacity 0 or garbage is bad usage'
usage_of ar-price >"$D/usage"
table52
run ar-price --capacity 0 <"$D/in"
expect_exit 2
expect_out
{ echo "ar-price: option '--capacity': must be between 1 and 1000000"
    cat "$D/usage"; } >"$D/err"
expect_err <"$D/err"
run ar-price --capacity forty <"$D/in"
expect_exit 2
expect_out
{ echo "ar-price: option '--capacity': not a number: 'forty'"
    cat "$D/usage"; } >"$D/err"
expect_err <"$D/err"
# Without --capacity the records are requests to quote, in a store.
run ar-price <"$D/in"
expect_exit 3
expect_out
expect_err "ar-price: $AR_STORE: no store there (create one with --create)"

begin 'price: an unknown --method is bad usage'
table52
run ar-price --capacity 40 --method emsr-c <"$D/in"
expect_exit 2
expect_out
{ echo "ar-price: option '--method': unknown method 'emsr-c' (use emsr-b, emsr-a or littlewood)"
    usage_of ar-price; } >"$D/err"
expect_err <"$D/err"

begin 'price: --capacity uses no store, so it neither creates nor upgrades one'
table52
run ar-price --capacity 40 --create <"$D/in"
expect_exit 2
expect_out
expect_err 'ar-price: --create: this mode uses no store'
run test -e "$D/store"
expect_exit 1
run ar-price --capacity 40 --upgrade <"$D/in"
expect_exit 2
expect_out
expect_err 'ar-price: --upgrade: this mode uses no store'
