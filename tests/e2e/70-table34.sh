# 70-table34.sh - the worked example of the thesis (GarQ, Table 3.4).
#
# Five nodes, 5-minute slots, the clock at 00:00; slot n starts at
# 00:00 + n*5m.  Ten users reserve (start slot, slots, nodes, jobs):
#   1: 11,1,1,2   2: 11,3,1,1   3: 12,3,1,1   4: 15,1,1,1   5: 15,1,1,2
#   6: 11,2,1,1   7: 13,1,1,1   8: 16,2,1,1   9: 11,2,1,1  10: 15,3,1,1
# (tests/data/table-3.4.ar), which leaves free per slot 11..18:
#   0 1 2 4 1 3 3 5   (tests/data/table-3.4.free)
# User 11 then asks for slot 12, 3 slots, 3 jobs of one node: refused
# (only 1 free), and the earliest start that fits is slot 16, 01:20.

table34() {
	mkstore --nodes 5 --slot 5m
	run ar-add <"$DATA/table-3.4.ar"
}

user11='user=11 start=2026-11-21T01:00:00Z duration=15m nodes=1 jobs=3'

begin 'table 3.4: the ten reservations are all granted'
table34
expect_exit 0
expect_out <<'EOF'
user=1 start=2026-11-21T00:55:00Z duration=5m nodes=1 jobs=2 id=1 copy=1 end=2026-11-21T01:00:00Z free=5 status=granted
user=1 start=2026-11-21T00:55:00Z duration=5m nodes=1 jobs=2 id=2 copy=2 end=2026-11-21T01:00:00Z free=4 status=granted
user=2 start=2026-11-21T00:55:00Z duration=15m nodes=1 jobs=1 id=3 end=2026-11-21T01:10:00Z free=3 status=granted
user=3 start=2026-11-21T01:00:00Z duration=15m nodes=1 jobs=1 id=4 end=2026-11-21T01:15:00Z free=4 status=granted
user=4 start=2026-11-21T01:15:00Z duration=5m nodes=1 jobs=1 id=5 end=2026-11-21T01:20:00Z free=5 status=granted
user=5 start=2026-11-21T01:15:00Z duration=5m nodes=1 jobs=2 id=6 copy=1 end=2026-11-21T01:20:00Z free=4 status=granted
user=5 start=2026-11-21T01:15:00Z duration=5m nodes=1 jobs=2 id=7 copy=2 end=2026-11-21T01:20:00Z free=3 status=granted
user=6 start=2026-11-21T00:55:00Z duration=10m nodes=1 jobs=1 id=8 end=2026-11-21T01:05:00Z free=2 status=granted
user=7 start=2026-11-21T01:05:00Z duration=5m nodes=1 jobs=1 id=9 end=2026-11-21T01:10:00Z free=3 status=granted
user=8 start=2026-11-21T01:20:00Z duration=10m nodes=1 jobs=1 id=10 end=2026-11-21T01:30:00Z free=5 status=granted
user=9 start=2026-11-21T00:55:00Z duration=10m nodes=1 jobs=1 id=11 end=2026-11-21T01:05:00Z free=1 status=granted
user=10 start=2026-11-21T01:15:00Z duration=15m nodes=1 jobs=1 id=12 end=2026-11-21T01:30:00Z free=2 status=granted
EOF
expect_err
expect_check

begin 'table 3.4: free nodes per slot 11..18 are 0 1 2 4 1 3 3 5'
table34
run ar-report --free --from 2026-11-21T00:55Z --to 2026-11-21T01:35Z
expect_exit 0
expect_out <"$DATA/table-3.4.free"
expect_err
expect_check

begin 'table 3.4: user 11 is refused, only one node free'
table34
run ar-add $user11
expect_exit 1
expect_out 'user=11 start=2026-11-21T01:00:00Z duration=15m nodes=1 jobs=3 end=2026-11-21T01:15:00Z free=1 status=refused reason=full'
run ar-report --free --from 2026-11-21T00:55Z --to 2026-11-21T01:35Z
expect_out <"$DATA/table-3.4.free"
expect_check

begin 'table 3.4: ar-suggest gives user 11 slot 16 (01:20)'
table34
run ar-suggest $user11
expect_exit 0
expect_out 'user=11 start=2026-11-21T01:20:00Z duration=15m nodes=1 jobs=3 end=2026-11-21T01:35:00Z free=3 status=suggested'
expect_check

begin 'table 3.4: ar-suggest | ar-add books user 11 at slot 16'
table34
run sh -c 'ar-suggest "$@" | ar-add' sh $user11
expect_exit 0
expect_out <<'EOF'
user=11 start=2026-11-21T01:20:00Z duration=15m nodes=1 jobs=3 end=2026-11-21T01:35:00Z free=3 status=granted id=13 copy=1
user=11 start=2026-11-21T01:20:00Z duration=15m nodes=1 jobs=3 end=2026-11-21T01:35:00Z free=2 status=granted id=14 copy=2
user=11 start=2026-11-21T01:20:00Z duration=15m nodes=1 jobs=3 end=2026-11-21T01:35:00Z free=1 status=granted id=15 copy=3
EOF
run ar-report --free --from 2026-11-21T01:15Z --to 2026-11-21T01:40Z
expect_out <<'EOF'
start=2026-11-21T01:15:00Z free=1
start=2026-11-21T01:20:00Z free=0
start=2026-11-21T01:25:00Z free=0
start=2026-11-21T01:30:00Z free=2
start=2026-11-21T01:35:00Z free=5
EOF
expect_check
