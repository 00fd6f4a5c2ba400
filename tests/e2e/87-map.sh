# 87-map.sh - ar-map: the plan on named hosts, kept in the store.

begin 'map: --hosts names the nodes; --info shows them, compactly'
mkstore --hosts 'gpu[1-4],cn[01-60]'
run ar-report --info
filter 's/ map_size=[0-9]*//'
expect_exit 0
expect_out 'nodes=64 hosts=cn[01-60],gpu[1-4] slot=5m horizon=30d clock=2026-11-21T00:00:00Z clock_mode=simulated owners=uid live=0 records=0 next_id=1 map_max=17179869184 format=10'

begin 'map: without --hosts the nodes are node1..N, zero-padded'
mkstore --nodes 128
run ar-report --info
filter 's/ map_size=[0-9]*//'
expect_out 'nodes=128 hosts=node[001-128] slot=5m horizon=30d clock=2026-11-21T00:00:00Z clock_mode=simulated owners=uid live=0 records=0 next_id=1 map_max=17179869184 format=10'

begin 'map: a bad host list is bad usage, naming the byte'
run ar-report --create --simulated --hosts 'cn[01-03' --info
expect_exit 2
{ echo "ar-report: option '--hosts': unclosed '[' at byte 3"
  usage_of ar-report; } >"$D/usage"
expect_err <"$D/usage"
run ar-report --create --simulated --nodes 4 --hosts 'cn[1-3]' --info
expect_exit 2
expect_err "ar-report: option '--nodes': 4, but '--hosts' names 3"
run ar-report --hosts 'cn[1-3]' --info
expect_exit 2
expect_err 'ar-report: --nodes, --hosts, --slot, --horizon, --max-size and --owners go with --create'

begin 'map: creating again with other names is a store error'
mkstore --hosts 'cn[1-3]'
run ar-report --create --simulated --hosts 'cn[1-3]' --check
expect_exit 0
expect_out
run ar-report --create --simulated --hosts 'gpu[1-3]' --check
expect_exit 3
expect_out
expect_err "ar-report: $AR_STORE: a store with another configuration exists there: hosts cn[1-3] there, not gpu[1-3]"

begin 'map: ar-add | ar-map gives each grant its hosts; a refusal passes through'
mkstore --hosts 'cn[01-08]'
run sh -c 'ar-add start=+1h duration=2h nodes=3 user=a; ar-add start=+1h duration=2h nodes=6 user=b; ar-add start=+2h duration=2h nodes=5 user=c'
keep added
run ar-map <"$D/added"
expect_exit 0
expect_out <<'X'
start=2026-11-21T01:00:00Z duration=2h nodes=3 user=a id=1 end=2026-11-21T03:00:00Z free=8 status=new hosts=cn[01-03]
start=2026-11-21T01:00:00Z duration=2h nodes=6 user=b end=2026-11-21T03:00:00Z free=5 status=refused reason=full
start=2026-11-21T02:00:00Z duration=2h nodes=5 user=c id=2 end=2026-11-21T04:00:00Z free=5 status=new hosts=cn[04-08]
X
expect_err
expect_check

begin 'map: running it twice tells the same hosts, kept; by id too'
mkstore --hosts 'cn[01-08]'
run ar-add start=+1h duration=2h nodes=3
run ar-add start=+2h duration=2h nodes=4
run ar-map --plan
expect_exit 0
expect_out <<X
id=1 start=2026-11-21T01:00:00Z end=2026-11-21T03:00:00Z nodes=3 owner=$ME status=new hosts=cn[01-03]
id=2 start=2026-11-21T02:00:00Z end=2026-11-21T04:00:00Z nodes=4 owner=$ME status=new hosts=cn[04-07]
X
run ar-map --plan
expect_out <<X
id=1 start=2026-11-21T01:00:00Z end=2026-11-21T03:00:00Z nodes=3 owner=$ME status=kept hosts=cn[01-03]
id=2 start=2026-11-21T02:00:00Z end=2026-11-21T04:00:00Z nodes=4 owner=$ME status=kept hosts=cn[04-07]
X
printf 'id=2\nid=9\nid=1 x=y\n' >"$D/ids"
run ar-map <"$D/ids"
expect_exit 1
expect_out <<'X'
id=2 hosts=cn[04-07] status=kept
id=9 status=refused reason=not-found
id=1 x=y hosts=cn[01-03] status=kept
X
expect_err 'ar-map: line 2: reservation 9: no such reservation'
run ar-map nodes=3
expect_exit 2
expect_err "ar-map: arguments: missing field 'id'"
expect_check

begin 'map: new, kept and remapped are against what ar-map printed: an empty input, another range or --slurm prints nothing'
mkstore --hosts 'cn[01-08]'
run ar-add start=+1h duration=2h nodes=3
run ar-add start=+5h duration=2h nodes=4
run ar-map </dev/null
expect_exit 0
expect_out
run env TZ=UTC ar-map --slurm
run ar-map --from +4h --to +8h
expect_exit 0
expect_out "id=2 start=2026-11-21T05:00:00Z end=2026-11-21T07:00:00Z nodes=4 owner=$ME status=new hosts=cn[01-04]"
run ar-map id=1
expect_exit 0
expect_out 'id=1 hosts=cn[01-03] status=new'
run ar-map --plan
expect_out <<X
id=1 start=2026-11-21T01:00:00Z end=2026-11-21T03:00:00Z nodes=3 owner=$ME status=kept hosts=cn[01-03]
id=2 start=2026-11-21T05:00:00Z end=2026-11-21T07:00:00Z nodes=4 owner=$ME status=kept hosts=cn[01-04]
X
expect_check

begin 'map: hosts named at admission; taken ones are refused, naming who holds them'
mkstore --hosts 'cn[1-4]'
run ar-add start=+1h duration=2h hosts='cn[1-2]' user=maint
expect_exit 0
expect_out 'start=2026-11-21T01:00:00Z duration=2h hosts=cn[1-2] user=maint nodes=2 id=1 end=2026-11-21T03:00:00Z free=4 status=granted'
run ar-add start=+2h duration=1h hosts='cn[2-3]'
expect_exit 1
expect_out 'start=2026-11-21T02:00:00Z duration=1h hosts=cn[2-3] nodes=2 end=2026-11-21T03:00:00Z status=refused reason=hosts conflict=1'
run ar-add start=+2h duration=1h hosts='cn[3-4]'
expect_exit 0
run ar-search start=+2h duration=1h nodes=1
expect_exit 1
expect_out 'start=2026-11-21T02:00:00Z duration=1h nodes=1 end=2026-11-21T03:00:00Z free=0 status=unavailable reason=full'
run ar-search earliest=+1h latest=+4h duration=1h hosts=cn2
expect_exit 0
expect_out 'earliest=2026-11-21T01:00:00Z latest=2026-11-21T04:00:00Z duration=1h hosts=cn2 nodes=1 start=2026-11-21T03:00:00Z end=2026-11-21T04:00:00Z free=4 status=available'
run ar-add start=+1h duration=1h hosts=cn9
expect_exit 2
expect_err "ar-add: arguments: field 'hosts': unknown host 'cn9'"
run ar-add start=+1h duration=1h hosts=cn1 nodes=2
expect_exit 2
expect_err "ar-add: arguments: field 'nodes': 2, but 'hosts' names 1"
run ar-add start=+1h duration=1h hosts=cn1 jobs=2
expect_exit 2
expect_err "ar-add: arguments: field 'jobs': named hosts are for one job"
expect_check

begin 'map: a plan that would not map is refused (hosts), though the nodes are free'
# cn1 is held 10:00-20:00 and cn2 01:00-05:00: a job of one node over
# 03:00-15:00 has a node free all along, but no one host for its run.
mkstore --hosts 'cn[1-2]'
run ar-add start=+10h duration=10h hosts=cn1
run ar-add start=+1h duration=4h hosts=cn2
run ar-search start=+3h duration=12h
expect_exit 1
expect_out 'start=2026-11-21T03:00:00Z duration=12h end=2026-11-21T15:00:00Z status=unavailable reason=hosts conflict=1'
run ar-add start=+3h duration=12h
expect_exit 1
expect_out 'start=2026-11-21T03:00:00Z duration=12h end=2026-11-21T15:00:00Z status=refused reason=hosts conflict=1'
run ar-add start=+3h duration=1h
expect_exit 0
run ar-suggest start=+3h duration=12h
expect_exit 0
expect_out 'start=2026-11-21T05:00:00Z duration=12h end=2026-11-21T17:00:00Z free=1 status=suggested'
expect_check

begin 'map: a future reservation may move off a host named later: remapped, with its old hosts'
mkstore --hosts 'cn[1-4]'
run ar-add start=+2h duration=2h nodes=2
run ar-map --plan
expect_out "id=1 start=2026-11-21T02:00:00Z end=2026-11-21T04:00:00Z nodes=2 owner=$ME status=new hosts=cn[1-2]"
run ar-add start=+3h duration=1h hosts=cn1
expect_exit 0
run ar-map --plan
expect_out <<X
id=1 start=2026-11-21T02:00:00Z end=2026-11-21T04:00:00Z nodes=2 owner=$ME status=remapped hosts=cn[2-3] old_hosts=cn[1-2]
id=2 start=2026-11-21T03:00:00Z end=2026-11-21T04:00:00Z nodes=1 owner=$ME status=new hosts=cn1
X
expect_check

begin 'map: a reservation that has started keeps its hosts; naming them is refused'
mkstore --hosts 'cn[1-4]'
run ar-add start=+1h duration=3h nodes=2
run ar-map --plan
run ar-add --now 2026-11-21T02:00:00Z start=+1h duration=1h hosts=cn1
expect_exit 1
expect_out 'start=2026-11-21T03:00:00Z duration=1h hosts=cn1 nodes=1 end=2026-11-21T04:00:00Z status=refused reason=hosts conflict=1'
run ar-add --now 2026-11-21T02:00:00Z start=+1h duration=1h hosts=cn3
expect_exit 0
run ar-map --now 2026-11-21T02:00:00Z --plan
expect_out <<X
id=1 start=2026-11-21T01:00:00Z end=2026-11-21T04:00:00Z nodes=2 owner=$ME status=kept hosts=cn[1-2]
id=2 start=2026-11-21T03:00:00Z end=2026-11-21T04:00:00Z nodes=1 owner=$ME status=new hosts=cn3
X
expect_check

begin 'map: --from in the past shows what ended, with the hosts it had'
mkstore --hosts 'cn[1-4]'
run ar-add start=+1h duration=1h nodes=2
run ar-add start=+3h duration=1h nodes=1
run ar-map --plan
run ar-map --now 2026-11-21T02:30:00Z --from 2026-11-21T00:00:00Z
expect_out <<X
id=1 start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=2 owner=$ME status=finished hosts=cn[1-2]
id=2 start=2026-11-21T03:00:00Z end=2026-11-21T04:00:00Z nodes=1 owner=$ME status=kept hosts=cn1
X
run ar-map --now 2026-11-21T02:30:00Z --from 2026-11-21T03:30:00Z --to 2026-11-21T05:00:00Z
expect_out "id=2 start=2026-11-21T03:00:00Z end=2026-11-21T04:00:00Z nodes=1 owner=$ME status=kept hosts=cn1"
run ar-map --to 2026-11-21T00:00:00Z
expect_exit 2
expect_err "ar-map: option '--to': not after '--from'"
run ar-map --plan id=1
expect_exit 2
expect_err 'ar-map: takes no records as arguments with --plan, --from, --to, --slurm or --svg'

begin 'map: table 3.4 with user 11 maps: every job one host all along, none shared'
mkstore --nodes 5 --slot 5m
run ar-add <"$DATA/table-3.4.ar"
run ar-suggest user=11 start=2026-11-21T01:00:00Z duration=15m nodes=1 jobs=3
keep suggested
run ar-add <"$D/suggested"
keep granted
run ar-map <"$D/granted"
expect_exit 0
expect_out <<'X'
user=11 start=2026-11-21T01:20:00Z duration=15m nodes=1 jobs=3 end=2026-11-21T01:35:00Z free=3 status=new id=13 copy=1 hosts=node1
user=11 start=2026-11-21T01:20:00Z duration=15m nodes=1 jobs=3 end=2026-11-21T01:35:00Z free=2 status=new id=14 copy=2 hosts=node2
user=11 start=2026-11-21T01:20:00Z duration=15m nodes=1 jobs=3 end=2026-11-21T01:35:00Z free=1 status=new id=15 copy=3 hosts=node3
X
run ar-map --plan
keep plan
# Brute force: per 5-minute slot, no host twice, and 15 reservations.
run awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
	s = substr(f["start"], 12, 5); e = substr(f["end"], 12, 5)
	split(s, a, ":"); split(e, b, ":")
	for (m = a[1] * 60 + a[2]; m < b[1] * 60 + b[2]; m += 5) {
		if ((m, f["hosts"]) in used) print "twice: " f["hosts"] " at " m
		used[m, f["hosts"]] = 1
	}
	n++ } END { print n " reservations" }' "$D/plan"
expect_out '15 reservations'
expect_check

if command -v rsvg-convert >/dev/null 2>&1 && [ -x "${AR_TESTS:-}/pngpixel" ]; then
	begin 'map: --svg draws each reservation where the mapping puts it'
	mkstore --hosts 'cn[1-4]'
	run ar-add start=+1h duration=2h nodes=2 user=alice
	run ar-add start=+2h duration=2h hosts='cn[3-4]'
	run ar-map --svg "$D/plan.svg" --from 2026-11-21T00:00:00Z --to 2026-11-21T04:00:00Z
	expect_exit 0
	expect_out
	run rsvg-convert -f png -o "$D/plan.png" "$D/plan.svg"
	expect_exit 0
	# 90 px of names, 900 px for 4 hours, rows of 16 px from y=50:
	# reservation 1 on cn1-2 over 01:00-03:00 is x 315-540, y 50-82,
	# in the first user's colour, alice's #4477aa; reservation 2 on
	# cn3-4 over 02:00-04:00, x 540-990, y 82-114, in the second's,
	# no user's #ee6677; cn1 at 00:30 and cn3 at 01:30 are free.
	run "$AR_TESTS/pngpixel" "$D/plan.png" 350 55 350 78 600 86 950 110 150 58 400 90
	expect_out '1010 170' '68 119 170' '68 119 170' '238 102 119' '238 102 119' '255 255 255' '255 255 255'
	# The chart kept nothing: the first ar-map still tells them new.
	run ar-map --plan
	filter 's/.* status=\([a-z]*\) .*/\1/'
	expect_out new new
	run ar-map --svg /nonexistent/plan.svg
	expect_exit 2
	expect_err 'ar-map: /nonexistent/plan.svg: No such file or directory'
	expect_check
else
	skip 'map: --svg draws each reservation' 'no rsvg-convert (librsvg2-bin) or tests/pngpixel'
fi

begin 'map: forgetting history forgets its mapping too; the check holds'
mkstore --hosts 'cn[1-4]'
run ar-add start=+1h duration=1h nodes=2
run ar-map --plan
run ar-del -q --purge --now 2026-11-23T00:00:00Z
run ar-del -q --forget 2026-11-22T00:00:00Z --now 2026-11-23T00:00:00Z
expect_exit 0
expect_out 'forgot_before=2026-11-22T00:00:00Z records=1 demand=1'
run ar-report --check --now 2026-11-23T00:00:00Z
expect_exit 0
expect_out
run ar-map --plan --now 2026-11-23T00:00:00Z
expect_exit 0
expect_out
