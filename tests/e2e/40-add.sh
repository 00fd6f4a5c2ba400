# 40-add.sh - ar-add: admit reservations atomically.

begin 'add: a grant prints the record with its id and status granted'
mkstore --nodes 5
run ar-add start=+1h duration=1h nodes=2
expect_exit 0
expect_out 'start=2026-11-21T01:00:00Z duration=1h nodes=2 id=1 end=2026-11-21T02:00:00Z free=5 status=granted'
expect_err
run ar-report --list
expect_out "id=1 start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=2 owner=$ME status=granted running=no duration=1h created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z"
expect_check

begin 'add: a refusal is reason full, exit 1, and leaves the store unchanged'
mkstore --nodes 5
run ar-add start=+1h duration=1h nodes=3
expect_exit 0
run ar-report --all
keep before
run ar-add start=+30m duration=1h nodes=3
expect_exit 1
expect_out 'start=2026-11-21T00:30:00Z duration=1h nodes=3 end=2026-11-21T01:30:00Z free=2 status=refused reason=full'
expect_err
run ar-report --all
expect_out <"$D/before"
run ar-add start=+2h duration=1h nodes=1
expect_out 'start=2026-11-21T02:00:00Z duration=1h nodes=1 id=2 end=2026-11-21T03:00:00Z free=5 status=granted'
expect_check

begin 'add: many lines, a bad one: exit 2, the line named, the rest processed'
mkstore --nodes 5
run ar-add <<'EOF'
start=+1h duration=1h nodes=3 user=a
start=+1h duration=1h nodes=3 user=b
start=2026-13-01T00:00Z duration=1h nodes=1 user=c
start=+1h duration=1h nodes=2 user=d
EOF
expect_exit 2
expect_out <<'EOF'
start=2026-11-21T01:00:00Z duration=1h nodes=3 user=a id=1 end=2026-11-21T02:00:00Z free=5 status=granted
start=2026-11-21T01:00:00Z duration=1h nodes=3 user=b end=2026-11-21T02:00:00Z free=2 status=refused reason=full
start=2026-11-21T01:00:00Z duration=1h nodes=2 user=d id=2 end=2026-11-21T02:00:00Z free=2 status=granted
EOF
expect_err "ar-add: line 3: field 'start': invalid month 13 in '2026-13-01T00:00Z'"
expect_check

begin 'add: granted and refused lines exit 1'
mkstore --nodes 5
run ar-add <<'EOF'
start=+1h duration=1h nodes=5
start=+1h duration=1h nodes=1
start=+2h duration=1h nodes=1
EOF
expect_exit 1
expect_out <<'EOF'
start=2026-11-21T01:00:00Z duration=1h nodes=5 id=1 end=2026-11-21T02:00:00Z free=5 status=granted
start=2026-11-21T01:00:00Z duration=1h nodes=1 end=2026-11-21T02:00:00Z free=0 status=refused reason=full
start=2026-11-21T02:00:00Z duration=1h nodes=1 id=2 end=2026-11-21T03:00:00Z free=5 status=granted
EOF
expect_check

begin 'add: unknown fields pass through untouched and in order'
mkstore --nodes 5
run ar-add <<'EOF'
zz=1 start=+1h queue=normal duration=1h note="two words" nodes=1 a.b-c=x
EOF
expect_exit 0
expect_out 'zz=1 start=2026-11-21T01:00:00Z queue=normal duration=1h note="two words" nodes=1 a.b-c=x id=1 end=2026-11-21T02:00:00Z free=5 status=granted'
expect_check

begin 'add: --json reads and writes JSON Lines'
mkstore --nodes 5
run ar-add --json <<'EOF'
{"start":"+1h","duration":"1h","nodes":2,"user":"alice","tags":["a",1]}
{"start":"+1h","duration":"1h","nodes":4}
EOF
expect_exit 1
expect_out <<'EOF'
{"start":"2026-11-21T01:00:00Z","duration":"1h","nodes":2,"user":"alice","tags":["a",1],"id":1,"end":"2026-11-21T02:00:00Z","free":5,"status":"granted"}
{"start":"2026-11-21T01:00:00Z","duration":"1h","nodes":4,"end":"2026-11-21T02:00:00Z","free":3,"status":"refused","reason":"full"}
EOF
expect_err
expect_check

begin 'add: --json input that is not JSON is bad input'
mkstore --nodes 5
run ar-add --json <<'EOF'
start=+1h duration=1h
EOF
expect_exit 2
expect_out
expect_err "ar-add: line 1: expected '{' at byte 1"
expect_check

begin 'add: the fields as arguments instead of stdin'
mkstore
run ar-add start=+1h duration=1h nodes=2
expect_exit 0
expect_out 'start=2026-11-21T01:00:00Z duration=1h nodes=2 id=1 end=2026-11-21T02:00:00Z free=64 status=granted'
expect_check

begin 'add: user and job labels are kept with the reservation'
mkstore
run ar-add start=+1h duration=1h nodes=2 user=alice job="run 7"
expect_exit 0
expect_out 'start=2026-11-21T01:00:00Z duration=1h nodes=2 user=alice job="run 7" id=1 end=2026-11-21T02:00:00Z free=64 status=granted'
run ar-report --list
expect_out <<EOF
id=1 user=alice job="run 7" start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=2 owner=$ME status=granted running=no duration=1h created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z
EOF
expect_check

begin 'add: jobs=3 independent copies take three times the nodes'
mkstore --nodes 5
run ar-add start=+1h duration=10m nodes=1 jobs=3
expect_exit 0
run ar-report --free --from +1h --to +1h10m
expect_out <<'EOF'
start=2026-11-21T01:00:00Z free=2
start=2026-11-21T01:05:00Z free=2
EOF
run ar-add start=+1h duration=10m nodes=1 jobs=3
expect_exit 1
expect_out 'start=2026-11-21T01:00:00Z duration=10m nodes=1 jobs=3 end=2026-11-21T01:10:00Z free=2 status=refused reason=full'
expect_check

begin 'add: each copy tells the free nodes it found, the copies before it taken'
mkstore --nodes 5
run ar-add start=+1h duration=1h nodes=2 jobs=2
expect_exit 0
expect_out <<'EOF'
start=2026-11-21T01:00:00Z duration=1h nodes=2 jobs=2 id=1 copy=1 end=2026-11-21T02:00:00Z free=5 status=granted
start=2026-11-21T01:00:00Z duration=1h nodes=2 jobs=2 id=2 copy=2 end=2026-11-21T02:00:00Z free=3 status=granted
EOF
expect_err
run ar-add earliest=+1h latest=+3h duration=1h nodes=1 jobs=2
expect_exit 0
expect_out <<'EOF'
earliest=2026-11-21T01:00:00Z latest=2026-11-21T03:00:00Z duration=1h nodes=1 jobs=2 id=3 copy=1 start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z free=1 status=granted
earliest=2026-11-21T01:00:00Z latest=2026-11-21T03:00:00Z duration=1h nodes=1 jobs=2 id=4 copy=2 start=2026-11-21T02:00:00Z end=2026-11-21T03:00:00Z free=5 status=granted
EOF
expect_check

begin 'add: --partial prints a line for each copy, refused ones too'
mkstore --nodes 5
run ar-add --partial start=+1h duration=1h nodes=2 jobs=3
expect_exit 1
expect_out <<'EOF'
start=2026-11-21T01:00:00Z duration=1h nodes=2 jobs=3 id=1 copy=1 end=2026-11-21T02:00:00Z free=5 status=granted
start=2026-11-21T01:00:00Z duration=1h nodes=2 jobs=3 id=2 copy=2 end=2026-11-21T02:00:00Z free=3 status=granted
start=2026-11-21T01:00:00Z duration=1h nodes=2 jobs=3 copy=3 end=2026-11-21T02:00:00Z free=1 status=refused reason=full
EOF
expect_err
run ar-add --partial start=+1h duration=1h nodes=2 jobs=2
expect_exit 1
expect_out <<'EOF'
start=2026-11-21T01:00:00Z duration=1h nodes=2 jobs=2 copy=1 end=2026-11-21T02:00:00Z free=1 status=refused reason=full
start=2026-11-21T01:00:00Z duration=1h nodes=2 jobs=2 copy=2 end=2026-11-21T02:00:00Z free=1 status=refused reason=full
EOF
run ar-add --partial start=+1h duration=1h nodes=6 jobs=2
expect_exit 1
expect_out <<'EOF'
start=2026-11-21T01:00:00Z duration=1h nodes=6 jobs=2 copy=1 end=2026-11-21T02:00:00Z status=refused reason=capacity
start=2026-11-21T01:00:00Z duration=1h nodes=6 jobs=2 copy=2 end=2026-11-21T02:00:00Z status=refused reason=capacity
EOF
run ar-add start=+1h duration=1h nodes=1 jobs=2
expect_exit 1
expect_out 'start=2026-11-21T01:00:00Z duration=1h nodes=1 jobs=2 end=2026-11-21T02:00:00Z free=1 status=refused reason=full'
expect_check

begin 'add: a window earliest..latest is granted at its first fit'
mkstore --nodes 5
run ar-add start=+1h duration=1h nodes=4
run ar-add earliest=2026-11-21T01:00:00Z latest=2026-11-21T03:00:00Z duration=30m nodes=2
expect_exit 0
expect_out 'earliest=2026-11-21T01:00:00Z latest=2026-11-21T03:00:00Z duration=30m nodes=2 id=2 start=2026-11-21T02:00:00Z end=2026-11-21T02:30:00Z free=5 status=granted'
run ar-report --list
expect_out <<EOF
id=1 start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=4 owner=$ME status=granted running=no duration=1h created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z
id=2 start=2026-11-21T02:00:00Z end=2026-11-21T02:30:00Z nodes=2 earliest=2026-11-21T01:00:00Z latest=2026-11-21T03:00:00Z owner=$ME status=granted running=no duration=30m created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z
EOF
expect_check

# DESIGN.md: output times are ISO 8601 UTC.  A relative earliest/latest
# echoed as given means something else to the next command in a pipe.
begin 'add: earliest and latest come out as ISO 8601 UTC, like start'
mkstore --nodes 5
run ar-add earliest=+1h latest=+3h duration=30m nodes=2
expect_exit 0
expect_out 'earliest=2026-11-21T01:00:00Z latest=2026-11-21T03:00:00Z duration=30m nodes=2 id=1 start=2026-11-21T01:00:00Z end=2026-11-21T01:30:00Z free=5 status=granted'
expect_check

begin 'add: past, horizon and capacity refusals'
mkstore --nodes 5 --horizon 1d
run ar-add <<'EOF'
start=2026-11-20T23:55Z duration=10m nodes=1
start=+23h duration=2h nodes=1
start=+1h duration=1h nodes=6
EOF
expect_exit 1
expect_out <<'EOF'
start=2026-11-20T23:55:00Z duration=10m nodes=1 end=2026-11-21T00:05:00Z status=refused reason=past
start=2026-11-21T23:00:00Z duration=2h nodes=1 end=2026-11-22T01:00:00Z status=refused reason=horizon
start=2026-11-21T01:00:00Z duration=1h nodes=6 end=2026-11-21T02:00:00Z status=refused reason=capacity
EOF
expect_check

begin 'add: an argument without = is bad usage'
mkstore
run ar-add start=+1h duration=1h nodes
expect_exit 2
expect_out
expect_err "ar-add: arguments: expected key=value, got 'nodes'"
run ar-report --all
expect_out
expect_check

begin 'add: missing or bad fields are named'
mkstore
run ar-add <<'EOF'
start=+1h nodes=1
duration=1h nodes=1
start=+1h duration=1h nodes=0
start=+1h duration=1h nodes=1 start=+2h
start=+2h end=+1h
EOF
expect_exit 2
expect_out
expect_err <<'EOF'
ar-add: line 1: missing field 'duration' (or 'end')
ar-add: line 2: missing field 'start' (or 'earliest')
ar-add: line 3: field 'nodes': must be between 1 and 1000000
ar-add: line 4: duplicate field 'start'
ar-add: line 5: field 'end': not after 'start'
EOF
run ar-report --all
expect_out
expect_check
