# 78-holds.sh - holds: ar-add hold=DURATION grants on condition;
# ar-add --confirm keeps it, ar-del releases it, and the first writer
# after its expiry releases it as expired.

begin 'hold: granted as held with its expiry; its slots are taken'
mkstore --nodes 8
run ar-add start=+1h duration=1h nodes=6 hold=10m
expect_exit 0
expect_out 'start=2026-11-21T01:00:00Z duration=1h nodes=6 hold=10m id=1 end=2026-11-21T02:00:00Z free=8 status=held expires=2026-11-21T00:10:00Z'
expect_err
run ar-search start=+1h duration=1h nodes=6
expect_exit 1
expect_out 'start=2026-11-21T01:00:00Z duration=1h nodes=6 end=2026-11-21T02:00:00Z free=2 status=unavailable reason=full'
run ar-report --list
expect_out "id=1 start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=6 owner=$ME status=held expires=2026-11-21T00:10:00Z running=no duration=1h created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z"
expect_check

begin 'hold: readers past the expiry read it expired; the first writer after it releases its slots'
mkstore --nodes 8
run ar-add start=+1h duration=1h nodes=6 hold=10m
run ar-report --now 2026-11-21T00:09Z --list status=held
expect_exit 0
expect_out "id=1 start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=6 owner=$ME status=held expires=2026-11-21T00:10:00Z running=no duration=1h created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z"
# By a reader's clock past the expiry it reads expired, listed or not,
# though its slots stay taken until a writer releases them.
run ar-report --now 2026-11-21T00:20Z --list
expect_exit 0
expect_out
run ar-report --now 2026-11-21T00:20Z --list status=held
expect_exit 1
expect_out
run ar-report --now 2026-11-21T00:20Z --all
expect_out "id=1 start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=6 owner=$ME status=expired expires=2026-11-21T00:10:00Z running=no duration=1h created=2026-11-21T00:00:00Z changed=2026-11-21T00:10:00Z"
run ar-map --now 2026-11-21T00:20Z --svg "$D/plan.svg"
expect_exit 0
run ar-search --now 2026-11-21T00:20Z start=2026-11-21T01:00Z duration=1h nodes=6
expect_exit 1
expect_check
# Any writer releases it, one that books nothing too.
run ar-del --now 2026-11-21T00:20Z id=99
expect_exit 1
run ar-report --now 2026-11-21T00:20Z --all
expect_out "id=1 start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=6 owner=$ME status=expired expires=2026-11-21T00:10:00Z running=no duration=1h created=2026-11-21T00:00:00Z changed=2026-11-21T00:10:00Z"
run ar-report --now 2026-11-21T00:20Z --list
expect_exit 0
expect_out
run ar-report --now 2026-11-21T00:20Z --all status=expired
expect_exit 0
run ar-search --now 2026-11-21T00:20Z start=2026-11-21T01:00Z duration=1h nodes=8
expect_exit 0
expect_out 'start=2026-11-21T01:00:00Z duration=1h nodes=8 end=2026-11-21T02:00:00Z free=8 status=available'
expect_check

begin 'hold: a command refused as a whole, or given only bad lines, writes nothing and releases nothing'
mkstore --nodes 8
printf '%s\n' 'class=1 price=100 ahead_min=0 limit=8' | ar-price --set
run ar-add start=+1h duration=1h nodes=6 hold=10m
run ar-add start=+2h duration=1h nodes=1
store_sum >"$D/before"
printf '%s\n' 'class=1 price=100 ahead_min=0 ahead_max=1h limit=8' \
    'class=2 price=50 ahead_min=1h limit=8' >"$D/two"
run ar-price --now 2026-11-21T00:20Z --set <"$D/two"
expect_exit 1
run ar-add --now 2026-11-21T00:20Z <<'EOT'
start=bad duration=1h
EOT
expect_exit 2
run store_sum
expect_out <"$D/before"
expect_check
# The next command that writes releases it, whatever else it does.
run ar-del --now 2026-11-21T00:20Z id=99
expect_exit 1
run store_sum
cmp -s "$D/.out" "$D/before" && fail 'a writer after the expiry left the hold'
run ar-search --now 2026-11-21T00:20Z start=2026-11-21T01:00Z duration=1h nodes=8
expect_exit 0
expect_check

begin 'hold: --modify keeps a hold a hold: status held, its expiry brought to its new end if sooner'
mkstore --nodes 8
run ar-add start=+1h duration=1h nodes=2 hold=3h
run ar-add --modify id=1 nodes=3
expect_exit 0
expect_out 'id=1 nodes=3 start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z free=8 status=held expires=2026-11-21T02:00:00Z old_start=2026-11-21T01:00:00Z old_end=2026-11-21T02:00:00Z old_nodes=2'
run ar-add --modify id=1 end=+90m
expect_exit 0
expect_out 'id=1 end=2026-11-21T01:30:00Z start=2026-11-21T01:00:00Z free=8 status=held nodes=3 expires=2026-11-21T01:30:00Z old_start=2026-11-21T01:00:00Z old_end=2026-11-21T02:00:00Z old_nodes=3'
expect_check

begin 'hold: --confirm by id keeps it past its expiry, and may be repeated'
mkstore --nodes 8
run ar-add start=+1h duration=1h nodes=6 hold=10m
run ar-add --now 2026-11-21T00:05Z --confirm id=1
expect_exit 0
expect_out 'id=1 status=granted'
expect_err
run ar-add --now 2026-11-21T00:05Z --confirm id=1
expect_exit 0
expect_out 'id=1 status=granted'
run ar-add --now 2026-11-21T00:30Z start=2026-11-21T01:00Z duration=1h nodes=6
expect_exit 1
run ar-report --now 2026-11-21T00:30Z --list
expect_out "id=1 start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=6 owner=$ME status=granted running=no duration=1h created=2026-11-21T00:00:00Z changed=2026-11-21T00:05:00Z"
expect_check

begin 'hold: --confirm of a reservation that was never a hold is refused, not-a-hold; of a confirmed hold it is granted again'
mkstore --nodes 8
run ar-add start=+1h duration=1h nodes=2
run ar-add start=+1h duration=1h nodes=2 every=daily count=2
run ar-add start=+1h duration=1h nodes=2 hold=10m
run ar-add --confirm id=4
store_sum >"$D/before"
run ar-add --confirm <<'EOT'
id=1
id=2
id=4
EOT
expect_exit 1
expect_out <<'EOT'
id=1 status=refused reason=not-a-hold
id=2 status=refused reason=not-a-hold
id=4 status=granted
EOT
expect_err <<'EOT'
ar-add: line 1: reservation 1: the reservation was never a hold
ar-add: line 2: reservation 2: the reservation was never a hold
EOT
run store_sum
expect_out <"$D/before"
expect_check

begin 'hold: a record ar-add printed confirms as it is, and loses its expiry'
mkstore --nodes 8
run ar-add start=+1h duration=1h nodes=2 hold=10m
keep held
run ar-add --confirm <"$D/held"
expect_exit 0
expect_out 'start=2026-11-21T01:00:00Z duration=1h nodes=2 hold=10m id=1 end=2026-11-21T02:00:00Z free=8 status=granted'
expect_check

begin 'hold: expired, cancelled, unknown and others'"'"' holds are refused with their reason, and the other lines go on'
mkstore --nodes 8
run ar-add start=+1h duration=1h nodes=1 hold=5m
run ar-add start=+1h duration=1h nodes=1 hold=1h
run ar-add start=+1h duration=1h nodes=1 hold=1h
run ar-del id=2
run ar-add --now 2026-11-21T00:10Z --confirm <<'EOT'
id=1
id=2
id=4
id=3
EOT
expect_exit 1
expect_out <<'EOT'
id=1 status=refused reason=expired
id=2 status=refused reason=done
id=4 status=refused reason=not-found
id=3 status=granted
EOT
expect_err <<'EOT'
ar-add: line 1: reservation 1: the hold expired
ar-add: line 2: reservation 2: the reservation is already cancelled or finished
ar-add: line 3: reservation 4: no such reservation
EOT
run ar-report --now 2026-11-21T00:10Z --all
expect_out <<EOT
id=1 start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=1 owner=$ME status=expired expires=2026-11-21T00:05:00Z running=no duration=1h created=2026-11-21T00:00:00Z changed=2026-11-21T00:05:00Z
id=2 start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=1 owner=$ME status=cancelled running=no duration=1h created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z
id=3 start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=1 owner=$ME status=granted running=no duration=1h created=2026-11-21T00:00:00Z changed=2026-11-21T00:10:00Z
EOT
expect_check

if can_be_nobody; then
	begin 'hold: only the owner or root confirms; another user is refused not-owner'
	mkstore --nodes 5
	chmod a+x "$TOP"
	chmod -R a+rwX "$D"
	run ar-add start=+1h duration=1h nodes=1 hold=10m
	run as_nobody ar-add --confirm id=1
	expect_exit 1
	expect_out 'id=1 status=refused reason=not-owner'
	expect_err 'ar-add: arguments: reservation 1: not the owner of the reservation'
	run as_nobody ar-add start=+1h duration=1h nodes=1 hold=10m
	run ar-add --confirm id=2
	expect_exit 0
	expect_check
else
	skip 'hold: only the owner or root confirms' 'needs root and setpriv(1)'
fi

begin 'hold: ar-del releases a hold by id; it reads cancelled'
mkstore --nodes 8
run ar-add start=+1h duration=1h nodes=6 hold=10m
run ar-del id=1
expect_exit 0
expect_out 'id=1 status=cancelled'
run ar-report --all
expect_out "id=1 start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=6 owner=$ME status=cancelled running=no duration=1h created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z"
run ar-add start=+1h duration=1h nodes=8
expect_exit 0
expect_check

begin 'hold: longer than the reservation, it expires at its end, and reads expired, not finished'
mkstore --nodes 8
run ar-add start=+10m duration=20m nodes=2 hold=1h
expect_out 'start=2026-11-21T00:10:00Z duration=20m nodes=2 hold=1h id=1 end=2026-11-21T00:30:00Z free=8 status=held expires=2026-11-21T00:30:00Z'
run ar-del --now 2026-11-21T01:00Z --purge
expect_exit 0
expect_out
run ar-report --now 2026-11-21T01:00Z --all
expect_out "id=1 start=2026-11-21T00:10:00Z end=2026-11-21T00:30:00Z nodes=2 owner=$ME status=expired expires=2026-11-21T00:30:00Z running=no duration=20m created=2026-11-21T00:00:00Z changed=2026-11-21T00:30:00Z"
expect_check

begin 'hold: copies are held each; a window holds its start, others do not move it'
mkstore --nodes 4
run ar-add start=+1h duration=1h nodes=1 jobs=2 hold=10m
expect_exit 0
expect_out <<'EOT'
start=2026-11-21T01:00:00Z duration=1h nodes=1 jobs=2 hold=10m id=1 copy=1 end=2026-11-21T02:00:00Z free=4 status=held expires=2026-11-21T00:10:00Z
start=2026-11-21T01:00:00Z duration=1h nodes=1 jobs=2 hold=10m id=2 copy=2 end=2026-11-21T02:00:00Z free=3 status=held expires=2026-11-21T00:10:00Z
EOT
run ar-add earliest=+3h latest=+5h duration=1h nodes=4 hold=10m
expect_out 'earliest=2026-11-21T03:00:00Z latest=2026-11-21T05:00:00Z duration=1h nodes=4 hold=10m id=3 start=2026-11-21T03:00:00Z end=2026-11-21T04:00:00Z free=4 status=held expires=2026-11-21T00:10:00Z'
run ar-add start=+3h duration=1h nodes=1
expect_exit 1
expect_out 'start=2026-11-21T03:00:00Z duration=1h nodes=1 end=2026-11-21T04:00:00Z free=0 status=refused reason=full'
expect_check

begin 'hold: a retry under its client key tells the hold as it is now'
mkstore --nodes 8
run ar-add start=+1h duration=1h hold=10m client_key=k
run ar-add start=+1h duration=1h hold=10m client_key=k
expect_exit 0
expect_out 'start=2026-11-21T01:00:00Z duration=1h hold=10m client_key=k id=1 end=2026-11-21T02:00:00Z status=held expires=2026-11-21T00:10:00Z replayed=yes'
run ar-add --now 2026-11-21T00:20Z start=2026-11-21T01:00Z duration=1h hold=10m client_key=k
expect_exit 0
expect_out 'start=2026-11-21T01:00:00Z duration=1h hold=10m client_key=k id=1 end=2026-11-21T02:00:00Z status=expired replayed=yes'
expect_check

begin 'hold: ar-map maps a hold as any reservation, and forgets it once it expired'
mkstore --hosts 'cn[1-4]'
run ar-add start=+1h duration=1h nodes=2 hold=10m
run ar-map --plan
expect_exit 0
expect_out "id=1 start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=2 owner=$ME status=new expires=2026-11-21T00:10:00Z hosts=cn[1-2]"
run ar-map --now 2026-11-21T00:20Z id=1
expect_out 'id=1 status=expired'
expect_check

begin 'hold: --json writes the expiry and the status as text'
mkstore --nodes 8
run ar-add --json <<'EOT'
{"start": "+1h", "duration": "1h", "hold": "90s"}
EOT
expect_exit 0
expect_out '{"start":"2026-11-21T01:00:00Z","duration":"1h","hold":"90s","id":1,"end":"2026-11-21T02:00:00Z","free":8,"status":"held","expires":"2026-11-21T00:01:30Z"}'
expect_check

begin 'hold: bad input is exit 2, named by line and field, and the other lines go on'
mkstore --nodes 8
run ar-add <<'EOT'
start=+1h duration=1h hold=0s
start=+1h duration=1h hold=10
start=+1h duration=1h hold=366d
start=+1h duration=1h hold=soon
start=+1h duration=1h hold=
start=+1h duration=1h hold=-5m
start=+1h duration=1h hold=365d
EOT
expect_exit 2
expect_out 'start=2026-11-21T01:00:00Z duration=1h hold=365d id=1 end=2026-11-21T02:00:00Z free=8 status=held expires=2026-11-21T02:00:00Z'
expect_err <<'EOT'
ar-add: line 1: field 'hold': duration must be positive: '0s'
ar-add: line 2: field 'hold': duration needs a unit: '10'
ar-add: line 3: field 'hold': longer than a year
ar-add: line 4: field 'hold': invalid duration 'soon'
ar-add: line 5: field 'hold': empty duration
ar-add: line 6: field 'hold': invalid duration '-5m'
EOT
run ar-add --confirm <<'EOT'
hold=10m
id=0
id=x
id=1
EOT
expect_exit 2
expect_out 'id=1 status=granted'
expect_err <<'EOT'
ar-add: line 1: missing field 'id'
ar-add: line 2: field 'id': must be between 1 and 18446744073709551615
ar-add: line 3: field 'id': not a number: 'x'
EOT
expect_check

begin 'hold: --confirm and --modify do not go together'
mkstore --nodes 8
{ echo 'ar-add: --confirm and --modify do not go together'
  usage_of ar-add; } >"$D/usage"
run ar-add --confirm --modify id=1
expect_exit 2
expect_out
expect_err <"$D/usage"
