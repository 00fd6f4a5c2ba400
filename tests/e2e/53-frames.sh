# 53-frames.sh - ar-suggest --frames: the free time frames (seed 001's
# availability profile); -k's scheduling options, each a distinct
# placement; --fit choosing their hosts.

# Eight hosts; 1 holds cn[01-03] over [01:00,03:00), 2 cn[04-07] over
# [02:00,04:00) (as ar-map maps them: 87-map.sh).
two_booked() {
	mkstore --hosts 'cn[01-08]'
	printf '%s\n' 'start=2026-11-21T01:00Z duration=2h nodes=3' \
	    'start=2026-11-21T02:00Z duration=2h nodes=4' >"$D/two"
	run ar-add <"$D/two"
	expect_exit 0
}

begin 'frames: an empty store is one frame, every host, to the horizon'
mkstore --hosts 'cn[01-08]'
run ar-suggest --frames
expect_exit 0
expect_out 'start=2026-11-21T00:00:00Z end=2026-12-21T00:00:00Z free=8 hosts=cn[01-08]'
expect_err
expect_check

begin 'frames: bookings split the profile where its free hosts change'
two_booked
run ar-suggest --frames --to +5h
expect_exit 0
expect_out <<'EOF'
start=2026-11-21T00:00:00Z end=2026-11-21T01:00:00Z free=8 hosts=cn[01-08]
start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z free=5 hosts=cn[04-08]
start=2026-11-21T02:00:00Z end=2026-11-21T03:00:00Z free=1 hosts=cn08
start=2026-11-21T03:00:00Z end=2026-11-21T04:00:00Z free=4 hosts=cn[01-03,08]
start=2026-11-21T04:00:00Z end=2026-11-21T05:00:00Z free=8 hosts=cn[01-08]
EOF
expect_err
run ar-suggest --frames --from +2h30m --to +3h30m
expect_exit 0
expect_out <<'EOF'
start=2026-11-21T02:30:00Z end=2026-11-21T03:00:00Z free=1 hosts=cn08
start=2026-11-21T03:00:00Z end=2026-11-21T03:30:00Z free=4 hosts=cn[01-03,08]
EOF
expect_check

begin 'frames: a full frame is not listed; the past is not free'
two_booked
run ar-add start=2026-11-21T02:00Z duration=1h nodes=1
expect_exit 0
run ar-suggest --frames --from now-1h --to +3h
expect_exit 0
expect_out <<'EOF'
start=2026-11-21T00:00:00Z end=2026-11-21T01:00:00Z free=8 hosts=cn[01-08]
start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z free=5 hosts=cn[04-08]
EOF
expect_check

begin 'frames: what a frame shows, ar-add grants; one host more it refuses'
two_booked
run ar-add start=2026-11-21T03:00Z duration=1h nodes=5
expect_exit 1
run ar-add start=2026-11-21T03:00Z duration=1h nodes=4
expect_exit 0
run ar-suggest --frames --to +5h
expect_out <<'EOF'
start=2026-11-21T00:00:00Z end=2026-11-21T01:00:00Z free=8 hosts=cn[01-08]
start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z free=5 hosts=cn[04-08]
start=2026-11-21T02:00:00Z end=2026-11-21T03:00:00Z free=1 hosts=cn08
start=2026-11-21T04:00:00Z end=2026-11-21T05:00:00Z free=8 hosts=cn[01-08]
EOF
expect_check

begin 'frames: the hosts a frame lists, ar-add grants by name'
two_booked
run ar-add start=2026-11-21T03:00Z duration=1h 'hosts=cn[01-03,08]'
expect_exit 0
run ar-add start=2026-11-21T02:00Z duration=1h hosts=cn08
expect_exit 0
run ar-add start=2026-11-21T01:00Z duration=1h 'hosts=cn[04-08]'
expect_exit 0
run ar-add start=2026-11-21T01:00Z duration=1h nodes=1
expect_exit 1
run ar-suggest --frames --to +5h
expect_out <<'EOF'
start=2026-11-21T00:00:00Z end=2026-11-21T01:00:00Z free=8 hosts=cn[01-08]
start=2026-11-21T04:00:00Z end=2026-11-21T05:00:00Z free=8 hosts=cn[01-08]
EOF
expect_check

begin 'frames: named hosts are out of the frames they are held in'
mkstore --hosts 'cn[01-08]'
run ar-add start=+1h duration=1h 'hosts=cn[03-04]'
expect_exit 0
run ar-suggest --frames --to +3h
expect_exit 0
expect_out <<'EOF'
start=2026-11-21T00:00:00Z end=2026-11-21T01:00:00Z free=8 hosts=cn[01-08]
start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z free=6 hosts=cn[01-02,05-08]
start=2026-11-21T02:00:00Z end=2026-11-21T03:00:00Z free=8 hosts=cn[01-08]
EOF
expect_check

begin 'frames: --json, like every output'
two_booked
run ar-suggest --json --frames --from +1h --to +2h
expect_exit 0
expect_out '{"start":"2026-11-21T01:00:00Z","end":"2026-11-21T02:00:00Z","free":5,"hosts":"cn[04-08]"}'

begin 'frames: bad usage'
two_booked
run ar-suggest --frames --from soon
expect_exit 2
expect_err "ar-suggest: option '--from': invalid time 'soon' (use 2026-11-21T10:00Z, @EPOCH or now+DURATION)"
run ar-suggest --frames --from +2h --to +1h
expect_exit 2
expect_err "ar-suggest: option '--to': not after '--from'"
run ar-suggest --frames nodes=3
expect_exit 2
expect_err 'ar-suggest: takes no records as arguments'
usage_of ar-suggest >"$D/usage"
run ar-suggest --frames -k 3
expect_exit 2
{ echo 'ar-suggest: --frames goes with --from and --to alone'
  cat "$D/usage"; } >"$D/why"
expect_err <"$D/why"
run ar-suggest --from +1h nodes=1 duration=1h
expect_exit 2
{ echo 'ar-suggest: --from and --to go with --frames'
  cat "$D/usage"; } >"$D/why"
expect_err <"$D/why"
run ar-suggest --fit middle nodes=1 duration=1h
expect_exit 2
{ echo "ar-suggest: option '--fit': 'middle': not first, best or worst"
  cat "$D/usage"; } >"$D/why"
expect_err <"$D/why"
run ar-suggest --fit best --longest nodes=1
expect_exit 2
{ echo 'ar-suggest: --fit is not for --longest or --extend'
  cat "$D/usage"; } >"$D/why"
expect_err <"$D/why"
expect_check

begin 'options: -k K gives K distinct starts where fewer runs of starts fit'
two_booked
run ar-suggest -k 2 start=2026-11-21T00:00Z duration=1h nodes=4
expect_exit 0
expect_out <<'EOF'
start=2026-11-21T00:00:00Z duration=1h nodes=4 end=2026-11-21T01:00:00Z free=8 status=suggested
start=2026-11-21T03:00:00Z duration=1h nodes=4 end=2026-11-21T04:00:00Z free=4 status=suggested
EOF
run ar-suggest -k 5 start=2026-11-21T00:00Z duration=1h nodes=4
expect_exit 0
expect_out <<'EOF'
start=2026-11-21T00:00:00Z duration=1h nodes=4 end=2026-11-21T01:00:00Z free=8 status=suggested
start=2026-11-21T01:00:00Z duration=1h nodes=4 end=2026-11-21T02:00:00Z free=5 status=suggested
start=2026-11-21T03:00:00Z duration=1h nodes=4 end=2026-11-21T04:00:00Z free=4 status=suggested
start=2026-11-21T04:00:00Z duration=1h nodes=4 end=2026-11-21T05:00:00Z free=8 status=suggested
EOF
expect_err
expect_check

# Free over [01:00,02:00): runs of 2, 1 and 3 hosts.
begin 'options: --fit names the hosts of each option, first, best or worst'
mkstore --hosts 'cn[01-08]'
printf '%s\n' 'start=2026-11-21T01:00Z duration=1h hosts=cn03' \
    'start=2026-11-21T01:00Z duration=1h hosts=cn05' >"$D/pins"
run ar-add <"$D/pins"
expect_exit 0
for fit in first best worst; do
	run ar-suggest -k 2 --fit $fit start=2026-11-21T00:30Z duration=1h nodes=1
	expect_exit 0
	keep $fit
done
run cat "$D/first" "$D/best" "$D/worst"
expect_out <<'EOF'
start=2026-11-21T00:30:00Z duration=1h nodes=1 end=2026-11-21T01:30:00Z free=6 status=suggested hosts=cn01
start=2026-11-21T01:00:00Z duration=1h nodes=1 end=2026-11-21T02:00:00Z free=6 status=suggested hosts=cn01
start=2026-11-21T00:30:00Z duration=1h nodes=1 end=2026-11-21T01:30:00Z free=6 status=suggested hosts=cn04
start=2026-11-21T01:00:00Z duration=1h nodes=1 end=2026-11-21T02:00:00Z free=6 status=suggested hosts=cn04
start=2026-11-21T00:30:00Z duration=1h nodes=1 end=2026-11-21T01:30:00Z free=6 status=suggested hosts=cn06
start=2026-11-21T01:00:00Z duration=1h nodes=1 end=2026-11-21T02:00:00Z free=6 status=suggested hosts=cn06
EOF
run sh -c 'ar-suggest --fit worst start=2026-11-21T00:30Z duration=1h nodes=1 | ar-add'
expect_exit 0
run ar-suggest --fit worst start=2026-11-21T00:30Z duration=1h nodes=1
expect_out 'start=2026-11-21T00:30:00Z duration=1h nodes=1 end=2026-11-21T01:30:00Z free=5 status=suggested hosts=cn01'
expect_check
