# 80-reclaim.sh - reclaiming what is not used (issue 25, seed 004's DRR):
# ar-add takes use reports (id=N used=yes or no), ar-price --reclaim and a
# class's reclaim= set the grace period, and the first writer after a
# started reservation's grace, with no use reported, frees the rest of it;
# ar-report --usage tells booked from used and idle reserved node-slots.

begin 'reclaim: without a policy nothing is reclaimed'
mkstore --nodes 4
run ar-add start=+1h duration=2h nodes=4
run ar-add --now 2026-11-21T02:00Z start=2026-11-21T02:10Z duration=10m nodes=1
expect_exit 1
run ar-report --now 2026-11-21T02:00Z --list
expect_out "id=1 start=2026-11-21T01:00:00Z end=2026-11-21T03:00:00Z nodes=4 owner=$ME status=granted running=yes duration=2h created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z"
run ar-report --info
filter 's/.* live=/live=/; s/ map_size=[0-9]*//'
expect_out 'live=1 records=1 next_id=2 map_max=17179869184 format=10'
expect_check

begin 'reclaim: past the grace with no use reported, the next write frees the rest; its record ends there, reclaimed'
mkstore --nodes 4
run ar-price --reclaim 30m
expect_exit 0
expect_out
expect_err
run ar-report --info
filter 's/.* format=/format=/'
expect_out 'format=10 reclaim=30m'
run ar-add start=+1h duration=2h nodes=4
# Within the grace: a writer changes nothing.
run ar-add --now 2026-11-21T01:25Z start=2026-11-21T02:00Z duration=1h nodes=4
expect_exit 1
expect_out 'start=2026-11-21T02:00:00Z duration=1h nodes=4 end=2026-11-21T03:00:00Z free=0 status=refused reason=full'
# Past it: the writer that notices it reclaims it first, then books.
run ar-add --now 2026-11-21T01:42Z start=2026-11-21T02:00Z duration=1h nodes=4
expect_exit 0
expect_out 'start=2026-11-21T02:00:00Z duration=1h nodes=4 id=2 end=2026-11-21T03:00:00Z free=4 status=granted'
run ar-report --now 2026-11-21T01:42Z --all
expect_out "id=1 start=2026-11-21T01:00:00Z end=2026-11-21T01:40:00Z nodes=4 owner=$ME status=reclaimed running=no duration=2h created=2026-11-21T00:00:00Z changed=2026-11-21T01:42:00Z" \
    "id=2 start=2026-11-21T02:00:00Z end=2026-11-21T03:00:00Z nodes=4 owner=$ME status=granted running=no duration=1h created=2026-11-21T01:42:00Z changed=2026-11-21T01:42:00Z"
run ar-report --now 2026-11-21T01:42Z --all status=reclaimed
expect_exit 0
expect_out "id=1 start=2026-11-21T01:00:00Z end=2026-11-21T01:40:00Z nodes=4 owner=$ME status=reclaimed running=no duration=2h created=2026-11-21T00:00:00Z changed=2026-11-21T01:42:00Z"
# The owner reporting use now is told it is done.
run ar-add --now 2026-11-21T01:43Z id=1 used=yes
expect_exit 1
expect_out 'id=1 used=yes status=refused reason=reclaimed'
expect_err 'ar-add: arguments: reservation 1: it was reclaimed: it reported no use within the grace period'
expect_check

begin 'reclaim: a split request is one job: reclaiming its started piece frees its later pieces too'
mkstore --nodes 4
run ar-price --reclaim 30m
run ar-add start=+2h duration=1h nodes=4
run ar-add --now 2026-11-21T00:00Z id=1 used=yes
run ar-add start=+1h duration=2h defer=+4h split=yes nodes=4
expect_exit 0
expect_out 'start=2026-11-21T01:00:00Z duration=2h defer=+4h split=yes nodes=4 id=2 series=2 piece=1 pieces=2 end=2026-11-21T02:00:00Z free=4 status=granted' \
    'start=2026-11-21T03:00:00Z duration=2h defer=+4h split=yes nodes=4 id=3 series=2 piece=2 pieces=2 end=2026-11-21T04:00:00Z free=4 status=granted'
# Past the first piece's grace, no use reported: the second, not yet
# started, goes with it, and its time is free.
run ar-add --now 2026-11-21T01:42Z start=2026-11-21T03:00Z duration=1h nodes=4
expect_exit 0
expect_out 'start=2026-11-21T03:00:00Z duration=1h nodes=4 id=4 end=2026-11-21T04:00:00Z free=4 status=granted'
run ar-report --now 2026-11-21T01:42Z --all status=reclaimed
expect_exit 0
expect_out "id=2 series=2 piece=1 pieces=2 split=orr start=2026-11-21T01:00:00Z end=2026-11-21T01:40:00Z nodes=4 earliest=2026-11-21T01:00:00Z latest=2026-11-21T02:00:00Z owner=$ME status=reclaimed running=no duration=2h created=2026-11-21T00:00:00Z changed=2026-11-21T01:42:00Z" \
    "id=3 series=2 piece=2 pieces=2 split=orr start=2026-11-21T03:00:00Z end=2026-11-21T04:00:00Z nodes=4 earliest=2026-11-21T01:00:00Z latest=2026-11-21T02:00:00Z owner=$ME status=reclaimed running=no duration=2h created=2026-11-21T00:00:00Z changed=2026-11-21T01:42:00Z"
# The later piece was freed before it began: none of its time counts as
# reserved (1 and 4 count 48 node-slots each, 2 its 32 idle ones).
run ar-report --now 2026-11-21T05:00Z --usage --from 2026-11-21T01:00Z --to 2026-11-21T05:00Z --window 4h
filter 's/.*\( reserved=[0-9]*\) .*\( reserved_used=[0-9]* reserved_idle=[0-9]* reserved_unreported=[0-9]*\).*/\1\2/'
expect_out ' reserved=128 reserved_used=48 reserved_idle=32 reserved_unreported=48' \
    ' reserved=128 reserved_used=48 reserved_idle=32 reserved_unreported=48'
expect_check

begin 'reclaim: maintenance (flags=maint) runs no job and is never reclaimed'
mkstore --nodes 4
run ar-price --reclaim 30m
run ar-add start=+1h duration=2h hosts='node[1-2]' flags=maint user=ops
expect_exit 0
run ar-add --now 2026-11-21T01:42Z start=2026-11-21T02:00Z duration=1h nodes=4
expect_exit 1
expect_out 'start=2026-11-21T02:00:00Z duration=1h nodes=4 end=2026-11-21T03:00:00Z free=2 status=refused reason=full'
run ar-report --now 2026-11-21T01:42Z --list
expect_out "id=1 user=ops flags=maint start=2026-11-21T01:00:00Z end=2026-11-21T03:00:00Z nodes=2 owner=$ME status=granted running=yes duration=2h created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z"
expect_check

begin 'reclaim: used=yes is never reclaimed, and a report again changes nothing'
mkstore --nodes 4
run ar-price --reclaim 30m
run ar-add start=+1h duration=2h nodes=4
run ar-add --now 2026-11-21T01:05Z id=1 used=yes
expect_exit 0
expect_out 'id=1 used=yes status=granted'
expect_err
store_sum >"$D/before"
run ar-add --now 2026-11-21T01:05Z id=1 used=yes
expect_exit 0
expect_out 'id=1 used=yes status=granted'
store_sum >"$D/after"
run cmp "$D/before" "$D/after"
expect_exit 0
# used=no after it changes nothing either: use once reported is final.
run ar-add --now 2026-11-21T01:06Z id=1 used=no
expect_exit 0
expect_out 'id=1 used=yes status=granted'
run ar-add --now 2026-11-21T02:00Z start=2026-11-21T02:10Z duration=10m nodes=1
expect_exit 1
run ar-report --now 2026-11-21T02:00Z --list
expect_out "id=1 start=2026-11-21T01:00:00Z end=2026-11-21T03:00:00Z nodes=4 owner=$ME status=granted used=yes running=yes duration=2h created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z"
expect_check

begin 'reclaim: used=no is reclaimed as no report is; a class grace overrides the store-wide one'
mkstore --nodes 4
printf '%s\n' 'class=1 price=10 ahead_min=0 ahead_max=1d limit=4 reclaim=10m' \
    'class=2 price=5 ahead_min=1d limit=4 reclaim=no' | ar-price --set
run ar-price --reclaim 1h
run ar-price --show
expect_out 'class=1 price=10 ahead_min=0s ahead_max=1d limit=4 retention=90d reclaim=10m' \
    'class=2 price=5 ahead_min=1d limit=4 retention=90d reclaim=no'
run ar-add start=+1h duration=2h nodes=2
run ar-add start=+1h duration=2h nodes=1 user=u
run ar-add start=+2d duration=2h nodes=1
run ar-add --now 2026-11-21T01:05Z id=1 used=no
expect_exit 0
expect_out 'id=1 used=no status=granted'
run ar-add --now 2026-11-21T01:05Z id=2 used=yes
run ar-add --now 2026-11-21T01:11Z id=99 used=yes
expect_exit 1
expect_out 'id=99 used=yes status=refused reason=not-found'
run ar-report --now 2026-11-21T01:11Z --all
filter 's/ running=.*//'
expect_out "id=1 start=2026-11-21T01:00:00Z end=2026-11-21T01:10:00Z nodes=2 owner=$ME class=1 price=480 status=reclaimed used=no" \
    "id=2 user=u start=2026-11-21T01:00:00Z end=2026-11-21T03:00:00Z nodes=1 owner=$ME class=1 price=240 status=granted used=yes" \
    "id=3 start=2026-11-23T00:00:00Z end=2026-11-23T02:00:00Z nodes=1 owner=$ME class=2 price=120 status=granted"
run ar-add --now 2026-11-23T01:00Z id=99 used=yes
run ar-report --now 2026-11-23T01:00Z --list
filter 's/ running=.*//'
expect_out "id=3 start=2026-11-23T00:00:00Z end=2026-11-23T02:00:00Z nodes=1 owner=$ME class=2 price=120 status=granted"
expect_check

begin 'reclaim: --reclaim no turns it off; nothing is reclaimed after'
mkstore --nodes 4
run ar-price --reclaim 30m
run ar-add start=+1h duration=2h nodes=4
run ar-price --reclaim no
expect_exit 0
run ar-report --info
filter 's/.* format=/format=/'
expect_out 'format=10'
run ar-add --now 2026-11-21T02:00Z start=2026-11-21T02:10Z duration=10m nodes=1
expect_exit 1
expect_check

begin 'reclaim: bad use reports and policies are refused with the field'
mkstore --nodes 4
run ar-add start=+1h duration=1h nodes=1
run ar-add id=1 used=maybe
expect_exit 2
expect_err "ar-add: arguments: field 'used': not yes or no: 'maybe'"
run ar-add used=yes
expect_exit 2
expect_err "ar-add: arguments: field 'id': missing (a use report names the reservation)"
run ar-add id=1 used=yes nodes=2
expect_exit 2
expect_err "ar-add: arguments: field 'nodes': not in a use report"
usage_of ar-price >"$D/usage"
run ar-price --reclaim soon
expect_exit 2
{ echo "ar-price: option '--reclaim': not a duration or 'no': 'soon'"
    cat "$D/usage"; } >"$D/err"
expect_err <"$D/err"
run ar-price --reclaim 0s
expect_exit 2
{ echo "ar-price: option '--reclaim': not a duration or 'no': '0s'"
    cat "$D/usage"; } >"$D/err"
expect_err <"$D/err"
run ar-price --show --reclaim 1h
expect_exit 2
{ echo "ar-price: --reclaim goes alone or with --set"
    cat "$D/usage"; } >"$D/err"
expect_err <"$D/err"
printf '%s\n' 'class=1 price=10 ahead_min=0 limit=4 reclaim=x' >"$D/in"
run ar-price --set <"$D/in"
expect_exit 2
expect_err "ar-price: line 1: field 'reclaim': not a duration or 'no': 'x'"
expect_check

if can_be_nobody; then
	begin 'reclaim: only the owner or root reports use; another user is refused not-owner'
	mkstore --nodes 4
	chmod a+x "$TOP"
	chmod -R a+rwX "$D"
	run ar-add start=+1h duration=1h nodes=1
	run as_nobody ar-add id=1 used=yes
	expect_exit 1
	expect_out 'id=1 used=yes status=refused reason=not-owner'
	expect_err 'ar-add: arguments: reservation 1: not the owner of the reservation'
	run ar-add id=1 used=yes
	expect_exit 0
	expect_check
else
	skip 'reclaim: only the owner or root reports use' 'needs root and setpriv(1)'
fi

# A small known plan, slots of 10 minutes: 1: 2 nodes 01:00-02:00, used;
# 2: 1 node 01:00-02:00, no use reported (used=no, or none), reclaimed at
# 01:40 (booked 01:00-01:40); 3: 1 node 01:00-01:30, no report, ends
# before a writer looks; all user a but 3, user b.  $1: what 2 reports.
usage_plan() {
	mkstore --nodes 4 --slot 10m
	run ar-price --reclaim 30m
	run ar-add start=+1h duration=1h nodes=2 user=a
	run ar-add start=+1h duration=1h nodes=1 user=a
	run ar-add start=+1h duration=30m nodes=1 user=b
	run ar-add --now 2026-11-21T01:00Z id=1 used=yes
	[ -z "$1" ] || run ar-add --now 2026-11-21T01:00Z id=2 used=$1
	run ar-add --now 2026-11-21T01:40Z id=99 used=yes
}

begin 'reclaim: usage tells booked from used, idle and unreported node-slots'
usage_plan no
run ar-report --now 2026-11-21T03:00Z --usage --from 2026-11-21T01:00Z --to 2026-11-21T02:00Z --window 1h
filter 's/.*\( reserved=[0-9]*\) .*\( reserved_used=[0-9]* reserved_idle=[0-9]* reserved_unreported=[0-9]*\).*/\1\2/'
expect_out ' reserved=19 reserved_used=12 reserved_idle=4 reserved_unreported=3' \
    ' reserved=19 reserved_used=12 reserved_idle=4 reserved_unreported=3'
run ar-report --now 2026-11-21T03:00Z --usage --from 2026-11-21T01:00Z --to 2026-11-21T02:00Z --by user
filter 's/^\(user=[^ ]*\).*\( reserved=[0-9]*\) .*\( reserved_used=[0-9]* reserved_idle=[0-9]* reserved_unreported=[0-9]*\).*/\1\2\3/;s/^window=total.*\( reserved=[0-9]*\) .*\( reserved_used=[0-9]* reserved_idle=[0-9]* reserved_unreported=[0-9]*\).*/total\1\2/'
expect_out 'user=a reserved=16 reserved_used=12 reserved_idle=4 reserved_unreported=0' \
    'user=b reserved=3 reserved_used=0 reserved_idle=0 reserved_unreported=3' \
    'total reserved=19 reserved_used=12 reserved_idle=4 reserved_unreported=3'
expect_check

begin 'reclaim: --table and --svg show used, idle and unreported; a reclaim is no move'
usage_plan
run ar-report --now 2026-11-21T03:00Z --usage --from 2026-11-21T01:00Z --to 2026-11-21T02:00Z --window 30m
filter 's/.*\( moved=[0-9]*\).*/\1/'
expect_out ' moved=0' ' moved=0' ' moved=0'
run ar-report --now 2026-11-21T03:00Z --usage --from 2026-11-21T01:00Z --to 2026-11-21T02:00Z --window 30m --table
expect_exit 0
expect_out <<'EOT'
from                  to                    utilisation(%)  idle(node-slots)  granted  refused  acceptance(%)  awt(s)  awt_max(s)  moved  used(node-slots)  reserved_idle(node-slots)  unreported(node-slots)
2026-11-21T01:00:00Z  2026-11-21T01:30:00Z           100.0                 0        3        0          100.0       0           0      0                 6                          3                       3
2026-11-21T01:30:00Z  2026-11-21T02:00:00Z            58.3                 5        0        0              -       -           -      0                 6                          1                       0
2026-11-21T01:00:00Z  total                           79.2                 5        3        0          100.0       0           0      0                12                          4                       3
EOT
run ar-report --now 2026-11-21T03:00Z --usage --from 2026-11-21T01:00Z --to 2026-11-21T02:00Z --window 30m --svg "$D/u.svg"
expect_exit 0
run grep -c 'Reserved: used, idle, not reported per 30m window' "$D/u.svg"
expect_out 1
expect_check
