# 79-slices.sh - time-slice requests: split=yes|orr|tarr (seed 004's ORR
# and TARR) before the deadline (defer=, or latest + duration): ORR one
# interval when one fits, else pieces; TARR the earliest free slots, one
# interval only when they are one run; each piece a reservation, one
# request.

# The plan every case below starts from, on 4 nodes: full at
# [01:30, 02:00), [02:30, 03:00) and [04:00, 04:30), so that from 01:00
# the free runs are 30m, 30m, 1h, then from 04:30 on.
holes() {
	mkstore --nodes 4
	run ar-add <<'EOT'
start=+1h30m duration=30m nodes=4
start=+2h30m duration=30m nodes=4
start=+4h duration=30m nodes=4
EOT
	expect_exit 0
}

begin 'slices: a split request that fits in one interval is one reservation'
holes
run ar-add start=+1h duration=1h defer=+5h30m split=yes
expect_exit 0
expect_out 'start=2026-11-21T03:00:00Z duration=1h defer=+5h30m split=yes id=4 end=2026-11-21T04:00:00Z free=4 status=granted'
expect_check

begin 'slices: ORR takes the fewest pieces, then the earliest end; their sum is the duration'
holes
run ar-add start=+1h duration=2h defer=+5h30m split=yes
expect_exit 0
expect_out <<'EOT'
start=2026-11-21T03:00:00Z duration=2h defer=+5h30m split=yes id=4 series=4 piece=1 pieces=2 end=2026-11-21T04:00:00Z free=4 status=granted
start=2026-11-21T04:30:00Z duration=2h defer=+5h30m split=yes id=5 series=4 piece=2 pieces=2 end=2026-11-21T05:30:00Z free=4 status=granted
EOT
expect_err
run ar-report --list
expect_out <<EOT
id=1 start=2026-11-21T01:30:00Z end=2026-11-21T02:00:00Z nodes=4 owner=$ME status=granted running=no duration=30m created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z
id=2 start=2026-11-21T02:30:00Z end=2026-11-21T03:00:00Z nodes=4 owner=$ME status=granted running=no duration=30m created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z
id=3 start=2026-11-21T04:00:00Z end=2026-11-21T04:30:00Z nodes=4 owner=$ME status=granted running=no duration=30m created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z
id=4 series=4 piece=1 pieces=2 split=orr start=2026-11-21T03:00:00Z end=2026-11-21T04:00:00Z nodes=1 earliest=2026-11-21T01:00:00Z latest=2026-11-21T03:30:00Z owner=$ME status=granted running=no duration=2h created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z
id=5 series=4 piece=2 pieces=2 split=orr start=2026-11-21T04:30:00Z end=2026-11-21T05:30:00Z nodes=1 earliest=2026-11-21T01:00:00Z latest=2026-11-21T03:30:00Z owner=$ME status=granted running=no duration=2h created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z
EOT
expect_check

begin 'slices: TARR takes the earliest free slots, in as many pieces as that takes'
holes
run ar-add start=+1h duration=2h defer=+5h30m split=tarr
expect_exit 0
expect_out <<'EOT'
start=2026-11-21T01:00:00Z duration=2h defer=+5h30m split=tarr id=4 series=4 piece=1 pieces=3 end=2026-11-21T01:30:00Z free=4 status=granted
start=2026-11-21T02:00:00Z duration=2h defer=+5h30m split=tarr id=5 series=4 piece=2 pieces=3 end=2026-11-21T02:30:00Z free=4 status=granted
start=2026-11-21T03:00:00Z duration=2h defer=+5h30m split=tarr id=6 series=4 piece=3 pieces=3 end=2026-11-21T04:00:00Z free=4 status=granted
EOT
expect_check

# 1h fits in one interval at 03:00, but the earliest free hour is
# 01:00-01:30 and 02:00-02:30: TARR takes those, ar-search says so too;
# where the first free slots are one run, it is one reservation.
begin 'slices: TARR takes the earliest free slots though one interval fits later'
holes
run ar-search start=+1h duration=1h defer=+5h30m split=tarr
expect_exit 0
expect_out <<'EOT'
start=2026-11-21T01:00:00Z duration=1h defer=+5h30m split=tarr piece=1 pieces=2 end=2026-11-21T01:30:00Z free=4 status=available
start=2026-11-21T02:00:00Z duration=1h defer=+5h30m split=tarr piece=2 pieces=2 end=2026-11-21T02:30:00Z free=4 status=available
EOT
run ar-add start=+1h duration=1h defer=+5h30m split=tarr
expect_exit 0
expect_out <<'EOT'
start=2026-11-21T01:00:00Z duration=1h defer=+5h30m split=tarr id=4 series=4 piece=1 pieces=2 end=2026-11-21T01:30:00Z free=4 status=granted
start=2026-11-21T02:00:00Z duration=1h defer=+5h30m split=tarr id=5 series=4 piece=2 pieces=2 end=2026-11-21T02:30:00Z free=4 status=granted
EOT
run ar-add start=+3h duration=1h defer=+5h30m split=tarr
expect_exit 0
expect_out 'start=2026-11-21T03:00:00Z duration=1h defer=+5h30m split=tarr id=6 end=2026-11-21T04:00:00Z free=4 status=granted'
# Granted at its start, it keeps the window it asked for.
run ar-report --list
filter '/^id=6 /!d'
expect_out "id=6 start=2026-11-21T03:00:00Z end=2026-11-21T04:00:00Z nodes=1 earliest=2026-11-21T03:00:00Z latest=2026-11-21T04:30:00Z owner=$ME status=granted running=no duration=1h created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z"
expect_check

begin 'slices: the smallest piece rules out the short runs'
holes
run ar-add start=+1h duration=2h defer=+5h split=yes smallest=45m
expect_exit 1
expect_out 'start=2026-11-21T01:00:00Z duration=2h defer=+5h split=yes smallest=45m end=2026-11-21T03:00:00Z free=0 status=refused reason=no-slices'
run ar-add start=+1h duration=2h defer=+5h split=yes
expect_exit 0
expect_out <<'EOT'
start=2026-11-21T01:00:00Z duration=2h defer=+5h split=yes id=4 series=4 piece=1 pieces=3 end=2026-11-21T01:30:00Z free=4 status=granted
start=2026-11-21T02:00:00Z duration=2h defer=+5h split=yes id=5 series=4 piece=2 pieces=3 end=2026-11-21T02:30:00Z free=4 status=granted
start=2026-11-21T03:00:00Z duration=2h defer=+5h split=yes id=6 series=4 piece=3 pieces=3 end=2026-11-21T04:00:00Z free=4 status=granted
EOT
expect_check

# Free 01:00-01:15, 01:20-01:35 and 01:40-01:55; 35m in pieces of at
# least 10m take three, the last ending at 01:50 at the earliest (its 10m
# from 01:40); of those sets, the first piece as long as it can be.
begin 'slices: ORR makes the first pieces as long as they can be, the earliest end kept'
mkstore --nodes 4
run ar-add <<'EOT'
start=+1h15m duration=5m nodes=4
start=+1h35m duration=5m nodes=4
EOT
run ar-add start=+1h duration=35m defer=+1h55m split=yes smallest=10m
expect_exit 0
expect_out <<'EOT'
start=2026-11-21T01:00:00Z duration=35m defer=+1h55m split=yes smallest=10m id=3 series=3 piece=1 pieces=3 end=2026-11-21T01:15:00Z free=4 status=granted
start=2026-11-21T01:20:00Z duration=35m defer=+1h55m split=yes smallest=10m id=4 series=3 piece=2 pieces=3 end=2026-11-21T01:30:00Z free=4 status=granted
start=2026-11-21T01:40:00Z duration=35m defer=+1h55m split=yes smallest=10m id=5 series=3 piece=3 pieces=3 end=2026-11-21T01:50:00Z free=4 status=granted
EOT
expect_check

begin 'slices: no set of slices before the deadline is a refusal that books nothing'
holes
run ar-report --all
keep before
run ar-add start=+1h duration=2h30m defer=+4h30m split=yes
expect_exit 1
expect_out 'start=2026-11-21T01:00:00Z duration=2h30m defer=+4h30m split=yes end=2026-11-21T03:30:00Z free=0 status=refused reason=no-slices'
run ar-report --all
filter '/^table=demand/d'
keep after
sed '/^table=demand/d' "$D/before" >"$D/before.kept"
run cat "$D/after"
expect_out <"$D/before.kept"
run ar-report --usage --from 2026-11-21T00:00:00Z --to 2026-11-22T00:00:00Z
filter '$!d; s/.* refused=\([0-9]*\) .*/refused=\1/'
expect_out 'refused=1'
# The reason is a field of its own, in JSON too.
run ar-report --usage --from 2026-11-21T00:00:00Z --to 2026-11-22T00:00:00Z
filter '$!d; s/.* \(refused_no_slices=[0-9]*\) .*/\1/'
expect_out 'refused_no_slices=1'
run ar-report --json --usage --from 2026-11-21T00:00:00Z --to 2026-11-22T00:00:00Z
filter '$!d; s/.*\("refused_no_slices":[0-9]*\).*/\1/'
expect_out '"refused_no_slices":1'
expect_check

begin 'slices: ar-search finds the same pieces and books nothing'
holes
run ar-search start=+1h duration=2h defer=+5h30m split=yes
expect_exit 0
expect_out <<'EOT'
start=2026-11-21T03:00:00Z duration=2h defer=+5h30m split=yes piece=1 pieces=2 end=2026-11-21T04:00:00Z free=4 status=available
start=2026-11-21T04:30:00Z duration=2h defer=+5h30m split=yes piece=2 pieces=2 end=2026-11-21T05:30:00Z free=4 status=available
EOT
run ar-search start=+1h duration=2h30m defer=+4h30m split=yes
expect_exit 1
expect_out 'start=2026-11-21T01:00:00Z duration=2h30m defer=+4h30m split=yes end=2026-11-21T03:30:00Z free=0 status=unavailable reason=no-slices'
run ar-report --list
expect_out <<EOT
id=1 start=2026-11-21T01:30:00Z end=2026-11-21T02:00:00Z nodes=4 owner=$ME status=granted running=no duration=30m created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z
id=2 start=2026-11-21T02:30:00Z end=2026-11-21T03:00:00Z nodes=4 owner=$ME status=granted running=no duration=30m created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z
id=3 start=2026-11-21T04:00:00Z end=2026-11-21T04:30:00Z nodes=4 owner=$ME status=granted running=no duration=30m created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z
EOT

begin 'slices: cancelling any piece cancels them all'
holes
run ar-add start=+1h duration=2h defer=+5h30m split=tarr
expect_exit 0
run ar-del id=5
expect_exit 0
expect_out <<'EOT'
id=4 series=4 piece=1 pieces=3 status=cancelled
id=5 series=4 piece=2 pieces=3 status=cancelled
id=6 series=4 piece=3 pieces=3 status=cancelled
EOT
run ar-report --list
filter '/status=granted/!d'
expect_out <<EOT
id=1 start=2026-11-21T01:30:00Z end=2026-11-21T02:00:00Z nodes=4 owner=$ME status=granted running=no duration=30m created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z
id=2 start=2026-11-21T02:30:00Z end=2026-11-21T03:00:00Z nodes=4 owner=$ME status=granted running=no duration=30m created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z
id=3 start=2026-11-21T04:00:00Z end=2026-11-21T04:30:00Z nodes=4 owner=$ME status=granted running=no duration=30m created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z
EOT
run ar-del id=6
expect_exit 1
expect_out 'id=6 status=refused reason=done'
expect_check

begin 'slices: a retried client key returns the same pieces and books nothing'
holes
run ar-add start=+1h duration=2h defer=+5h30m split=yes client_key=k1
expect_exit 0
run ar-add start=+1h duration=2h defer=+5h30m split=yes client_key=k1
expect_exit 0
expect_out <<'EOT'
start=2026-11-21T03:00:00Z duration=2h defer=+5h30m split=yes client_key=k1 id=4 series=4 piece=1 pieces=2 end=2026-11-21T04:00:00Z status=granted replayed=yes
start=2026-11-21T04:30:00Z duration=2h defer=+5h30m split=yes client_key=k1 id=5 series=4 piece=2 pieces=2 end=2026-11-21T05:30:00Z status=granted replayed=yes
EOT
run ar-report --list
filter '/id=6/!d'
expect_out
expect_check

# The list shows a piece with its request: the rule and the smallest
# piece it was asked with (the window and duration are the request's
# already), the key on every piece; and the same as ar-add printed and a
# retry of the key replays.
begin 'slices: ar-report --list shows each piece with its request: rule, smallest piece and key'
holes
run ar-add start=+1h duration=2h defer=+5h30m split=yes smallest=30m client_key=k1
expect_exit 0
expect_out <<'EOT'
start=2026-11-21T03:00:00Z duration=2h defer=+5h30m split=yes smallest=30m client_key=k1 id=4 series=4 piece=1 pieces=2 end=2026-11-21T04:00:00Z free=4 status=granted
start=2026-11-21T04:30:00Z duration=2h defer=+5h30m split=yes smallest=30m client_key=k1 id=5 series=4 piece=2 pieces=2 end=2026-11-21T05:30:00Z free=4 status=granted
EOT
run ar-add start=+1h duration=2h defer=+5h30m split=tarr user=t
expect_exit 0
run ar-report --list series=4
expect_out <<EOT
id=4 series=4 piece=1 pieces=2 split=orr smallest=30m client_key=k1 start=2026-11-21T03:00:00Z end=2026-11-21T04:00:00Z nodes=1 earliest=2026-11-21T01:00:00Z latest=2026-11-21T03:30:00Z owner=$ME status=granted running=no duration=2h created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z
id=5 series=4 piece=2 pieces=2 split=orr smallest=30m client_key=k1 start=2026-11-21T04:30:00Z end=2026-11-21T05:30:00Z nodes=1 earliest=2026-11-21T01:00:00Z latest=2026-11-21T03:30:00Z owner=$ME status=granted running=no duration=2h created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z
EOT
run ar-report --list user=t
filter 's/ start=.*//'
expect_out <<'EOT'
id=6 series=6 piece=1 pieces=3 split=tarr user=t
id=7 series=6 piece=2 pieces=3 split=tarr user=t
id=8 series=6 piece=3 pieces=3 split=tarr user=t
EOT
run ar-add start=+1h duration=2h defer=+5h30m split=yes smallest=30m client_key=k1
expect_exit 0
filter 's/ end=.*//'
expect_out <<'EOT'
start=2026-11-21T03:00:00Z duration=2h defer=+5h30m split=yes smallest=30m client_key=k1 id=4 series=4 piece=1 pieces=2
start=2026-11-21T04:30:00Z duration=2h defer=+5h30m split=yes smallest=30m client_key=k1 id=5 series=4 piece=2 pieces=2
EOT
expect_check

# The total: 4 requests, 3 that waited nothing, the split one 2h (01:00
# to its first piece at 03:00): 1800 s on average.
begin 'slices: the usage report counts a split request once, waiting until its first piece'
holes
run ar-add start=+1h duration=2h defer=+5h30m split=yes
run ar-report --usage --from 2026-11-21T00:00:00Z --to 2026-11-22T00:00:00Z
filter '$!d; s/.*\( granted=[0-9]*\).*\( awt=[^ ]*\).*/\1\2/'
expect_out ' granted=4 awt=1800'
# Modified, in new pieces or in one interval, it is still one request
# (its old pieces no admission of their own), and waits as long.
run ar-add --modify id=5 duration=2h30m
run ar-report --usage --from 2026-11-21T00:00:00Z --to 2026-11-22T00:00:00Z
filter '$!d; s/.*\( granted=[0-9]*\).*\( awt=[^ ]*\).*/\1\2/'
expect_out ' granted=4 awt=1800'
run ar-add --modify id=6 duration=1h
run ar-report --usage --from 2026-11-21T00:00:00Z --to 2026-11-22T00:00:00Z
filter '$!d; s/.*\( granted=[0-9]*\).*\( awt=[^ ]*\).*/\1\2/'
expect_out ' granted=4 awt=1800'
expect_check

begin 'slices: ar-add | ar-map gives each piece its hosts, each line naming its request'
holes
run ar-add start=+1h duration=2h defer=+5h30m split=yes
keep added
run ar-map <"$D/added"
expect_exit 0
expect_out <<'EOT'
start=2026-11-21T03:00:00Z duration=2h defer=+5h30m split=yes id=4 series=4 piece=1 pieces=2 end=2026-11-21T04:00:00Z free=4 status=new hosts=node1
start=2026-11-21T04:30:00Z duration=2h defer=+5h30m split=yes id=5 series=4 piece=2 pieces=2 end=2026-11-21T05:30:00Z free=4 status=new hosts=node1
EOT
run ar-map --plan
filter '/piece/!d'
expect_out <<EOT
id=4 series=4 piece=1 pieces=2 split=orr start=2026-11-21T03:00:00Z end=2026-11-21T04:00:00Z nodes=1 earliest=2026-11-21T01:00:00Z latest=2026-11-21T03:30:00Z owner=$ME status=kept hosts=node1
id=5 series=4 piece=2 pieces=2 split=orr start=2026-11-21T04:30:00Z end=2026-11-21T05:30:00Z nodes=1 earliest=2026-11-21T01:00:00Z latest=2026-11-21T03:30:00Z owner=$ME status=kept hosts=node1
EOT
expect_check

# Each copy is split as it would be alone, in order, against the plan
# with the copies before it: the first fits in one interval at 04:30,
# the second then only in pieces. All copies or none: a third finds no
# set of slices, and nothing is booked.
begin 'slices: a request of several copies splits each copy, all or none'
holes
run ar-search start=+1h duration=2h defer=+7h30m split=yes nodes=4 jobs=2
expect_exit 2
expect_err "ar-search: arguments: field 'jobs': ar-search finds one job of a split request (ar-add splits each copy)"
run ar-add start=+1h duration=2h defer=+7h30m split=yes nodes=4 jobs=3
expect_exit 1
expect_out 'start=2026-11-21T01:00:00Z duration=2h defer=+7h30m split=yes nodes=4 jobs=3 end=2026-11-21T03:00:00Z free=0 status=refused reason=no-slices'
run ar-report --list
filter '/^id=[4-9]/!d'
expect_out
run ar-add start=+1h duration=2h defer=+7h30m split=yes nodes=4 jobs=2 client_key=two
expect_exit 0
expect_out <<'EOT'
start=2026-11-21T04:30:00Z duration=2h defer=+7h30m split=yes nodes=4 jobs=2 client_key=two id=4 copy=1 end=2026-11-21T06:30:00Z free=4 status=granted
start=2026-11-21T03:00:00Z duration=2h defer=+7h30m split=yes nodes=4 jobs=2 client_key=two id=5 copy=2 end=2026-11-21T04:00:00Z free=4 status=granted series=5 piece=1 pieces=2
start=2026-11-21T06:30:00Z duration=2h defer=+7h30m split=yes nodes=4 jobs=2 client_key=two id=6 copy=2 end=2026-11-21T07:30:00Z free=4 status=granted series=5 piece=2 pieces=2
EOT
run ar-report --list
filter '/^id=[4-9]/!d; s/ earliest.*//'
expect_out <<'EOT'
id=4 client_key=two start=2026-11-21T04:30:00Z end=2026-11-21T06:30:00Z nodes=4
id=5 series=5 piece=1 pieces=2 split=orr client_key=two start=2026-11-21T03:00:00Z end=2026-11-21T04:00:00Z nodes=4
id=6 series=5 piece=2 pieces=2 split=orr client_key=two start=2026-11-21T06:30:00Z end=2026-11-21T07:30:00Z nodes=4
EOT
# Its key holds every piece of every copy; a retry books nothing, and
# the key with another number of copies is another request.
run ar-add start=+1h duration=2h defer=+7h30m split=yes nodes=4 jobs=2 client_key=two
expect_exit 0
expect_out <<'EOT'
start=2026-11-21T04:30:00Z duration=2h defer=+7h30m split=yes nodes=4 jobs=2 client_key=two id=4 copy=1 end=2026-11-21T06:30:00Z status=granted replayed=yes
start=2026-11-21T03:00:00Z duration=2h defer=+7h30m split=yes nodes=4 jobs=2 client_key=two id=5 copy=2 end=2026-11-21T04:00:00Z status=granted replayed=yes series=5 piece=1 pieces=2
start=2026-11-21T06:30:00Z duration=2h defer=+7h30m split=yes nodes=4 jobs=2 client_key=two id=6 copy=2 end=2026-11-21T07:30:00Z status=granted replayed=yes series=5 piece=2 pieces=2
EOT
run ar-add start=+1h duration=2h defer=+7h30m split=yes nodes=4 client_key=two
expect_exit 2
expect_err "ar-add: arguments: field 'client_key': already used by reservation 4 for a different request"
# Cancelling a piece cancels its copy's pieces, not the other copy.
run ar-del id=6
expect_exit 0
expect_out <<'EOT'
id=5 series=5 piece=1 pieces=2 status=cancelled
id=6 series=5 piece=2 pieces=2 status=cancelled
EOT
run ar-report --all
filter '/^id=[4-9]/!d; s/ start.* status=/ status=/; s/ running.*//'
expect_out <<'EOT'
id=4 client_key=two status=granted
id=5 series=5 piece=1 pieces=2 split=orr client_key=two status=cancelled
id=6 series=5 piece=2 pieces=2 split=orr client_key=two status=cancelled
EOT
expect_check

# A modify of any piece is a modify of its request: every piece is
# taken out and the request, changed, admitted again as a split request
# in the same transaction; the new pieces have new ids (the first names
# them), the old ones read cancelled.
begin 'slices: modifying a piece grows the request, in new pieces'
holes
run ar-add start=+1h duration=2h defer=+5h30m split=yes
run ar-add --modify id=5 duration=2h30m
expect_exit 0
expect_out <<'EOT'
id=6 duration=2h30m series=6 piece=1 pieces=2 start=2026-11-21T03:00:00Z end=2026-11-21T04:00:00Z free=4 status=granted
id=7 duration=2h30m series=6 piece=2 pieces=2 start=2026-11-21T04:30:00Z end=2026-11-21T06:00:00Z free=4 status=granted
EOT
expect_err
run ar-report --all
filter '/^id=[4-9]/!d; s/ nodes=.* status=/ status=/; s/ running.*//'
expect_out <<'EOT'
id=4 series=4 piece=1 pieces=2 split=orr start=2026-11-21T03:00:00Z end=2026-11-21T04:00:00Z status=cancelled
id=5 series=4 piece=2 pieces=2 split=orr start=2026-11-21T04:30:00Z end=2026-11-21T05:30:00Z status=cancelled
id=6 series=6 piece=1 pieces=2 split=orr start=2026-11-21T03:00:00Z end=2026-11-21T04:00:00Z status=granted
id=7 series=6 piece=2 pieces=2 split=orr start=2026-11-21T04:30:00Z end=2026-11-21T06:00:00Z status=granted
EOT
expect_check
# The old ids are done: the same modify again changes nothing.
run ar-add --modify id=5 duration=2h30m
expect_exit 1
expect_out 'id=5 duration=2h30m status=refused reason=done'
expect_check

begin 'slices: modifying a piece shrinks the request, or changes its rule'
holes
run ar-add start=+1h duration=2h defer=+5h30m split=yes
run ar-add --modify id=4 split=tarr
expect_exit 0
expect_out <<'EOT'
id=6 split=tarr series=6 piece=1 pieces=3 start=2026-11-21T01:00:00Z end=2026-11-21T01:30:00Z free=4 status=granted
id=7 split=tarr series=6 piece=2 pieces=3 start=2026-11-21T02:00:00Z end=2026-11-21T02:30:00Z free=4 status=granted
id=8 split=tarr series=6 piece=3 pieces=3 start=2026-11-21T03:00:00Z end=2026-11-21T04:00:00Z free=4 status=granted
EOT
# Shorter, it fits in one interval: one reservation like any other.
run ar-add --modify id=8 duration=1h split=yes
expect_exit 0
expect_out 'id=9 duration=1h split=yes start=2026-11-21T03:00:00Z end=2026-11-21T04:00:00Z free=4 status=granted'
run ar-report --list
filter '/^id=9 /!d'
expect_out "id=9 start=2026-11-21T03:00:00Z end=2026-11-21T04:00:00Z nodes=1 earliest=2026-11-21T01:00:00Z latest=2026-11-21T03:30:00Z owner=$ME status=granted running=no duration=1h created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z"
expect_check

# series= names the request too (its first piece's id); defer= moves
# its deadline.
begin 'slices: modifying a split request by its series, to another deadline'
holes
run ar-add start=+1h duration=2h defer=+5h30m split=yes
run ar-add --modify series=4 defer=+5h
expect_exit 0
expect_out <<'EOT'
series=6 defer=+5h id=6 piece=1 pieces=3 start=2026-11-21T01:00:00Z end=2026-11-21T01:30:00Z free=4 status=granted
series=6 defer=+5h id=7 piece=2 pieces=3 start=2026-11-21T02:00:00Z end=2026-11-21T02:30:00Z free=4 status=granted
series=6 defer=+5h id=8 piece=3 pieces=3 start=2026-11-21T03:00:00Z end=2026-11-21T04:00:00Z free=4 status=granted
EOT
run ar-report --list
filter '/^id=6 /!d'
expect_out "id=6 series=6 piece=1 pieces=3 split=orr start=2026-11-21T01:00:00Z end=2026-11-21T01:30:00Z nodes=1 earliest=2026-11-21T01:00:00Z latest=2026-11-21T03:00:00Z owner=$ME status=granted running=no duration=2h created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z"
expect_check

begin 'slices: modifying a piece moves the window; a refusal changes nothing'
holes
run ar-add start=+1h duration=2h defer=+5h30m split=yes
run ar-report --all
keep before
run ar-add --modify id=4 earliest=+30m latest=+1h
expect_exit 1
expect_out 'id=4 earliest=2026-11-21T00:30:00Z latest=2026-11-21T01:00:00Z start=2026-11-21T00:30:00Z end=2026-11-21T02:30:00Z free=0 status=refused reason=no-slices'
run ar-report --all
expect_out < "$D/before"
run ar-add --modify id=4 nodes=5
expect_exit 1
expect_out 'id=4 nodes=5 start=2026-11-21T01:00:00Z end=2026-11-21T03:00:00Z status=refused reason=capacity'
run ar-add --modify id=4 earliest=+4h30m latest=+5h
expect_exit 0
expect_out 'id=6 earliest=2026-11-21T04:30:00Z latest=2026-11-21T05:00:00Z start=2026-11-21T04:30:00Z end=2026-11-21T06:30:00Z free=4 status=granted'
expect_check

begin 'slices: a request whose piece started is not modified; its key follows the new pieces'
holes
run ar-add start=+1h duration=2h defer=+5h30m split=yes client_key=k
run ar-add --now 2026-11-21T03:30Z --modify id=5 duration=2h30m
expect_exit 1
expect_out 'id=5 duration=2h30m start=2026-11-21T03:00:00Z end=2026-11-21T04:00:00Z status=refused reason=started'
run ar-add --modify id=5 duration=2h30m
expect_exit 0
run ar-add start=+1h duration=2h defer=+5h30m split=yes client_key=k
expect_exit 2
expect_err "ar-add: arguments: field 'client_key': already used by reservation 6 for a different request"
run ar-add start=+1h duration=2h30m defer=+6h split=yes client_key=k
expect_exit 0
expect_out <<'EOT'
start=2026-11-21T03:00:00Z duration=2h30m defer=+6h split=yes client_key=k id=6 series=6 piece=1 pieces=2 end=2026-11-21T04:00:00Z status=granted replayed=yes
start=2026-11-21T04:30:00Z duration=2h30m defer=+6h split=yes client_key=k id=7 series=6 piece=2 pieces=2 end=2026-11-21T06:00:00Z status=granted replayed=yes
EOT
expect_check

begin 'slices: bad split requests are bad input, naming the line and the field'
mkstore --nodes 4
run ar-add <<'EOT'
start=+1h duration=1h split=maybe
start=+1h duration=1h split=tarr smallest=10m
start=+1h duration=1h smallest=10m
start=+1h duration=1h split=yes smallest=2h
start=+1h duration=1h split=yes smallest=x
start=+1h duration=1h split=yes nodes=2:1,1:1
start=+1h duration=1h defer=+1h30m latest=+2h
start=+1h duration=1h defer=+1h30m
start=+1h duration=1h defer=x
start=+1h duration=1h split=yes hold=10m
start=+1h duration=1h split=yes every=1d count=2
EOT
expect_exit 2
expect_out
expect_err <<'EOT'
ar-add: line 1: field 'split': 'maybe' is not yes, no, orr or tarr
ar-add: line 2: field 'smallest': for split=orr (or yes) only
ar-add: line 3: field 'smallest': for split=orr (or yes) only
ar-add: line 4: field 'smallest': longer than the duration
ar-add: line 5: field 'smallest': invalid duration 'x'
ar-add: line 6: field 'nodes': a split request has one size, not levels
ar-add: line 7: field 'defer': goes with no 'latest' (it is the latest end, latest + duration)
ar-add: line 8: field 'defer': before the start plus the duration
ar-add: line 9: field 'defer': invalid time 'x' (use 2026-11-21T10:00Z, @EPOCH or now+DURATION)
ar-add: line 10: field 'split': a split request is not a hold
ar-add: line 11: field 'split': a split request is not a series
EOT
run ar-add --partial start=+1h duration=1h split=yes
expect_exit 2
expect_err "ar-add: arguments: field 'split': does not go with --partial"
run ar-report --all
expect_out
expect_check
