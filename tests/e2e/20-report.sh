# 20-report.sh - ar-report: --info, --list, --all, --free, --check.

begin 'report: --list is the default and an empty store lists nothing'
mkstore
run ar-report
expect_exit 0
expect_out
expect_err
run ar-report --list
expect_exit 0
expect_out
expect_check

begin 'report: --list shows live reservations, --all the history too'
mkstore --nodes 5
run ar-add <<'EOF'
start=+1h duration=1h nodes=2 user=alice job=a1
start=+2h duration=30m nodes=1 jobs=2 user=bob job=b1
EOF
expect_exit 0
run ar-del id=1
expect_exit 0
run ar-report --list
expect_exit 0
expect_out "id=2 user=bob job=b1 start=2026-11-21T02:00:00Z end=2026-11-21T02:30:00Z nodes=1 owner=$ME status=granted" \
    "id=3 user=bob job=b1 start=2026-11-21T02:00:00Z end=2026-11-21T02:30:00Z nodes=1 owner=$ME status=granted"
run ar-report --all
expect_exit 0
expect_out <<EOF
id=1 user=alice job=a1 start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=2 owner=$ME status=cancelled
id=2 user=bob job=b1 start=2026-11-21T02:00:00Z end=2026-11-21T02:30:00Z nodes=1 owner=$ME status=granted
id=3 user=bob job=b1 start=2026-11-21T02:00:00Z end=2026-11-21T02:30:00Z nodes=1 owner=$ME status=granted
EOF
expect_err
expect_check

begin 'report: a reservation that ended is finished before any purge'
mkstore --nodes 5
run ar-add <<'EOF'
start=+1h duration=1h nodes=2 user=alice job=a1
start=+2h duration=1h nodes=1
EOF
expect_exit 0
run ar-report --all --now 2026-11-21T02:00:00Z
expect_exit 0
expect_out <<EOF
id=1 user=alice job=a1 start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=2 owner=$ME status=finished
id=2 start=2026-11-21T02:00:00Z end=2026-11-21T03:00:00Z nodes=1 owner=$ME status=granted
EOF
expect_err
run ar-report --list --now 2026-11-21T02:00:00Z
expect_out "id=2 start=2026-11-21T02:00:00Z end=2026-11-21T03:00:00Z nodes=1 owner=$ME status=granted"
expect_check

begin 'report: --free --from --to gives one record per slot'
mkstore --nodes 5
run ar-add start=2026-11-21T00:10Z duration=10m nodes=3
expect_exit 0
run ar-report --free --from 2026-11-21T00:05:00Z --to 2026-11-21T00:25:00Z
expect_exit 0
expect_out <<'EOF'
start=2026-11-21T00:05:00Z free=5
start=2026-11-21T00:10:00Z free=2
start=2026-11-21T00:15:00Z free=2
start=2026-11-21T00:20:00Z free=5
EOF
expect_err
expect_check

begin 'report: --free without an interval shows 12 slots from the clock'
mkstore --nodes 5 --slot 10m
run ar-add start=+30m duration=20m nodes=5
expect_exit 0
run ar-report --free
expect_exit 0
expect_out <<'EOF'
start=2026-11-21T00:00:00Z free=5
start=2026-11-21T00:10:00Z free=5
start=2026-11-21T00:20:00Z free=5
start=2026-11-21T00:30:00Z free=0
start=2026-11-21T00:40:00Z free=0
start=2026-11-21T00:50:00Z free=5
start=2026-11-21T01:00:00Z free=5
start=2026-11-21T01:10:00Z free=5
start=2026-11-21T01:20:00Z free=5
start=2026-11-21T01:30:00Z free=5
start=2026-11-21T01:40:00Z free=5
start=2026-11-21T01:50:00Z free=5
EOF
expect_check

begin 'report: --free from an unaligned time shows 12 slots from its slot'
mkstore --nodes 5
run ar-report --free --from 2026-11-21T00:07:00Z
expect_exit 0
expect_out <<'EOF'
start=2026-11-21T00:05:00Z free=5
start=2026-11-21T00:10:00Z free=5
start=2026-11-21T00:15:00Z free=5
start=2026-11-21T00:20:00Z free=5
start=2026-11-21T00:25:00Z free=5
start=2026-11-21T00:30:00Z free=5
start=2026-11-21T00:35:00Z free=5
start=2026-11-21T00:40:00Z free=5
start=2026-11-21T00:45:00Z free=5
start=2026-11-21T00:50:00Z free=5
start=2026-11-21T00:55:00Z free=5
start=2026-11-21T01:00:00Z free=5
EOF
expect_err
expect_check

begin 'report: --free beyond the horizon is bad usage'
mkstore --nodes 5 --horizon 1d
run ar-report --free --from 2026-11-22T00:00Z --to 2026-11-22T00:10Z
expect_exit 2
expect_out
expect_err "ar-report: option '--free': slot 2026-11-22T00:00:00Z is outside the ring (from the clock to the horizon)"
expect_check

begin 'report: a bad --from is bad usage'
mkstore
run ar-report --free --from yesterday
expect_exit 2
expect_out
expect_err "ar-report: option '--from': invalid time 'yesterday' (use 2026-11-21T10:00Z, @EPOCH or now+DURATION)"
expect_check

begin 'report: --info counts live reservations and records'
mkstore --nodes 5
run ar-add start=+1h duration=1h nodes=1
run ar-add start=+2h duration=1h nodes=1
run ar-del id=1
expect_exit 0
run ar-report --info
expect_exit 0
filter 's/ map_size=[0-9]*//'
expect_out 'nodes=5 hosts=node[1-5] slot=5m horizon=30d clock=2026-11-21T00:00:00Z live=1 records=2 next_id=3 map_max=17179869184 format=5'
expect_check

begin 'report: --json --info writes one JSON object'
mkstore --nodes 5
run ar-report --json --info
expect_exit 0
filter 's/"map_size":[0-9]*,//'
expect_out '{"nodes":5,"hosts":"node[1-5]","slot":"5m","horizon":"30d","clock":"2026-11-21T00:00:00Z","live":0,"records":0,"next_id":1,"map_max":17179869184,"format":5}'
expect_check

begin 'report: --check passes on a good store, silently'
mkstore --nodes 5
run ar-add start=+1h duration=1h nodes=5
run ar-report --check
expect_exit 0
expect_out
expect_err
expect_check

begin 'report: takes no records as arguments'
mkstore
run ar-report id=1
expect_exit 2
expect_out
expect_err 'ar-report: takes no records as arguments'
expect_check

begin 'report: --free with --to not after --from is bad usage'
mkstore --nodes 5
run ar-report --free --from +2h --to +1h
expect_exit 2
expect_out
expect_err "ar-report: option '--to': not after '--from'"
expect_check
