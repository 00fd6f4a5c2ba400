# 77-modify.sh - ar-add --modify: a reservation changed by id, in place
# and atomically, before and while it runs.

begin 'modify: a longer duration, in place; id, labels and key stay'
mkstore --nodes 10
run ar-add start=+1h duration=1h nodes=4 user=alice job=sim client_key=k1
run ar-add --modify id=1 duration=90m
expect_exit 0
expect_out 'id=1 duration=90m start=2026-11-21T01:00:00Z end=2026-11-21T02:30:00Z free=10 status=granted nodes=4 old_start=2026-11-21T01:00:00Z old_end=2026-11-21T02:00:00Z old_nodes=4'
expect_err
run ar-report --list
expect_out "id=1 user=alice job=sim client_key=k1 start=2026-11-21T01:00:00Z end=2026-11-21T02:30:00Z nodes=4 owner=$ME status=granted running=no duration=1h30m created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z"
expect_check

begin 'modify: the fields absent keep their value; end, start and nodes change'
mkstore --nodes 10
run ar-add start=+1h duration=1h nodes=4
run ar-add --modify id=1 end=+3h
expect_exit 0
expect_out 'id=1 end=2026-11-21T03:00:00Z start=2026-11-21T01:00:00Z free=10 status=granted nodes=4 old_start=2026-11-21T01:00:00Z old_end=2026-11-21T02:00:00Z old_nodes=4'
run ar-add --modify id=1 start=+5h nodes=8
expect_exit 0
expect_out 'id=1 start=2026-11-21T05:00:00Z nodes=8 end=2026-11-21T07:00:00Z free=10 status=granted old_start=2026-11-21T01:00:00Z old_end=2026-11-21T03:00:00Z old_nodes=4'
run ar-report --free --from +4h55m --to +5h05m
expect_out <<'EOT'
start=2026-11-21T04:55:00Z free=10
start=2026-11-21T05:00:00Z free=2
EOT
run ar-report --free --from +6h55m --to +7h05m
expect_out <<'EOT'
start=2026-11-21T06:55:00Z free=2
start=2026-11-21T07:00:00Z free=10
EOT
expect_check

begin 'modify: its own slots count as free; a refusal is reason full, exit 1, and changes nothing'
mkstore --nodes 10
run ar-add start=+1h duration=1h nodes=6
run ar-add start=+2h duration=1h nodes=6
run ar-add --modify id=1 nodes=10
expect_exit 0
run ar-report --all
keep before
run ar-add --modify id=1 duration=90m
expect_exit 1
expect_out 'id=1 duration=90m start=2026-11-21T01:00:00Z end=2026-11-21T02:30:00Z free=4 status=refused reason=full nodes=10'
expect_err
run ar-report --all
expect_out <"$D/before"
expect_check

begin 'modify: a window; others move to make room as for a request, --no-move refuses'
mkstore --nodes 4
run ar-add start=+1h duration=1h nodes=2
run ar-add earliest=+2h latest=+4h duration=1h nodes=4
run ar-add --modify --no-move id=1 duration=2h
expect_exit 1
expect_out 'id=1 duration=2h start=2026-11-21T01:00:00Z end=2026-11-21T03:00:00Z free=0 status=refused reason=full nodes=2'
run ar-add --modify id=1 duration=2h
expect_exit 0
expect_out <<EOT
id=1 duration=2h start=2026-11-21T01:00:00Z end=2026-11-21T03:00:00Z free=4 status=granted nodes=2 old_start=2026-11-21T01:00:00Z old_end=2026-11-21T02:00:00Z old_nodes=2
id=2 start=2026-11-21T03:00:00Z end=2026-11-21T04:00:00Z nodes=4 earliest=2026-11-21T02:00:00Z latest=2026-11-21T04:00:00Z owner=$ME status=moved old_start=2026-11-21T02:00:00Z
EOT
run ar-add --modify id=2 latest=+6h
expect_exit 0
expect_out 'id=2 latest=2026-11-21T06:00:00Z start=2026-11-21T03:00:00Z end=2026-11-21T04:00:00Z earliest=2026-11-21T02:00:00Z free=4 status=granted nodes=4 old_start=2026-11-21T03:00:00Z old_end=2026-11-21T04:00:00Z old_nodes=4'
expect_check

begin 'modify: a running reservation grows or shrinks from the clock on; its start and nodes stay'
mkstore --nodes 10
run ar-add start=+1h duration=1h nodes=4
run ar-add start=+3h duration=1h nodes=8
run ar-add --now 2026-11-21T01:30Z --modify id=1 end=2026-11-21T03:00Z
expect_exit 0
expect_out 'id=1 end=2026-11-21T03:00:00Z start=2026-11-21T01:00:00Z free=10 status=granted nodes=4 old_start=2026-11-21T01:00:00Z old_end=2026-11-21T02:00:00Z old_nodes=4'
run ar-add --now 2026-11-21T01:30Z --modify id=1 end=2026-11-21T04:00Z
expect_exit 1
expect_out 'id=1 end=2026-11-21T04:00:00Z start=2026-11-21T01:00:00Z free=2 status=refused reason=full nodes=4'
run ar-add --now 2026-11-21T01:30Z --modify id=1 start=2026-11-21T02:00Z
expect_exit 1
expect_out 'id=1 start=2026-11-21T02:00:00Z end=2026-11-21T04:00:00Z status=refused reason=started nodes=4'
run ar-add --now 2026-11-21T01:30Z --modify id=1 nodes=5
expect_exit 1
expect_out 'id=1 nodes=5 start=2026-11-21T01:00:00Z end=2026-11-21T03:00:00Z status=refused reason=started'
run ar-add --now 2026-11-21T01:30Z --modify id=1 duration=20m
expect_exit 1
expect_out 'id=1 duration=20m start=2026-11-21T01:00:00Z end=2026-11-21T01:20:00Z status=refused reason=past nodes=4'
run ar-add --now 2026-11-21T01:30Z --modify id=1 duration=45m
expect_exit 0
expect_out 'id=1 duration=45m start=2026-11-21T01:00:00Z end=2026-11-21T01:45:00Z free=10 status=granted nodes=4 old_start=2026-11-21T01:00:00Z old_end=2026-11-21T03:00:00Z old_nodes=4'
run ar-report --now 2026-11-21T01:30Z --free --from 2026-11-21T01:40Z --to 2026-11-21T01:50Z
expect_out <<'EOT'
start=2026-11-21T01:40:00Z free=6
start=2026-11-21T01:45:00Z free=10
EOT
run ar-report --now 2026-11-21T01:30Z --check
expect_exit 0
expect_out

begin 'modify: cancelled, unknown and finished reservations are refused, and the other lines go on'
mkstore --nodes 10
run ar-add start=+1h duration=1h nodes=1
run ar-add start=+1h duration=1h nodes=1
run ar-del id=2
run ar-add --modify <<'EOT'
id=2 nodes=2
id=3 nodes=2
id=1 nodes=2
EOT
expect_exit 1
expect_out <<'EOT'
id=2 nodes=2 status=refused reason=done
id=3 nodes=2 status=refused reason=not-found
id=1 nodes=2 start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z free=10 status=granted old_start=2026-11-21T01:00:00Z old_end=2026-11-21T02:00:00Z old_nodes=1
EOT
expect_err <<'EOT'
ar-add: line 1: reservation 2: the reservation is already cancelled or finished
ar-add: line 2: reservation 3: no such reservation
EOT
run ar-add --now 2026-11-21T03:00Z --modify id=1 duration=2h
expect_exit 1
expect_out 'id=1 duration=2h status=refused reason=done'
expect_check

begin 'modify: bad input is exit 2, named by line and field, and the other lines go on'
mkstore --nodes 10
run ar-add start=+1h duration=1h nodes=1
run ar-add --modify <<'EOT'
nodes=2
id=0 nodes=2
id=1 start=soon
id=1 duration=0
id=1 nodes=0
id=1 start=+2h end=+1h
id=1 start=+2h latest=+1h
id=1 start=+2h earliest=+3h
id=1 end=+30m
id=1 nodes=3
EOT
expect_exit 2
expect_out 'id=1 nodes=3 start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z free=10 status=granted old_start=2026-11-21T01:00:00Z old_end=2026-11-21T02:00:00Z old_nodes=1'
expect_err <<'EOT'
ar-add: line 1: missing field 'id' (or 'series')
ar-add: line 2: field 'id': must be between 1 and 18446744073709551615
ar-add: line 3: field 'start': invalid time 'soon' (use 2026-11-21T10:00Z, @EPOCH or now+DURATION)
ar-add: line 4: field 'duration': duration needs a unit: '0'
ar-add: line 5: field 'nodes': must be between 1 and 1000000
ar-add: line 6: field 'end': not after 'start'
ar-add: line 7: field 'latest': before 'start'
ar-add: line 8: field 'start': before 'earliest'
ar-add: line 9: field 'end': not after the start of reservation 1
EOT
expect_check

if can_be_nobody; then
	begin 'modify: only the owner or root; another user is refused not-owner'
	mkstore --nodes 5
	chmod a+x "$TOP"
	chmod -R a+rwX "$D"
	run ar-add start=+1h duration=1h nodes=1
	run as_nobody ar-add --modify id=1 nodes=2
	expect_exit 1
	expect_out 'id=1 nodes=2 status=refused reason=not-owner'
	expect_err 'ar-add: arguments: reservation 1: not the owner of the reservation'
	run as_nobody ar-add start=+1h duration=1h nodes=1
	run ar-add --modify id=2 nodes=2
	expect_exit 0
	run as_nobody ar-add --modify id=2 nodes=3
	expect_exit 0
	run ar-report --list
	expect_out <<EOT
id=1 start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=1 owner=0 status=granted running=no duration=1h created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z
id=2 start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=3 owner=65534 status=granted running=no duration=1h created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z
EOT
	expect_check
else
	skip 'modify: only the owner or root' 'needs root and setpriv(1)'
fi

begin 'modify: named hosts stay; other nodes for them are refused, reason hosts'
mkstore --hosts 'cn[1-4]'
run ar-add start=+1h duration=1h hosts='cn[1-2]'
run ar-add --modify id=1 duration=2h
expect_exit 0
run ar-add --modify id=1 nodes=3
expect_exit 1
expect_out 'id=1 nodes=3 start=2026-11-21T01:00:00Z end=2026-11-21T03:00:00Z status=refused reason=hosts'
run ar-map --plan
expect_out "id=1 start=2026-11-21T01:00:00Z end=2026-11-21T03:00:00Z nodes=2 owner=$ME status=new hosts=cn[1-2]"
expect_check

begin 'modify: a running reservation made longer keeps its hosts in ar-map'
mkstore --hosts 'cn[1-8]'
run ar-add start=+1h duration=1h nodes=3
run ar-add start=+1h duration=2h nodes=2
run ar-map --plan
expect_out <<EOT
id=1 start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=3 owner=$ME status=new hosts=cn[1-3]
id=2 start=2026-11-21T01:00:00Z end=2026-11-21T03:00:00Z nodes=2 owner=$ME status=new hosts=cn[4-5]
EOT
run ar-del --now 2026-11-21T01:30Z id=2
run ar-add --now 2026-11-21T01:30Z start=2026-11-21T02:00Z duration=1h nodes=5
run ar-add --now 2026-11-21T01:30Z --modify id=1 end=2026-11-21T04:00Z
expect_exit 0
run ar-map --now 2026-11-21T01:30Z --plan
expect_out <<EOT
id=1 start=2026-11-21T01:00:00Z end=2026-11-21T04:00:00Z nodes=3 owner=$ME status=kept hosts=cn[1-3]
id=3 start=2026-11-21T02:00:00Z end=2026-11-21T03:00:00Z nodes=5 owner=$ME status=new hosts=cn[4-8]
EOT
run ar-report --now 2026-11-21T01:30Z --check
expect_exit 0
expect_out

begin 'modify: --json reads and writes JSON Lines, nodes a number'
mkstore --nodes 10
run ar-add start=+1h duration=1h nodes=4
run ar-add --json --modify <<'EOT'
{"id": 1, "nodes": "5"}
EOT
expect_exit 0
expect_out '{"id":1,"nodes":5,"start":"2026-11-21T01:00:00Z","end":"2026-11-21T02:00:00Z","free":10,"status":"granted","old_start":"2026-11-21T01:00:00Z","old_end":"2026-11-21T02:00:00Z","old_nodes":4}'
expect_check

begin 'modify: a retry under a client key is compared with the reservation as it is now'
mkstore --nodes 10
run ar-add start=+1h duration=1h nodes=2 client_key=k1
run ar-add --modify id=1 nodes=3
expect_exit 0
run ar-add start=+1h duration=1h nodes=2 client_key=k1
expect_exit 2
expect_err 'ar-add: arguments: field '"'"'client_key'"'"': already used by reservation 1 for a different request'
run ar-add start=+1h duration=1h nodes=3 client_key=k1
expect_exit 0
expect_out 'start=2026-11-21T01:00:00Z duration=1h nodes=3 client_key=k1 id=1 end=2026-11-21T02:00:00Z status=granted replayed=yes'
run ar-report --list
expect_out "id=1 client_key=k1 start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=3 owner=$ME status=granted running=no duration=1h created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z"
expect_check

# Found by fuzz_cmd (fuzz/corpus/cmd/modify-told-nodes): the kept entry
# of a reservation ar-map told holds the hosts told, of its old nodes.
begin 'modify: other nodes for a reservation ar-map told; ar-map tells it remapped from its old hosts'
mkstore --nodes 8 --hosts 'cn[1-8]'
run ar-add start=+1h duration=1h nodes=2
run ar-map --plan
expect_out "id=1 start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=2 owner=$ME status=new hosts=cn[1-2]"
run ar-add --modify id=1 nodes=3
expect_exit 0
expect_check
run ar-map --plan
expect_out "id=1 start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=3 owner=$ME status=remapped hosts=cn[1-3] old_hosts=cn[1-2]"
expect_check
run ar-add --modify id=1 nodes=1
expect_exit 0
expect_check
run ar-map --plan
expect_out "id=1 start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=1 owner=$ME status=remapped hosts=cn1 old_hosts=cn[1-3]"
expect_check
