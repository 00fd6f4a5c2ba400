# 50-suggest.sh - ar-suggest: the earliest starts where a request fits.

# Five nodes, all taken in [01:00,01:30), [02:00,02:30) and [03:00,03:30).
three_blocks() {
	mkstore --nodes 5
	run ar-add <<'EOF'
start=2026-11-21T01:00Z duration=30m nodes=5
start=2026-11-21T02:00Z duration=30m nodes=5
start=2026-11-21T03:00Z duration=30m nodes=5
EOF
	expect_exit 0
}

begin 'suggest: the earliest start at or after the asked one where it fits'
three_blocks
run ar-suggest start=+50m duration=20m nodes=2
expect_exit 0
expect_out 'start=2026-11-21T01:30:00Z duration=20m nodes=2 end=2026-11-21T01:50:00Z free=5 status=suggested'
expect_err
expect_check

begin 'suggest: a request that fits as asked is suggested as asked'
three_blocks
run ar-suggest start=+10m duration=50m nodes=5
expect_exit 0
expect_out 'start=2026-11-21T00:10:00Z duration=50m nodes=5 end=2026-11-21T01:00:00Z free=5 status=suggested'
expect_check

begin 'suggest: -k 3 gives the starts of three separate free runs'
three_blocks
run ar-suggest -k 3 start=+1h duration=30m nodes=1 user=u
expect_exit 0
expect_out <<'EOF'
start=2026-11-21T01:30:00Z duration=30m nodes=1 user=u end=2026-11-21T02:00:00Z free=5 status=suggested
start=2026-11-21T02:30:00Z duration=30m nodes=1 user=u end=2026-11-21T03:00:00Z free=5 status=suggested
start=2026-11-21T03:30:00Z duration=30m nodes=1 user=u end=2026-11-21T04:00:00Z free=5 status=suggested
EOF
expect_err
expect_check

begin 'suggest: --count 2 gives at most two; the last run is open-ended'
three_blocks
run ar-suggest --count 2 start=+1h duration=30m nodes=1
expect_exit 0
expect_out <<'EOF'
start=2026-11-21T01:30:00Z duration=30m nodes=1 end=2026-11-21T02:00:00Z free=5 status=suggested
start=2026-11-21T02:30:00Z duration=30m nodes=1 end=2026-11-21T03:00:00Z free=5 status=suggested
EOF
run ar-suggest -k 9 start=+3h duration=30m nodes=1
expect_out 'start=2026-11-21T03:30:00Z duration=30m nodes=1 end=2026-11-21T04:00:00Z free=5 status=suggested'
expect_check

begin 'suggest: --limit bounds how far past the asked start it looks'
three_blocks
run ar-suggest -k 9 --limit 2h30m start=+1h duration=30m nodes=1
expect_exit 0
expect_out <<'EOF'
start=2026-11-21T01:30:00Z duration=30m nodes=1 end=2026-11-21T02:00:00Z free=5 status=suggested
start=2026-11-21T02:30:00Z duration=30m nodes=1 end=2026-11-21T03:00:00Z free=5 status=suggested
start=2026-11-21T03:30:00Z duration=30m nodes=1 end=2026-11-21T04:00:00Z free=5 status=suggested
EOF
run ar-suggest -k 9 -l 2h25m start=+1h duration=30m nodes=1
expect_exit 0
expect_out <<'EOF'
start=2026-11-21T01:30:00Z duration=30m nodes=1 end=2026-11-21T02:00:00Z free=5 status=suggested
start=2026-11-21T02:30:00Z duration=30m nodes=1 end=2026-11-21T03:00:00Z free=5 status=suggested
EOF
expect_check

begin 'suggest: nothing within the limit is unavailable, reason search-limit, exit 1'
three_blocks
run ar-suggest --limit 25m start=+1h duration=30m nodes=1
expect_exit 1
expect_out 'start=2026-11-21T01:00:00Z duration=30m nodes=1 end=2026-11-21T01:30:00Z free=0 status=unavailable reason=search-limit'
expect_err
expect_check

begin 'suggest: a window longer than the limit is searched only up to the limit'
three_blocks
run ar-suggest --limit 25m earliest=+1h latest=+5h duration=30m nodes=1
expect_exit 1
expect_out 'earliest=2026-11-21T01:00:00Z latest=2026-11-21T05:00:00Z duration=30m nodes=1 start=2026-11-21T01:00:00Z end=2026-11-21T01:30:00Z free=0 status=unavailable reason=search-limit'
expect_err
run ar-suggest -k 9 --limit 1h30m earliest=+1h latest=+5h duration=30m nodes=1
expect_exit 0
expect_out <<'EOF'
earliest=2026-11-21T01:00:00Z latest=2026-11-21T05:00:00Z duration=30m nodes=1 start=2026-11-21T01:30:00Z end=2026-11-21T02:00:00Z free=5 status=suggested
earliest=2026-11-21T01:00:00Z latest=2026-11-21T05:00:00Z duration=30m nodes=1 start=2026-11-21T02:30:00Z end=2026-11-21T03:00:00Z free=5 status=suggested
EOF
expect_check

begin 'suggest: a past start is searched from the clock on'
mkstore --nodes 5 --horizon 1d
run ar-suggest start=2026-11-20T23:00Z duration=30m nodes=1
expect_exit 0
expect_out 'start=2026-11-21T00:00:00Z duration=30m nodes=1 end=2026-11-21T00:30:00Z free=5 status=suggested'
expect_check

begin 'suggest: horizon and capacity are unavailable, exit 1'
mkstore --nodes 5 --horizon 1d
run ar-suggest <<'EOF'
start=+23h duration=2h nodes=1
start=+1h duration=30m nodes=6
EOF
expect_exit 1
expect_out <<'EOF'
start=2026-11-21T23:00:00Z duration=2h nodes=1 end=2026-11-22T01:00:00Z status=unavailable reason=horizon
start=2026-11-21T01:00:00Z duration=30m nodes=6 end=2026-11-21T01:30:00Z status=unavailable reason=capacity
EOF
expect_check

begin 'suggest: ar-suggest < requests | ar-add books the suggestions'
three_blocks
cat >"$D/requests" <<'EOF'
start=+1h duration=20m nodes=2 user=a job=1
start=+1h duration=30m nodes=3 user=b job=2
EOF
run sh -c 'ar-suggest < "$1" | ar-add' sh "$D/requests"
expect_exit 0
expect_out <<'EOF'
start=2026-11-21T01:30:00Z duration=20m nodes=2 user=a job=1 end=2026-11-21T01:50:00Z free=5 status=granted id=4
start=2026-11-21T01:30:00Z duration=30m nodes=3 user=b job=2 end=2026-11-21T02:00:00Z free=3 status=granted id=5
EOF
expect_err
run ar-report --free --from 2026-11-21T01:30Z --to 2026-11-21T02:00Z
expect_out <<'EOF'
start=2026-11-21T01:30:00Z free=0
start=2026-11-21T01:35:00Z free=0
start=2026-11-21T01:40:00Z free=0
start=2026-11-21T01:45:00Z free=0
start=2026-11-21T01:50:00Z free=2
start=2026-11-21T01:55:00Z free=2
EOF
expect_check

begin 'suggest: changes nothing in the store'
three_blocks
run ar-report --all
keep before
run ar-suggest -k 3 start=+1h duration=30m nodes=1
expect_exit 0
run ar-report --all
expect_out <"$D/before"
expect_check

begin 'suggest: --limit needs a duration'
mkstore
run ar-suggest --limit 0 start=+1h duration=1h
expect_exit 2
expect_out
expect_err <<'EOF'
ar-suggest: option '--limit': duration needs a unit: '0'
usage: ar-suggest [-jV] [-s store] [--now time] [--wait duration] [--upgrade]
                  [--create [--nodes n | --hosts list | --hosts-from file]
                    [--slot duration] [--horizon duration] [--max-size mib]
                    [--group group] [--owners uid | role]] [--simulated]
                  [-l limit] [-k count] [--fit first | best | worst] [--longest | --extend [--move]] [key=value ...] | --frames [--from time] [--to time]
EOF
expect_check
