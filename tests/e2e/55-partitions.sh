# 55-partitions.sh - partitions and features (issue 23): a store created
# from a host description, its pools told by --info and --host-list,
# requests by partition and features, borrowing, refusals, descriptions
# refused, an upgrade from format 8 and a dump loaded; named hosts,
# taken in their pool, and maintenance displacing within it.

# gpu: 4 hosts with nvlink, 2 without; batch: 4 hosts, the default;
# gpu may borrow batch's.
cluster() {
	cat >"$D/cluster" <<'EOF'
# the cluster
hosts=gpu[1-4] partition=gpu features=nvlink,a100
hosts=gpu[5-6] partition=gpu features=a100
hosts=node[1-4] partition=batch
partition=batch default=yes
partition=gpu borrow=batch
EOF
	mkstore --hosts-from "$D/cluster"
}

begin 'partitions: a store made from a description tells its pools and hosts'
cluster
run ar-report --info
expect_exit 0
filter 's/ map_size=[0-9]*//'
expect_out <<'EOF'
nodes=10 hosts=gpu[1-6],node[1-4] slot=5m horizon=30d clock=2026-11-21T00:00:00Z clock_mode=simulated owners=uid live=0 records=0 next_id=1 map_max=17179869184 format=10
partition=batch hosts=node[1-4] nodes=4 default=yes
partition=gpu features=a100,nvlink hosts=gpu[1-4] nodes=4 borrow=batch
partition=gpu features=a100 hosts=gpu[5-6] nodes=2 borrow=batch
EOF
run ar-report --host-list
expect_exit 0
expect_out <<'EOF'
hosts=node1 partition=batch
hosts=node2 partition=batch
hosts=node3 partition=batch
hosts=node4 partition=batch
hosts=gpu1 partition=gpu features=a100,nvlink
hosts=gpu2 partition=gpu features=a100,nvlink
hosts=gpu3 partition=gpu features=a100,nvlink
hosts=gpu4 partition=gpu features=a100,nvlink
hosts=gpu5 partition=gpu features=a100
hosts=gpu6 partition=gpu features=a100
EOF
expect_check

begin 'partitions: a store of one partition keeps today'"'"'s outputs'
mkstore --nodes 4
run ar-report --host-list
expect_exit 0
expect_out 'hosts=node1 partition=default' 'hosts=node2 partition=default' \
    'hosts=node3 partition=default' 'hosts=node4 partition=default'
run ar-add start=+1h duration=1h nodes=2 partition=default
expect_exit 0
expect_out 'start=2026-11-21T01:00:00Z duration=1h nodes=2 partition=default id=1 end=2026-11-21T02:00:00Z free=4 status=granted'
run ar-report --list
expect_out 'id=1 start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=2 owner='"$ME"' status=granted running=no duration=1h created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z'

begin 'partitions: requests take their partition'"'"'s hosts, features all required, and a gpu request borrows batch'"'"'s'
cluster
run ar-add start=+1h duration=1h nodes=4
expect_exit 0
expect_out 'start=2026-11-21T01:00:00Z duration=1h nodes=4 id=1 end=2026-11-21T02:00:00Z free=4 status=granted partition=batch'
# only the nvlink pool has both
run ar-add start=+1h duration=1h nodes=3 partition=gpu features=a100,nvlink
expect_exit 0
expect_out 'start=2026-11-21T01:00:00Z duration=1h nodes=3 partition=gpu features=a100,nvlink id=2 end=2026-11-21T02:00:00Z free=4 status=granted'
# the first gpu pool has 1 left, the second 2: the second
run ar-add start=+1h duration=1h nodes=2 partition=gpu
expect_exit 0
expect_out 'start=2026-11-21T01:00:00Z duration=1h nodes=2 partition=gpu id=3 end=2026-11-21T02:00:00Z free=2 status=granted'
# gpu full at 1h, batch too: the earliest start over all three pools
run ar-add earliest=+1h latest=+4h duration=1h nodes=4 partition=gpu
expect_exit 0
expect_out 'earliest=2026-11-21T01:00:00Z latest=2026-11-21T04:00:00Z duration=1h nodes=4 partition=gpu id=4 start=2026-11-21T02:00:00Z end=2026-11-21T03:00:00Z free=4 status=granted'
# the nvlink pool at 3h; then a gpu request of 4 finds the gpu pools
# full or too small: batch's hosts, borrowed
run ar-add start=+3h duration=1h nodes=4 partition=gpu features=a100
expect_exit 0
expect_out 'start=2026-11-21T03:00:00Z duration=1h nodes=4 partition=gpu features=a100 id=5 end=2026-11-21T04:00:00Z free=4 status=granted'
run ar-add start=+3h duration=1h nodes=4 partition=gpu
expect_exit 0
expect_out 'start=2026-11-21T03:00:00Z duration=1h nodes=4 partition=batch id=6 end=2026-11-21T04:00:00Z free=4 status=granted'
# a gpu request with nvlink borrows nothing: batch's hosts lack it
run ar-add start=+3h duration=1h nodes=1 features=nvlink partition=gpu
expect_exit 1
expect_out 'start=2026-11-21T03:00:00Z duration=1h nodes=1 features=nvlink partition=gpu end=2026-11-21T04:00:00Z free=0 status=refused reason=full'
run ar-report --list
expect_exit 0
filter 's/ owner=.*//'
expect_out <<'EOF'
id=1 partition=batch start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=4
id=2 partition=gpu start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=3
id=3 partition=gpu start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=2
id=4 partition=gpu start=2026-11-21T02:00:00Z end=2026-11-21T03:00:00Z nodes=4 earliest=2026-11-21T01:00:00Z latest=2026-11-21T04:00:00Z
id=5 partition=gpu start=2026-11-21T03:00:00Z end=2026-11-21T04:00:00Z nodes=4
id=6 partition=batch start=2026-11-21T03:00:00Z end=2026-11-21T04:00:00Z nodes=4
EOF
run ar-map --from 2026-11-21T00:00:00Z --to +1d
expect_exit 0
filter 's/ owner=[0-9]* status=new//; s/ start=.* hosts=/ hosts=/'
expect_out <<'EOF'
id=1 partition=batch hosts=node[1-4]
id=2 partition=gpu hosts=gpu[1-3]
id=3 partition=gpu hosts=gpu[5-6]
id=4 partition=gpu hosts=gpu[1-4]
id=5 partition=gpu hosts=gpu[1-4]
id=6 partition=batch hosts=node[1-4]
EOF
expect_check

begin 'partitions: a batch request never takes gpu hosts, and more nodes than any eligible pool is capacity'
cluster
run ar-add start=+1h duration=1h nodes=5
expect_exit 1
expect_out 'start=2026-11-21T01:00:00Z duration=1h nodes=5 end=2026-11-21T02:00:00Z status=refused reason=capacity'
run ar-add start=+1h duration=1h nodes=4
expect_exit 0
run ar-add start=+1h duration=1h nodes=1
expect_exit 1
expect_out 'start=2026-11-21T01:00:00Z duration=1h nodes=1 end=2026-11-21T02:00:00Z free=0 status=refused reason=full'
run ar-search start=+1h duration=1h nodes=1 partition=gpu
expect_exit 0
expect_out 'start=2026-11-21T01:00:00Z duration=1h nodes=1 partition=gpu end=2026-11-21T02:00:00Z free=4 status=available'
expect_check

begin 'partitions: an unknown partition or feature: bad input'
cluster
run ar-add start=+1h duration=1h partition=fast
expect_exit 2
expect_err "ar-add: arguments: field 'partition': unknown partition 'fast' (the store's: batch,gpu)"
run ar-add start=+1h duration=1h features=a100,h100
expect_exit 2
expect_err "ar-add: arguments: field 'features': no host has feature 'h100'"
expect_check

begin 'partitions: a description refused names its line and field, and makes no store'
printf 'hosts=a[1-2] partition=x\nhosts=a2 partition=y\n' >"$D/dup"
printf 'hosts=a1 partition=x default=yes\nhosts=b1 partition=y default=yes\n' >"$D/two"
printf 'hosts=a1 partition=x borrow=z\n' >"$D/unknown"
for f in dup two unknown; do
	run ar-report --create --simulated --hosts-from "$D/$f"
	expect_exit 2
	keep err_$f
	run test -e "$AR_STORE"
	expect_exit 1
done
run ar-report --create --simulated --hosts-from "$D/dup"
expect_err "ar-report: $D/dup: line 2: field 'hosts': duplicate host 'a2' (every host on one line only)"
run ar-report --create --simulated --hosts-from "$D/two"
expect_err "ar-report: $D/two: line 2: field 'default': a second default partition"
run ar-report --create --simulated --hosts-from "$D/unknown"
expect_err "ar-report: $D/unknown: line 1: field 'borrow': unknown partition 'z'"
run ar-report --create --simulated --hosts-from "$D/dup" --nodes 3
expect_exit 2
expect_err "ar-report: option '--hosts-from': the description gives the hosts (not with --nodes or --hosts)"

begin 'partitions: --hosts-from - reads the description from stdin; the same again is no error'
printf 'hosts=cpu[1-2] partition=cpu\nhosts=big1 partition=mem features=1tb\n' >"$D/desc"
run ar-report --create --simulated --hosts-from - --host-list <"$D/desc"
expect_exit 0
expect_out 'hosts=cpu1 partition=cpu' 'hosts=cpu2 partition=cpu' \
    'hosts=big1 partition=mem features=1tb'
run ar-report --create --simulated --hosts-from "$D/desc"
expect_exit 0
printf 'hosts=cpu[1-2] partition=cpu\nhosts=big1 partition=mem\n' >"$D/other"
run ar-report --create --simulated --hosts-from "$D/other"
expect_exit 3
expect_err "ar-report: $AR_STORE: a store with another configuration exists there: another host description there (ar-report --info tells it)"
printf 'hosts=cpu[1-4] partition=cpu\n' >"$D/other"
run ar-report --create --simulated --hosts-from "$D/other"
expect_exit 3
expect_err "ar-report: $AR_STORE: a store with another configuration exists there: nodes 3 there, not 4"
expect_check

begin 'partitions: a format 8 store upgrades to 9, all its hosts one partition'
mkstore --nodes 3
run ar-add start=+1h duration=1h nodes=2
set_format 8
run ar-report --info
expect_exit 3
expect_err "ar-report: $AR_STORE: the store has an older format version; upgrade it with --upgrade"
run ar-report --upgrade --host-list
expect_exit 0
expect_err "ar-report: $AR_STORE: upgraded from format 8 to 10"
expect_out 'hosts=node1 partition=default' 'hosts=node2 partition=default' \
    'hosts=node3 partition=default'
run ar-add start=+1h duration=1h nodes=1 partition=default
expect_exit 0
expect_out 'start=2026-11-21T01:00:00Z duration=1h nodes=1 partition=default id=2 end=2026-11-21T02:00:00Z free=1 status=granted'
expect_check

begin 'partitions: a dump carries the description; the copy answers as the original'
cluster
run ar-add start=+1h duration=1h nodes=4 partition=gpu
ar-report --dump >"$D/dump"
AR_STORE=$D/copy ar-report --load <"$D/dump" || fail 'load failed'
orig=$AR_STORE
for which in store copy; do
	[ "$which" = store ] || AR_STORE=$D/copy
	run ar-report --info
	filter 's/ map_size=[0-9]*//'
	keep info_$which
	run ar-add start=+1h duration=1h nodes=4 partition=gpu
	keep add_$which
done
AR_STORE=$orig
run cat "$D/info_copy" "$D/add_copy"
expect_out <<'EOF'
nodes=10 hosts=gpu[1-6],node[1-4] slot=5m horizon=30d clock=2026-11-21T00:00:00Z clock_mode=simulated owners=uid live=1 records=1 next_id=2 map_max=17179869184 format=10
partition=batch hosts=node[1-4] nodes=4 default=yes
partition=gpu features=a100,nvlink hosts=gpu[1-4] nodes=4 borrow=batch
partition=gpu features=a100 hosts=gpu[5-6] nodes=2 borrow=batch
start=2026-11-21T01:00:00Z duration=1h nodes=4 partition=batch id=2 end=2026-11-21T02:00:00Z free=4 status=granted
EOF
run cmp "$D/add_store" "$D/add_copy"
expect_exit 0
AR_STORE=$D/copy expect_check

begin 'partitions: a format 8 store upgraded keeps its classes'"'"' floors and its reclaim policy'
mkstore --nodes 8
printf '%s\n' 'class=1 price=100 ahead_min=0 ahead_max=1h limit=8 min=2' \
    'class=2 price=50 ahead_min=1h limit=6 min=3' | ar-price --set
ar-price --reclaim 30m || fail 'ar-price --reclaim failed'
set_format 8
run ar-price --upgrade --show
expect_exit 0
expect_err "ar-price: $AR_STORE: upgraded from format 8 to 10"
expect_out 'class=1 price=100 ahead_min=0s ahead_max=1h limit=8 min=2 retention=90d' \
    'class=2 price=50 ahead_min=1h limit=6 min=3 retention=90d'
run ar-report --info
filter 's/.* format=/format=/'
expect_out 'format=10 reclaim=30m'
expect_check

begin 'partitions: a reservation keeps its pool when it is changed or moved'
cluster
run ar-add start=+1h duration=1h nodes=4 partition=gpu
run ar-add start=+1h duration=1h nodes=4 partition=gpu
expect_out 'start=2026-11-21T01:00:00Z duration=1h nodes=4 partition=batch id=2 end=2026-11-21T02:00:00Z free=4 status=granted'
# id 2 borrowed batch's 4 hosts: more than 4 is beyond its pool
run ar-add --modify id=2 nodes=5
expect_exit 1
expect_out 'id=2 nodes=5 start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z status=refused reason=capacity'
run ar-add --modify id=2 nodes=3
expect_exit 0
run ar-add --modify id=1 start=+5h
expect_exit 0
# gpu's first pool is free at 1h now; id 2 stays on batch's hosts
run ar-add --modify id=2 nodes=4
expect_exit 0
run ar-report --list
filter 's/ end=.*//'
expect_out 'id=1 partition=gpu start=2026-11-21T05:00:00Z' \
    'id=2 partition=batch start=2026-11-21T01:00:00Z'
run ar-map --plan
filter 's/ start=.* hosts=/ hosts=/; s/ old_hosts=.*//'
expect_out 'id=2 partition=batch hosts=node[1-4]' 'id=1 partition=gpu hosts=gpu[1-4]'
expect_check

begin 'partitions: a change is checked against the reservation'"'"'s pool, not the default partition'"'"'s'
printf '%s\n' 'hosts=small[1-2] partition=small' 'hosts=big[1-6] partition=big' >"$D/desc"
mkstore --hosts-from "$D/desc"
run ar-add start=+1h duration=1h nodes=2 partition=big
expect_exit 0
run ar-add --modify id=1 nodes=5
expect_exit 0
expect_out 'id=1 nodes=5 start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z free=6 status=granted partition=big old_start=2026-11-21T01:00:00Z old_end=2026-11-21T02:00:00Z old_nodes=2'
run ar-report --list
filter 's/ start=.*//'
expect_out 'id=1 partition=big'
expect_check

begin 'pool hosts: named gpu hosts are taken in their pool, which the others of it then share'
cluster
run ar-add start=+1h duration=1h hosts=gpu[1-2] user=a
expect_exit 0
expect_out 'start=2026-11-21T01:00:00Z duration=1h hosts=gpu[1-2] user=a nodes=2 id=1 end=2026-11-21T02:00:00Z free=4 status=granted partition=gpu'
run ar-add start=+1h duration=1h nodes=3 partition=gpu features=nvlink user=b
expect_exit 1
expect_out 'start=2026-11-21T01:00:00Z duration=1h nodes=3 partition=gpu features=nvlink user=b end=2026-11-21T02:00:00Z free=2 status=refused reason=full'
run ar-add start=+1h duration=1h nodes=2 partition=gpu features=nvlink user=c
expect_exit 0
expect_out 'start=2026-11-21T01:00:00Z duration=1h nodes=2 partition=gpu features=nvlink user=c id=2 end=2026-11-21T02:00:00Z free=2 status=granted'
run ar-add start=+1h duration=1h nodes=4 user=d
expect_exit 0
expect_out 'start=2026-11-21T01:00:00Z duration=1h nodes=4 user=d id=3 end=2026-11-21T02:00:00Z free=4 status=granted partition=batch'
run ar-map --plan
expect_exit 0
expect_out <<'EOS'
id=1 user=a partition=gpu start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=2 owner=0 status=new hosts=gpu[1-2]
id=2 user=c partition=gpu start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=2 owner=0 status=new hosts=gpu[3-4]
id=3 user=d partition=batch start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=4 owner=0 status=new hosts=node[1-4]
EOS
expect_check

begin 'pool hosts: hosts of two pools, or not of the partition or features asked: bad input'
cluster
run ar-add start=+1h duration=1h hosts=gpu1,node1
expect_exit 2
expect_err "ar-add: arguments: field 'hosts': named hosts are of one pool: gpu1 is of partition gpu (features a100,nvlink), node1 of batch (features none)"
run ar-add start=+1h duration=1h hosts=gpu[4-5]
expect_exit 2
expect_err "ar-add: arguments: field 'hosts': named hosts are of one pool: gpu4 is of partition gpu (features a100,nvlink), gpu5 of gpu (features a100)"
run ar-add start=+1h duration=1h hosts=gpu1 partition=batch
expect_exit 2
expect_err "ar-add: arguments: field 'partition': the hosts named are of partition gpu"
run ar-add start=+1h duration=1h hosts=gpu5 features=nvlink
expect_exit 2
expect_err "ar-add: arguments: field 'features': the hosts named have features a100"
run ar-search start=+1h duration=1h hosts=gpu1,node1
expect_exit 2
run ar-report --list
expect_exit 0
expect_out
expect_check

begin 'pool hosts: maintenance displaces only in its pool, and moves the rest to other hosts of it'
cluster
printf '%s\n' 'start=+1h duration=2h nodes=2 features=nvlink partition=gpu user=x' \
    'start=+1h duration=1h nodes=2 features=nvlink partition=gpu user=y' \
    'start=+1h duration=1h nodes=4 user=z' | ar-add >/dev/null ||
    fail 'ar-add failed'
run ar-map --plan
expect_out <<'EOS'
id=1 user=x partition=gpu start=2026-11-21T01:00:00Z end=2026-11-21T03:00:00Z nodes=2 owner=0 status=new hosts=gpu[1-2]
id=2 user=y partition=gpu start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=2 owner=0 status=new hosts=gpu[3-4]
id=3 user=z partition=batch start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=4 owner=0 status=new hosts=node[1-4]
EOS
run ar-add flags=maint start=+1h duration=1h hosts=gpu[2-3] user=ops
expect_exit 1
expect_out <<'EOS'
flags=maint start=2026-11-21T01:00:00Z duration=1h hosts=gpu[2-3] user=ops nodes=2 end=2026-11-21T02:00:00Z status=refused reason=displaced
id=2 user=y partition=gpu start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=2 owner=0 status=granted reason=displaced
EOS
run ar-add --force flags=maint start=+1h duration=1h hosts=gpu[2-3] user=ops
expect_exit 0
expect_out <<'EOS'
flags=maint start=2026-11-21T01:00:00Z duration=1h hosts=gpu[2-3] user=ops nodes=2 id=4 end=2026-11-21T02:00:00Z free=2 status=granted partition=gpu
id=2 user=y partition=gpu start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=2 owner=0 status=cancelled reason=displaced
EOS
# x stays in its pool (gpu5 and gpu6 are of the other); z keeps its hosts.
run ar-map --plan
expect_out <<'EOS'
id=1 user=x partition=gpu start=2026-11-21T01:00:00Z end=2026-11-21T03:00:00Z nodes=2 owner=0 status=remapped hosts=gpu[1,4] old_hosts=gpu[1-2]
id=3 user=z partition=batch start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=4 owner=0 status=kept hosts=node[1-4]
id=4 user=ops flags=maint partition=gpu start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=2 owner=0 status=new hosts=gpu[2-3]
EOS
expect_check
