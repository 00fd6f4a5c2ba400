# 10-create.sh - making a store, and what every command does without one.
# (map_size depends on how the library sizes its map, so it is dropped.)

begin 'create: defaults are 64 nodes, 5-minute slots, 30 days'
run ar-report --create --simulated --info
expect_exit 0
filter 's/ map_size=[0-9]*//'
expect_out 'nodes=64 hosts=node[01-64] slot=5m horizon=30d clock=2026-11-21T00:00:00Z clock_mode=simulated owners=uid live=0 records=0 next_id=1 map_max=17179869184 format=10'
expect_err
expect_check

begin 'create: --nodes, --slot and --horizon'
run ar-report --create --simulated --nodes 5 --slot 10m --horizon 2d --info
expect_exit 0
filter 's/ map_size=[0-9]*//'
expect_out 'nodes=5 hosts=node[1-5] slot=10m horizon=2d clock=2026-11-21T00:00:00Z clock_mode=simulated owners=uid live=0 records=0 next_id=1 map_max=17179869184 format=10'
expect_err
expect_check

begin 'create: --store names the directory and wins over AR_STORE'
run ar-report --store "$D/other" --create --simulated --nodes 3 --info
expect_exit 0
filter 's/ map_size=[0-9]*//'
expect_out 'nodes=3 hosts=node[1-3] slot=5m horizon=30d clock=2026-11-21T00:00:00Z clock_mode=simulated owners=uid live=0 records=0 next_id=1 map_max=17179869184 format=10'
run test -e "$AR_STORE"
expect_exit 1
run ar-report -s "$D/other" --check
expect_exit 0

begin 'create: the same configuration again is a no-op that keeps the data'
mkstore --nodes 5
run ar-add start=+1h duration=1h nodes=2 user=alice
expect_exit 0
run ar-report --create --simulated --nodes 5 --list
expect_exit 0
expect_out "id=1 user=alice start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=2 owner=$ME status=granted running=no duration=1h created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z"
expect_err
expect_check

begin 'create: another configuration over a store is a store error'
mkstore --nodes 5
run ar-report --create --simulated --nodes 6 --info
expect_exit 3
expect_out
expect_err "ar-report: $AR_STORE: a store with another configuration exists there: nodes 5 there, not 6"
run ar-report --info
filter 's/ map_size=[0-9]*//'
expect_out 'nodes=5 hosts=node[1-5] slot=5m horizon=30d clock=2026-11-21T00:00:00Z clock_mode=simulated owners=uid live=0 records=0 next_id=1 map_max=17179869184 format=10'
expect_check

begin 'create: --nodes without --create is bad usage'
mkstore
run ar-report --nodes 5 --info
expect_exit 2
expect_out
expect_err 'ar-report: --nodes, --hosts, --slot, --horizon, --max-size and --owners go with --create'
expect_check

begin 'create: a horizon that is not a whole number of slots is refused'
run ar-report --create --simulated --slot 7m --horizon 30d --info
expect_exit 2
expect_out
expect_err 'ar-report: invalid store configuration: the slot must be 1s..1d and divide the horizon, at most 10000000 slots'
run test -e "$AR_STORE"
expect_exit 1

begin 'create: a slot of 7 minutes with a horizon of 7 days is fine'
run ar-report --create --simulated --slot 7m --horizon 7d --info
expect_exit 0
filter 's/ map_size=[0-9]*//'
expect_out 'nodes=64 hosts=node[01-64] slot=7m horizon=7d clock=2026-11-21T00:00:00Z clock_mode=simulated owners=uid live=0 records=0 next_id=1 map_max=17179869184 format=10'
expect_check

begin 'create: --nodes 0 is bad usage'
run ar-report --create --simulated --nodes 0
expect_exit 2
expect_out
expect_err <<'EOF'
ar-report: option '--nodes': must be between 1 and 1000000
usage: ar-report [-jV] [-s store] [--now time] [--wait duration] [--upgrade]
                 [--create [--nodes n | --hosts list | --hosts-from file]
                   [--slot duration] [--horizon duration] [--max-size mib]
                   [--group group] [--owners uid | role]] [--simulated]
                 [-c | -i | [-a | -l] [--from time] [--to time] [key=value ...] | -f [--from time] [--to time] | -u [--from time] [--to time] [--window duration] [--by label] [--table] [--svg file] | --host-list | --dump | --load]
EOF
run test -e "$AR_STORE"
expect_exit 1

# Every command, on a store that is not there: exit 3, the path named,
# and nothing created.
for args in 'ar-search start=+1h duration=1h' 'ar-add start=+1h duration=1h' \
    'ar-del id=1' 'ar-del --purge' 'ar-suggest start=+1h duration=1h' \
    'ar-report --info' 'ar-report --check'; do
	begin "missing store: $args is a store error and creates nothing"
	set -- $args
	run "$@"
	expect_exit 3
	expect_out
	expect_err "$1: $AR_STORE: no store there (create one with --create)"
	run test -e "$AR_STORE"
	expect_exit 1
done

begin 'missing store: the default store comes from AR_STORE'
AR_STORE=$D/elsewhere
run ar-report --list
expect_exit 3
expect_err "ar-report: $D/elsewhere: no store there (create one with --create)"
run test -e "$D/elsewhere"
expect_exit 1

begin 'create: a PostgreSQL URI with a bad store= name is bad usage'
for where in 'postgresql:///ar?store=a/b' 'postgres://h/ar?store=' \
    'postgresql:///ar?store=x&store=y'; do
	run ar-report --store "$where" --create --simulated --info
	expect_exit 2
	expect_out
	expect_err "ar-report: $where: not a store's address: its store= takes 1 to 63 letters, digits, '.', '_' or '-', once"
done

begin 'create: --create makes the directories a store'"'"'s path lacks, as mkdir -p'
run ar-report --create --simulated --store "$D/var/lib/ar/cluster1" --nodes 4 --info
expect_exit 0
expect_err
run sh -c 'umask 022 && ar-report --create --simulated --store "$1/a//b/" --info >/dev/null && stat -c "%a %n" "$1/a" "$1/a/b" | sed "s|$1/||"' sh "$D"
expect_exit 0
expect_out '755 a' '750 a/b'
run ar-report --store "$D/var/lib/ar/cluster1" --check
expect_exit 0
: >"$D/file"
run ar-report --create --simulated --store "$D/file/store" --info
expect_exit 3
expect_err "ar-report: $D/file/store: Not a directory"
run test -e "$D/file/store"
expect_exit 1
