# 12-clock.sh - the store's clock.  A live store, the default, follows
# the system clock: no writer can move it, by mistake or on purpose, so
# nobody's reservation can be made to read finished or a request `past`
# before its time.  A simulated store (--create --simulated) takes the
# clock its writers give, for replays and tests.

LIVE_ERR="the store is live: its writers follow the system clock (--now is for readers, and for stores created with --simulated)"

# clock_secs FILE: the clock an --info record in FILE tells, in seconds.
clock_secs() {
	date -u -d "$(sed -n 's/.* clock=\([^ ]*\) .*/\1/p' "$1")" +%s
}

begin 'clock: a store is live unless made --simulated: its clock is the system clock, and --info says so'
before=$(date +%s)
run live ar-report --create --nodes 4 --info
after=$(date +%s)
expect_exit 0
expect_err
keep info
c=$(clock_secs "$D/info")
[ "$c" -ge "$before" ] && [ "$c" -le "$after" ] ||
    fail "the clock, $c, is not the system clock (from $before to $after)"
filter 's/ clock=[^ ]*//; s/ map_size=[0-9]*//'
expect_out 'nodes=4 hosts=node[1-4] slot=5m horizon=30d clock_mode=live owners=uid live=0 records=0 next_id=1 map_max=17179869184 format=10'
run live ar-report --json --info
filter 's/"clock":"[^"]*",//; s/"map_size":[0-9]*,//'
expect_out '{"nodes":4,"hosts":"node[1-4]","slot":"5m","horizon":"30d","clock_mode":"live","owners":"uid","live":0,"records":0,"next_id":1,"map_max":17179869184,"format":10}'
expect_check

begin 'clock: a simulated store takes the clock its writers give, and --info says so'
run ar-report --create --simulated --nodes 4 --info
expect_exit 0
expect_err
filter 's/ map_size=[0-9]*//'
expect_out 'nodes=4 hosts=node[1-4] slot=5m horizon=30d clock=2026-11-21T00:00:00Z clock_mode=simulated owners=uid live=0 records=0 next_id=1 map_max=17179869184 format=10'
run ar-add --now 2026-11-22T00:00:00Z start=+1h duration=1h
expect_exit 0
expect_out 'start=2026-11-22T01:00:00Z duration=1h id=1 end=2026-11-22T02:00:00Z free=4 status=granted'
run ar-report --info
filter 's/ map_size=[0-9]*//'
expect_out 'nodes=4 hosts=node[1-4] slot=5m horizon=30d clock=2026-11-22T00:00:00Z clock_mode=simulated owners=uid live=1 records=1 next_id=2 map_max=17179869184 format=10'
expect_check

# Every writer, with --now on a live store: refused before it writes.
for args in 'ar-add start=+1h duration=1h' 'ar-add --modify id=1 nodes=2' \
    'ar-add --confirm id=1' 'ar-del id=1' 'ar-del --purge' \
    'ar-del --forget now-90d' 'ar-map' 'ar-map --plan' 'ar-map --slurm' \
    'ar-price --set' 'ar-price --update' 'ar-report --create --nodes 4' \
    'ar-report --create --nodes 4 --max-size 64'; do
	begin "clock: $args --now on a live store is refused, exit 2, and changes nothing"
	mklive --nodes 4
	run live ar-add start=+1h duration=1h user=alice
	expect_exit 0
	sum=$(store_sum)
	set -- $args
	run "$@" --now 2099-01-01T00:00:00Z
	expect_exit 2
	expect_out
	expect_err "$1: option '--now': $LIVE_ERR"
	run store_sum
	expect_out "$sum"
	expect_check
done

begin 'clock: AR_NOW for a writer of a live store is refused, exit 2, and changes nothing'
mklive --nodes 4
run live ar-add start=+1h duration=1h user=alice
sum=$(store_sum)
run env AR_NOW=2099-01-01T00:00:00Z ar-add start=+1h duration=1h
expect_exit 2
expect_out
expect_err "ar-add: AR_NOW: $LIVE_ERR"
echo 'id=1' >"$D/in"
run env AR_NOW=2099-01-01T00:00:00Z ar-del <"$D/in"
expect_exit 2
expect_out
expect_err "ar-del: AR_NOW: $LIVE_ERR"
run store_sum
expect_out "$sum"
expect_check

begin 'clock: a mistyped clock cannot make the reservations of a live store read finished'
mklive --nodes 4
run live ar-add start=+1h duration=1h nodes=2 user=alice
expect_exit 0
run ar-add --now 2099-01-01T00:00:00Z start=+1h duration=1h nodes=1
expect_exit 2
expect_err "ar-add: option '--now': $LIVE_ERR"
run live ar-report --list user=alice
expect_exit 0
filter 's/ start=.* nodes=/ nodes=/; s/ duration=.*//'
expect_out "id=1 user=alice nodes=2 owner=$ME status=granted running=no"
run live ar-add start=+1h duration=1h nodes=2
expect_exit 0
filter 's/.* free=/free=/'
expect_out 'free=2 status=granted'
expect_check

begin 'clock: a reader of a live store takes --now to ask what if, and the clock stays'
mklive --nodes 4
run live ar-add start=+1h duration=1h nodes=3
run ar-search --now 2099-01-01T00:00:00Z start=+1h duration=1h nodes=4
expect_exit 0
expect_out 'start=2099-01-01T01:00:00Z duration=1h nodes=4 end=2099-01-01T02:00:00Z free=4 status=available'
run ar-report --now 2099-01-01T00:00:00Z --list running=no
expect_exit 1
expect_out
run live ar-report --info
keep info
[ "$(clock_secs "$D/info")" -le "$(date +%s)" ] ||
    fail "a reader's --now moved the clock: $(cat "$D/info")"
expect_check

begin 'clock: --create with --now or AR_NOW would make a live store: refused, nothing made'
run ar-report --create --nodes 4 --info
expect_exit 2
expect_out
expect_err "ar-report: AR_NOW: $LIVE_ERR"
run live ar-report --create --now 2026-11-21T00:00:00Z --info
expect_exit 2
expect_out
expect_err "ar-report: option '--now': $LIVE_ERR"
run test -e "$AR_STORE"
expect_exit 1

begin 'clock: the clock is part of the configuration: --create compares it'
mklive --nodes 4
run ar-report --create --simulated --nodes 4 --info
expect_exit 3
expect_out
expect_err "ar-report: $AR_STORE: a store with another configuration exists there: clock live there, not simulated"
AR_STORE=$D/sim
mkstore --nodes 4
run live ar-report --create --nodes 4 --info
expect_exit 3
expect_out
expect_err "ar-report: $AR_STORE: a store with another configuration exists there: clock simulated there, not live"
run ar-report --create --simulated --nodes 4 --info
expect_exit 0
expect_check

begin 'clock: --simulated goes with --create or --upgrade'
mkstore --nodes 4
run ar-report --simulated --info
expect_exit 2
expect_out
expect_err 'ar-report: --simulated goes with --create or --upgrade'

begin 'clock: --upgrade makes an older store live, and says so'
mkstore --nodes 4
run ar-add start=+1h duration=1h user=alice
set_format 6
run live ar-report --upgrade --info
expect_exit 0
expect_err "ar-report: $AR_STORE: upgraded from format 6 to 10; its clock is now live, the system clock (--upgrade --simulated keeps a simulated one)"
filter 's/ clock=[^ ]*//; s/ map_size=[0-9]*//'
expect_out 'nodes=4 hosts=node[1-4] slot=5m horizon=30d clock_mode=live owners=uid live=1 records=1 next_id=2 map_max=17179869184 format=10'
run ar-add start=+1h duration=1h
expect_exit 2
expect_err "ar-add: AR_NOW: $LIVE_ERR"
expect_check

begin 'clock: --upgrade --simulated keeps an older store simulated, and says so'
mkstore --nodes 4
run ar-add start=+1h duration=1h user=alice
set_format 6
run ar-report --upgrade --simulated --info
expect_exit 0
expect_err "ar-report: $AR_STORE: upgraded from format 6 to 10; its clock stays simulated"
filter 's/ map_size=[0-9]*//'
expect_out 'nodes=4 hosts=node[1-4] slot=5m horizon=30d clock=2026-11-21T00:00:00Z clock_mode=simulated owners=uid live=1 records=1 next_id=2 map_max=17179869184 format=10'
run ar-add start=+1h duration=1h
expect_exit 0
expect_out 'start=2026-11-21T01:00:00Z duration=1h id=2 end=2026-11-21T02:00:00Z free=3 status=granted'
expect_check

begin 'clock: --check tells a live store whose clock is ahead of the system clock, and by how much'
mkstore --nodes 4
run ar-add --now 2099-01-01T00:00:00Z start=+1h duration=1h
set_format 6
run live ar-report --upgrade --check
expect_exit 3
keep check
filter 's/ is [0-9dhms]* ahead / is D ahead /'
expect_out 'violation="the store is live, but its clock 2099-01-01T00:00:00Z is D ahead of the system clock"'
expect_err "ar-report: $AR_STORE: upgraded from format 6 to 10; its clock is now live, the system clock (--upgrade --simulated keeps a simulated one)" \
    'ar-report: 1 invariant violations'
d=$(sed -n 's/.* is \([0-9]*\)d[0-9hms]* ahead .*/\1/p' "$D/check")
want=$(( ($(date -u -d 2099-01-01T00:00:00Z +%s) - $(date +%s)) / 86400 ))
# (A day may begin between the check and date.)
[ "$d" -ge "$want" ] && [ "$d" -le $((want + 1)) ] ||
    fail "ahead by $d days, expected $want"
# Its clock never runs back: writers go on at the clock it has.
run live ar-add start=+1h duration=1h
expect_exit 0
expect_out 'start=2099-01-01T01:00:00Z duration=1h id=2 end=2099-01-01T02:00:00Z free=3 status=granted'
