# 57-partition-hosts.sh - named hosts in a store of several pools (issue
# 23): hosts of one pool are taken there, as in a store of one pool;
# hosts of two pools, or a partition or features the hosts do not have,
# are bad input; maintenance displaces only reservations of its pool and
# moves them to other hosts of that pool; ar-report --check is clean.

# gpu: 4 hosts with nvlink, 2 without; batch: 4 hosts, the default.
cluster() {
	cat >"$D/cluster" <<'EOS'
hosts=gpu[1-4] partition=gpu features=nvlink,a100
hosts=gpu[5-6] partition=gpu features=a100
hosts=node[1-4] partition=batch
partition=batch default=yes
EOS
	mkstore --hosts-from "$D/cluster"
}

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
