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
expect_out "id=2 user=bob job=b1 start=2026-11-21T02:00:00Z end=2026-11-21T02:30:00Z nodes=1 owner=$ME status=granted running=no duration=30m created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z" \
    "id=3 user=bob job=b1 start=2026-11-21T02:00:00Z end=2026-11-21T02:30:00Z nodes=1 owner=$ME status=granted running=no duration=30m created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z"
run ar-report --all
expect_exit 0
expect_out <<EOF
id=1 user=alice job=a1 start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=2 owner=$ME status=cancelled running=no duration=1h created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z
id=2 user=bob job=b1 start=2026-11-21T02:00:00Z end=2026-11-21T02:30:00Z nodes=1 owner=$ME status=granted running=no duration=30m created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z
id=3 user=bob job=b1 start=2026-11-21T02:00:00Z end=2026-11-21T02:30:00Z nodes=1 owner=$ME status=granted running=no duration=30m created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z
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
id=1 user=alice job=a1 start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=2 owner=$ME status=finished running=no duration=1h created=2026-11-21T00:00:00Z changed=2026-11-21T02:00:00Z
id=2 start=2026-11-21T02:00:00Z end=2026-11-21T03:00:00Z nodes=1 owner=$ME status=granted running=yes duration=1h created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z
EOF
expect_err
run ar-report --list --now 2026-11-21T02:00:00Z
expect_out "id=2 start=2026-11-21T02:00:00Z end=2026-11-21T03:00:00Z nodes=1 owner=$ME status=granted running=yes duration=1h created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z"
expect_check

# The fields --list and --all add after status: whether it runs now, the
# duration as asked (end is rounded to slots), when it was made and last
# changed (a move, a cancel, or its end).  The fixed request moves the
# flexible one made before it.
begin 'report: a reservation shows running, its duration, created and changed'
mkstore --nodes 5
run ar-add start=+10m duration=50m nodes=5 earliest=+10m latest=+3h job=flex
expect_exit 0
run ar-add --now 2026-11-21T00:05:00Z start=+5m duration=7m nodes=1 job=fixed
expect_exit 0
run ar-del --now 2026-11-21T00:15:00Z id=2
expect_exit 0
run ar-report --all --now 2026-11-21T00:30:00Z
expect_exit 0
expect_out <<EOF
id=1 job=flex start=2026-11-21T00:20:00Z end=2026-11-21T01:10:00Z nodes=5 earliest=2026-11-21T00:10:00Z latest=2026-11-21T03:00:00Z owner=$ME status=granted running=yes duration=50m created=2026-11-21T00:00:00Z changed=2026-11-21T00:05:00Z
id=2 job=fixed start=2026-11-21T00:10:00Z end=2026-11-21T00:20:00Z nodes=1 owner=$ME status=cancelled running=no duration=7m created=2026-11-21T00:05:00Z changed=2026-11-21T00:15:00Z
EOF
run ar-report --json --list --now 2026-11-21T00:30:00Z
expect_out "{\"id\":1,\"job\":\"flex\",\"start\":\"2026-11-21T00:20:00Z\",\"end\":\"2026-11-21T01:10:00Z\",\"nodes\":5,\"earliest\":\"2026-11-21T00:10:00Z\",\"latest\":\"2026-11-21T03:00:00Z\",\"owner\":$ME,\"status\":\"granted\",\"running\":\"yes\",\"duration\":\"50m\",\"created\":\"2026-11-21T00:00:00Z\",\"changed\":\"2026-11-21T00:05:00Z\"}"
expect_err
expect_check

# report_ids: the last output as "id status running" lines.
report_ids() {
	filter 's/^id=\([0-9]*\) .* status=\([a-z]*\) running=\([a-z]*\) .*/\1 \2 \3/'
}

begin 'report: a filter record selects by id, user, job, owner, status and running'
mkstore --nodes 8
run ar-add <<'EOF'
start=+10m duration=1h user=alice job=sim
start=+2h duration=1h user=alice job=post
start=+3h duration=1h user=bob job=sim
start=+4h duration=1h user=bob job=other
EOF
expect_exit 0
run ar-del id=4
expect_exit 0
run ar-report user=alice
expect_exit 0
report_ids
expect_out '1 granted no' '2 granted no'
run ar-report job=sim user=bob
report_ids
expect_out '3 granted no'
run ar-report --all user=bob
report_ids
expect_out '3 granted no' '4 cancelled no'
run ar-report id=3
report_ids
expect_out '3 granted no'
run ar-report --all status=cancelled
report_ids
expect_out '4 cancelled no'
run ar-report "owner=$ME" status=granted --now 2026-11-21T00:15:00Z running=yes
expect_exit 0
report_ids
expect_out '1 granted yes'
run ar-report --all --now 2026-11-21T02:30:00Z status=finished
report_ids
expect_out '1 finished no'
run ar-report --now 2026-11-21T02:30:00Z running=no
report_ids
expect_out '3 granted no'
# Nothing selected is "not found", as grep says it: exit 1.
run ar-report id=4
expect_exit 1
expect_out
expect_err
run ar-report id=99
expect_exit 1
expect_out
run ar-report user=carol
expect_exit 1
expect_out
# A label given empty selects the reservations without one.
run ar-report --all job=
expect_exit 1
expect_out
expect_err
expect_check

begin 'report: --from and --to with --list select the reservations overlapping them'
mkstore --nodes 8
run ar-add <<'EOF'
start=+1h duration=1h job=a
start=+2h duration=1h job=b
start=+3h duration=1h job=c
EOF
expect_exit 0
run ar-del id=2
expect_exit 0
run ar-report --from +1h30m --to +3h
expect_exit 0
report_ids
expect_out '1 granted no'
run ar-report --all --from 2026-11-21T02:00Z --to 2026-11-21T03:00:01Z
report_ids
expect_out '2 cancelled no' '3 granted no'
run ar-report --from +2h
report_ids
expect_out '3 granted no'
run ar-report --to +2h
report_ids
expect_out '1 granted no'
# Without a filter record an empty range is no error: exit 0.
run ar-report --from +5h
expect_exit 0
expect_out
run ar-report --from +5h job=a
expect_exit 1
expect_out
run ar-report --from +2h --to +2h
expect_exit 2
expect_out
expect_err "ar-report: option '--to': not after '--from'"
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
expect_out 'nodes=5 hosts=node[1-5] slot=5m horizon=30d clock=2026-11-21T00:00:00Z clock_mode=simulated owners=uid live=1 records=2 next_id=3 map_max=17179869184 format=10'
expect_check

begin 'report: --json --info writes one JSON object'
mkstore --nodes 5
run ar-report --json --info
expect_exit 0
filter 's/"map_size":[0-9]*,//'
expect_out '{"nodes":5,"hosts":"node[1-5]","slot":"5m","horizon":"30d","clock":"2026-11-21T00:00:00Z","clock_mode":"simulated","owners":"uid","live":0,"records":0,"next_id":1,"map_max":17179869184,"format":10}'
expect_check

begin 'report: --check passes on a good store, silently'
mkstore --nodes 5
run ar-add start=+1h duration=1h nodes=5
run ar-report --check
expect_exit 0
expect_out
expect_err
expect_check

begin 'report: a filter record goes with --list or --all only'
mkstore
for m in --info --check --free --usage; do
	run ar-report $m id=1
	expect_exit 2
	expect_out
	expect_err 'ar-report: a filter record goes with --list or --all'
done
expect_check

begin 'report: --free with --to not after --from is bad usage'
mkstore --nodes 5
run ar-report --free --from +2h --to +1h
expect_exit 2
expect_out
expect_err "ar-report: option '--to': not after '--from'"
expect_check
