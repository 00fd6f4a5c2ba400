# 89-maint.sh - maintenance that wins: flags=maint with hosts= takes its
# hosts at the first start of its window when admission refuses it;
# what has not started is moved to other hosts, keeping its times, or
# displaced: listed with reason=displaced, and the maintenance refused,
# unless --force cancels them.  Nothing is lost silently; started and
# named reservations are never moved.

# plan: 4 hosts; x (2 nodes) from +1h for 2h, y (2) from +1h for 1h.
plan() {
	mkstore --hosts 'cn[1-4]'
	printf '%s\n' 'start=+1h duration=2h nodes=2 user=x' \
	    'start=+1h duration=1h nodes=2 user=y' | ar-add >/dev/null ||
	    fail 'ar-add failed'
	ar-map --plan >"$D/plan" || fail 'ar-map failed'
}

begin 'maint: one that would displace a reservation is refused, naming it, and changes nothing but the demand log'
plan
run cat "$D/plan"
expect_out <<'EOS'
id=1 user=x start=2026-11-21T01:00:00Z end=2026-11-21T03:00:00Z nodes=2 owner=0 status=new hosts=cn[1-2]
id=2 user=y start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=2 owner=0 status=new hosts=cn[3-4]
EOS
ar-report --dump | grep -v "^table=demand\|^entries=" >"$D/before" ||
    fail 'ar-report --dump failed'
run ar-add flags=maint start=+1h duration=1h hosts=cn[2-3] user=ops
expect_exit 1
expect_out <<'EOS'
flags=maint start=2026-11-21T01:00:00Z duration=1h hosts=cn[2-3] user=ops nodes=2 end=2026-11-21T02:00:00Z status=refused reason=displaced
id=2 user=y start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=2 owner=0 status=granted reason=displaced
EOS
run sh -c 'ar-report --dump | grep -v "^table=demand\\|^entries="'
expect_out <"$D/before"
expect_check

begin 'maint: --force cancels what it displaces and moves the rest to other hosts, keeping their times'
plan
run ar-add --force flags=maint start=+1h duration=1h hosts=cn[2-3] user=ops
expect_exit 0
expect_out <<'EOS'
flags=maint start=2026-11-21T01:00:00Z duration=1h hosts=cn[2-3] user=ops nodes=2 id=3 end=2026-11-21T02:00:00Z free=2 status=granted
id=2 user=y start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=2 owner=0 status=cancelled reason=displaced
EOS
run ar-map --plan
expect_out <<'EOS'
id=1 user=x start=2026-11-21T01:00:00Z end=2026-11-21T03:00:00Z nodes=2 owner=0 status=remapped hosts=cn[1,4] old_hosts=cn[1-2]
id=3 user=ops flags=maint start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=2 owner=0 status=new hosts=cn[2-3]
EOS
run ar-report --all status=cancelled
expect_out 'id=2 user=y start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=2 owner=0 status=cancelled running=no duration=1h created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z'
expect_check

begin 'maint: a started reservation on its hosts is never moved: refused, naming it'
plan
run ar-add --force --now 2026-11-21T01:10:00Z flags=maint start=+10m duration=30m hosts=cn2 user=ops
expect_exit 1
expect_out 'flags=maint start=2026-11-21T01:20:00Z duration=30m hosts=cn2 user=ops nodes=1 end=2026-11-21T01:50:00Z status=refused reason=hosts conflict=1'
run ar-map --now 2026-11-21T01:10:00Z id=1
expect_out 'id=1 hosts=cn[1-2] status=kept'
expect_check

begin 'maint: another maintenance on its hosts is never displaced'
plan
run ar-add flags=maint start=+3h duration=1h hosts=cn[1-2] user=ops
expect_exit 0
run ar-add --force flags=maint start=+3h duration=1h hosts=cn2 user=ops2
expect_exit 1
expect_out 'flags=maint start=2026-11-21T03:00:00Z duration=1h hosts=cn2 user=ops2 nodes=1 end=2026-11-21T04:00:00Z status=refused reason=hosts conflict=3'
expect_check

begin 'maint: without flags=maint, named hosts that are taken are refused as before'
plan
run ar-add --force start=+1h duration=1h hosts=cn[2-3] user=ops
expect_exit 1
expect_out 'start=2026-11-21T01:00:00Z duration=1h hosts=cn[2-3] user=ops nodes=2 end=2026-11-21T02:00:00Z free=0 status=refused reason=full'
expect_check
