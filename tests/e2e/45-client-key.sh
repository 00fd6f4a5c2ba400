# 45-client-key.sh - ar-add's client_key: a retried request is answered
# with what was granted for it, and nothing is booked twice.

# Issue 10: a batch granted and committed, but its output lost (the
# pipeline died after the commit), is run again.
begin 'key: a batch piped twice books once; the second run prints the same ids, replayed=yes'
mkstore --nodes 8
cat >"$D/in" <<'EOF'
start=+1h duration=1h nodes=2 client_key=b1-1
start=+1h duration=1h nodes=3 jobs=2 client_key=b1-2
start=+2h duration=30m nodes=1
EOF
run ar-add <"$D/in"
expect_exit 0
filter 's/ free=[0-9]*//'
expect_out <<'EOF'
start=2026-11-21T01:00:00Z duration=1h nodes=2 client_key=b1-1 id=1 end=2026-11-21T02:00:00Z status=granted
start=2026-11-21T01:00:00Z duration=1h nodes=3 jobs=2 client_key=b1-2 id=2 copy=1 end=2026-11-21T02:00:00Z status=granted
start=2026-11-21T01:00:00Z duration=1h nodes=3 jobs=2 client_key=b1-2 id=3 copy=2 end=2026-11-21T02:00:00Z status=granted
start=2026-11-21T02:00:00Z duration=30m nodes=1 id=4 end=2026-11-21T02:30:00Z status=granted
EOF
run ar-add --now 2026-11-21T00:10Z <"$D/in"
expect_exit 0
expect_out <<'EOF'
start=2026-11-21T01:00:00Z duration=1h nodes=2 client_key=b1-1 id=1 end=2026-11-21T02:00:00Z status=granted replayed=yes
start=2026-11-21T01:00:00Z duration=1h nodes=3 jobs=2 client_key=b1-2 id=2 copy=1 end=2026-11-21T02:00:00Z status=granted replayed=yes
start=2026-11-21T01:00:00Z duration=1h nodes=3 jobs=2 client_key=b1-2 id=3 copy=2 end=2026-11-21T02:00:00Z status=granted replayed=yes
start=2026-11-21T02:10:00Z duration=30m nodes=1 id=5 end=2026-11-21T02:40:00Z free=7 status=granted
EOF
expect_err
run ar-report --list
expect_out <<EOF
id=1 client_key=b1-1 start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=2 owner=$ME status=granted running=no duration=1h created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z
id=2 client_key=b1-2 start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=3 owner=$ME status=granted running=no duration=1h created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z
id=3 client_key=b1-2 start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=3 owner=$ME status=granted running=no duration=1h created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z
id=4 start=2026-11-21T02:00:00Z end=2026-11-21T02:30:00Z nodes=1 owner=$ME status=granted running=no duration=30m created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z
id=5 start=2026-11-21T02:10:00Z end=2026-11-21T02:40:00Z nodes=1 owner=$ME status=granted running=no duration=30m created=2026-11-21T00:10:00Z changed=2026-11-21T00:10:00Z
EOF
expect_check

begin 'key: the same key twice in one batch is booked once'
mkstore --nodes 8
run ar-add <<'EOF'
start=+1h duration=1h nodes=2 client_key=k
start=+1h duration=1h nodes=2 client_key=k
EOF
expect_exit 0
expect_out <<'EOF'
start=2026-11-21T01:00:00Z duration=1h nodes=2 client_key=k id=1 end=2026-11-21T02:00:00Z free=8 status=granted
start=2026-11-21T01:00:00Z duration=1h nodes=2 client_key=k id=1 end=2026-11-21T02:00:00Z status=granted replayed=yes
EOF
expect_check

begin 'key: the key with another request is bad input, exit 2, the other lines processed'
mkstore --nodes 8
run ar-add start=+1h duration=1h nodes=2 client_key=k
expect_exit 0
run ar-report --all
keep before
run ar-add <<'EOF'
start=+1h duration=1h nodes=3 client_key=k
start=+1h duration=2h nodes=2 client_key=k
start=+1h duration=1h nodes=2 jobs=2 client_key=k
start=+3h duration=1h nodes=2 client_key=k
EOF
expect_exit 2
expect_out 'start=2026-11-21T01:00:00Z duration=1h nodes=2 client_key=k id=1 end=2026-11-21T02:00:00Z status=granted replayed=yes'
expect_err <<'EOF'
ar-add: line 1: field 'client_key': already used by reservation 1 for a different request
ar-add: line 2: field 'client_key': already used by reservation 1 for a different request
ar-add: line 3: field 'client_key': already used by reservation 1 for a different request
EOF
run ar-report --all
expect_out <"$D/before"
expect_check

begin 'key: a cancelled reservation is replayed as cancelled, not booked again'
mkstore --nodes 8
run ar-add start=+1h duration=1h client_key=k
run ar-del id=1
expect_exit 0
run ar-add start=+1h duration=1h client_key=k
expect_exit 0
expect_out 'start=2026-11-21T01:00:00Z duration=1h client_key=k id=1 end=2026-11-21T02:00:00Z status=cancelled replayed=yes'
expect_err
run ar-report --all
expect_out "id=1 client_key=k start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=1 owner=$ME status=cancelled running=no duration=1h created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z"
expect_check

begin 'key: a finished reservation is replayed as finished, its start past'
mkstore --nodes 8
run ar-add start=+1h duration=1h client_key=k
run ar-del --now 2026-11-21T03:00Z --purge
run ar-add start=2026-11-21T01:00Z duration=1h client_key=k
expect_exit 0
expect_out 'start=2026-11-21T01:00:00Z duration=1h client_key=k id=1 end=2026-11-21T02:00:00Z status=finished replayed=yes'
expect_check

begin 'key: a refused request takes no key; retried, it is tried again'
mkstore --nodes 8
run ar-add start=+1h duration=1h nodes=8
run ar-add start=+1h duration=1h nodes=4 client_key=k
expect_exit 1
expect_out 'start=2026-11-21T01:00:00Z duration=1h nodes=4 client_key=k end=2026-11-21T02:00:00Z free=0 status=refused reason=full'
run ar-del id=1
run ar-add start=+1h duration=1h nodes=4 client_key=k
expect_exit 0
expect_out 'start=2026-11-21T01:00:00Z duration=1h nodes=4 client_key=k id=2 end=2026-11-21T02:00:00Z free=8 status=granted'
run ar-add start=+1h duration=1h nodes=4 client_key=k
expect_exit 0
expect_out 'start=2026-11-21T01:00:00Z duration=1h nodes=4 client_key=k id=2 end=2026-11-21T02:00:00Z status=granted replayed=yes'
expect_check

begin 'key: an empty client_key is none; replayed is ar-add'"'"'s own field'
mkstore --nodes 8
run ar-add <<'EOF'
start=+1h duration=1h client_key= replayed=yes
start=+1h duration=1h client_key=
EOF
expect_exit 0
expect_out <<'EOF'
start=2026-11-21T01:00:00Z duration=1h client_key="" id=1 end=2026-11-21T02:00:00Z free=8 status=granted
start=2026-11-21T01:00:00Z duration=1h client_key="" id=2 end=2026-11-21T02:00:00Z free=7 status=granted
EOF
expect_check

begin 'key: a key longer than 255 bytes is bad input'
mkstore --nodes 8
k=$(printf '%0256d' 0)
run ar-add start=+1h duration=1h client_key="$k"
expect_exit 2
expect_out
expect_err "ar-add: arguments: field 'client_key': longer than 255 bytes"
run ar-add start=+1h duration=1h client_key="${k#0}"
expect_exit 0
expect_check

begin 'key: --json replays too'
mkstore --nodes 8
run ar-add --json <<'EOF'
{"start":"+1h","duration":"1h","client_key":"j"}
{"start":"+1h","duration":"1h","client_key":"j"}
EOF
expect_exit 0
expect_out <<'EOF'
{"start":"2026-11-21T01:00:00Z","duration":"1h","client_key":"j","id":1,"end":"2026-11-21T02:00:00Z","free":8,"status":"granted"}
{"start":"2026-11-21T01:00:00Z","duration":"1h","client_key":"j","id":1,"end":"2026-11-21T02:00:00Z","status":"granted","replayed":"yes"}
EOF
expect_check

if can_be_nobody; then
	begin 'key: keys are per owner: another user'"'"'s same key is their own'
	mkstore --nodes 8
	chmod a+x "$TOP"
	chmod -R a+rwX "$D"
	run ar-add start=+1h duration=1h client_key=k
	expect_exit 0
	run as_nobody ar-add start=+1h duration=1h client_key=k
	expect_exit 0
	expect_out 'start=2026-11-21T01:00:00Z duration=1h client_key=k id=2 end=2026-11-21T02:00:00Z free=7 status=granted'
	run as_nobody ar-add start=+1h duration=1h client_key=k
	expect_out 'start=2026-11-21T01:00:00Z duration=1h client_key=k id=2 end=2026-11-21T02:00:00Z status=granted replayed=yes'
	expect_check
else
	skip 'key: keys are per owner' 'needs root to run as another user'
fi
