# 60-del.sh - ar-del: cancel by id or by user and job; purge what has ended.

begin 'del: by id is cancelled and its slots are free again'
mkstore --nodes 5
run ar-add start=+1h duration=1h nodes=5
expect_exit 0
run ar-search start=+1h duration=1h nodes=1
expect_exit 1
run ar-del id=1
expect_exit 0
expect_out 'id=1 status=cancelled'
expect_err
run ar-search start=+1h duration=1h nodes=5
expect_exit 0
expect_out 'start=2026-11-21T01:00:00Z duration=1h nodes=5 end=2026-11-21T02:00:00Z free=5 status=available'
run ar-report --all
expect_out "id=1 start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=5 owner=$ME status=cancelled running=no duration=1h created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z"
expect_check

begin 'del: by user and job cancels every live match'
mkstore --nodes 5
run ar-add <<'EOF'
start=+1h duration=1h nodes=1 user=alice job=sim
start=+2h duration=1h nodes=1 user=alice job=sim
start=+3h duration=1h nodes=1 user=alice job=other
start=+4h duration=1h nodes=1 user=bob job=sim
EOF
expect_exit 0
run ar-del user=alice job=sim
expect_exit 0
expect_out <<'EOF'
user=alice job=sim id=1 status=cancelled
user=alice job=sim id=2 status=cancelled
EOF
expect_err
run ar-report --list
expect_out <<EOF
id=3 user=alice job=other start=2026-11-21T03:00:00Z end=2026-11-21T04:00:00Z nodes=1 owner=$ME status=granted running=no duration=1h created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z
id=4 user=bob job=sim start=2026-11-21T04:00:00Z end=2026-11-21T05:00:00Z nodes=1 owner=$ME status=granted running=no duration=1h created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z
EOF
expect_check

# DESIGN.md: ar-del cancels by user/job; exit 0 means all were found.
# More than ALTS_MAX (100) matches must not leave some silently live.
begin 'del: by user and job cancels all of 101 matches'
mkstore --nodes 200
awk 'BEGIN { for (i = 1; i <= 101; i++)
	print "start=+1h duration=1h nodes=1 user=u job=j" }' >"$D/requests"
run ar-add <"$D/requests"
expect_exit 0
awk 'BEGIN { for (i = 1; i <= 101; i++)
	print "user=u job=j id=" i " status=cancelled" }' >"$D/expected"
run ar-del user=u job=j
expect_exit 0
expect_out <"$D/expected"
expect_err
run ar-report --list
expect_out
expect_check

begin 'del: by user and job, an ended reservation is finished, not found'
mkstore --nodes 5
run ar-add <<'EOF'
start=+1h duration=1h nodes=1 user=alice job=sim
start=+3h duration=1h nodes=1 user=alice job=sim
start=+1h duration=1h nodes=1 user=bob job=old
EOF
expect_exit 0
run ar-del --now 2026-11-21T02:30:00Z user=bob job=old
expect_exit 1
expect_out 'user=bob job=old status=refused reason=not-found'
expect_err 'ar-del: arguments: no live reservation with that user and job'
run ar-del --now 2026-11-21T02:30:00Z user=alice job=sim
expect_exit 0
expect_out 'user=alice job=sim id=2 status=cancelled'
expect_err
run ar-report --all
expect_out <<EOF
id=1 user=alice job=sim start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=1 owner=$ME status=finished running=no duration=1h created=2026-11-21T00:00:00Z changed=2026-11-21T02:00:00Z
id=2 user=alice job=sim start=2026-11-21T03:00:00Z end=2026-11-21T04:00:00Z nodes=1 owner=$ME status=cancelled running=no duration=1h created=2026-11-21T00:00:00Z changed=2026-11-21T02:30:00Z
id=3 user=bob job=old start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=1 owner=$ME status=finished running=no duration=1h created=2026-11-21T00:00:00Z changed=2026-11-21T02:00:00Z
EOF
run ar-del id=1
expect_exit 1
expect_out 'id=1 status=refused reason=done'
expect_check
run ar-del --purge
expect_exit 0
expect_out <<EOF
id=1 user=alice job=sim start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=1 owner=$ME status=finished
id=3 user=bob job=old start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=1 owner=$ME status=finished
EOF
expect_check

begin 'del: an unknown id is refused, not-found, exit 1'
mkstore
run ar-del id=42
expect_exit 1
expect_out 'id=42 status=refused reason=not-found'
expect_err 'ar-del: arguments: reservation 42: no such reservation'
expect_check

begin 'del: an unknown user and job is refused, not-found, exit 1'
mkstore
run ar-add start=+1h duration=1h user=alice job=a
run ar-del user=alice job=b
expect_exit 1
expect_out 'user=alice job=b status=refused reason=not-found'
expect_err 'ar-del: arguments: no live reservation with that user and job'
expect_check

begin 'del: cancelling twice is refused, reason done'
mkstore
run ar-add start=+1h duration=1h
run ar-del id=1
expect_exit 0
run ar-del id=1
expect_exit 1
expect_out 'id=1 status=refused reason=done'
expect_err 'ar-del: arguments: reservation 1: the reservation is already cancelled or finished'
expect_check

begin 'del: lines from stdin, each answered, exit 1 if any refused'
mkstore
run ar-add start=+1h duration=1h
run ar-add start=+2h duration=1h
run ar-del <<'EOF'
id=2
id=7
id=1
EOF
expect_exit 1
expect_out <<'EOF'
id=2 status=cancelled
id=7 status=refused reason=not-found
id=1 status=cancelled
EOF
expect_err 'ar-del: line 2: reservation 7: no such reservation'
expect_check

begin 'del: neither id nor user and job is bad input'
mkstore
run ar-del user=alice
expect_exit 2
expect_out
expect_err "ar-del: arguments: missing field 'id' (or 'series', or 'user' and 'job' of at most 255 bytes)"
expect_check

begin 'del: --purge later moves ended reservations to history'
mkstore --nodes 5
run ar-add <<'EOF'
start=+1h duration=1h nodes=1 user=a
start=+2h duration=1h nodes=1 user=b
start=+3h duration=1h nodes=1 user=c
EOF
expect_exit 0
run ar-del --purge --now 2026-11-21T03:30:00Z
expect_exit 0
expect_out <<EOF
id=1 user=a start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=1 owner=$ME status=finished
id=2 user=b start=2026-11-21T02:00:00Z end=2026-11-21T03:00:00Z nodes=1 owner=$ME status=finished
EOF
expect_err
run ar-report --list
expect_out "id=3 user=c start=2026-11-21T03:00:00Z end=2026-11-21T04:00:00Z nodes=1 owner=$ME status=granted running=yes duration=1h created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z"
run ar-report --all
expect_out <<EOF
id=1 user=a start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=1 owner=$ME status=finished running=no duration=1h created=2026-11-21T00:00:00Z changed=2026-11-21T02:00:00Z
id=2 user=b start=2026-11-21T02:00:00Z end=2026-11-21T03:00:00Z nodes=1 owner=$ME status=finished running=no duration=1h created=2026-11-21T00:00:00Z changed=2026-11-21T03:00:00Z
id=3 user=c start=2026-11-21T03:00:00Z end=2026-11-21T04:00:00Z nodes=1 owner=$ME status=granted running=yes duration=1h created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z
EOF
expect_check

begin 'del: --purge is idempotent'
mkstore --nodes 5
run ar-add start=+1h duration=1h nodes=1
run ar-del --purge --now 2026-11-21T02:00:00Z
expect_exit 0
run ar-report --all
keep first
run ar-del --purge --now 2026-11-21T02:00:00Z
expect_exit 0
expect_out
expect_err
run ar-report --all
expect_out <"$D/first"
expect_check

begin 'del: --purge takes movable and labelled reservations out of every index'
mkstore --nodes 3
run ar-add <<'EOF'
earliest=+1h latest=+2h duration=1h nodes=1 user=a job=x
start=+1h duration=2h nodes=1 user=a job=x
start=+1h duration=1h nodes=1
EOF
expect_exit 0
run ar-del -q --purge --now 2026-11-21T02:30:00Z
expect_exit 0
expect_check
run ar-del user=a job=x
expect_exit 0
expect_out 'user=a job=x id=2 status=cancelled'
run ar-report --all
expect_out <<EOF
id=1 user=a job=x start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=1 earliest=2026-11-21T01:00:00Z latest=2026-11-21T02:00:00Z owner=$ME status=finished running=no duration=1h created=2026-11-21T00:00:00Z changed=2026-11-21T02:00:00Z
id=2 user=a job=x start=2026-11-21T01:00:00Z end=2026-11-21T03:00:00Z nodes=1 owner=$ME status=cancelled running=no duration=2h created=2026-11-21T00:00:00Z changed=2026-11-21T02:30:00Z
id=3 start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=1 owner=$ME status=finished running=no duration=1h created=2026-11-21T00:00:00Z changed=2026-11-21T02:00:00Z
EOF
expect_check

begin 'del: -q --purge is quiet'
mkstore --nodes 5
run ar-add start=+1h duration=1h nodes=1
run ar-del -q --purge --now 2026-11-21T02:00:00Z
expect_exit 0
expect_out
run ar-report --all
expect_out "id=1 start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=1 owner=$ME status=finished running=no duration=1h created=2026-11-21T00:00:00Z changed=2026-11-21T02:00:00Z"
expect_check

begin 'del: a finished reservation cannot be cancelled, reason done'
mkstore --nodes 5
run ar-add start=+1h duration=1h nodes=1
run ar-del --purge --now 2026-11-21T02:00:00Z
run ar-del id=1
expect_exit 1
expect_out 'id=1 status=refused reason=done'
expect_check

begin 'del: the clock never runs back: after a later --now the past is past'
mkstore --nodes 5
run ar-add --now 2026-11-21T03:00:00Z start=+1h duration=1h
run ar-del --purge --now 2026-11-21T02:00:00Z
run ar-search start=2026-11-21T02:00:00Z duration=1h nodes=1
expect_exit 1
expect_out 'start=2026-11-21T02:00:00Z duration=1h nodes=1 end=2026-11-21T03:00:00Z status=unavailable reason=past'
run ar-report --info
filter 's/ map_size=[0-9]*//'
expect_out 'nodes=5 hosts=node[1-5] slot=5m horizon=30d clock=2026-11-21T03:00:00Z clock_mode=simulated owners=uid live=1 records=1 next_id=2 map_max=17179869184 format=10'
expect_check

begin 'del: --purge takes no records'
mkstore
run ar-del --purge id=1
expect_exit 2
expect_out
expect_err 'ar-del: takes no records as arguments'
expect_check

# Owners: the store is made writable by all so nobody (65534) can use it.
if can_be_nobody; then
	begin "del: root may cancel another user's reservation"
	mkstore --nodes 5
	chmod a+x "$TOP"
	chmod -R a+rwX "$D"
	run as_nobody ar-add start=+1h duration=1h nodes=1 user=nob
	expect_exit 0
	run ar-del id=1
	expect_exit 0
	expect_out 'id=1 status=cancelled'
	run ar-report --all
	expect_out 'id=1 user=nob start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=1 owner=65534 status=cancelled running=no duration=1h created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z'
	expect_check

	begin "del: a user may not cancel another's reservation, not-owner"
	mkstore --nodes 5
	chmod a+x "$TOP"
	chmod -R a+rwX "$D"
	run ar-add start=+1h duration=1h nodes=1 user=root
	run as_nobody ar-del id=1
	expect_exit 1
	expect_out 'id=1 status=refused reason=not-owner'
	expect_err 'ar-del: arguments: reservation 1: not the owner of the reservation'
	run ar-report --list
	expect_out 'id=1 user=root start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=1 owner=0 status=granted running=no duration=1h created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z'
	expect_check

	begin 'del: a user may cancel their own reservation'
	mkstore --nodes 5
	chmod a+x "$TOP"
	chmod -R a+rwX "$D"
	run as_nobody ar-add start=+1h duration=1h nodes=1
	run as_nobody ar-del id=1
	expect_exit 0
	expect_out 'id=1 status=cancelled'
	expect_check
else
	for what in "root may cancel another user's reservation" \
	    "a user may not cancel another's reservation" \
	    'a user may cancel their own reservation'; do
		skip "del: $what" 'needs root and setpriv(1)'
	done
fi
