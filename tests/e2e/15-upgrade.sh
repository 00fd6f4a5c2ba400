# 15-upgrade.sh - stores of an older format: refused until --upgrade
# converts them, in one transaction.  (A store of format 3 is made by
# patching the meta of a new one: see set_format in tests/e2e.sh.)

for args in 'ar-report --info' 'ar-report --check' \
    'ar-search start=+2h duration=1h' 'ar-add start=+2h duration=1h' \
    'ar-del id=1' 'ar-suggest start=+2h duration=1h' \
    'ar-report --create --simulated --nodes 8 --info'; do
	begin "upgrade: $args on a format 3 store says how to upgrade, exit 3"
	mkstore --nodes 8
	run ar-add start=+1h duration=1h user=alice
	expect_exit 0
	set_format 3
	sum=$(sha256sum <"$AR_STORE/data.mdb")
	set -- $args
	run "$@"
	expect_exit 3
	expect_out
	expect_err "$1: $AR_STORE: the store has an older format version; upgrade it with --upgrade"
	run sha256sum <"$AR_STORE/data.mdb"
	expect_out "$sum"
done

begin 'upgrade: --upgrade converts a format 3 store and carries on'
mkstore --nodes 8
run ar-add start=+1h duration=1h user=alice
expect_exit 0
set_format 3
run ar-report --upgrade --simulated --list
expect_exit 0
expect_out "id=1 user=alice start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=1 owner=$ME status=granted running=no duration=1h created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z"
expect_err "ar-report: $AR_STORE: upgraded from format 3 to 10; its clock stays simulated"
run ar-report --info
filter 's/ map_size=[0-9]*//'
expect_out 'nodes=8 hosts=node[1-8] slot=5m horizon=30d clock=2026-11-21T00:00:00Z clock_mode=simulated owners=uid live=1 records=1 next_id=2 map_max=17179869184 format=10'
expect_check
run ar-add start=+1h duration=1h client_key=after
expect_exit 0
expect_out 'start=2026-11-21T01:00:00Z duration=1h client_key=after id=2 end=2026-11-21T02:00:00Z free=7 status=granted'
expect_check

begin 'upgrade: a format 5 store keeps its host names and its reservations, and takes holds'
mkstore --hosts 'cn[1-4]'
run ar-add start=+1h duration=1h nodes=2
set_format 5
run ar-add start=+1h duration=1h hold=10m
expect_exit 3
expect_err "ar-add: $AR_STORE: the store has an older format version; upgrade it with --upgrade"
run ar-add --upgrade --simulated start=+1h duration=1h hold=10m
expect_exit 0
expect_out 'start=2026-11-21T01:00:00Z duration=1h hold=10m id=2 end=2026-11-21T02:00:00Z free=2 status=held expires=2026-11-21T00:10:00Z'
expect_err "ar-add: $AR_STORE: upgraded from format 5 to 10; its clock stays simulated"
run ar-report --info
filter 's/ map_size=[0-9]*//'
expect_out 'nodes=4 hosts=cn[1-4] slot=5m horizon=30d clock=2026-11-21T00:00:00Z clock_mode=simulated owners=uid live=2 records=2 next_id=3 map_max=17179869184 format=10'
expect_check

# Format 6 left a class's floor unused: a caller's bytes may be there,
# and the upgrade makes it 0, no floor.  (The floor is set as format 7
# sets it, and the meta then says 6.)
begin 'upgrade: a format 6 store keeps its classes, each with no floor, and its confirmed hold'
mkstore --nodes 8
printf '%s\n' 'class=1 price=100 ahead_min=0 ahead_max=1h limit=8 min=2' \
    'class=2 price=50 ahead_min=1h limit=6 min=3' | ar-price --set
run ar-add start=+2h duration=1h nodes=2 hold=10m
run ar-add --confirm id=1
set_format 6
run ar-price --show
expect_exit 3
expect_err "ar-price: $AR_STORE: the store has an older format version; upgrade it with --upgrade"
run ar-price --upgrade --simulated --show
expect_exit 0
expect_out 'class=1 price=100 ahead_min=0s ahead_max=1h limit=8 retention=90d' \
    'class=2 price=50 ahead_min=1h limit=6 retention=90d'
run ar-add --confirm id=1
expect_exit 0
expect_out 'id=1 status=granted'
expect_check

begin 'upgrade: any command takes --upgrade, a writer too'
mkstore --nodes 8
set_format 3
run ar-add --upgrade --simulated start=+1h duration=1h
expect_exit 0
expect_out 'start=2026-11-21T01:00:00Z duration=1h id=1 end=2026-11-21T02:00:00Z free=8 status=granted'
expect_err "ar-add: $AR_STORE: upgraded from format 3 to 10; its clock stays simulated"
expect_check

begin 'upgrade: --upgrade on a current store changes nothing and succeeds'
mkstore --nodes 8
run ar-add start=+1h duration=1h
sum=$(sha256sum <"$AR_STORE/data.mdb")
run ar-search --upgrade start=+1h duration=1h nodes=7
expect_exit 0
expect_out 'start=2026-11-21T01:00:00Z duration=1h nodes=7 end=2026-11-21T02:00:00Z free=7 status=available'
expect_err
run sha256sum <"$AR_STORE/data.mdb"
expect_out "$sum"
expect_check

begin 'upgrade: --upgrade with --create makes a missing store'
run ar-report --upgrade --create --simulated --nodes 5 --info
expect_exit 0
filter 's/ map_size=[0-9]*//'
expect_out 'nodes=5 hosts=node[1-5] slot=5m horizon=30d clock=2026-11-21T00:00:00Z clock_mode=simulated owners=uid live=0 records=0 next_id=1 map_max=17179869184 format=10'
expect_check

begin 'upgrade: --upgrade with --create converts a format 3 store, then compares'
mkstore --nodes 5
set_format 3
run ar-report --upgrade --create --simulated --nodes 5 --info
expect_exit 0
filter 's/ map_size=[0-9]*//'
expect_out 'nodes=5 hosts=node[1-5] slot=5m horizon=30d clock=2026-11-21T00:00:00Z clock_mode=simulated owners=uid live=0 records=0 next_id=1 map_max=17179869184 format=10'
expect_check

begin 'upgrade: --upgrade on a missing store is a store error and creates nothing'
run ar-report --upgrade --info
expect_exit 3
expect_out
expect_err "ar-report: $AR_STORE: no store there (create one with --create)"
run test -e "$AR_STORE"
expect_exit 1

begin 'upgrade: a format it cannot convert stays refused, and as it is'
mkstore --nodes 8
set_format 2
sum=$(sha256sum <"$AR_STORE/data.mdb")
run ar-report --upgrade --info
expect_exit 3
expect_out
expect_err "ar-report: $AR_STORE: the store has another format version"
set_format 11
run ar-add --upgrade start=+1h duration=1h
expect_exit 3
expect_out
expect_err "ar-add: $AR_STORE: the store has another format version"
set_format 2
run sha256sum <"$AR_STORE/data.mdb"
expect_out "$sum"

if command -v flock >/dev/null 2>&1; then
	begin 'upgrade: --upgrade waits for the writer lock no longer than --wait'
	mkstore --nodes 8
	set_format 3
	sum=$(sha256sum <"$AR_STORE/data.mdb")
	run flock "$AR_STORE/writer.lock" ar-report --upgrade --wait 0 --info
	expect_exit 3
	expect_out
	expect_err "ar-report: $AR_STORE: timed out waiting for another writer"
	run sha256sum <"$AR_STORE/data.mdb"
	expect_out "$sum"
	run ar-report --upgrade --wait 0 --check
	expect_exit 0
	expect_out
else
	skip 'upgrade: --upgrade waits for the writer lock' 'no flock(1) (util-linux)'
fi

begin 'upgrade: a format 6 store becomes current, keeps its reservations, takes flags and accounts; twice is once'
mkstore --hosts 'cn[1-4]'
run ar-add start=+1h duration=1h nodes=2 user=alice
set_format 6
run ar-add start=+2h duration=1h hosts=cn1 flags=maint
expect_exit 3
expect_err "ar-add: $AR_STORE: the store has an older format version; upgrade it with --upgrade"
run ar-add --upgrade --simulated start=+2h duration=1h hosts=cn1 flags=maint account=ops
expect_exit 0
sum=$(sha256sum <"$AR_STORE/data.mdb")
run ar-report --upgrade --list
expect_exit 0
filter 's/ created=.*//'
expect_out "id=1 user=alice start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=2 owner=$ME status=granted running=no duration=1h" \
    "id=2 flags=maint account=ops start=2026-11-21T02:00:00Z end=2026-11-21T03:00:00Z nodes=1 owner=$ME status=granted running=no duration=1h"
run sha256sum <"$AR_STORE/data.mdb"
expect_out "$sum"
expect_check

begin 'upgrade: a format 7 store becomes 8, keeps its reservations, takes use reports and a reclaim policy'
mkstore --nodes 4
run ar-add start=+1h duration=2h nodes=2 user=alice
run ar-add start=+1h duration=2h nodes=2 user=bob
set_format 7
run ar-add --now 2026-11-21T01:05Z id=1 used=yes
expect_exit 3
expect_err "ar-add: $AR_STORE: the store has an older format version; upgrade it with --upgrade"
run ar-report --upgrade --simulated --info
expect_exit 0
filter 's/.* live=/live=/'
expect_out 'live=2 records=2 next_id=3 map_size=1048576 map_max=17179869184 format=10'
expect_err "ar-report: $AR_STORE: upgraded from format 7 to 10"
sum=$(sha256sum <"$AR_STORE/data.mdb")
run ar-report --upgrade --info
expect_exit 0
expect_err
run sha256sum <"$AR_STORE/data.mdb"
expect_out "$sum"
expect_check
# Policies and reports work on it as on a new store.
run ar-price --reclaim 30m
run ar-add --now 2026-11-21T01:05Z id=1 used=yes
expect_exit 0
expect_out 'id=1 used=yes status=granted'
run ar-add --now 2026-11-21T01:40Z start=2026-11-21T02:00Z duration=1h nodes=2
expect_exit 0
run ar-report --now 2026-11-21T01:40Z --all
filter 's/ running=.*//'
expect_out "id=1 user=alice start=2026-11-21T01:00:00Z end=2026-11-21T03:00:00Z nodes=2 owner=$ME status=granted used=yes" \
    "id=2 user=bob start=2026-11-21T01:00:00Z end=2026-11-21T01:40:00Z nodes=2 owner=$ME status=reclaimed" \
    "id=3 start=2026-11-21T02:00:00Z end=2026-11-21T03:00:00Z nodes=2 owner=$ME status=granted"

# Format 8 adds the pieces of a split request, in the series link's word
# that format 7 wrote 0: nothing is rewritten, and the store's mode, set
# by format 7, stays.
begin 'upgrade: a format 7 store keeps its mode and its series, and takes split requests'
mkstore --nodes 4
run ar-add start=+1h duration=1h every=2h count=2
expect_exit 0
set_format 7
run ar-add start=+1h duration=2h defer=+5h split=yes
expect_exit 3
expect_err "ar-add: $AR_STORE: the store has an older format version; upgrade it with --upgrade"
run ar-add --upgrade start=+1h duration=2h nodes=4 defer=+5h split=yes
expect_exit 0
expect_out 'start=2026-11-21T02:00:00Z duration=2h nodes=4 defer=+5h split=yes id=3 series=3 piece=1 pieces=2 end=2026-11-21T03:00:00Z free=4 status=granted' \
    'start=2026-11-21T04:00:00Z duration=2h nodes=4 defer=+5h split=yes id=4 series=3 piece=2 pieces=2 end=2026-11-21T05:00:00Z free=4 status=granted'
expect_err "ar-add: $AR_STORE: upgraded from format 7 to 10"
run ar-report --info
filter 's/ map_size=[0-9]*//'
expect_out 'nodes=4 hosts=node[1-4] slot=5m horizon=30d clock=2026-11-21T00:00:00Z clock_mode=simulated owners=uid live=4 records=4 next_id=5 map_max=17179869184 format=10'
run ar-del series=1
expect_exit 0
expect_out 'series=1 id=1 occurrence=1 status=cancelled' 'series=1 id=2 occurrence=2 status=cancelled'
expect_check
