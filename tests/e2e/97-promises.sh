# 97-promises.sh - what the README and the man pages promise, held against
# a careless user and an unlucky operator: a stopped writer, many idle and
# many busy readers, an interrupted creation, a full store, batches with
# nothing good in them, lines cut short.  Cases that need tests/txn_hold
# ($AR_TESTS) skip without it.

HOLD=${AR_TESTS:+$AR_TESTS/txn_hold}
[ -n "$HOLD" ] && [ -x "$HOLD" ] || HOLD=

# prom_wait_for FILE TEXT: wait up to 20 s for TEXT in FILE.
prom_wait_for() {
	i=0
	while ! grep -q "$2" "$1" 2>/dev/null && [ "$i" -lt 2000 ]; do
		sleep 0.01
		i=$((i + 1))
	done
	grep -q "$2" "$1" 2>/dev/null || fail "never saw '$2' in $1"
}

if [ -n "$HOLD" ]; then
begin 'promises: a writer stopped in its transaction: writers give up at their deadline naming it, readers go on'
mkstore --nodes 8
run ar-add start=+1h duration=1h nodes=2
"$HOLD" write "$AR_STORE" >"$D/hold.out" &
holder=$!
prom_wait_for "$D/hold.out" held
# timeout(1) only turns a hang into a failure; the promise is exit 3.
run timeout 20 ar-add --wait 1s start=+2h duration=1h
expect_exit 3
expect_out
expect_err "ar-add: $AR_STORE: timed out waiting for another writer (pid $holder)"
run timeout 20 ar-del --wait 0 id=1
expect_exit 3
expect_err "ar-del: $AR_STORE: timed out waiting for another writer (pid $holder)"
run timeout 20 env AR_WAIT=0 ar-del --purge
expect_exit 3
expect_err "ar-del: $AR_STORE: timed out waiting for another writer (pid $holder)"
run timeout 20 ar-search start=+1h duration=1h nodes=6
expect_exit 0
expect_out 'start=2026-11-21T01:00:00Z duration=1h nodes=6 end=2026-11-21T02:00:00Z free=6 status=available'
run timeout 20 ar-report --create --simulated --nodes 8 --info
expect_exit 0
kill -CONT "$holder"
wait "$holder"
run ar-add --wait 1s start=+2h duration=1h
expect_exit 0
expect_check

begin 'promises: processes waiting for input hold no reader slot; a writer goes on'
mkstore --nodes 8
# Their input stays open for a minute, or until the sleeps of this run
# (their length names the run: another run's are not ours) are killed.
prom_idle=60.$RUN
pids=
i=0
while [ "$i" -lt 300 ]; do
	{ echo 'start=+1h duration=1h'; sleep "$prom_idle"; } |
	    ar-search >"$D/idle.$i" 2>&1 &
	pids="$pids $!"
	i=$((i + 1))
done
# Each has answered its first line and waits for the next.
i=0
while [ "$(cat "$D"/idle.* | grep -c available)" -lt 300 ] &&
    [ "$i" -lt 3000 ]; do
	sleep 0.01
	i=$((i + 1))
done
run "$HOLD" readers "$AR_STORE"
expect_out 0
run ar-add start=+1h duration=1h nodes=8
expect_exit 0
pkill -xf "sleep $prom_idle" 2>/dev/null
# shellcheck disable=SC2086
wait $pids
expect_check

begin "promises: $AR_READERS processes hold read transactions at once; writers and readers go on"
mkstore --nodes 8
mkfifo "$D/in"
"$HOLD" read "$AR_STORE" "$AR_READERS" <"$D/in" >"$D/hold.out" 2>&1 &
holder=$!
exec 8>"$D/in"
prom_wait_for "$D/hold.out" "held $AR_READERS"
run ar-add start=+1h duration=1h nodes=3
expect_exit 0
run ar-search start=+1h duration=1h nodes=5
expect_exit 0
exec 8>&-
wait "$holder"
expect_check

begin 'promises: a store an older ar left half made says so, and --create finishes it'
mkdir "$AR_STORE"
"$HOLD" half "$AR_STORE"
run ar-report --info
expect_exit 3
expect_err "ar-report: $AR_STORE: an unfinished store (its creation was interrupted: run --create again)"
run ar-add --create --simulated --nodes 4 start=+1h duration=1h
expect_exit 0
expect_check

begin 'promises: --check prints each violation as a record, exit 3'
mkstore --nodes 8
run ar-add start=+1h duration=1h nodes=2
"$HOLD" damage "$AR_STORE" 1
run ar-report --check
expect_exit 3
seq 5984076 5984087 |
    sed 's/.*/violation="slot & counts 2 nodes in use, its reservations 3"/' \
    >"$D/violations"
expect_out <"$D/violations"
expect_err 'ar-report: 12 invariant violations'
fi

begin 'promises: a batch of only bad lines writes nothing, not even the clock'
mkstore --nodes 8
run ar-add start=+1h duration=1h
store_sum >"$D/before"
echo 'start=bad duration=1h' >"$D/bad"
run ar-add --now 2026-11-22T00:00:00Z <"$D/bad"
expect_exit 2
run ar-del --now 2026-11-22T00:00:00Z id=99
expect_exit 1
run store_sum
expect_out <"$D/before"
run ar-report --info
filter 's/.*\(clock=[^ ]*\).*/\1/'
expect_out 'clock=2026-11-21T00:00:00Z'

# same_store CMD ...: run CMD; it must write nothing, not even the
# clock.  Its output and status stay the last run's.
same_store() {
	store_sum >"$D/before"
	run "$@"
	said=$LAST rc=$RC
	cp "$D/.out" "$D/said"
	run store_sum
	expect_out <"$D/before"
	cp "$D/said" "$D/.out"
	LAST=$said RC=$rc
}

begin 'promises: a write that changes nothing writes nothing, not even the clock'
mkstore --nodes 8
run ar-add start=+2d duration=1h nodes=2 hold=10m
run ar-add --confirm id=1
run ar-map id=1
run ar-price --set <<'EOF'
class=1 name=premium price=100 ahead_min=0 ahead_max=1h limit=8
class=2 name=budget price=40 ahead_min=1h limit=6
EOF
run ar-price --update
run ar-del --purge
# Nothing has ended, nothing is to forget, each hold is confirmed, the
# mapping was told, the classes and limits are as they are; each runs an
# hour later than the one before, which would move the clock.
same_store ar-del --now 2026-11-21T01:00Z --purge
expect_exit 0
expect_out
same_store ar-del --now 2026-11-21T02:00Z -q --forget 2026-11-20T00:00Z
expect_exit 0
expect_out 'forgot_before=2026-11-20T00:00:00Z records=0 demand=0'
same_store ar-add --now 2026-11-21T03:00Z --confirm id=1
expect_exit 0
expect_out 'id=1 status=granted'
same_store ar-map --now 2026-11-21T04:00Z id=1
expect_exit 0
expect_out 'id=1 hosts=node[1-2] status=kept'
same_store ar-map --now 2026-11-21T05:00Z --plan
expect_exit 0
same_store ar-map --now 2026-11-21T06:00Z </dev/null
expect_exit 0
same_store ar-price --now 2026-11-21T07:00Z --set <<'EOF'
class=1 name=premium price=100 ahead_min=0 ahead_max=1h limit=8
class=2 name=budget price=40 ahead_min=1h limit=8
EOF
expect_exit 0
same_store ar-price --update
expect_exit 0
same_store ar-report --now 2026-11-21T08:00Z --create --simulated --nodes 8
expect_exit 0
run ar-report --info
filter 's/.*\(clock=[^ ]*\).*/\1/'
expect_out 'clock=2026-11-21T00:00:00Z'
expect_check

begin 'promises: a refusal books nothing; only the demand log tells it'
mkstore --nodes 8
run ar-add start=+1h duration=1h
run ar-report --all
keep all
run ar-report --free --from 2026-11-21T01:00Z
keep free
run ar-add --now 2026-11-21T00:30:00Z --no-move start=+1h duration=1h nodes=8
expect_exit 1
run ar-report --all
expect_out <"$D/all"
run ar-report --free --from 2026-11-21T01:00Z
expect_out <"$D/free"
run ar-report --usage --from 2026-11-21T01:00Z --to 2026-11-21T03:00Z \
    --window 2h
filter 's/.*\( granted=[^ ]*\) \(refused=[^ ]*\).*/\1 \2/'
expect_out ' granted=1 refused=1' ' granted=1 refused=1'
expect_check

begin 'promises: a refused request writes one demand entry and the clock, nothing else; other refusals write nothing'
mkstore --nodes 8
run ar-add start=+1h duration=1h nodes=8 user=a job=x
run ar-report --dump
keep before
run ar-add --now 2026-11-21T00:30:00Z start=+1h duration=1h nodes=8
expect_exit 1
run ar-report --dump
keep after
# The meta (its clock) and one entry more in the demand log.
run sh -c 'diff "$1" "$2" | grep "^[<>]" | sed "s/ key=.*//"' sh "$D/before" "$D/after"
expect_out '< table=meta' '> table=meta' '< entries=8' '> table=demand' '> entries=9'
store_sum >"$D/sum"
run ar-add --now 2026-11-21T00:40:00Z --modify id=1 nodes=9
expect_exit 1
run ar-add --now 2026-11-21T00:41:00Z --confirm id=1
expect_exit 1
run ar-del --now 2026-11-21T00:42:00Z user=b job=y
expect_exit 1
run ar-del --now 2026-11-21T00:43:00Z id=7
expect_exit 1
run ar-search --now 2026-11-21T00:44:00Z start=+1h duration=1h nodes=8
expect_exit 1
run store_sum
expect_out <"$D/sum"
expect_check

begin 'promises: an end 100 years on is bad input; the other lines are granted'
mkstore --nodes 8
printf '%s\n' 'start=+1h end=9999-12-31T00:00Z' 'start=+2h duration=1h' \
    'start=+3h duration=36600d' >"$D/in"
run ar-add <"$D/in"
expect_exit 2
expect_out 'start=2026-11-21T02:00:00Z duration=1h id=1 end=2026-11-21T03:00:00Z free=8 status=granted'
expect_err "ar-add: line 1: field 'end': more than 100 years after 'start'" \
    "ar-add: line 3: field 'duration': duration longer than 100 years: '36600d'"
run ar-search start=+1h end=9999-12-31T00:00Z
expect_exit 2
expect_err "ar-search: arguments: field 'end': more than 100 years after 'start'"
expect_check

begin 'promises: an unfinished last line is refused, the lines before it are granted'
mkstore --nodes 32
printf 'start=+1h duration=1h nodes=4\nstart=+1h duration=1h nodes=1' >"$D/in"
run ar-add <"$D/in"
expect_exit 2
expect_out 'start=2026-11-21T01:00:00Z duration=1h nodes=4 id=1 end=2026-11-21T02:00:00Z free=32 status=granted'
expect_err 'ar-add: line 2: no newline at the end: the line may be cut short'
run ar-report --all
expect_out 'id=1 start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=4 owner=0 status=granted running=no duration=1h created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z'

begin 'promises: a full store can still be emptied, and its maximum raised'
mkstore --nodes 1000000 --max-size 1
fill_requests >"$D/fill"
run ar-add <"$D/fill"
expect_exit 3
run ar-del id=1
expect_exit 0
expect_out 'id=1 status=cancelled'
run ar-del --quiet --purge --now +30d
expect_exit 0
run ar-report --create --simulated --nodes 1000000 --max-size 64 --info
expect_exit 0
filter 's/.*\(map_max=[0-9]*\).*/\1/'
expect_out 'map_max=67108864'
fill_requests | head -2000 >"$D/more"
run ar-add <"$D/more"
expect_exit 0
run ar-report --create --simulated --nodes 1000000 --max-size 1 --info
expect_exit 2
expect_err "ar-report: option '--max-size': below the store's size now"
expect_check

# A server that is not there (port 1 of this host) fails the connection
# at once; libpq's words vary, the address's may not.  A key=value string
# names no PostgreSQL store (only a URI does): it is a directory, not
# there, and is not created here.
begin 'promises: a password in a store'"'"'s address never reaches a message, URI or key=value'
for w in 'postgresql://ar:s3cret@127.0.0.1:1/db|postgresql://ar:***@127.0.0.1:1/db' \
    'postgres://ar@127.0.0.1:1/db?store=c1&password=s3cret|postgres://ar@127.0.0.1:1/db?store=c1&password=***' \
    'postgresql:///db?host=127.0.0.1&port=1&pass%77ord=s3cret|postgresql:///db?host=127.0.0.1&port=1&pass%77ord=***' \
    'postgresql://ar:s3%zzcret@127.0.0.1:1/db|postgresql://ar:***@127.0.0.1:1/db' \
    "host=127.0.0.1 port=1 password='s3cret' dbname=ar|host=127.0.0.1 port=1 password=*** dbname=ar" \
    'host=127.0.0.1 password = s3cret|host=127.0.0.1 password = ***'
do
	cmds='ar-report --info|ar-add start=+1h duration=1h|ar-del --purge'
	case $w in
	postgres*) cmds="$cmds|ar-report --create --simulated --nodes 4|ar-price --update" ;;
	esac
	IFS='|'
	set -- $cmds
	unset IFS
	for cmd
	do
		# shellcheck disable=SC2086
		run $cmd --store "${w%%|*}"
		expect_exit 3
		expect_out
		grep -q s3cret "$D/.err" && fail "$cmd: the password is in: $(cat "$D/.err")"
		grep -qF "${cmd%% *}: ${w#*|}: " "$D/.err" ||
		    fail "$cmd: not named as ${w#*|}: $(cat "$D/.err")"
	done
done

begin 'promises: --store with an empty name is bad usage'
run ar-search --store '' start=+1h duration=1h
expect_exit 2
usage_of ar-search >"$D/usage"
{ echo "ar-search: option '--store': empty"; cat "$D/usage"; } >"$D/err"
expect_err <"$D/err"

begin 'promises: getopt messages name the command, not the path it was run by'
run sh -c '"$AR_BIN/ar-add" --bogus 2>&1 >/dev/null | head -1'
expect_out "ar-add: unrecognized option '--bogus'"

if can_be_nobody && getent group nogroup >/dev/null 2>&1; then
begin 'promises: --group shares a store with a group whatever the umask'
chmod a+x "$TOP" "$D"
AR_STORE=$D/store
run sh -c 'umask 077 && ar-report --create --simulated --group nogroup --info'
expect_exit 0
run sh -c 'stat -c "%A %G %n" "$AR_STORE" "$AR_STORE"/*.mdb "$AR_STORE"/writer.lock | sed "s|$AR_STORE|S|"'
expect_out 'drwxrws--- nogroup S' '-rw-rw---- nogroup S/data.mdb' \
    '-rw-rw---- nogroup S/lock.mdb' '-rw-rw---- nogroup S/writer.lock'
run as_nobody ar-add start=+1h duration=1h
expect_exit 0
run as_nobody ar-search start=+1h duration=1h
expect_exit 0
# Shared again, it is still the store it was: other settings are refused.
run ar-report --create --simulated --group nogroup --nodes 3 --info
expect_exit 3
expect_err "ar-report: $AR_STORE: a store with another configuration exists there: nodes 64 there, not 3"
expect_check

begin 'promises: --group shares a store that is there, without --create'
chmod a+x "$TOP" "$D"
AR_STORE=$D/store
mkstore --nodes 16
run as_nobody ar-search start=+1h duration=1h
expect_exit 3
run ar-report --group nogroup --info
expect_exit 0
filter 's/.*\( format=\)/\1/'
expect_out ' format=10'
run sh -c 'stat -c "%A %G %n" "$AR_STORE" "$AR_STORE"/*.mdb "$AR_STORE"/writer.lock | sed "s|$AR_STORE|S|"'
expect_out 'drwxrws--- nogroup S' '-rw-rw---- nogroup S/data.mdb' \
    '-rw-rw---- nogroup S/lock.mdb' '-rw-rw---- nogroup S/writer.lock'
run as_nobody ar-add start=+1h duration=1h
expect_exit 0
run ar-report --group nogroup --nodes 16 --info
expect_exit 2
expect_err 'ar-report: --nodes, --hosts, --slot, --horizon, --max-size and --owners go with --create'
expect_check

begin 'promises: a store shared the old way (umask 002, chgrp) stays shared when a writer makes writer.lock; a permission error names the file'
chmod a+x "$TOP" "$D"
AR_STORE=$D/store
run sh -c 'umask 002 && ar-report --create --simulated --info'
# As a store made before writer.lock was, or whose lock was removed.
chgrp -R nogroup "$AR_STORE"
rm "$AR_STORE/writer.lock"
run sh -c 'umask 022 && ar-add start=+1h duration=1h'
expect_exit 0
run sh -c 'stat -c "%A %G %n" "$AR_STORE" "$AR_STORE"/writer.lock | sed "s|$AR_STORE|S|"'
expect_out 'drwxrwx--- nogroup S' '-rw-rw---- nogroup S/writer.lock'
run as_nobody ar-add start=+2h duration=1h
expect_exit 0
chmod g-w "$AR_STORE/writer.lock"
run as_nobody ar-add start=+3h duration=1h
expect_exit 3
expect_err "ar-add: $AR_STORE/writer.lock: Permission denied"
chmod g-w "$AR_STORE/lock.mdb"
run as_nobody ar-search start=+3h duration=1h
expect_exit 3
expect_err "ar-search: $AR_STORE/lock.mdb: Permission denied"
chmod g+w "$AR_STORE/lock.mdb" "$AR_STORE/writer.lock"
expect_check
else
skip 'promises: --group shares a store' 'needs root, setpriv and a nogroup group'
fi

if [ "${AR_SANITIZED:-0}" = 0 ]; then
begin 'promises: out of memory, what is printed as granted is exactly what is stored'
mkstore --nodes 1000000
pad=$(head -c 60000 /dev/zero | tr '\0' x)
i=1
while [ "$i" -le 2048 ]; do
	printf 'start=+%dm duration=5m note=%s\n' $((i * 5)) "$pad"
	i=$((i + 1))
done >"$D/big"
# 2048 lines of 60 KB do not fit in 150 MB with their output.
run sh -c 'ulimit -v 150000 && exec ar-add <"$1"' sh "$D/big"
[ "$RC" = 0 ] || [ "$RC" = 3 ] || fail "exit status $RC, expected 0 or 3"
sed -n 's/.* id=\([0-9]*\) .*status=granted$/\1/p' "$D/.out" >"$D/printed"
ar-report --all | sed 's/^id=\([0-9]*\) .*/\1/' >"$D/stored"
cmp -s "$D/printed" "$D/stored" ||
    fail "printed $(wc -l <"$D/printed") grants, stored $(wc -l <"$D/stored")"
rm -f "$D/big"
expect_check
else
skip 'promises: out of memory' 'a sanitized build cannot start under a memory limit'
fi

if [ "${AR_SANITIZED:-0}" = 0 ]; then
begin 'promises: ar-report --list streams: 100000 records list in 6 MB past the map'
mkstore --nodes 1000000
awk 'BEGIN { for (i = 1; i <= 100000; i++)
	printf "start=+%dm duration=5m user=u%d job=j%d\n", (i % 8000) * 5 + 5, i, i }' \
    >"$D/many"
run ar-add <"$D/many"
expect_exit 0
map=$(ar-report --info | sed 's/.* map_size=\([0-9]*\) .*/\1/')
run sh -c 'ulimit -v $(($1 / 1024 + 6144)) && ar-report --list | wc -l' sh "$map"
expect_exit 0
expect_out 100000
expect_err
# Filtered, the same: what is left out is never kept either.
run sh -c 'ulimit -v $(($1 / 1024 + 6144)) &&
    ar-report --all running=no status=granted --from +10m | wc -l' sh "$map"
expect_exit 0
expect_out 99988
expect_err
else
skip 'promises: ar-report --list streams' 'a sanitized build needs more memory'
fi
