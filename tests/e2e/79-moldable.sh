# 79-moldable.sh - moldable requests: nodes=N:B,... (RSPB's benefit
# levels, seed 004), the highest benefit that fits in the window, each
# level tried as a rigid request of that size.

begin 'moldable: the biggest level does not fit, the next one is granted'
mkstore --nodes 32
run ar-add start=+1h duration=1h nodes=20
expect_exit 0
run ar-add start=+1h duration=1h nodes=32:10,16:6,8:3
expect_exit 0
expect_out 'start=2026-11-21T01:00:00Z duration=1h nodes=8 id=2 benefit=3 end=2026-11-21T02:00:00Z free=12 status=granted'
expect_err
run ar-report --list
expect_out <<EOT
id=1 start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=20 owner=$ME status=granted running=no duration=1h created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z
id=2 start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=8 owner=$ME status=granted running=no duration=1h created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z
EOT
expect_check

begin 'moldable: the highest benefit wins over more nodes at a lower one'
mkstore --nodes 32
run ar-add start=+1h duration=1h nodes=32:1,8:5,16:5
expect_exit 0
expect_out 'start=2026-11-21T01:00:00Z duration=1h nodes=16 id=1 benefit=5 end=2026-11-21T02:00:00Z free=32 status=granted'
expect_check

begin 'moldable: a level is granted at the earliest start in the window where it fits'
mkstore --nodes 32
run ar-add start=+1h duration=1h nodes=24
run ar-add earliest=+1h latest=+3h duration=1h nodes=32:10,8:3
expect_exit 0
expect_out 'earliest=2026-11-21T01:00:00Z latest=2026-11-21T03:00:00Z duration=1h nodes=32 id=2 benefit=10 start=2026-11-21T02:00:00Z end=2026-11-21T03:00:00Z free=32 status=granted'
expect_check

begin 'moldable: a refusal lists the levels tried, in order, and books nothing'
mkstore --nodes 32
run ar-add start=+1h duration=1h nodes=30
run ar-report --all
keep before
run ar-add start=+1h duration=1h nodes=4:9,8:3,12:3
expect_exit 1
expect_out 'start=2026-11-21T01:00:00Z duration=1h nodes=4:9,8:3,12:3 levels=4,12,8 end=2026-11-21T02:00:00Z free=2 status=refused reason=full'
expect_err
run ar-report --all
expect_out <"$D/before"
expect_check

begin 'moldable: in JSON, the level granted is numbers'
mkstore --nodes 32
run ar-add --json start=+1h duration=1h nodes=64:10,16:6
expect_exit 2
run ar-add --json start=+1h duration=1h nodes=32:10,16:6
expect_exit 0
expect_out '{"start":"2026-11-21T01:00:00Z","duration":"1h","nodes":32,"id":1,"benefit":10,"end":"2026-11-21T02:00:00Z","free":32,"status":"granted"}'

begin 'moldable: bad levels are bad input, naming the line and the field'
mkstore --nodes 32
run ar-add <<'EOT'
start=+1h duration=1h nodes=32:10,16
start=+1h duration=1h nodes=16:10,16:1
start=+1h duration=1h nodes=1:1,2:1,3:1,4:1,5:1,6:1,7:1,8:1,9:1
start=+1h duration=1h nodes=33:10,16:1
start=+1h duration=1h nodes=0:1
start=+1h duration=1h nodes=2:x
start=+1h duration=1h nodes=2:-1
start=+1h duration=1h nodes=2:1,
start=+1h duration=1h nodes=2:1 hosts=node01
start=+1h duration=1h nodes=2:1 every=1d count=2
EOT
expect_exit 2
expect_out
expect_err <<'EOT'
ar-add: line 1: field 'nodes': level 2 is not nodes:benefit
ar-add: line 2: field 'nodes': 16 nodes given twice
ar-add: line 3: field 'nodes': more than 8 levels
ar-add: line 4: field 'nodes': level 1: 33 nodes, but the store has 32
ar-add: line 5: field 'nodes': level 1: must be between 1 and 1000000
ar-add: line 6: field 'nodes': level 1: not a number: 'x'
ar-add: line 7: field 'nodes': level 1: not a number: '-1'
ar-add: line 8: field 'nodes': level 2 is not nodes:benefit
ar-add: line 9: field 'hosts': a moldable request names no hosts
ar-add: line 10: field 'every': a series has one size, not levels
EOT
run ar-add --partial start=+1h duration=1h nodes=2:1 jobs=2
expect_exit 2
expect_err "ar-add: arguments: field 'nodes': levels do not go with --partial"
run ar-price start=+1h duration=1h nodes=2:1
expect_exit 2
expect_err "ar-price: arguments: field 'nodes': levels (nodes:benefit) are for ar-add, ar-search and ar-suggest"
run ar-report --all
expect_out
expect_check

begin 'moldable: search and suggest answer as add grants'
mkstore --nodes 32
run ar-add start=+1h duration=2h nodes=20
run ar-search earliest=+1h latest=+2h duration=1h nodes=32:10,12:6,8:3
expect_exit 0
expect_out 'earliest=2026-11-21T01:00:00Z latest=2026-11-21T02:00:00Z duration=1h nodes=12 benefit=6 start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z free=12 status=available'
run ar-suggest earliest=+1h latest=+2h duration=1h nodes=32:10,12:6,8:3
expect_exit 0
expect_out 'earliest=2026-11-21T01:00:00Z latest=2026-11-21T03:00:00Z duration=1h nodes=32 benefit=10 start=2026-11-21T03:00:00Z end=2026-11-21T04:00:00Z free=32 status=suggested'
run ar-add earliest=+1h latest=+2h duration=1h nodes=32:10,12:6,8:3
expect_exit 0
expect_out 'earliest=2026-11-21T01:00:00Z latest=2026-11-21T02:00:00Z duration=1h nodes=12 id=2 benefit=6 start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z free=12 status=granted'
run ar-search start=+1h duration=1h nodes=32:10,16:6
expect_exit 1
expect_out 'start=2026-11-21T01:00:00Z duration=1h nodes=32:10,16:6 levels=32,16 end=2026-11-21T02:00:00Z free=0 status=unavailable reason=full'
run ar-suggest --limit 1h start=+1h duration=1h nodes=32:10,16:6
expect_exit 1
expect_out 'start=2026-11-21T01:00:00Z duration=1h nodes=32:10,16:6 levels=32,16 end=2026-11-21T02:00:00Z free=0 status=unavailable reason=search-limit'
expect_check

begin 'moldable: a client key retried gives the same grant'
mkstore --nodes 32
run ar-add start=+1h duration=1h nodes=20
run ar-add start=+1h duration=1h nodes=32:10,8:3 client_key=k1
expect_exit 0
expect_out 'start=2026-11-21T01:00:00Z duration=1h nodes=8 client_key=k1 id=2 benefit=3 end=2026-11-21T02:00:00Z free=12 status=granted'
run ar-del id=1
expect_exit 0
run ar-add start=+1h duration=1h nodes=32:10,8:3 client_key=k1
expect_exit 0
expect_out 'start=2026-11-21T01:00:00Z duration=1h nodes=8 client_key=k1 id=2 benefit=3 end=2026-11-21T02:00:00Z status=granted replayed=yes'
run ar-add start=+1h duration=1h nodes=4:10,2:3 client_key=k1
expect_exit 2
expect_err "ar-add: arguments: field 'client_key': already used by reservation 2 for a different request"
expect_check

begin 'moldable: a flexible request moves another to take its best level'
mkstore --nodes 32
run ar-add earliest=+1h latest=+3h duration=1h nodes=16
run ar-add start=+1h duration=1h nodes=32:10,8:3
expect_exit 0
expect_out <<EOT
start=2026-11-21T01:00:00Z duration=1h nodes=32 id=2 benefit=10 end=2026-11-21T02:00:00Z free=32 status=granted
id=1 start=2026-11-21T02:00:00Z end=2026-11-21T03:00:00Z nodes=16 earliest=2026-11-21T01:00:00Z latest=2026-11-21T03:00:00Z owner=$ME status=moved old_start=2026-11-21T01:00:00Z
EOT
expect_check

begin 'moldable: a hold of the level granted'
mkstore --nodes 32
run ar-add start=+1h duration=1h nodes=64:10,16:6 hold=10m
expect_exit 2
run ar-add start=+1h duration=1h nodes=32:10,16:6 hold=10m
expect_exit 0
expect_out 'start=2026-11-21T01:00:00Z duration=1h nodes=32 hold=10m id=1 benefit=10 end=2026-11-21T02:00:00Z free=32 status=held expires=2026-11-21T00:10:00Z'
expect_check

begin 'moldable: in a batch that grows, each line keeps its own levels'
mkstore --nodes 32
{
	echo 'start=+1h duration=1h nodes=32:10,8:3 job=first'
	i=0
	while [ $i -lt 40 ]; do
		echo "start=+$((i + 2))h duration=1h nodes=1"
		i=$((i + 1))
	done
	echo 'start=+50h duration=1h nodes=16:6,4:9 job=last'
} >"$D/batch"
run ar-add <"$D/batch"
expect_exit 0
expect_err
keep out
run grep job= "$D/out"
expect_out <<'EOT'
start=2026-11-21T01:00:00Z duration=1h nodes=32 job=first id=1 benefit=10 end=2026-11-21T02:00:00Z free=32 status=granted
start=2026-11-23T02:00:00Z duration=1h nodes=4 job=last id=42 benefit=9 end=2026-11-23T03:00:00Z free=32 status=granted
EOT
expect_check

# A parametric request (jobs of one node) has no smaller node count: its
# levels are on its copies, all of a level granted or none.
begin 'moldable: levels on jobs mold a parametric request by its copies'
mkstore --nodes 4
run ar-add start=+1h duration=1h nodes=2
run ar-search start=+1h duration=1h jobs=4:10,2:6,1:3
expect_exit 0
expect_out 'start=2026-11-21T01:00:00Z duration=1h jobs=2 benefit=6 end=2026-11-21T02:00:00Z free=2 status=available'
run ar-add start=+1h duration=1h jobs=4:10,2:6,1:3 client_key=bag
expect_exit 0
expect_out <<'EOT'
start=2026-11-21T01:00:00Z duration=1h jobs=2 client_key=bag id=2 copy=1 benefit=6 end=2026-11-21T02:00:00Z free=2 status=granted
start=2026-11-21T01:00:00Z duration=1h jobs=2 client_key=bag id=3 copy=2 benefit=6 end=2026-11-21T02:00:00Z free=1 status=granted
EOT
expect_err
run ar-add start=+1h duration=1h jobs=4:10,2:6,1:3 client_key=bag
expect_exit 0
expect_out <<'EOT'
start=2026-11-21T01:00:00Z duration=1h jobs=2 client_key=bag id=2 copy=1 benefit=6 end=2026-11-21T02:00:00Z status=granted replayed=yes
start=2026-11-21T01:00:00Z duration=1h jobs=2 client_key=bag id=3 copy=2 benefit=6 end=2026-11-21T02:00:00Z status=granted replayed=yes
EOT
run ar-add start=+1h duration=1h jobs=4 client_key=bag
expect_exit 2
expect_err "ar-add: arguments: field 'client_key': already used by reservation 2 for a different request"
run ar-report --all
keep before
run ar-add start=+1h duration=1h jobs=1:3,4:10
expect_exit 1
expect_out 'start=2026-11-21T01:00:00Z duration=1h jobs=1:3,4:10 levels=4,1 end=2026-11-21T02:00:00Z free=0 status=refused reason=full'
run ar-report --all
filter '/^table=demand/d'
keep after
sed '/^table=demand/d' "$D/before" >"$D/before.kept"
run cat "$D/after"
expect_out <"$D/before.kept"
run ar-add <<'EOT'
start=+1h duration=1h jobs=2:1 nodes=2:1
start=+1h duration=1h jobs=5000:1
start=+1h duration=1h jobs=2:1,2:3
start=+1h duration=1h jobs=2:1 split=yes
EOT
expect_exit 2
expect_err <<'EOT'
ar-add: line 1: field 'jobs': levels on nodes or on jobs, not both
ar-add: line 2: field 'jobs': level 1: 5000 jobs, but a request has at most 4096
ar-add: line 3: field 'jobs': 2 jobs given twice
ar-add: line 4: field 'jobs': a split request has one size, not levels
EOT
run ar-add --partial start=+1h duration=1h jobs=2:1
expect_exit 2
expect_err "ar-add: arguments: field 'jobs': levels do not go with --partial"
expect_check
