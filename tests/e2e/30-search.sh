# 30-search.sh - ar-search: is there room?  Exit 0 yes, 1 no.

begin 'search: room is available with the least free count'
mkstore --nodes 5
run ar-search start=+1h duration=1h nodes=2
expect_exit 0
expect_out 'start=2026-11-21T01:00:00Z duration=1h nodes=2 end=2026-11-21T02:00:00Z free=5 status=available'
expect_err
expect_check

begin 'search: not enough free nodes is unavailable, reason full, exit 1'
mkstore --nodes 5
run ar-add start=+1h duration=1h nodes=4
expect_exit 0
run ar-search start=+30m duration=1h nodes=2
expect_exit 1
expect_out 'start=2026-11-21T00:30:00Z duration=1h nodes=2 end=2026-11-21T01:30:00Z free=1 status=unavailable reason=full'
expect_err
run ar-search start=+30m duration=1h nodes=1
expect_exit 0
expect_out 'start=2026-11-21T00:30:00Z duration=1h nodes=1 end=2026-11-21T01:30:00Z free=1 status=available'
expect_check

begin 'search: a start rounds up to its slot and 7m takes two slots'
mkstore --nodes 5
run ar-search start=2026-11-21T00:03:00Z duration=7m nodes=2
expect_exit 0
expect_out 'start=2026-11-21T00:05:00Z duration=7m nodes=2 end=2026-11-21T00:15:00Z free=5 status=available'
run ar-add start=2026-11-21T00:03:00Z duration=7m nodes=2
expect_exit 0
run ar-report --free --from 2026-11-21T00:00Z --to 2026-11-21T00:20Z
expect_out <<'EOF'
start=2026-11-21T00:00:00Z free=5
start=2026-11-21T00:05:00Z free=3
start=2026-11-21T00:10:00Z free=3
start=2026-11-21T00:15:00Z free=5
EOF
expect_check

begin 'search: intervals are half-open, back-to-back reservations both fit'
mkstore --nodes 5
run ar-add start=2026-11-21T01:00Z end=2026-11-21T02:00Z nodes=5
expect_exit 0
run ar-add start=2026-11-21T02:00Z end=2026-11-21T03:00Z nodes=5
expect_exit 0
expect_out 'start=2026-11-21T02:00:00Z end=2026-11-21T03:00:00Z nodes=5 id=2 free=5 status=granted'
run ar-search start=2026-11-21T00:00Z end=2026-11-21T01:00Z nodes=5
expect_exit 0
expect_out 'start=2026-11-21T00:00:00Z end=2026-11-21T01:00:00Z nodes=5 free=5 status=available'
run ar-search start=2026-11-21T01:55Z duration=10m nodes=1
expect_exit 1
expect_out 'start=2026-11-21T01:55:00Z duration=10m nodes=1 end=2026-11-21T02:05:00Z free=0 status=unavailable reason=full'
expect_check

begin 'search: a start before the clock is unavailable, reason past'
mkstore
run ar-search start=2026-11-20T23:00:00Z duration=1h nodes=1
expect_exit 1
expect_out 'start=2026-11-20T23:00:00Z duration=1h nodes=1 end=2026-11-21T00:00:00Z status=unavailable reason=past'
expect_err
expect_check

begin 'search: an end beyond the horizon is unavailable, reason horizon'
mkstore
run ar-search start=now duration=30d nodes=1
expect_exit 0
expect_out 'start=2026-11-21T00:00:00Z duration=30d nodes=1 end=2026-12-21T00:00:00Z free=64 status=available'
run ar-search start=now duration=30d5m nodes=1
expect_exit 1
expect_out 'start=2026-11-21T00:00:00Z duration=30d5m nodes=1 end=2026-12-21T00:05:00Z status=unavailable reason=horizon'
expect_err
expect_check

begin 'search: more nodes than the cluster has is unavailable, reason capacity'
mkstore --nodes 5
run ar-search start=+1h duration=1h nodes=3 jobs=2
expect_exit 1
expect_out 'start=2026-11-21T01:00:00Z duration=1h nodes=3 jobs=2 end=2026-11-21T02:00:00Z status=unavailable reason=capacity'
run ar-search start=+1h duration=1h nodes=6
expect_exit 1
expect_out 'start=2026-11-21T01:00:00Z duration=1h nodes=6 end=2026-11-21T02:00:00Z status=unavailable reason=capacity'
expect_check

begin 'search: time forms @EPOCH, offsets, now+DUR and HH:MM:SS'
mkstore
run ar-search <<'EOF'
start=@1795222800 duration=1:30:00
start=2026-11-21T03:00:00+02:00 duration=1-00:00:00
start=now+2h duration=1d12h
start="2026-11-21 10:00Z" duration=90m
EOF
expect_exit 0
expect_out <<'EOF'
start=2026-11-21T01:00:00Z duration=1:30:00 end=2026-11-21T02:30:00Z free=64 status=available
start=2026-11-21T01:00:00Z duration=1-00:00:00 end=2026-11-22T01:00:00Z free=64 status=available
start=2026-11-21T02:00:00Z duration=1d12h end=2026-11-22T14:00:00Z free=64 status=available
start=2026-11-21T10:00:00Z duration=90m end=2026-11-21T11:30:00Z free=64 status=available
EOF
expect_err
expect_check

begin 'search: many lines, exit status the worst of them'
mkstore --nodes 5
run ar-search <<'EOF'
start=+1h duration=1h nodes=1
start=+1h duration=1h nodes=6
start=+1h duration=1h nodes=5
EOF
expect_exit 1
expect_out <<'EOF'
start=2026-11-21T01:00:00Z duration=1h nodes=1 end=2026-11-21T02:00:00Z free=5 status=available
start=2026-11-21T01:00:00Z duration=1h nodes=6 end=2026-11-21T02:00:00Z status=unavailable reason=capacity
start=2026-11-21T01:00:00Z duration=1h nodes=5 end=2026-11-21T02:00:00Z free=5 status=available
EOF
expect_check

begin 'search: changes nothing in the store'
mkstore --nodes 5
run ar-search start=+1h duration=1h nodes=2
expect_exit 0
run ar-report --info
filter 's/ map_size=[0-9]*//'
expect_out 'nodes=5 hosts=node[1-5] slot=5m horizon=30d clock=2026-11-21T00:00:00Z clock_mode=simulated owners=uid live=0 records=0 next_id=1 map_max=17179869184 format=10'
run ar-report --all
expect_out
expect_check

begin 'search: a time without a zone is bad input'
mkstore
run ar-search start=2026-11-21T10:00 duration=1h
expect_exit 2
expect_out
expect_err "ar-search: arguments: field 'start': missing time zone in '2026-11-21T10:00' (add Z or an offset)"
expect_check

begin 'search: a duration without a unit is bad input'
mkstore
run ar-search start=+1h duration=90
expect_exit 2
expect_out
expect_err "ar-search: arguments: field 'duration': duration needs a unit: '90'"
expect_check

begin 'search: a window is searched for its first start where it fits'
mkstore --nodes 5
run ar-add start=+1h duration=1h nodes=4
expect_exit 0
run ar-search earliest=+1h latest=+3h duration=30m nodes=2
expect_exit 0
expect_out 'earliest=2026-11-21T01:00:00Z latest=2026-11-21T03:00:00Z duration=30m nodes=2 start=2026-11-21T02:00:00Z end=2026-11-21T02:30:00Z free=5 status=available'
expect_err
run ar-search earliest=+1h latest=+1h30m duration=30m nodes=2
expect_exit 1
expect_out 'earliest=2026-11-21T01:00:00Z latest=2026-11-21T01:30:00Z duration=30m nodes=2 start=2026-11-21T01:00:00Z end=2026-11-21T01:30:00Z free=1 status=unavailable reason=full'
run ar-add --no-move earliest=+1h latest=+3h duration=30m nodes=2
expect_exit 0
expect_out 'earliest=2026-11-21T01:00:00Z latest=2026-11-21T03:00:00Z duration=30m nodes=2 id=2 start=2026-11-21T02:00:00Z end=2026-11-21T02:30:00Z free=5 status=granted'
expect_check

# RECORDS.md: the core numeric fields are JSON numbers in JSON output,
# whether they came from the arguments, from stdin (even as strings) or
# from the store.
begin 'search: --json types nodes and jobs as numbers whatever their source'
mkstore --nodes 5
run ar-search --json nodes=2 jobs=2 start=+1h duration=1h
expect_exit 0
expect_out '{"nodes":2,"jobs":2,"start":"2026-11-21T01:00:00Z","duration":"1h","end":"2026-11-21T02:00:00Z","free":5,"status":"available"}'
expect_err
run ar-search --json <<'EOF'
{"nodes":2,"jobs":2,"start":"+1h","duration":"1h"}
{"nodes":"2","jobs":"2","start":"+1h","duration":"1h"}
EOF
expect_exit 0
expect_out <<'EOF'
{"nodes":2,"jobs":2,"start":"2026-11-21T01:00:00Z","duration":"1h","end":"2026-11-21T02:00:00Z","free":5,"status":"available"}
{"nodes":2,"jobs":2,"start":"2026-11-21T01:00:00Z","duration":"1h","end":"2026-11-21T02:00:00Z","free":5,"status":"available"}
EOF
run ar-add --json nodes=2 jobs=1 start=+1h duration=1h
expect_exit 0
expect_out '{"nodes":2,"jobs":1,"start":"2026-11-21T01:00:00Z","duration":"1h","id":1,"end":"2026-11-21T02:00:00Z","free":5,"status":"granted"}'
run ar-report --json
expect_out "{\"id\":1,\"start\":\"2026-11-21T01:00:00Z\",\"end\":\"2026-11-21T02:00:00Z\",\"nodes\":2,\"owner\":$ME,\"status\":\"granted\",\"running\":\"no\",\"duration\":\"1h\",\"created\":\"2026-11-21T00:00:00Z\",\"changed\":\"2026-11-21T00:00:00Z\"}"
expect_check
