# 88-slurm.sh - ar-map --slurm against a real slurmctld (tests/slurm.sh):
# the plan goes into Slurm by reconciliation, by Slurm's rules, and
# --diff is clean after every run.  Slurm keeps the real clock, so these
# stores follow it too (no AR_NOW) and ask for times relative to it.

begin 'slurm: flags and account are checked at admission and listed'
mkstore --hosts 'cn[01-16]'
run ar-add start=+1h duration=1h hosts='cn[01-02]' flags=maint account=physics
expect_exit 0
run ar-add start=+1h duration=1h flags=bogus
expect_exit 2
expect_err "ar-add: arguments: field 'flags': unknown flag 'bogus' (maint is the one there is)"
run ar-add start=+1h duration=1h account=a,b
expect_exit 2
expect_err "ar-add: arguments: field 'account': holds a comma, which Slurm reads as a list"
run ar-report --list
filter 's/ created=.*//'
expect_out "id=1 flags=maint account=physics start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=2 owner=$ME status=granted running=no duration=1h"
expect_check

if msg=$(sh "$TESTS/slurm.sh" can); then
SLURM_DIR=$TOP/slurm
SLURM_CONF=$(sh "$TESTS/slurm.sh" start "$SLURM_DIR") || exit 2
export SLURM_CONF
unset AR_NOW

# slurm_show NAME: Slurm's reservation NAME, the fields ar sets, in UTC.
slurm_show() {
	TZ=UTC0 scontrol show reservation "$1" --oneliner 2>&1 |
	    tr ' ' '\n' | grep -E '^(ReservationName|Nodes|Users|Accounts|Flags|State)='
}

# iso TIME: a time relative to the real clock, as ar-add reads it.
iso() {
	date -u -d "$1" +%Y-%m-%dT%H:%M:%SZ
}

# diff_clean: Slurm holds the plan, nothing more.
diff_clean() {
	run ar-map --slurm --diff
	expect_exit 0
	expect_out
	expect_err
}

# clear_slurm: no reservation left from the case before.
clear_slurm() {
	for r in $(scontrol show reservation --oneliner | sed -n 's/^ReservationName=\([^ ]*\).*/\1/p'); do
		scontrol delete ReservationName="$r"
	done
}

begin 'slurm: --apply creates what Slurm lacks, once; the dry run and --diff agree'
clear_slurm
mkstore --hosts 'cn[01-16]'
run ar-add start=+2h duration=2h nodes=4 user=root
run ar-add start=+3h duration=1h nodes=2
run ar-map --slurm --diff
expect_exit 1
filter 's/ start=.*//'
expect_out 'id=1 name=ar-1 status=missing' 'id=2 name=ar-2 status=missing'
run ar-map --slurm
expect_exit 0
filter 's/StartTime=[^ ]* EndTime=[^ ]*/TIMES/'
expect_out "TZ=UTC0 scontrol create reservation ReservationName=ar-1 TIMES 'Nodes=cn[01-04]' Users=root" \
    "TZ=UTC0 scontrol create reservation ReservationName=ar-2 TIMES 'Nodes=cn[05-06]' Users=root"
run ar-map --slurm --apply
expect_exit 0
filter 's/ start=[^ ]* end=[^ ]*//'
expect_out 'id=1 name=ar-1 op=create hosts=cn[01-04] status=done' 'id=2 name=ar-2 op=create hosts=cn[05-06] status=done'
run slurm_show ar-1
expect_out ReservationName=ar-1 'Nodes=cn[01-04]' Flags=SPEC_NODES Users=root 'Accounts=(null)' State=INACTIVE
diff_clean
run ar-map --slurm --apply
expect_exit 0
expect_out
run ar-map --slurm
expect_out
expect_check

begin 'slurm: a move, a shrink, a cancel and a purge, each made once'
clear_slurm
mkstore --hosts 'cn[01-16]'
run ar-add start=+2h duration=2h nodes=4
run ar-add start=+3h duration=1h nodes=2
run ar-add start=+4h duration=1h nodes=2
run ar-map --slurm --apply
run ar-add --modify id=1 start=+5h
run ar-add --modify id=2 nodes=1
run ar-del id=3
run ar-map --slurm --diff
expect_exit 1
filter 's/ start=.*//; s/ slurm_end=.*//'
expect_out 'id=2 name=ar-2 status=differs differs=hosts' 'id=1 name=ar-1 status=differs differs=start,end' 'id=3 name=ar-3 status=stale'
run ar-map --slurm --apply
expect_exit 0
filter 's/ start=[^ ]* end=[^ ]*//'
expect_out 'id=2 name=ar-2 op=update hosts=cn01 status=done' 'id=1 name=ar-1 op=update hosts=cn[01-04] status=done' 'id=3 name=ar-3 op=delete status=done'
run slurm_show ar-2
expect_out ReservationName=ar-2 Nodes=cn01 Flags=SPEC_NODES Users=root 'Accounts=(null)' State=INACTIVE
diff_clean
# What ended is Slurm's to purge; a purge changes nothing there.
run ar-del --purge -q
run ar-map --slurm --apply
expect_exit 0
expect_out
expect_check

begin 'slurm: a reservation running is made longer by its end alone; a start already past goes in as now'
clear_slurm
mkstore --hosts 'cn[01-16]' --slot 1s --horizon 1d
run ar-add start=+2s duration=1h nodes=2
sleep 3
# Started before it was ever exported: Slurm takes it from now.
run ar-map --slurm --apply
expect_exit 0
filter 's/ start=[^ ]* end=[^ ]*//'
expect_out 'id=1 name=ar-1 op=create hosts=cn[01-02] status=done'
run slurm_show ar-1
expect_out ReservationName=ar-1 'Nodes=cn[01-02]' Flags=SPEC_NODES Users=root 'Accounts=(null)' State=ACTIVE
diff_clean
run ar-add --modify id=1 end=+3h
expect_exit 0
run ar-map --slurm
filter 's/EndTime=[^ ]*/EndTime=END/'
expect_out 'TZ=UTC0 scontrol update ReservationName=ar-1 EndTime=END'
run ar-map --slurm --apply
expect_exit 0
diff_clean
expect_check

begin 'slurm: what Slurm refuses is reported with its message, retried, and never forgotten'
clear_slurm
mkstore --hosts 'cn[01-16]'
run ar-add start=+2h duration=1h nodes=1 user=nosuchuser
run ar-add start=+2h duration=1h nodes=2 user=root
TZ=UTC0 scontrol create reservation ReservationName=operator StartTime="$(iso '+90 min' | tr -d Z)" \
    Duration=04:00:00 Nodes=ALL Users=root >/dev/null
run ar-map --slurm --apply
expect_exit 1
filter 's/ start=[^ ]* end=[^ ]*//'
expect_out 'id=1 name=ar-1 op=create hosts=cn01 status=refused reason="Error creating the reservation: Invalid user id"' \
    'id=2 name=ar-2 op=create hosts=cn[02-03] status=refused reason="Error creating the reservation: Requested reservation overlaps with another reservation"'
expect_err 'ar-map: reservation ar-1: Error creating the reservation: Invalid user id' \
    'ar-map: reservation ar-2: Error creating the reservation: Requested reservation overlaps with another reservation'
run ar-map --slurm --diff
expect_exit 1
filter 's/ start=.*//'
expect_out 'id=1 name=ar-1 status=missing' 'id=2 name=ar-2 status=missing'
# The operator's reservation is not ar's: left alone.
scontrol delete ReservationName=operator
run ar-map --slurm --apply
expect_exit 1
filter 's/ start=[^ ]* end=[^ ]*//'
expect_out 'id=1 name=ar-1 op=create hosts=cn01 status=refused reason="Error creating the reservation: Invalid user id"' \
    'id=2 name=ar-2 op=create hosts=cn[02-03] status=done'
run ar-del id=1
run ar-map --slurm --apply
expect_exit 0
diff_clean
expect_check

begin 'slurm: a start Slurm would refuse as past goes in as now'
clear_slurm
then=$(iso '-20 min')
run ar-report --create --simulated --hosts 'cn[01-16]' --now "$then"
run ar-add --now "$then" start=+5m duration=2h nodes=3
run ar-report --list
filter 's/.* start=\([^ ]*\) .*/\1/'
keep start
# Slurm's rule, as it stands: a start 15 minutes ago is refused.
run env TZ=UTC0 scontrol create reservation ReservationName=ar-1 StartTime="$(tr -d Z <"$D/start")" Duration=60 Nodes=cn01 Users=root
expect_exit 1
expect_err 'Error creating the reservation: Invalid time specified'
run ar-map --slurm --apply
expect_exit 0
run slurm_show ar-1
expect_out ReservationName=ar-1 'Nodes=cn[01-03]' Flags=SPEC_NODES Users=root 'Accounts=(null)' State=ACTIVE
diff_clean

begin 'slurm: a series and holds go in and out with their reservations'
clear_slurm
mkstore --hosts 'cn[01-16]'
run ar-add start=+2h duration=30m nodes=2 every=1h count=3
run ar-add start=+2h duration=1h nodes=4 hold=10m
run ar-map --slurm --apply
expect_exit 0
filter 's/ start=[^ ]* end=[^ ]*//'
expect_out 'id=1 name=ar-1 op=create hosts=cn[01-02] status=done' \
    'id=4 name=ar-4 op=create hosts=cn[03-06] status=done' \
    'id=2 name=ar-2 op=create hosts=cn[01-02] status=done' \
    'id=3 name=ar-3 op=create hosts=cn[01-02] status=done'
run ar-add --confirm id=4
run ar-del series=1
run ar-map --slurm --apply
expect_exit 0
expect_out 'id=1 name=ar-1 op=delete status=done' 'id=2 name=ar-2 op=delete status=done' 'id=3 name=ar-3 op=delete status=done'
run ar-add start=+3h duration=1h nodes=1 hold=10m
run ar-map --slurm --apply
run ar-del id=5
run ar-map --slurm --apply
expect_exit 0
expect_out 'id=5 name=ar-5 op=delete status=done'
diff_clean
expect_check

begin 'slurm: maintenance flags and the account go to Slurm'
clear_slurm
mkstore --hosts 'cn[01-16]'
run ar-add start=+2h duration=1h hosts='cn[07-08]' flags=maint account=physics
run ar-map --slurm
filter 's/StartTime=[^ ]* EndTime=[^ ]*/TIMES/'
expect_out "TZ=UTC0 scontrol create reservation ReservationName=ar-1 TIMES 'Nodes=cn[07-08]' Accounts=physics Flags=MAINT,IGNORE_JOBS"
run ar-map --slurm --apply
expect_exit 0
run slurm_show ar-1
expect_out ReservationName=ar-1 'Nodes=cn[07-08]' Flags=MAINT,IGNORE_JOBS,SPEC_NODES 'Users=(null)' Accounts=physics State=INACTIVE
diff_clean

begin 'slurm: a store of partitions exports each one'"'"'s partition and its hosts'"'"' features'
clear_slurm
printf '%s\n' 'hosts=cn[01-12] partition=all' \
    'hosts=cn[13-16] partition=gpu features=nvlink,a100' >"$D/hosts"
mkstore --hosts-from "$D/hosts"
run ar-add start=+2h duration=1h nodes=2 partition=gpu user=root
run ar-add start=+2h duration=1h nodes=3 user=root
run ar-map --slurm
filter 's/StartTime=[^ ]* EndTime=[^ ]*/TIMES/'
expect_out "TZ=UTC0 scontrol create reservation ReservationName=ar-1 TIMES 'Nodes=cn[13-14]' Users=root PartitionName=gpu 'Features=a100&nvlink'" \
    "TZ=UTC0 scontrol create reservation ReservationName=ar-2 TIMES 'Nodes=cn[01-03]' Users=root PartitionName=all"
run ar-map --slurm --apply
expect_exit 0
show_pool() {
	scontrol show reservation "$1" --oneliner |
	    tr ' ' '\n' | grep -E '^(Nodes|PartitionName|Features)='
}
run show_pool ar-1
expect_out 'Nodes=cn[13-14]' 'Features=a100&nvlink' PartitionName=gpu
run show_pool ar-2
expect_out 'Nodes=cn[01-03]' 'Features=(null)' PartitionName=all
diff_clean
# Changed in Slurm: told, and put back.
scontrol update ReservationName=ar-1 PartitionName=all >/dev/null
run ar-map --slurm --diff
expect_exit 1
filter 's/ start=.*//'
expect_out 'id=1 name=ar-1 status=differs differs=partition'
run ar-map --slurm --apply
expect_exit 0
filter 's/ start=[^ ]* end=[^ ]*//'
expect_out 'id=1 name=ar-1 op=update hosts=cn[13-14] status=done'
run show_pool ar-1
expect_out 'Nodes=cn[13-14]' 'Features=a100&nvlink' PartitionName=gpu
diff_clean
expect_check

begin 'slurm: --lead exports what starts within it, and takes back what moved out'
clear_slurm
mkstore --hosts 'cn[01-16]'
run ar-add start=+30m duration=1h nodes=1
run ar-add start=+3h duration=1h nodes=1
run ar-map --slurm --apply --lead 1h
filter 's/ start=[^ ]* end=[^ ]*//'
expect_out 'id=1 name=ar-1 op=create hosts=cn01 status=done'
run ar-map --slurm --diff --lead 1h
expect_exit 0
run ar-map --slurm --diff
expect_exit 1
run ar-add --modify id=1 start=+5h
run ar-map --slurm --apply --lead 1h
filter 's/ start=[^ ]* end=[^ ]*//'
expect_out 'id=1 name=ar-1 op=delete status=done'
run ar-map --slurm --lead 2x
expect_exit 2
expect_err "ar-map: option '--lead': unknown unit in duration '2x' (use w d h m s)"
expect_check

begin 'slurm: a user the name service knows and /etc/passwd does not'
clear_slurm
mkstore --hosts 'cn[01-16]'
if ! grep -q '^arldap:' /etc/passwd && [ -n "$(cat "$SLURM_DIR/nss.env")" ] &&
    command -v setpriv >/dev/null 2>&1; then
	chmod a+x "$TOP" "$D"
	[ ! -d "$AR_STORE" ] || chmod -R a+rwX "$AR_STORE"
	run setpriv --reuid=4242 --regid=4242 --clear-groups ar-add start=+2h duration=1h nodes=1
	expect_exit 0
	# Without the name service's view: an error for that reservation,
	# never root.
	run ar-map --slurm --apply
	expect_exit 1
	expect_out 'id=1 name=ar-1 status=refused reason="owner 4242 has no name in the name service"'
	expect_err 'ar-map: reservation ar-1: owner 4242 has no name in the name service'
	run env $(cat "$SLURM_DIR/nss.env") ar-map --slurm --apply
	expect_exit 0
	run slurm_show ar-1
	expect_out ReservationName=ar-1 Nodes=cn01 Flags=SPEC_NODES Users=arldap 'Accounts=(null)' State=INACTIVE
	run env $(cat "$SLURM_DIR/nss.env") ar-map --slurm --diff
	expect_exit 0
	# --group through the name service too.
	run env $(cat "$SLURM_DIR/nss.env") ar-report --create --group arldap --store "$D/shared"
	expect_exit 0
	run stat -c %g "$D/shared"
	expect_out 4242
else
	skip 'slurm: a user of the name service only' 'no libnss-wrapper or setpriv, or arldap in /etc/passwd'
fi

begin 'slurm: the controller stopped between two runs: nothing lost'
clear_slurm
mkstore --hosts 'cn[01-16]'
run ar-add start=+2h duration=1h nodes=1
run ar-map --slurm --apply
sh "$TESTS/slurm.sh" halt "$SLURM_DIR"
run ar-add start=+2h duration=1h nodes=2
run ar-del id=1
run ar-map --slurm --apply
expect_exit 3
expect_out
expect_err 'ar-map: scontrol show reservation: slurm_load_reservations error: Unable to contact slurm controller (connect failure)'
sh "$TESTS/slurm.sh" restart "$SLURM_DIR" || exit 2
run ar-map --slurm --apply
expect_exit 0
filter 's/ start=[^ ]* end=[^ ]*//'
expect_out 'id=2 name=ar-2 op=create hosts=cn[01-02] status=done' 'id=1 name=ar-1 op=delete status=done'
diff_clean

begin 'slurm: --prefix names what ar owns; others are left alone; AR_SCONTROL'
clear_slurm
mkstore --hosts 'cn[01-16]'
run ar-add start=+2h duration=1h nodes=1
TZ=UTC0 scontrol create reservation ReservationName=ar-1 StartTime=now+10hours Duration=60 Nodes=cn16 Users=root >/dev/null
run env AR_SCONTROL="$(command -v scontrol)" ar-map --slurm --apply --prefix site-ar-
filter 's/ start=[^ ]* end=[^ ]*//'
expect_out 'id=1 name=site-ar-1 op=create hosts=cn01 status=done'
run ar-map --slurm --diff --prefix site-ar-
expect_exit 0
run ar-map --slurm --prefix -x
expect_exit 2
expect_err "ar-map: option '--prefix': begins with '-', which Slurm reads as 'all but'"
run ar-map --slurm --scontrol /nonexistent/scontrol
expect_exit 3
expect_err 'ar-map: /nonexistent/scontrol show reservation: /nonexistent/scontrol: No such file or directory'
run ar-map --plan --apply
expect_exit 2
expect_err 'ar-map: --apply, --diff, --lead, --prefix and --scontrol go with --slurm'

begin 'slurm: the rounds, killed at random moments, end with --diff clean'
clear_slurm
run sh "$TESTS/slurm-rounds.sh" 3 20261126
expect_exit 0
filter '$!d'
expect_out '3 passed, 0 failed'

clear_slurm
AR_NOW=2026-11-21T00:00:00Z
export AR_NOW
else
	skip 'slurm: against a real slurmctld' "$msg"
fi
