# 78-series.sh - recurring reservations: a request repeated every so
# often, each occurrence a reservation of its own linked by its series;
# granted all or none (or those that fit, --partial); cancelled,
# changed and listed as a whole or one occurrence at a time.

begin 'series: every hour, 3 times: one line per occurrence, series and occurrence'
mkstore --nodes 10
run ar-add start=+1h duration=30m nodes=6 every=1h count=3 user=alice
expect_exit 0
expect_out <<'EOT'
start=2026-11-21T01:00:00Z duration=30m nodes=6 every=1h count=3 user=alice id=1 series=1 occurrence=1 end=2026-11-21T01:30:00Z free=10 status=granted
start=2026-11-21T02:00:00Z duration=30m nodes=6 every=1h count=3 user=alice id=2 series=1 occurrence=2 end=2026-11-21T02:30:00Z free=10 status=granted
start=2026-11-21T03:00:00Z duration=30m nodes=6 every=1h count=3 user=alice id=3 series=1 occurrence=3 end=2026-11-21T03:30:00Z free=10 status=granted
EOT
expect_err
run ar-report --list series=1
expect_exit 0
expect_out <<EOT
id=1 series=1 occurrence=1 user=alice start=2026-11-21T01:00:00Z end=2026-11-21T01:30:00Z nodes=6 owner=$ME status=granted running=no duration=30m created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z
id=2 series=1 occurrence=2 user=alice start=2026-11-21T02:00:00Z end=2026-11-21T02:30:00Z nodes=6 owner=$ME status=granted running=no duration=30m created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z
id=3 series=1 occurrence=3 user=alice start=2026-11-21T03:00:00Z end=2026-11-21T03:30:00Z nodes=6 owner=$ME status=granted running=no duration=30m created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z
EOT
run ar-report --list series=2
expect_exit 1
expect_out
expect_check

begin 'series: daily, weekly, slots and until'
mkstore --nodes 10
run ar-add start=+1h duration=1h every=daily count=2
expect_exit 0
expect_out <<'EOT'
start=2026-11-21T01:00:00Z duration=1h every=daily count=2 id=1 series=1 occurrence=1 end=2026-11-21T02:00:00Z free=10 status=granted
start=2026-11-22T01:00:00Z duration=1h every=daily count=2 id=2 series=1 occurrence=2 end=2026-11-22T02:00:00Z free=10 status=granted
EOT
run ar-add start=+1h duration=1h every=weekly count=2
expect_exit 0
expect_out <<'EOT'
start=2026-11-21T01:00:00Z duration=1h every=weekly count=2 id=3 series=3 occurrence=1 end=2026-11-21T02:00:00Z free=9 status=granted
start=2026-11-28T01:00:00Z duration=1h every=weekly count=2 id=4 series=3 occurrence=2 end=2026-11-28T02:00:00Z free=10 status=granted
EOT
run ar-add start=+10h duration=10m every=3slots until=+10h30m
expect_exit 0
expect_out <<'EOT'
start=2026-11-21T10:00:00Z duration=10m every=3slots until=+10h30m id=5 series=5 occurrence=1 end=2026-11-21T10:10:00Z free=10 status=granted
start=2026-11-21T10:15:00Z duration=10m every=3slots until=+10h30m id=6 series=5 occurrence=2 end=2026-11-21T10:25:00Z free=10 status=granted
start=2026-11-21T10:30:00Z duration=10m every=3slots until=+10h30m id=7 series=5 occurrence=3 end=2026-11-21T10:40:00Z free=10 status=granted
EOT
expect_check

begin 'series: all or none: one occurrence without room refuses the series, which books nothing'
mkstore --nodes 10
run ar-add start=+3h duration=1h nodes=8
run ar-add start=+1h duration=1h nodes=4 every=1h count=4
expect_exit 1
expect_out 'start=2026-11-21T03:00:00Z duration=1h nodes=4 every=1h count=4 occurrence=3 end=2026-11-21T04:00:00Z free=2 status=refused reason=full'
expect_err
run ar-report --list
expect_out "id=1 start=2026-11-21T03:00:00Z end=2026-11-21T04:00:00Z nodes=8 owner=$ME status=granted running=no duration=1h created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z"
expect_check

begin 'series: --partial grants the occurrences that fit; the series is the first granted'
mkstore --nodes 10
run ar-add start=+1h duration=1h nodes=8
run ar-add --partial start=+1h duration=1h nodes=4 every=1h count=3
expect_exit 1
expect_out <<'EOT'
start=2026-11-21T01:00:00Z duration=1h nodes=4 every=1h count=3 series=2 occurrence=1 end=2026-11-21T02:00:00Z free=2 status=refused reason=full
start=2026-11-21T02:00:00Z duration=1h nodes=4 every=1h count=3 series=2 occurrence=2 end=2026-11-21T03:00:00Z free=10 status=granted id=2
start=2026-11-21T03:00:00Z duration=1h nodes=4 every=1h count=3 series=2 occurrence=3 end=2026-11-21T04:00:00Z free=10 status=granted id=3
EOT
expect_check

begin 'series: occurrences past the horizon refuse the series; --partial keeps those within'
mkstore --nodes 10 --horizon 1d
run ar-add start=+22h duration=1h every=1h count=3
expect_exit 1
expect_out 'start=2026-11-22T00:00:00Z duration=1h every=1h count=3 occurrence=3 end=2026-11-22T01:00:00Z status=refused reason=horizon'
run ar-add --partial start=+22h duration=1h every=1h count=3
expect_exit 1
expect_out <<'EOT'
start=2026-11-21T22:00:00Z duration=1h every=1h count=3 id=1 series=1 occurrence=1 end=2026-11-21T23:00:00Z free=10 status=granted
start=2026-11-21T23:00:00Z duration=1h every=1h count=3 id=2 series=1 occurrence=2 end=2026-11-22T00:00:00Z free=10 status=granted
start=2026-11-22T00:00:00Z duration=1h every=1h count=3 series=1 occurrence=3 end=2026-11-22T01:00:00Z status=refused reason=horizon
EOT
expect_check

begin 'series: with a window, each occurrence may shift within its own'
mkstore --nodes 10
run ar-add start=+2h duration=30m nodes=8
run ar-add earliest=+1h latest=+1h30m duration=30m nodes=4 every=1h count=2
expect_exit 0
expect_out <<'EOT'
earliest=2026-11-21T01:00:00Z latest=2026-11-21T01:30:00Z duration=30m nodes=4 every=1h count=2 id=2 series=2 occurrence=1 start=2026-11-21T01:00:00Z end=2026-11-21T01:30:00Z free=10 status=granted
earliest=2026-11-21T02:00:00Z latest=2026-11-21T02:30:00Z duration=30m nodes=4 every=1h count=2 id=3 series=2 occurrence=2 start=2026-11-21T02:30:00Z end=2026-11-21T03:00:00Z free=10 status=granted
EOT
expect_check

begin 'series: ar-del series=N cancels every live occurrence; id=N one'
mkstore --nodes 10
run ar-add start=+1h duration=30m every=1h count=3
run ar-del id=2
expect_exit 0
expect_out 'id=2 status=cancelled'
run ar-del series=1
expect_exit 0
expect_out <<'EOT'
series=1 id=1 occurrence=1 status=cancelled
series=1 id=3 occurrence=3 status=cancelled
EOT
run ar-del series=1
expect_exit 1
expect_out 'series=1 status=refused reason=not-found'
expect_err 'ar-del: arguments: no live reservation in that series'
run ar-report --all series=1
expect_out <<EOT
id=1 series=1 occurrence=1 start=2026-11-21T01:00:00Z end=2026-11-21T01:30:00Z nodes=1 owner=$ME status=cancelled running=no duration=30m created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z
id=2 series=1 occurrence=2 start=2026-11-21T02:00:00Z end=2026-11-21T02:30:00Z nodes=1 owner=$ME status=cancelled running=no duration=30m created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z
id=3 series=1 occurrence=3 start=2026-11-21T03:00:00Z end=2026-11-21T03:30:00Z nodes=1 owner=$ME status=cancelled running=no duration=30m created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z
EOT
expect_check

begin 'series: ar-add --modify series=N changes every live occurrence, times shifted with each'
mkstore --nodes 10
run ar-add start=+1h duration=30m nodes=2 every=1h count=3
run ar-add --modify series=1 start=+1h15m duration=40m nodes=3
expect_exit 0
expect_out <<'EOT'
series=1 start=2026-11-21T01:15:00Z duration=40m nodes=3 id=1 occurrence=1 end=2026-11-21T01:55:00Z free=10 status=granted old_start=2026-11-21T01:00:00Z old_end=2026-11-21T01:30:00Z old_nodes=2
series=1 start=2026-11-21T02:15:00Z duration=40m nodes=3 id=2 occurrence=2 end=2026-11-21T02:55:00Z free=10 status=granted old_start=2026-11-21T02:00:00Z old_end=2026-11-21T02:30:00Z old_nodes=2
series=1 start=2026-11-21T03:15:00Z duration=40m nodes=3 id=3 occurrence=3 end=2026-11-21T03:55:00Z free=10 status=granted old_start=2026-11-21T03:00:00Z old_end=2026-11-21T03:30:00Z old_nodes=2
EOT
expect_check

begin 'series: a modify that one occurrence cannot take changes none, exit 1; by id, one changes'
mkstore --nodes 10
run ar-add start=+1h duration=30m nodes=4 every=1h count=3
run ar-add start=+3h30m duration=1h nodes=8
run ar-add --modify series=1 duration=1h
expect_exit 1
expect_out 'series=1 duration=1h id=3 occurrence=3 start=2026-11-21T03:00:00Z end=2026-11-21T04:00:00Z free=2 status=refused reason=full'
run ar-report --list series=1
expect_out <<EOT
id=1 series=1 occurrence=1 start=2026-11-21T01:00:00Z end=2026-11-21T01:30:00Z nodes=4 owner=$ME status=granted running=no duration=30m created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z
id=2 series=1 occurrence=2 start=2026-11-21T02:00:00Z end=2026-11-21T02:30:00Z nodes=4 owner=$ME status=granted running=no duration=30m created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z
id=3 series=1 occurrence=3 start=2026-11-21T03:00:00Z end=2026-11-21T03:30:00Z nodes=4 owner=$ME status=granted running=no duration=30m created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z
EOT
run ar-add --modify id=2 duration=1h
expect_exit 0
expect_out 'id=2 duration=1h start=2026-11-21T02:00:00Z end=2026-11-21T03:00:00Z free=10 status=granted nodes=4 old_start=2026-11-21T02:00:00Z old_end=2026-11-21T02:30:00Z old_nodes=4'
expect_check

begin 'series: a client key holds the whole series; a retry replays it'
mkstore --nodes 10
run ar-add start=+1h duration=30m every=1h count=2 client_key=k
expect_exit 0
run ar-add start=+1h duration=30m every=1h count=2 client_key=k
expect_exit 0
expect_out <<'EOT'
start=2026-11-21T01:00:00Z duration=30m every=1h count=2 client_key=k id=1 series=1 occurrence=1 end=2026-11-21T01:30:00Z status=granted replayed=yes
start=2026-11-21T02:00:00Z duration=30m every=1h count=2 client_key=k id=2 series=1 occurrence=2 end=2026-11-21T02:30:00Z status=granted replayed=yes
EOT
run ar-report --info
filter 's/ map_size=[0-9]*//'
expect_out 'nodes=10 hosts=node[01-10] slot=5m horizon=30d clock=2026-11-21T00:00:00Z clock_mode=simulated owners=uid live=2 records=2 next_id=3 map_max=17179869184 format=10'
expect_check

begin 'series: JSON Lines: series, occurrence and count are numbers'
mkstore --nodes 10
run ar-add --json <<'EOT'
{"start":"+1h","duration":"30m","every":"1h","count":"2"}
EOT
expect_exit 0
expect_out <<'EOT'
{"start":"2026-11-21T01:00:00Z","duration":"30m","every":"1h","count":2,"id":1,"series":1,"occurrence":1,"end":"2026-11-21T01:30:00Z","free":10,"status":"granted"}
{"start":"2026-11-21T02:00:00Z","duration":"30m","every":"1h","count":2,"id":2,"series":1,"occurrence":2,"end":"2026-11-21T02:30:00Z","free":10,"status":"granted"}
EOT
expect_check
