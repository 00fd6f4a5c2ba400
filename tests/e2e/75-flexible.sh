# 75-flexible.sh - start windows, parametric copies and rearrangement:
# the thesis's worked examples (Tables 3.4 and 3.5, Figures 3.8, 3.11
# and 3.12), five 5-minute slots standing for its five nodes' time units.

# The ten reservations, user 4 with its window [15, 16].
table34w() {
	mkstore --nodes 5
	run ar-add <"$DATA/table-3.4-window.ar"
	expect_exit 0
}

table35w() {
	mkstore --nodes 5
	run ar-add <"$DATA/table-3.5-window.ar"
	expect_exit 0
}

begin 'flexible 3.4: a fixed start grants one of user 11s three jobs'
table34w
run ar-add --partial user=11 start=2026-11-21T01:00Z duration=15m jobs=3
expect_exit 1
expect_out <<'EOT'
user=11 start=2026-11-21T01:00:00Z duration=15m jobs=3 id=13 copy=1 end=2026-11-21T01:15:00Z free=1 status=granted
user=11 start=2026-11-21T01:00:00Z duration=15m jobs=3 copy=2 end=2026-11-21T01:15:00Z free=0 status=refused reason=full
user=11 start=2026-11-21T01:00:00Z duration=15m jobs=3 copy=3 end=2026-11-21T01:15:00Z free=0 status=refused reason=full
EOT
expect_err
expect_check

begin 'flexible 3.4: first fit in the window grants two, moving nothing'
table34w
run ar-add --no-move --partial user=11 earliest=2026-11-21T01:00Z latest=2026-11-21T01:10Z duration=15m jobs=3
expect_exit 1
expect_out <<'EOT'
user=11 earliest=2026-11-21T01:00:00Z latest=2026-11-21T01:10:00Z duration=15m jobs=3 id=13 copy=1 start=2026-11-21T01:00:00Z end=2026-11-21T01:15:00Z free=1 status=granted
user=11 earliest=2026-11-21T01:00:00Z latest=2026-11-21T01:10:00Z duration=15m jobs=3 id=14 copy=2 start=2026-11-21T01:05:00Z end=2026-11-21T01:20:00Z free=1 status=granted
user=11 earliest=2026-11-21T01:00:00Z latest=2026-11-21T01:10:00Z duration=15m jobs=3 copy=3 start=2026-11-21T01:00:00Z end=2026-11-21T01:15:00Z free=0 status=refused reason=full
EOT
expect_err
expect_check

begin 'flexible 3.4: all or nothing without moves refuses and changes nothing'
table34w
run ar-report --all
keep before
run ar-add --no-move user=11 earliest=2026-11-21T01:00Z latest=2026-11-21T01:10Z duration=15m jobs=3
expect_exit 1
expect_out 'user=11 earliest=2026-11-21T01:00:00Z latest=2026-11-21T01:10:00Z duration=15m jobs=3 start=2026-11-21T01:00:00Z end=2026-11-21T01:15:00Z free=1 status=refused reason=full'
run ar-report --all
expect_out <"$D/before"
expect_check

begin 'flexible 3.4: rearranging grants all three, user 4 moves from 15 to 16'
table34w
run ar-add user=11 earliest=2026-11-21T01:00Z latest=2026-11-21T01:10Z duration=15m jobs=3
expect_exit 0
expect_out <<EOT
user=11 earliest=2026-11-21T01:00:00Z latest=2026-11-21T01:10:00Z duration=15m jobs=3 id=13 copy=1 start=2026-11-21T01:00:00Z end=2026-11-21T01:15:00Z free=1 status=granted
user=11 earliest=2026-11-21T01:00:00Z latest=2026-11-21T01:10:00Z duration=15m jobs=3 id=14 copy=2 start=2026-11-21T01:05:00Z end=2026-11-21T01:20:00Z free=1 status=granted
user=11 earliest=2026-11-21T01:00:00Z latest=2026-11-21T01:10:00Z duration=15m jobs=3 id=15 copy=3 start=2026-11-21T01:10:00Z end=2026-11-21T01:25:00Z free=1 status=granted
id=5 user=4 start=2026-11-21T01:20:00Z end=2026-11-21T01:25:00Z nodes=1 earliest=2026-11-21T01:15:00Z latest=2026-11-21T01:20:00Z owner=$ME status=moved old_start=2026-11-21T01:15:00Z
EOT
run ar-report --free --from 2026-11-21T00:55Z --to 2026-11-21T01:35Z
expect_out <<'EOT'
start=2026-11-21T00:55:00Z free=0
start=2026-11-21T01:00:00Z free=0
start=2026-11-21T01:05:00Z free=0
start=2026-11-21T01:10:00Z free=1
start=2026-11-21T01:15:00Z free=0
start=2026-11-21T01:20:00Z free=1
start=2026-11-21T01:25:00Z free=3
start=2026-11-21T01:30:00Z free=5
EOT
expect_check

begin 'flexible 3.4: FCFS-EDS (later only) also moves user 4 to 16'
table34w
run ar-add --later user=11 earliest=2026-11-21T01:00Z latest=2026-11-21T01:10Z duration=15m jobs=3
expect_exit 0
filter '/status=moved/!d'
expect_out "id=5 user=4 start=2026-11-21T01:20:00Z end=2026-11-21T01:25:00Z nodes=1 earliest=2026-11-21T01:15:00Z latest=2026-11-21T01:20:00Z owner=$ME status=moved old_start=2026-11-21T01:15:00Z"
expect_check

begin 'flexible 3.5: the MPI request is refused without moves'
table35w
run ar-add --no-move user=11 earliest=2026-11-21T01:00Z latest=2026-11-21T01:10Z duration=15m nodes=2
expect_exit 1
expect_out 'user=11 earliest=2026-11-21T01:00:00Z latest=2026-11-21T01:10:00Z duration=15m nodes=2 start=2026-11-21T01:00:00Z end=2026-11-21T01:15:00Z free=1 status=refused reason=full'
expect_check

begin 'flexible 3.5: and granted with them: two nodes together at 13'
table35w
run ar-add user=11 earliest=2026-11-21T01:00Z latest=2026-11-21T01:10Z duration=15m nodes=2
expect_exit 0
expect_out <<EOT
user=11 earliest=2026-11-21T01:00:00Z latest=2026-11-21T01:10:00Z duration=15m nodes=2 id=11 start=2026-11-21T01:05:00Z end=2026-11-21T01:20:00Z free=2 status=granted
id=4 user=4 start=2026-11-21T01:20:00Z end=2026-11-21T01:25:00Z nodes=1 earliest=2026-11-21T01:15:00Z latest=2026-11-21T01:20:00Z owner=$ME status=moved old_start=2026-11-21T01:15:00Z
EOT
expect_check

begin 'flexible: a grant made by moving others tells the free nodes after the moves'
mkstore --nodes 2
run ar-add earliest=+1h latest=+3h duration=1h nodes=2
expect_exit 0
run ar-add earliest=+30m latest=+1h duration=1h nodes=1
expect_exit 0
expect_out <<EOT
earliest=2026-11-21T00:30:00Z latest=2026-11-21T01:00:00Z duration=1h nodes=1 id=2 start=2026-11-21T00:30:00Z end=2026-11-21T01:30:00Z free=2 status=granted
id=1 start=2026-11-21T01:30:00Z end=2026-11-21T02:30:00Z nodes=2 earliest=2026-11-21T01:00:00Z latest=2026-11-21T03:00:00Z owner=$ME status=moved old_start=2026-11-21T01:00:00Z
EOT
expect_err
expect_check

begin 'flexible: a started reservation never moves'
mkstore --nodes 2
run ar-add earliest=2026-11-21T00:00Z latest=2026-11-21T01:00Z duration=1h nodes=2
expect_exit 0
run ar-add --now 2026-11-21T00:10Z earliest=2026-11-21T00:30Z latest=2026-11-21T00:40Z duration=10m nodes=1
expect_exit 1
filter 's/.* status=/status=/'
expect_out 'status=refused reason=full'
expect_check
