# 58-partition-policy.sh - a partition's own policy (format 10, issues
# 23 and 25): booking limits for the store's price classes counted
# within its pools (ar-price --set --partition), a reclaim grace of its
# own (ar-price --reclaim --partition), and what shows them.

# batch: 4 hosts, the default, borrowing gpu's; gpu: 4 hosts, a100.
# Classes by book-ahead: gold under 2h, silver under 6h, bronze after;
# the store's limits leave every class the whole cluster.
policy_store() {
	printf '%s\n' 'hosts=n[1-4] partition=batch' \
	    'hosts=g[1-4] partition=gpu features=a100' \
	    "partition=batch default=yes${1:+ borrow=gpu}" >"$D/hosts"
	mkstore --hosts-from "$D/hosts"
	printf '%s\n' 'class=1 name=gold price=30 ahead_min=0 ahead_max=2h' \
	    'class=2 name=silver price=20 ahead_min=2h ahead_max=6h' \
	    'class=3 name=bronze price=10 ahead_min=6h' >"$D/classes"
	run ar-price --set <"$D/classes"
	expect_exit 0
}

begin 'partition policy: limits in gpu refuse with reason=booking-limit while batch still grants'
policy_store
printf '%s\n' 'class=1' 'class=2 limit=2' 'class=3 limit=1' >"$D/gpu"
run ar-price --set --partition gpu <"$D/gpu"
expect_exit 0
expect_out 'partition=gpu class=1 limit=4' 'partition=gpu class=2 limit=2' \
    'partition=gpu class=3 limit=1'
expect_err
run ar-add start=+3h duration=1h nodes=2 partition=gpu
expect_exit 0
expect_out 'start=2026-11-21T03:00:00Z duration=1h nodes=2 partition=gpu id=1 end=2026-11-21T04:00:00Z free=4 class=2 price=480 status=granted'
# Silver and bronze together hold 2 of gpu's hosts at most.
run ar-add start=+3h duration=1h nodes=1 partition=gpu
expect_exit 1
expect_out 'start=2026-11-21T03:00:00Z duration=1h nodes=1 partition=gpu end=2026-11-21T04:00:00Z free=2 class=2 price=240 status=refused reason=booking-limit'
run ar-add start=+8h duration=1h nodes=2 partition=gpu
expect_exit 1
expect_out 'start=2026-11-21T08:00:00Z duration=1h nodes=2 partition=gpu end=2026-11-21T09:00:00Z free=4 class=3 price=240 status=refused reason=booking-limit'
# Batch has no limits of its own: the store's, the whole cluster.
run ar-add start=+3h duration=1h nodes=4
expect_exit 0
expect_out 'start=2026-11-21T03:00:00Z duration=1h nodes=4 id=2 end=2026-11-21T04:00:00Z free=4 class=2 price=960 status=granted partition=batch'
# ar-search and ar-suggest answer as ar-add: silver is at its limit
# over 03:00-04:00, bronze's is 1.
run ar-search start=+3h duration=1h nodes=1 partition=gpu
expect_exit 1
expect_out 'start=2026-11-21T03:00:00Z duration=1h nodes=1 partition=gpu end=2026-11-21T04:00:00Z free=2 class=2 price=240 status=unavailable reason=booking-limit'
run ar-suggest earliest=+2h30m latest=+5h duration=1h nodes=2 partition=gpu
expect_exit 0
expect_out 'earliest=2026-11-21T02:30:00Z latest=2026-11-21T05:00:00Z duration=1h nodes=2 partition=gpu start=2026-11-21T04:00:00Z end=2026-11-21T05:00:00Z free=4 class=2 price=480 status=suggested'
run ar-search start=+7h duration=1h nodes=1 partition=gpu
expect_exit 0
expect_out 'start=2026-11-21T07:00:00Z duration=1h nodes=1 partition=gpu end=2026-11-21T08:00:00Z free=4 class=3 price=120 status=available'
# Gold is not limited: gpu's last two hosts.
run ar-add start=+1h duration=3h nodes=2 partition=gpu
expect_exit 0
expect_out 'start=2026-11-21T01:00:00Z duration=3h nodes=2 partition=gpu id=3 end=2026-11-21T04:00:00Z free=2 class=1 price=2160 status=granted'
expect_check

begin 'partition policy: a full partition refuses as full, not for a limit, though the cluster has room'
policy_store
run ar-add start=+3h duration=1h nodes=4 partition=gpu
expect_exit 0
run ar-add start=+3h duration=1h nodes=1 partition=gpu
expect_exit 1
expect_out 'start=2026-11-21T03:00:00Z duration=1h nodes=1 partition=gpu end=2026-11-21T04:00:00Z free=0 class=2 price=240 status=refused reason=full'
expect_check

begin 'partition policy: a request borrowing a partition'"'"'s hosts counts in its limits'
policy_store borrow
printf '%s\n' 'class=1' 'class=2 limit=2' 'class=3 limit=2' >"$D/gpu"
run ar-price --set --partition gpu <"$D/gpu"
expect_exit 0
run ar-add start=+3h duration=1h nodes=4
expect_exit 0
# Batch is full: this one borrows gpu's, a silver one there.
run ar-add start=+3h duration=1h nodes=2
expect_exit 0
expect_out 'start=2026-11-21T03:00:00Z duration=1h nodes=2 id=2 end=2026-11-21T04:00:00Z free=4 class=2 price=480 status=granted partition=gpu'
run ar-add start=+3h duration=1h nodes=1 partition=gpu
expect_exit 1
expect_out 'start=2026-11-21T03:00:00Z duration=1h nodes=1 partition=gpu end=2026-11-21T04:00:00Z free=2 class=2 price=240 status=refused reason=booking-limit'
# Cancelled, it leaves the limit.
run ar-del id=2
expect_exit 0
run ar-add start=+3h duration=1h nodes=1 partition=gpu
expect_exit 0
expect_check

begin 'partition policy: ar-price --show and ar-report --info tell the limits; a limit set while booked counts what is there'
policy_store
run ar-add start=+3h duration=1h nodes=3 partition=gpu
run ar-price --set --partition gpu <<'EOF'
class=1 limit=4
class=2 limit=3
EOF
expect_exit 2
expect_out
expect_err "ar-price: line 2: field 'class': a partition limits every class of the store, or none"
printf '%s\n' 'class=1' 'class=2 limit=5' 'class=3' >"$D/gpu"
run ar-price --set --partition gpu <"$D/gpu"
expect_exit 2
expect_err "ar-price: line 2: field 'limit': a booking limit is at most the one before, and the first is the capacity"
run ar-price --set --partition cpu </dev/null
expect_exit 2
expect_err "ar-price: option '--partition': no partition 'cpu' in the store"
run ar-price --partition gpu
expect_exit 2
expect_err "ar-price: option '--partition': goes with --show, --set or --reclaim"
# --show's lines are what --set reads.
printf '%s\n' 'class=1' 'class=2 limit=2' 'class=3 limit=1' >"$D/gpu"
run ar-price --set --partition gpu <"$D/gpu"
expect_exit 0
run ar-price --show
keep shown
expect_out <<'EOF'
class=1 name=gold price=30 ahead_min=0s ahead_max=2h limit=8 retention=90d
class=2 name=silver price=20 ahead_min=2h ahead_max=6h limit=8 retention=90d
class=3 name=bronze price=10 ahead_min=6h limit=8 retention=90d
partition=gpu class=1 limit=4
partition=gpu class=2 limit=2
partition=gpu class=3 limit=1
EOF
run grep partition= "$D/shown"
keep again
run ar-price --set --partition gpu <"$D/again"
expect_exit 0
expect_out 'partition=gpu class=1 limit=4' 'partition=gpu class=2 limit=2' \
    'partition=gpu class=3 limit=1'
run ar-report --info
filter 's/^nodes=.*format=/format=/'
expect_out 'format=10' 'partition=batch hosts=n[1-4] nodes=4 default=yes' \
    'partition=gpu features=a100 hosts=g[1-4] nodes=4 limits=4,2,1'
# The 3 booked before stay, over the new limit: nothing more of silver.
run ar-add start=+3h duration=1h nodes=1 partition=gpu
expect_exit 1
expect_out 'start=2026-11-21T03:00:00Z duration=1h nodes=1 partition=gpu end=2026-11-21T04:00:00Z free=1 class=2 price=240 status=refused reason=booking-limit'
expect_check
# No lines: the partition's limits go, the store's hold again.
run ar-price --set --partition gpu </dev/null
expect_exit 0
expect_out
run ar-add start=+3h duration=1h nodes=1 partition=gpu
expect_exit 0
expect_check

begin 'partition policy: --update --partition computes its limits from its hosts and its own demand'
printf '%s\n' 'hosts=n[1-8] partition=batch' \
    'hosts=g[1-4] partition=gpu features=a100' >"$D/hosts"
mkstore --slot 1h --horizon 2d --hosts-from "$D/hosts"
run ar-price --set <<'EOF'
class=1 name=gold price=30 ahead_min=0 ahead_max=2h
class=2 name=silver price=10 ahead_min=2h
EOF
# Each hour gpu is asked for 2 gold nodes and 1 silver, batch for 5
# gold: gpu's forecast is its own.
for h in 0 1 2 3 4 5; do
	ar-add --now 2026-11-21T0$h:00Z start=2026-11-21T0$((h + 1)):00Z \
	    duration=1h nodes=2 partition=gpu >/dev/null
	ar-add --now 2026-11-21T0$h:00Z start=2026-11-21T0$((h + 4)):00Z \
	    duration=1h nodes=1 partition=gpu >/dev/null
	ar-add --now 2026-11-21T0$h:00Z start=2026-11-21T0$((h + 1)):00Z \
	    duration=1h nodes=5 >/dev/null
done
run ar-price --update --partition gpu --now 2026-11-21T09:00Z
expect_exit 0
expect_out 'partition=gpu class=1 limit=4 mean=1 sd=1 protection=1' \
    'partition=gpu class=2 limit=3 mean=1 sd=0 protection=4'
run ar-price --update --partition gpu --now 2026-11-21T09:00Z
expect_out 'partition=gpu class=1 limit=4 mean=1 sd=1 protection=1 old_limit=4' \
    'partition=gpu class=2 limit=3 mean=1 sd=0 protection=4 old_limit=3'
run ar-price --update --now 2026-11-21T09:00Z
expect_out 'class=1 name=gold price=30 ahead_min=0s ahead_max=2h limit=12 retention=90d mean=3.5 sd=3.5 protection=5 old_limit=12' \
    'class=2 name=silver price=10 ahead_min=2h limit=7 retention=90d mean=1 sd=0 protection=12 old_limit=12'
run ar-price --show --partition gpu
expect_out 'partition=gpu class=1 limit=4' 'partition=gpu class=2 limit=3'
expect_check

begin 'partition policy: classes set anew in another number drop the partitions'"'"' limits'
policy_store
printf '%s\n' 'class=1' 'class=2 limit=2' 'class=3 limit=1' >"$D/gpu"
run ar-price --set --partition gpu <"$D/gpu"
run ar-price --set <<'EOF'
class=1 price=30 ahead_min=0 ahead_max=2h
class=2 price=20 ahead_min=2h
EOF
expect_exit 0
run ar-price --show --partition gpu
expect_exit 0
expect_out
expect_check

begin 'partition policy: a partition'"'"'s grace overrides the store'"'"'s in its pools; a class'"'"'s comes first'
policy_store
run ar-price --reclaim 30m
run ar-price --reclaim 10m --partition gpu
expect_exit 0
expect_out
expect_err
run ar-price --show --partition gpu
expect_out 'partition=gpu reclaim=10m'
run ar-report --info
filter 's/^nodes=.*format=/format=/'
expect_out 'format=10 reclaim=30m' \
    'partition=batch hosts=n[1-4] nodes=4 default=yes' \
    'partition=gpu features=a100 hosts=g[1-4] nodes=4 reclaim=10m'
run ar-add start=+1h duration=2h nodes=1 partition=gpu
run ar-add start=+1h duration=2h nodes=1
run ar-add --now 2026-11-21T01:15Z id=99 used=yes
run ar-report --now 2026-11-21T01:15Z --all
filter 's/ owner=[0-9]* .*\(status=[a-z]*\).*/ \1/'
expect_out 'id=1 partition=gpu start=2026-11-21T01:00:00Z end=2026-11-21T01:15:00Z nodes=1 status=reclaimed' \
    'id=2 partition=batch start=2026-11-21T01:00:00Z end=2026-11-21T03:00:00Z nodes=1 status=granted'
run ar-add --now 2026-11-21T01:35Z id=99 used=yes
run ar-report --now 2026-11-21T01:35Z --all status=reclaimed
filter 's/ owner=[0-9]* .*\(status=[a-z]*\).*/ \1/'
expect_out 'id=1 partition=gpu start=2026-11-21T01:00:00Z end=2026-11-21T01:15:00Z nodes=1 status=reclaimed' \
    'id=2 partition=batch start=2026-11-21T01:00:00Z end=2026-11-21T01:35:00Z nodes=1 status=reclaimed'
# gold never reclaimed: the class's grace before gpu's.
run ar-price --set <<'EOF'
class=1 name=gold price=30 ahead_min=0 ahead_max=2h reclaim=no
class=2 name=silver price=20 ahead_min=2h ahead_max=6h
class=3 name=bronze price=10 ahead_min=6h
EOF
run ar-add --now 2026-11-21T01:35Z start=2026-11-21T02:00Z duration=1h nodes=1 partition=gpu
expect_out 'start=2026-11-21T02:00:00Z duration=1h nodes=1 partition=gpu id=3 end=2026-11-21T03:00:00Z free=4 class=1 price=360 status=granted'
run ar-add --now 2026-11-21T05:00Z start=2026-11-21T05:00Z duration=1h nodes=1 partition=gpu
run ar-report --now 2026-11-21T05:00Z --all id=3
filter 's/ owner=[0-9]* .*\(status=[a-z]*\).*/ \1/'
expect_out 'id=3 partition=gpu start=2026-11-21T02:00:00Z end=2026-11-21T03:00:00Z nodes=1 status=finished'
# A partition never reclaimed, though the store reclaims; and back to
# the store's.
run ar-price --reclaim no --partition gpu
run ar-price --show --partition gpu
expect_out 'partition=gpu reclaim=no'
run ar-price --reclaim store --partition gpu
run ar-price --show --partition gpu
expect_out
run ar-price --reclaim store
expect_exit 2
expect_err "ar-price: option '--reclaim': 'store' only with --partition"
expect_check

begin 'partition policy: a grace of a partition alone reclaims, with no store policy'
policy_store
run ar-price --reclaim 10m --partition gpu
run ar-add start=+1h duration=1h nodes=1 partition=gpu
run ar-add --now 2026-11-21T01:10Z id=99 used=yes
run ar-report --now 2026-11-21T01:10Z --all status=reclaimed
filter 's/ owner=[0-9]* .*\(status=[a-z]*\).*/ \1/'
expect_out 'id=1 partition=gpu start=2026-11-21T01:00:00Z end=2026-11-21T01:10:00Z nodes=1 status=reclaimed'
expect_check

begin 'partition policy: --usage --by partition tells idle, and booked against used and idle reserved node-slots, in records, the table and the chart'
policy_store
run ar-price --reclaim 30m --partition gpu
run ar-add start=+1h duration=1h nodes=2 partition=gpu
run ar-add start=+1h duration=1h nodes=1 partition=gpu
run ar-add start=+1h duration=1h nodes=2
run ar-add --now 2026-11-21T01:00Z id=1 used=yes
# The writer that reclaims 2, past its grace, as one would.
run ar-add --now 2026-11-21T01:40Z id=1 used=yes
run ar-report --now 2026-11-21T03:00Z --usage --from 2026-11-21T01:00Z --to 2026-11-21T02:00Z --by partition
filter 's/^\([a-z]*=[a-z]*\).*\( utilisation=[0-9.]*\) \(reserved=[0-9]*\)\( idle=[0-9]*\)\{0,1\}.*\( reserved_used=[0-9]* reserved_idle=[0-9]* reserved_unreported=[0-9]*\).*/\1\2 \3\4\5/'
expect_out 'partition=batch utilisation=0.5 reserved=24 idle=24 reserved_used=0 reserved_idle=0 reserved_unreported=24' \
    'partition=gpu utilisation=0.666667 reserved=32 idle=16 reserved_used=24 reserved_idle=8 reserved_unreported=0' \
    'window=total utilisation=0.583333 reserved=56 idle=40 reserved_used=24 reserved_idle=8 reserved_unreported=24'
run ar-report --now 2026-11-21T03:00Z --usage --from 2026-11-21T01:00Z --to 2026-11-21T02:00Z --by partition --table
filter 's/  *revenue$//; s/  *[0-9]*$//'
expect_out <<'EOF'
partition  utilisation(%)  idle(node-slots)  granted  refused  acceptance(%)  awt(s)  awt_max(s)  moved  used(node-slots)  reserved_idle(node-slots)  unreported(node-slots)
batch                50.0                24        1  unknown        unknown       0           0      0                 0                          0                      24
gpu                  66.7                16        2  unknown        unknown       0           0      0                24                          8                       0
total                58.3                40        3  unknown        unknown       0           0      0                24                          8                      24
EOF
# The chart: a column per partition, its hosts' 48 node-slots (axis to
# 50, 4 px each from y 252 up): batch 24 not reported then 24 free; gpu
# 24 used, 8 reserved idle, 16 free.
run ar-report --now 2026-11-21T03:00Z --usage --from 2026-11-21T01:00Z --to 2026-11-21T02:00Z --by partition --svg "$D/p.svg"
expect_exit 0
expect_out
run grep -e '^<rect x="[14]00' -e '^<text x="[0-9.]*" y="268"' -e 'font-size="15"' "$D/p.svg"
expect_out <<'EOF'
<text x="70" y="18" font-size="15">Node-slots per partition: used, idle and not reported, and free</text>
<rect x="100.00" y="156.00" width="240.00" height="96.00" fill="#bbbbbb"/>
<rect x="100.00" y="60.00" width="240.00" height="96.00" fill="#99ddff"/>
<text x="220.00" y="268" text-anchor="middle">batch</text>
<rect x="400.00" y="156.00" width="240.00" height="96.00" fill="#228833"/>
<rect x="400.00" y="124.00" width="240.00" height="32.00" fill="#ee6677"/>
<rect x="400.00" y="60.00" width="240.00" height="64.00" fill="#99ddff"/>
<text x="520.00" y="268" text-anchor="middle">gpu</text>
EOF
expect_check

begin 'partition policy: a dump carries it; the copy refuses as the original'
policy_store
printf '%s\n' 'class=1' 'class=2 limit=1' 'class=3 limit=1' >"$D/gpu"
run ar-price --set --partition gpu <"$D/gpu"
run ar-price --reclaim 10m --partition gpu
run ar-add start=+3h duration=1h nodes=1 partition=gpu
ar-report --dump >"$D/dump"
AR_STORE=$D/copy ar-report --load <"$D/dump" || fail 'load failed'
AR_STORE=$D/copy run ar-price --show --partition gpu
expect_out 'partition=gpu class=1 limit=4' 'partition=gpu class=2 limit=1' \
    'partition=gpu class=3 limit=1' 'partition=gpu reclaim=10m'
AR_STORE=$D/copy run ar-add start=+3h duration=1h nodes=1 partition=gpu
expect_exit 1
expect_out 'start=2026-11-21T03:00:00Z duration=1h nodes=1 partition=gpu end=2026-11-21T04:00:00Z free=3 class=2 price=240 status=refused reason=booking-limit'
AR_STORE=$D/copy run ar-report --check
expect_exit 0
expect_out

begin 'partition policy: a format 9 store of partitions upgrades to 10, with no policy; a store of no description has none to set'
policy_store
run ar-add start=+3h duration=1h nodes=2 partition=gpu
set_format 9
run ar-price --show
expect_exit 3
expect_err "ar-price: $AR_STORE: the store has an older format version; upgrade it with --upgrade"
run ar-report --upgrade --info
expect_exit 0
expect_err "ar-report: $AR_STORE: upgraded from format 9 to 10"
printf '%s\n' 'class=1' 'class=2 limit=2' 'class=3 limit=1' >"$D/gpu"
run ar-price --set --partition gpu <"$D/gpu"
expect_exit 0
run ar-add start=+3h duration=1h nodes=1 partition=gpu
expect_exit 1
expect_out 'start=2026-11-21T03:00:00Z duration=1h nodes=1 partition=gpu end=2026-11-21T04:00:00Z free=2 class=2 price=240 status=refused reason=booking-limit'
expect_check
AR_STORE=$D/plain
mkstore --nodes 4
run ar-price --reclaim 10m --partition default
expect_exit 2
expect_err "ar-price: option '--partition': the store has no partitions of its own (it was not created from a host description): set the store's policy"
