# 52-longest.sh - ar-suggest --longest (the longest job from a start) and
# --extend (how far a reservation can grow), each a record that ar-add
# (or ar-add --modify) takes as it is.

begin 'longest: the longest job on 4 nodes before a maintenance that takes them all'
mkstore --nodes 10
run ar-add start=+3h duration=2h nodes=10 user=maint
run ar-suggest --longest start=+1h nodes=4
expect_exit 0
expect_out 'start=2026-11-21T01:00:00Z nodes=4 duration=2h end=2026-11-21T03:00:00Z free=10 status=suggested'
expect_err
run ar-suggest --longest start=now nodes=10
expect_exit 0
expect_out 'start=2026-11-21T00:00:00Z nodes=10 duration=3h end=2026-11-21T03:00:00Z free=10 status=suggested'
expect_check

begin 'longest: what others leave free counts; more nodes, a shorter job'
mkstore --nodes 10
run ar-add start=+2h duration=2h nodes=6
run ar-add start=+6h duration=1h nodes=10
run ar-suggest --longest <<'EOF'
start=now nodes=4
start=now nodes=5
EOF
expect_exit 0
expect_out <<'EOF'
start=2026-11-21T00:00:00Z nodes=4 duration=6h end=2026-11-21T06:00:00Z free=4 status=suggested
start=2026-11-21T00:00:00Z nodes=5 duration=2h end=2026-11-21T02:00:00Z free=10 status=suggested
EOF
expect_check

begin 'longest: ar-suggest --longest | ar-add books it; a slot more would not fit'
mkstore --nodes 10
run ar-add start=+3h duration=2h nodes=10
run ar-search start=+1h duration=2h5m nodes=4
expect_exit 1
run sh -c 'ar-suggest --longest start=+1h nodes=4 user=u | ar-add'
expect_exit 0
expect_out 'start=2026-11-21T01:00:00Z nodes=4 user=u duration=2h end=2026-11-21T03:00:00Z free=10 status=granted id=2'
expect_err
expect_check

begin 'longest: a duration or an end bounds it'
mkstore --nodes 10
run ar-add start=+3h duration=2h nodes=10
run ar-suggest --longest <<'EOF'
start=+1h duration=1h nodes=4
start=+1h end=+5h nodes=4
EOF
expect_exit 0
expect_out <<'EOF'
start=2026-11-21T01:00:00Z duration=1h nodes=4 end=2026-11-21T02:00:00Z free=10 status=suggested
start=2026-11-21T01:00:00Z end=2026-11-21T03:00:00Z nodes=4 duration=2h free=10 status=suggested
EOF
expect_check

begin 'longest: over a window, the start with the longest run, the earliest of equals'
mkstore --nodes 10
run ar-add <<'EOF'
start=+2h duration=1h nodes=10
start=+5h duration=1h nodes=10
start=+10h duration=1h nodes=10
EOF
run ar-suggest --longest <<'EOF'
earliest=+1h latest=+7h nodes=1
earliest=now latest=+4h nodes=1
EOF
expect_exit 0
expect_out <<'EOF'
earliest=2026-11-21T01:00:00Z latest=2026-11-21T07:00:00Z nodes=1 duration=4h start=2026-11-21T06:00:00Z end=2026-11-21T10:00:00Z free=10 status=suggested
earliest=2026-11-21T00:00:00Z latest=2026-11-21T04:00:00Z nodes=1 duration=2h start=2026-11-21T00:00:00Z end=2026-11-21T02:00:00Z free=10 status=suggested
EOF
run sh -c 'ar-suggest --longest earliest=+1h latest=+7h nodes=1 | ar-add'
expect_exit 0
expect_out 'earliest=2026-11-21T01:00:00Z latest=2026-11-21T07:00:00Z nodes=1 duration=4h start=2026-11-21T06:00:00Z end=2026-11-21T10:00:00Z free=10 status=granted id=4'
expect_check

begin 'longest: not a slot free at the start is unavailable, reason full, exit 1'
mkstore --nodes 10
run ar-add start=+1h duration=1h nodes=10
run ar-suggest --longest start=+1h nodes=1
expect_exit 1
expect_out 'start=2026-11-21T01:00:00Z nodes=1 free=0 status=unavailable reason=full'
expect_err
expect_check

begin 'longest: up to the horizon; past, horizon and capacity are unavailable'
mkstore --nodes 5 --horizon 1d
run ar-suggest --longest <<'EOF'
start=+20h nodes=5
start=2026-11-20T23:00Z nodes=1
start=+1d nodes=1
start=+1h nodes=6
EOF
expect_exit 1
expect_out <<'EOF'
start=2026-11-21T20:00:00Z nodes=5 duration=4h end=2026-11-22T00:00:00Z free=5 status=suggested
start=2026-11-20T23:00:00Z nodes=1 status=unavailable reason=past
start=2026-11-22T00:00:00Z nodes=1 status=unavailable reason=horizon
start=2026-11-21T01:00:00Z nodes=6 status=unavailable reason=capacity
EOF
expect_err
expect_check

begin 'longest: named hosts: the longest job on those hosts'
mkstore --hosts 'cn[1-4]'
run ar-add start=+2h duration=1h hosts=cn[1-2] user=maint
run ar-suggest --longest <<'EOF'
start=now hosts=cn[1-2]
start=now hosts=cn[3-4]
EOF
expect_exit 0
expect_out <<'EOF'
start=2026-11-21T00:00:00Z hosts=cn[1-2] nodes=2 duration=2h end=2026-11-21T02:00:00Z free=4 status=suggested
start=2026-11-21T00:00:00Z hosts=cn[3-4] nodes=2 duration=30d end=2026-12-21T00:00:00Z free=2 status=suggested
EOF
expect_check

begin 'longest: with named hosts in the plan the answer is one that maps'
mkstore --hosts 'cn[1-4]'
run ar-add start=+2h duration=1h hosts=cn1
run ar-add start=+4h duration=1h hosts=cn2
# The nodes alone would allow 3 until the horizon; on hosts, three that
# avoid cn1 (from +2h) and cn2 (from +4h) do not exist.
run ar-suggest --longest start=now nodes=3
expect_exit 0
expect_out 'start=2026-11-21T00:00:00Z nodes=3 duration=4h end=2026-11-21T04:00:00Z free=3 status=suggested'
run ar-add start=now duration=4h5m nodes=3
expect_exit 1
expect_out 'start=2026-11-21T00:00:00Z duration=4h5m nodes=3 end=2026-11-21T04:05:00Z status=refused reason=hosts conflict=1'
run sh -c 'ar-suggest --longest start=now nodes=3 | ar-add'
expect_exit 0
expect_out 'start=2026-11-21T00:00:00Z nodes=3 duration=4h end=2026-11-21T04:00:00Z free=3 status=granted id=3'
expect_check

begin 'extend: how far a reservation grows at its start; ar-add --modify takes the record'
mkstore --nodes 10
run ar-add start=+1h duration=1h nodes=6 user=a
run ar-add start=+4h duration=1h nodes=6
run ar-suggest --extend id=1
expect_exit 0
expect_out 'id=1 end=2026-11-21T04:00:00Z free=10 status=suggested'
expect_err
run sh -c 'ar-suggest --extend id=1 | ar-add --modify'
expect_exit 0
expect_out 'id=1 end=2026-11-21T04:00:00Z free=10 status=granted start=2026-11-21T01:00:00Z nodes=6 old_start=2026-11-21T01:00:00Z old_end=2026-11-21T02:00:00Z old_nodes=6'
run ar-suggest --extend id=1
expect_exit 1
expect_out 'id=1 end=2026-11-21T04:00:00Z free=4 status=unavailable reason=full'
expect_check

begin 'extend: a running reservation grows from its end; its start stays'
mkstore --nodes 10
run ar-add start=+1h duration=1h nodes=4
run ar-add start=+3h duration=1h nodes=8
run ar-suggest --now 2026-11-21T01:30Z --extend id=1
expect_exit 0
expect_out 'id=1 end=2026-11-21T03:00:00Z free=10 status=suggested'
run sh -c 'ar-suggest --now 2026-11-21T01:30Z --extend id=1 | ar-add --now 2026-11-21T01:30Z --modify'
expect_exit 0
expect_out 'id=1 end=2026-11-21T03:00:00Z free=10 status=granted start=2026-11-21T01:00:00Z nodes=4 old_start=2026-11-21T01:00:00Z old_end=2026-11-21T02:00:00Z old_nodes=4'
expect_check

begin 'extend: --move lets one that has not started take another start in its window'
mkstore --nodes 4 --horizon 1d
run ar-add start=+3h duration=1h nodes=4
run ar-add earliest=+1h latest=+5h duration=1h nodes=2
run ar-suggest --extend id=2
expect_exit 0
expect_out 'id=2 end=2026-11-21T03:00:00Z free=4 status=suggested'
run ar-suggest --extend --move id=2
expect_exit 0
expect_out 'id=2 duration=20h end=2026-11-22T00:00:00Z free=4 status=suggested'
# Started, it keeps its start: --move answers as without.
run ar-suggest --now 2026-11-21T01:30Z --extend --move id=2
expect_exit 0
expect_out 'id=2 duration=2h end=2026-11-21T03:00:00Z free=4 status=suggested'
run sh -c 'ar-suggest --extend --move id=2 | ar-add --modify'
expect_exit 0
expect_out 'id=2 duration=20h end=2026-11-22T00:00:00Z free=4 status=granted start=2026-11-21T04:00:00Z earliest=2026-11-21T01:00:00Z latest=2026-11-21T05:00:00Z nodes=2 old_start=2026-11-21T01:00:00Z old_end=2026-11-21T02:00:00Z old_nodes=2'
expect_check

begin 'extend: at the horizon it cannot grow, reason horizon'
mkstore --nodes 4 --horizon 1d
run ar-add start=+23h duration=1h nodes=1
run ar-suggest --extend id=1
expect_exit 1
expect_out 'id=1 end=2026-11-22T00:00:00Z status=unavailable reason=horizon'
expect_check

begin 'extend: with named hosts in the plan, an end that maps'
mkstore --hosts 'cn[1-4]'
run ar-add start=+1h duration=1h nodes=3
run ar-add start=+2h duration=1h hosts=cn1
run ar-add start=+4h duration=1h hosts=cn2
run ar-suggest --extend id=1
expect_exit 0
expect_out 'id=1 end=2026-11-21T04:00:00Z free=3 status=suggested'
run sh -c 'ar-suggest --extend id=1 | ar-add --modify'
expect_exit 0
expect_out 'id=1 end=2026-11-21T04:00:00Z free=3 status=granted start=2026-11-21T01:00:00Z nodes=3 old_start=2026-11-21T01:00:00Z old_end=2026-11-21T02:00:00Z old_nodes=3'
run ar-add --modify id=1 end=+4h5m
expect_exit 1
expect_out 'id=1 end=2026-11-21T04:05:00Z start=2026-11-21T01:00:00Z status=refused reason=hosts conflict=2 nodes=3'
expect_check

begin 'extend: a running one keeps its hosts, so a pin on one of them stops it'
mkstore --hosts 'cn[1-4]'
run ar-add start=+1h duration=1h nodes=3
run ar-add start=+2h duration=1h hosts=cn4
run ar-map --now 2026-11-21T01:00Z --plan
expect_out <<EOF
id=1 start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=3 owner=$ME status=new hosts=cn[1-3]
id=2 start=2026-11-21T02:00:00Z end=2026-11-21T03:00:00Z nodes=1 owner=$ME status=new hosts=cn4
EOF
# The clock is at 01:00 now: times are given in full.
run ar-add start=2026-11-21T03:00Z duration=1h hosts=cn1
run ar-suggest --extend id=1
expect_exit 0
expect_out 'id=1 end=2026-11-21T03:00:00Z free=3 status=suggested'
expect_check

begin 'extend: cancelled, unknown and bad lines'
mkstore --nodes 4
run ar-add start=+1h duration=1h nodes=1
run ar-del id=1
run ar-suggest --extend <<'EOF'
nodes=2
id=2 nodes=2
id=1
id=9
EOF
expect_exit 2
expect_out <<'EOF'
id=1 status=unavailable reason=done
id=9 status=unavailable reason=not-found
EOF
expect_err <<'EOF'
ar-suggest: line 1: missing field 'id'
ar-suggest: line 2: field 'nodes': --extend reads only the reservation's id
ar-suggest: line 3: reservation 1: the reservation is already cancelled or finished
ar-suggest: line 4: reservation 9: no such reservation
EOF
expect_check

begin 'longest, extend: they change nothing in the store'
mkstore --nodes 10
run ar-add start=+1h duration=1h nodes=6
run ar-report --all
keep before
run ar-suggest --longest start=now nodes=4
run ar-suggest --extend --move id=1
run ar-report --all
expect_out <"$D/before"
expect_check

begin 'longest, extend: the modes are exclusive and take no search options'
mkstore
run ar-suggest --longest --extend id=1
expect_exit 2
{ echo 'ar-suggest: --longest and --extend do not go together'
  usage_of ar-suggest; } >"$D/usage"
expect_err <"$D/usage"
run ar-suggest --move id=1
expect_exit 2
{ echo 'ar-suggest: --move goes with --extend'
  usage_of ar-suggest; } >"$D/usage"
expect_err <"$D/usage"
run ar-suggest -k 2 --longest start=now
expect_exit 2
{ echo 'ar-suggest: --limit and --count are not for --longest or --extend'
  usage_of ar-suggest; } >"$D/usage"
expect_err <"$D/usage"
expect_check
