# 57-drain.sh - hosts drained, removed and given back from a time on
# (ar-report --drain, --remove, --undrain): what has not started on them
# moves to other hosts of its pool keeping its times, the rest is listed
# by id with reason=displaced and the drain refused unless --force
# cancels them; nothing is lost silently, and new requests never get a
# drained host from its drain's start on, as the clock moves too.

# first_err MESSAGE: the last run's first line on stderr (a usage
# message follows it).
first_err() {
	sed -n 1p "$D/.err" >"$D/.err1"
	compare stderr "$D/.err1" "$1"
}

# plan: 4 hosts; x (2 nodes) from +1h for 2h, y (2) from +1h for 1h.
plan() {
	mkstore --hosts 'cn[1-4]'
	printf '%s\n' 'start=+1h duration=2h nodes=2 user=x' \
	    'start=+1h duration=1h nodes=2 user=y' | ar-add >/dev/null ||
	    fail 'ar-add failed'
	ar-map --plan >/dev/null || fail 'ar-map failed'
}

begin 'drain: what is on the host from its start moves to other hosts, keeping its times'
plan
run ar-report --drain cn2 --from +2h
expect_exit 0
expect_out 'hosts=cn2 status=drained from=2026-11-21T02:00:00Z id=3'
run ar-map --plan
expect_out <<'EOS'
id=1 user=x start=2026-11-21T01:00:00Z end=2026-11-21T03:00:00Z nodes=2 owner=0 status=remapped hosts=cn[3-4] old_hosts=cn[1-2]
id=2 user=y start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=2 owner=0 status=remapped hosts=cn[1-2] old_hosts=cn[3-4]
id=3 user=drained flags=maint start=2026-11-21T02:00:00Z end=2026-12-21T00:00:00Z nodes=1 owner=0 status=new hosts=cn2
EOS
expect_check

begin 'drain: new requests never get a drained host from its start on'
plan
ar-report --drain cn2 --from +2h >/dev/null || fail 'drain failed'
run ar-add start=+3h duration=1h nodes=4
expect_exit 1
expect_out 'start=2026-11-21T03:00:00Z duration=1h nodes=4 end=2026-11-21T04:00:00Z free=3 status=refused reason=full'
run ar-add start=+20d duration=1h hosts=cn2
expect_exit 1
run ar-add start=+3h duration=1h nodes=3
expect_exit 0
run ar-add start=+1h30m duration=30m hosts=cn2
expect_exit 1
run ar-add start=+30m duration=30m hosts=cn2
expect_exit 0
expect_check

begin 'drain: --info and --host-list show a drained host and from when'
plan
ar-report --drain cn2 --from +2h >/dev/null || fail 'drain failed'
run ar-report --host-list
expect_out 'hosts=cn1 partition=default' \
    'hosts=cn2 partition=default drained=2026-11-21T02:00:00Z' \
    'hosts=cn3 partition=default' 'hosts=cn4 partition=default'
run ar-report --info
filter 's/ map_size=[0-9]*//'
expect_out 'nodes=4 hosts=cn[1-4] slot=5m horizon=30d clock=2026-11-21T00:00:00Z clock_mode=simulated owners=uid live=3 records=3 next_id=4 map_max=17179869184 format=10' \
    'hosts=cn2 status=drained from=2026-11-21T02:00:00Z id=3'

begin 'drain: one that displaces is refused, naming what it displaces, and changes nothing'
plan
ar-report --dump >"$D/before" || fail 'ar-report --dump failed'
run ar-report --drain cn2 --from +30m
expect_exit 1
expect_out 'hosts=cn2 status=refused from=2026-11-21T00:30:00Z reason=displaced conflict=2' \
    'id=2 user=y start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=2 owner=0 status=granted reason=displaced'
run ar-report --dump
expect_out <"$D/before"
expect_check

begin 'drain: --force cancels what it displaces, listed, and moves the rest'
plan
run ar-report --drain cn2 --from +30m --force
expect_exit 0
expect_out 'hosts=cn2 status=drained from=2026-11-21T00:30:00Z id=3' \
    'id=2 user=y start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=2 owner=0 status=cancelled reason=displaced'
run ar-map --plan
expect_out <<'EOS'
id=3 user=drained flags=maint start=2026-11-21T00:30:00Z end=2026-12-21T00:00:00Z nodes=1 owner=0 status=new hosts=cn2
id=1 user=x start=2026-11-21T01:00:00Z end=2026-11-21T03:00:00Z nodes=2 owner=0 status=remapped hosts=cn[3-4] old_hosts=cn[1-2]
EOS
expect_check

begin 'drain: a started reservation on the host is never moved: refused, naming it'
plan
run ar-report --drain cn2 --force --now 2026-11-21T01:10:00Z
expect_exit 1
expect_out 'hosts=cn2 status=refused from=2026-11-21T01:10:00Z reason=hosts conflict=1'
run ar-report --drain cn2 --from 2026-11-21T03:00:00Z --now 2026-11-21T01:10:00Z
expect_exit 0
expect_out 'hosts=cn2 status=drained from=2026-11-21T03:00:00Z id=3'
expect_check

begin 'drain: hosts of a drain are not drained twice'
plan
ar-report --drain cn2 --from +2h >/dev/null || fail 'drain failed'
run ar-report --drain cn[2-3] --from +5h
expect_exit 1
expect_out 'hosts=cn[2-3] status=refused from=2026-11-21T05:00:00Z reason=hosts conflict=3'
expect_check

begin 'drain: undrain gives the hosts back; a host not drained is refused'
plan
ar-report --drain cn[2-3] --from +2h >/dev/null || fail 'drain failed'
run ar-report --undrain cn4
expect_exit 1
expect_err "ar-report: option '--undrain': a host is not drained"
run ar-report --undrain cn3
expect_exit 0
expect_out 'hosts=cn3 status=undrained'
run ar-report --info
filter '1d'
expect_out 'hosts=cn2 status=drained from=2026-11-21T02:00:00Z id=4'
run ar-add start=+3h duration=1h nodes=3
expect_exit 0
run ar-report --undrain cn2
expect_exit 0
run ar-add start=+3h duration=1h nodes=1
expect_exit 0
run ar-report --info
filter '1d'
expect_out
expect_check

begin 'drain: a drain begun ends at the clock when undrained'
plan
ar-report --drain cn2 --from +2h >/dev/null || fail 'drain failed'
run ar-report --undrain cn2 --now 2026-11-21T03:00:00Z
expect_exit 0
run ar-report --all user=drained --now 2026-11-21T03:00:00Z
expect_out 'id=3 user=drained flags=maint start=2026-11-21T02:00:00Z end=2026-11-21T03:00:00Z nodes=1 owner=0 status=cancelled running=no duration=30d1h created=2026-11-21T00:00:00Z changed=2026-11-21T03:00:00Z'
run ar-add --now 2026-11-21T03:00:00Z start=2026-11-21T03:05:00Z duration=1h nodes=4
expect_exit 0
expect_check

begin 'drain: its reservation is changed by --undrain only, not by ar-del or --modify'
mkstore --hosts 'cn[1-4]'
ar-report --drain cn2 --from +1h >/dev/null || fail 'drain failed'
run ar-del id=1
expect_exit 1
expect_out 'id=1 status=refused reason=not-owner'
run ar-add --modify id=1 start=+2h duration=1h nodes=1
expect_exit 1
run ar-report --info
filter '1d'
expect_out 'hosts=cn2 status=drained from=2026-11-21T01:00:00Z id=1'
expect_check

begin 'drain: --remove is a drain that cannot be undone'
plan
run ar-report --remove cn4 --from +1d
expect_exit 0
expect_out 'hosts=cn4 status=removed from=2026-11-22T00:00:00Z id=3'
run ar-report --undrain cn4
expect_exit 1
expect_err "ar-report: option '--undrain': a host is removed, for good"
run ar-report --host-list
expect_out 'hosts=cn1 partition=default' 'hosts=cn2 partition=default' \
    'hosts=cn3 partition=default' \
    'hosts=cn4 partition=default removed=2026-11-22T00:00:00Z'
expect_check

begin 'drain: as the clock moves, the slots it brings in are drained too'
mkstore --hosts 'cn[1-2]' --horizon 1d
ar-report --drain cn2 >/dev/null || fail 'drain failed'
run ar-add --now 2026-11-21T12:00:00Z start=2026-11-22T11:00:00Z duration=1h nodes=2
expect_exit 1
expect_out 'start=2026-11-22T11:00:00Z duration=1h nodes=2 end=2026-11-22T12:00:00Z free=1 status=refused reason=full'
run ar-report --info --now 2026-11-21T12:00:00Z
filter '1d'
expect_out 'hosts=cn2 status=drained from=2026-11-21T00:00:00Z id=1'
run ar-report --list --now 2026-11-21T12:00:00Z
expect_out 'id=1 user=drained flags=maint start=2026-11-21T00:00:00Z end=2026-11-22T12:00:00Z nodes=1 owner=0 status=granted running=yes duration=1d12h created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z'
run ar-report --check --now 2026-11-21T12:00:00Z
expect_exit 0
expect_out

begin 'drain: a reader whose clock is ahead of the last writer sees it to its own horizon'"'"'s end'
mkstore --hosts 'cn[1-2]' --horizon 1d
ar-report --drain cn2 >/dev/null || fail 'drain failed'
run ar-search --now 2026-11-21T12:00:00Z start=2026-11-22T11:00:00Z duration=1h hosts=cn2
expect_exit 1
expect_out 'start=2026-11-22T11:00:00Z duration=1h hosts=cn2 nodes=1 end=2026-11-22T12:00:00Z status=unavailable reason=hosts conflict=1'
run ar-search --now 2026-11-23T00:00:00Z start=2026-11-23T23:00:00Z duration=1h nodes=2
expect_exit 1
expect_out 'start=2026-11-23T23:00:00Z duration=1h nodes=2 end=2026-11-24T00:00:00Z free=1 status=unavailable reason=full'
run ar-search --now 2026-11-23T00:00:00Z start=2026-11-23T23:00:00Z duration=1h hosts=cn1
expect_exit 0
run ar-suggest --now 2026-11-23T00:00:00Z start=2026-11-23T20:00:00Z duration=1h nodes=2
expect_exit 1
run ar-suggest --frames --now 2026-11-23T00:00:00Z --from 2026-11-23T20:00:00Z
expect_out 'start=2026-11-23T20:00:00Z end=2026-11-24T00:00:00Z free=1 hosts=cn1'
run ar-report --check --now 2026-11-23T00:00:00Z
expect_exit 0
expect_out
run ar-add --now 2026-11-23T00:00:00Z start=2026-11-23T23:00:00Z duration=1h nodes=2
expect_exit 1
expect_check

begin 'drain: a clock more than 100 years on begins the drain again at its slot'
# A record spans at most 100 years: the drain's start follows the clock.
mkstore --hosts 'cn[1-2]' --horizon 1d
ar-report --drain cn2 >/dev/null || fail 'drain failed'
run ar-add --now 2127-01-01T00:02:00Z start=2127-01-01T11:00:00Z duration=1h nodes=2
expect_exit 1
expect_out 'start=2127-01-01T11:00:00Z duration=1h nodes=2 end=2127-01-01T12:00:00Z free=1 status=refused reason=full'
run ar-report --check --now 2127-01-01T00:02:00Z
expect_exit 0
expect_out
run ar-report --info --now 2127-01-01T00:02:00Z
filter '1d'
expect_out 'hosts=cn2 status=drained from=2127-01-01T00:00:00Z id=1'
run ar-add --now 2127-01-02T00:00:00Z start=2127-01-02T23:00:00Z duration=1h nodes=2
expect_exit 1
run ar-report --check --now 2127-01-02T00:00:00Z
expect_exit 0
expect_out

begin 'drain: bad usage and hosts the store does not have'
plan
run ar-report --drain cn9
expect_exit 2
expect_err "ar-report: option '--drain': unknown host 'cn9'"
run ar-report --drain cn1 --from tomorrow
expect_exit 2
run ar-report --undrain cn1 --from +1h
expect_exit 2
first_err 'ar-report: --from does not go with --undrain'
run ar-report --force --info
expect_exit 2
first_err 'ar-report: --force goes with --drain or --remove'
run ar-report --drain cn1 --info
expect_exit 2
first_err 'ar-report: --drain, --remove, --undrain and --add-hosts go alone'
run ar-report --drain cn1 --from +40d
expect_exit 1
expect_out 'hosts=cn1 status=refused from=2026-12-31T00:00:00Z reason=horizon'
expect_check

begin 'drain: a dump carries the drains; the copy answers as the original'
plan
ar-report --drain cn2 --from +2h >/dev/null || fail 'drain failed'
ar-report --dump >"$D/dump" || fail 'dump failed'
AR_STORE=$D/copy ar-report --load <"$D/dump" || fail 'load failed'
run ar-report --info
filter 's/ map_size=[0-9]*//'
keep info
AR_STORE=$D/copy run ar-report --info
filter 's/ map_size=[0-9]*//'
expect_out <"$D/info"
AR_STORE=$D/copy run ar-report --check
expect_exit 0
expect_out
AR_STORE=$D/copy run ar-add start=+3h duration=1h nodes=4
expect_exit 1

begin 'drain: hosts of several partitions, a drain per pool'
printf '%s\n' 'hosts=cpu[1-4] partition=cpu' 'hosts=gpu[1-2] partition=gpu' \
    >"$D/hosts"
mkstore --hosts-from "$D/hosts"
run ar-add start=+1h duration=1h nodes=2 partition=gpu
expect_exit 0
run ar-report --drain 'cpu4,gpu2' --from +2h
expect_exit 0
expect_out 'hosts=cpu4,gpu2 status=drained from=2026-11-21T02:00:00Z id=2'
run ar-report --info
filter '1,3d'
expect_out 'hosts=cpu4 status=drained from=2026-11-21T02:00:00Z id=2' \
    'hosts=gpu2 status=drained from=2026-11-21T02:00:00Z id=3'
run ar-add start=+3h duration=1h nodes=2 partition=gpu
expect_exit 1
run ar-add start=+3h duration=1h nodes=1 partition=gpu
expect_exit 0
run ar-add start=+3h duration=1h nodes=4 partition=cpu
expect_exit 1
run ar-add start=+3h duration=1h nodes=3 partition=cpu
expect_exit 0
run ar-report --drain gpu1 --from +1h
expect_exit 1
expect_out 'hosts=gpu1 status=refused from=2026-11-21T01:00:00Z reason=displaced conflict=1' \
    'id=1 partition=gpu start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=2 owner=0 status=granted reason=displaced' \
    'id=4 partition=gpu start=2026-11-21T03:00:00Z end=2026-11-21T04:00:00Z nodes=1 owner=0 status=granted reason=displaced'
run ar-report --undrain 'cpu4,gpu2'
expect_exit 0
run ar-add start=+5h duration=1h nodes=2 partition=gpu
expect_exit 0
expect_check

begin 'drain: the Slurm export leaves a drain out'
mklive --hosts 'cn[1-4]'
empty_slurm
printf '%s\n' 'start=+1h duration=2h nodes=2 user=root' \
    'start=+1h duration=1h nodes=2 user=root' | live ar-add >/dev/null ||
    fail 'ar-add failed'
live ar-report --drain cn2 --from +2h >/dev/null || fail 'drain failed'
AR_SCONTROL=$D/scontrol run live ar-map --slurm
expect_exit 0
filter "s|$D/||; s/StartTime=[^ ]* EndTime=[^ ]*/TIMES/"
expect_out "TZ=UTC0 scontrol create reservation ReservationName=ar-1 TIMES 'Nodes=cn[3-4]' Users=root" \
    "TZ=UTC0 scontrol create reservation ReservationName=ar-2 TIMES 'Nodes=cn[1-2]' Users=root"

begin 'drain: in a store of price classes it is of no class: it pays nothing and takes no booking limit'
mkstore --hosts 'cn[1-4]'
printf '%s\n' 'class=1 price=100 ahead_min=0 ahead_max=1h limit=4' \
    'class=2 price=50 ahead_min=1h limit=2' | ar-price --set >/dev/null ||
    fail 'ar-price --set failed'
run ar-report --drain cn[1-2] --from +2h
expect_exit 0
run ar-report --list
filter 's/ created=[^ ]*//; s/ changed=[^ ]*//'
expect_out 'id=1 user=drained flags=maint start=2026-11-21T02:00:00Z end=2026-12-21T00:00:00Z nodes=2 owner=0 status=granted running=no duration=29d22h'
run ar-add start=+3h duration=1h nodes=2
expect_exit 0
expect_out 'start=2026-11-21T03:00:00Z duration=1h nodes=2 id=2 end=2026-11-21T04:00:00Z free=2 class=2 price=1200 status=granted'
expect_check

begin 'drain: a format 9 store upgrades to 10, with no drain'
mkstore --nodes 3
run ar-add start=+1h duration=1h nodes=2
set_format 9
run ar-report --upgrade --info
expect_exit 0
expect_err "ar-report: $AR_STORE: upgraded from format 9 to 10"
filter 's/ map_size=[0-9]*//'
expect_out 'nodes=3 hosts=node[1-3] slot=5m horizon=30d clock=2026-11-21T00:00:00Z clock_mode=simulated owners=uid live=1 records=1 next_id=2 map_max=17179869184 format=10'
run ar-report --drain node3
expect_exit 0
expect_check

begin 'add hosts: they join at once, capacity grows, and nothing granted changes hosts'
mkstore --hosts 'cn[2-5]'
printf '%s\n' 'start=+1h duration=2h nodes=2 user=x' \
    'start=+1h duration=1h hosts=cn[3-4] user=y' | ar-add >/dev/null ||
    fail 'ar-add failed'
ar-report --drain cn5 --from +3h >/dev/null || fail 'drain failed'
ar-map --plan >"$D/before" || fail 'ar-map failed'
run ar-add start=+1h duration=1h nodes=2
expect_exit 1
echo 'hosts=cn[1,6]' >"$D/new"
run ar-report --add-hosts "$D/new"
expect_exit 0
expect_out 'hosts=cn[1,6] status=added nodes=6'
run ar-map --plan
filter 's/ status=[a-z]*//'
sed 's/ status=[a-z]*//' "$D/before" >"$D/before.plan"
expect_out <"$D/before.plan"
run ar-report --host-list
expect_out 'hosts=cn1 partition=default' 'hosts=cn2 partition=default' \
    'hosts=cn3 partition=default' 'hosts=cn4 partition=default' \
    'hosts=cn5 partition=default drained=2026-11-21T03:00:00Z' \
    'hosts=cn6 partition=default'
run ar-add start=+1h duration=1h nodes=2
expect_exit 0
run ar-add start=+4h duration=1h nodes=6
expect_exit 1
run ar-add start=+4h duration=1h nodes=5
expect_exit 0
expect_check

begin 'add hosts: a new partition makes a new pool; the old one keeps its reservations'
mkstore --hosts 'cn[1-4]'
run ar-add start=+1h duration=1h nodes=3
printf '%s\n' '# two GPU hosts' 'hosts=gpu[1-2] partition=gpu features=a100' |
    ar-report --add-hosts - >"$D/out" || fail 'add failed'
run cat "$D/out"
expect_out 'hosts=gpu[1-2] status=added nodes=6'
run ar-report --info
filter '1d'
expect_out 'partition=default hosts=cn[1-4] nodes=4 default=yes' \
    'partition=gpu features=a100 hosts=gpu[1-2] nodes=2'
run ar-add start=+1h duration=1h nodes=2
expect_exit 1
run ar-add start=+1h duration=1h nodes=1
expect_exit 0
run ar-add start=+1h duration=1h nodes=2 partition=gpu
expect_exit 0
run ar-map --plan
expect_out <<'EOS'
id=1 partition=default start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=3 owner=0 status=new hosts=cn[1-3]
id=2 partition=default start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=1 owner=0 status=new hosts=cn4
id=3 partition=gpu start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=2 owner=0 status=new hosts=gpu[1-2]
EOS
expect_check

begin 'add hosts: pools keep their numbers; a new feature set of a partition comes after'
printf '%s\n' 'hosts=cpu[1-2] partition=cpu' 'hosts=gpu[1-2] partition=gpu' \
    >"$D/hosts"
mkstore --hosts-from "$D/hosts"
run ar-add start=+1h duration=1h nodes=2 partition=gpu
run ar-add start=+1h duration=1h nodes=2 partition=cpu
printf '%s\n' 'hosts=cpu[3-4] partition=cpu features=big' \
    'hosts=gpu3 partition=gpu' >"$D/new"
run ar-report --add-hosts "$D/new"
expect_out 'hosts=cpu[3-4],gpu3 status=added nodes=7'
run ar-report --info
filter '1d'
expect_out 'partition=cpu hosts=cpu[1-2] nodes=2 default=yes' \
    'partition=gpu hosts=gpu[1-3] nodes=3' \
    'partition=cpu features=big hosts=cpu[3-4] nodes=2 default=yes'
run ar-report --list
filter 's/ created=.*//'
expect_out 'id=1 partition=gpu start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=2 owner=0 status=granted running=no duration=1h' \
    'id=2 partition=cpu start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=2 owner=0 status=granted running=no duration=1h'
run ar-add start=+1h duration=1h nodes=1 partition=gpu
expect_exit 0
run ar-add start=+1h duration=1h nodes=2 partition=cpu features=big
expect_exit 0
run ar-add start=+1h duration=1h nodes=1 partition=cpu
expect_exit 1
ar-report --dump >"$D/dump" || fail 'dump failed'
AR_STORE=$D/copy ar-report --load <"$D/dump" || fail 'load failed'
AR_STORE=$D/copy run ar-report --check
expect_exit 0
expect_out
expect_check

HOLD=${AR_TESTS:+$AR_TESTS/txn_hold}
[ -n "$HOLD" ] && [ -x "$HOLD" ] || HOLD=

# drain_until TEST...: wait up to 20 s for TEST to hold.
drain_until() {
	i=0
	while ! "$@" && [ "$i" -lt 2000 ]; do
		sleep 0.01
		i=$((i + 1))
	done
	"$@" || fail "never saw: $*"
}

# drain_readers_over N: more than N reader slots are taken.
drain_readers_over() {
	[ "$("$HOLD" readers "$AR_STORE")" -gt "$1" ]
}

if [ -n "$HOLD" ]; then
begin 'add hosts: a line naming a partition added while ar-add waited for the writer is granted in it'
mkstore --hosts 'cn[1-4]'
printf '%s\n' 'hosts=gpu[1-2] partition=gpu features=a100' >"$D/new"
# A writer adds them and stops before its commit, holding the lock.
"$HOLD" add "$AR_STORE" "$D/new" >"$D/hold.out" &
holder=$!
drain_until grep -q held "$D/hold.out"
slots=$("$HOLD" readers "$AR_STORE")
echo 'start=+1h duration=1h nodes=2 partition=gpu features=a100' >"$D/req"
ar-add <"$D/req" >"$D/add.out" 2>"$D/add.err" &
adder=$!
# Once ar-add holds a reader slot, it has read the hosts and partitions
# as they were before the add; then it waits for the writer.
drain_until drain_readers_over "$slots"
kill -CONT "$holder"
wait "$holder" || fail 'the writer failed'
wait "$adder"
echo "exit $?" >>"$D/add.out"
run cat "$D/add.out" "$D/add.err"
expect_out 'start=2026-11-21T01:00:00Z duration=1h nodes=2 partition=gpu features=a100 id=1 end=2026-11-21T02:00:00Z free=2 status=granted' \
    'exit 0'
expect_check
else
skip 'add hosts: a line naming a partition added while ar-add waited for the writer is granted in it' 'no tests/txn_hold'
fi

begin 'add hosts: a host the store has, or a policy, is bad input and changes nothing'
mkstore --hosts 'cn[1-4]'
ar-report --dump >"$D/before" || fail 'dump failed'
printf '%s\n' 'hosts=cn5' 'hosts=cn[4-6]' >"$D/new"
run ar-report --add-hosts "$D/new"
expect_exit 2
expect_err "ar-report: $D/new: line 2: field 'hosts': duplicate host 'cn4' (every host on one line only)"
printf '%s\n' 'hosts=cn[3-6]' >"$D/new"
run ar-report --add-hosts "$D/new"
expect_exit 2
expect_err "ar-report: $D/new: line 1: field 'hosts': duplicate host 'cn3' (every host on one line only)"
printf '%s\n' 'hosts=cn5 partition=default' 'partition=default borrow=x' >"$D/new"
run ar-report --add-hosts "$D/new"
expect_exit 2
expect_err "ar-report: $D/new: line 2: field 'hosts': hosts added set no partition's policy"
run ar-report --add-hosts "$D/none"
expect_exit 2
run ar-report --dump
expect_out <"$D/before"
