# setgid.sh - a shared store no user can harm (README, "A shared store"):
# the commands installed setgid (make install SETGID=...) to a group no
# user is in, which alone may open the stores' files, and used by an
# unprivileged user, who tries every way around them.  Cases for
# tests/e2e.sh, but not in tests/e2e/ since they run make: make
# install-test runs them apart, as
#
#   AR_BIN=$PWD/.build/bin sh tests/e2e.sh tests/setgid.sh
#
# with MAKE, CC, CFLAGS, LDFLAGS and STATIC from make.  They need root
# and setpriv(1): the user is uid 65534 (as_nobody), another user 65533;
# elsewhere they are skipped, saying so.  The group is a number that no
# account has: a group needs no name to own files.  The stores are
# live, as a shared store is, so times are filtered out.

SRC=$(dirname "$TESTS")
: "${MAKE:=make}"
SG_GID=64999
SG_OTHER=65533
SG=$TOP/setgid          # the install: bin/, etc/ar/stores, its build
SG_LIST=$SG/etc/ar/stores
# The commands take no clock from the environment when setgid.
unset AR_NOW

# as_other CMD: run CMD as another user than the one under test.
as_other() {
	setpriv --reuid=$SG_OTHER --regid=$SG_OTHER --clear-groups -- "$@"
}

# sg_install: the commands built with their list under $SG and installed
# setgid there; the build starts from $AR_BIN's objects, so only cmd.o,
# whose list moved, is built again.  0 if it worked, else its output is
# in $SG/install.log.
sg_install() {
	build=$(dirname "$AR_BIN")
	mkdir -p "$SG/build/cmd" "$SG/etc/ar" &&
	    cp -pR "$build/lib" "$build/format" "$build/pic" "$build/libar.a" \
	    "$build/libar.so" "$SG/build/" &&
	    cp -p "$build"/cmd/ar-*.o "$SG/build/cmd/" &&
	    "$MAKE" -C "$SRC" install B="$SG/build" prefix="$SG" \
	    sysconfdir="$SG/etc" SETGID=$SG_GID >"$SG/install.log" 2>&1 &&
	    : >"$SG_LIST" && chmod -R a+rX "$SG" && chmod a+x "$TOP"
}

# sg_list WHERE...: add stores to the list (as the administrator does).
sg_list() {
	printf '%s\n' "$@" >>"$SG_LIST"
}

# sg_store: the case's store, $AR_STORE, listed and made by root with the
# installed commands, shared with the group; then alice (the other user)
# books an hour from now.
sg_store() {
	chmod a+x "$D"
	sg_list "$AR_STORE"
	made=$(ar-report --create --group $SG_GID --nodes 4 2>&1) ||
	    fail "ar-report --create --group $SG_GID: $made"
	run as_other ar-add start=+1h duration=1h nodes=2 user=alice job=sim
	expect_exit 0
}

# sg_times: the last output without its times, which are the clock's.
sg_times() {
	filter 's/\(^\| \)\(start\|end\|created\|changed\|expires\)=[^ ]*//g; s/^ //'
}

if ! can_be_nobody; then
	skip 'setgid: every case' 'needs root and setpriv(1)'
elif ! sg_install; then
	begin 'setgid: make install SETGID=gid'
	fail "make install failed:"
	sed 's/^/    /' "$SG/install.log" >>"$D/.log"
else
PATH=$SG/bin:$PATH

begin 'setgid: make install SETGID=group installs every command setgid to that group'
run sh -c 'cd "$1" && stat -c "%A %g %n" ar-*' sh "$SG/bin"
for c in "$SRC"/cmd/ar-*.c; do
	c=${c##*/}
	echo "-rwxr-sr-x $SG_GID ${c%.c}"
done >"$D/expected"
expect_out <"$D/expected"

begin 'setgid: the store is the group'"'"'s alone, and a user books through the commands as their own uid'
sg_store
run sh -c 'stat -c "%A %g" "$1" "$1"/data.mdb "$1"/lock.mdb "$1"/writer.lock' \
    sh "$AR_STORE"
expect_out "drwxrws--- $SG_GID" "-rw-rw---- $SG_GID" "-rw-rw---- $SG_GID" \
    "-rw-rw---- $SG_GID"
run as_nobody ar-add start=+2h duration=1h nodes=1 user=nob
expect_exit 0
sg_times
expect_out 'duration=1h nodes=1 user=nob id=2 free=4 status=granted'
expect_err
run as_nobody ar-report --list
expect_exit 0
sg_times
expect_out "id=1 user=alice job=sim nodes=2 owner=$SG_OTHER status=granted running=no duration=1h" \
    'id=2 user=nob nodes=1 owner=65534 status=granted running=no duration=1h'
expect_check

begin 'setgid: a user cannot open the store'"'"'s files, nor write its lock files'
sg_store
sum=$(store_sum)
run as_nobody cat "$AR_STORE/data.mdb"
expect_exit 1
expect_out
expect_err "cat: $AR_STORE/data.mdb: Permission denied"
for f in data.mdb lock.mdb writer.lock; do
	run as_nobody sh -c ': >>"$1"' sh "$AR_STORE/$f"
	[ "$RC" != 0 ] || fail "$f opened for writing as the user"
	grep -q 'Permission denied' "$D/.err" || fail "$f: $(cat "$D/.err")"
done
if command -v flock >/dev/null 2>&1; then
	run as_nobody flock -n "$AR_STORE/writer.lock" true
	[ "$RC" != 0 ] || fail 'the user took the writer lock'
fi
# Nor can a program of the user's own: the commands not installed setgid.
run as_nobody "$AR_BIN/ar-del" id=1
expect_exit 3
expect_out
expect_err "ar-del: $AR_STORE: Permission denied"
run store_sum
expect_out "$sum"
expect_check

begin 'setgid: a user cannot cancel, change or confirm another user'"'"'s reservation'
sg_store
run as_other ar-add start=+3h duration=1h nodes=1 hold=1h user=alice job=sim
expect_exit 0
sum=$(store_sum)
run as_nobody ar-del id=1
expect_exit 1
expect_out 'id=1 status=refused reason=not-owner'
expect_err 'ar-del: arguments: reservation 1: not the owner of the reservation'
run as_nobody ar-del user=alice job=sim
expect_exit 1
expect_out 'user=alice job=sim id=1 status=refused reason=not-owner' \
    'user=alice job=sim id=2 status=refused reason=not-owner'
expect_err 'ar-del: arguments: reservation 1: not the owner of the reservation' \
    'ar-del: arguments: reservation 2: not the owner of the reservation'
run as_nobody ar-add --modify id=1 nodes=4
expect_exit 1
expect_out 'id=1 nodes=4 status=refused reason=not-owner'
run as_nobody ar-add --confirm id=2
expect_exit 1
expect_out 'id=2 status=refused reason=not-owner'
run store_sum
expect_out "$sum"
expect_check

begin 'setgid: a user cannot move the clock, by option or environment; a reader still asks what if'
sg_store
sum=$(store_sum)
run as_nobody ar-add --now 2099-01-01T00:00:00Z start=+1h duration=1h
expect_exit 2
expect_out
expect_err "ar-add: option '--now': the store is live: its writers follow the system clock (--now is for readers, and for stores created with --simulated)"
run as_nobody env AR_NOW=2099-01-01T00:00:00Z ar-del --purge
expect_exit 2
expect_out
expect_err 'ar-del: AR_NOW: a command installed setgid takes no clock from the environment (--now, for readers)'
run as_nobody ar-search --now 2099-01-01T00:00:00Z start=+1h duration=1h nodes=4
expect_exit 0
expect_out 'start=2099-01-01T01:00:00Z duration=1h nodes=4 end=2099-01-01T02:00:00Z free=4 status=available'
run store_sum
expect_out "$sum"
expect_check

begin 'setgid: only root changes the store for every user: price classes, history, what Slurm was told'
sg_store
sum=$(store_sum)
for args in 'ar-price --set' 'ar-price --update' 'ar-del --forget now' \
    'ar-map --slurm'; do
	set -- $args
	run as_nobody "$@"
	expect_exit 2
	expect_out
	expect_err "$1: $AR_STORE: only root changes a shared store for every user this way (the command is installed setgid)"
done
run store_sum
expect_out "$sum"
empty_slurm
run env AR_SCONTROL="$D/scontrol" ar-map --slurm
expect_exit 0
expect_check

begin 'setgid: no output option writes a file with the group'"'"'s rights'
sg_store
# A directory only the group may write, and stores listed in it.
mkdir "$D/g"
chgrp $SG_GID "$D/g"
chmod 0770 "$D/g"
sg_list "$D/g/made" "$D/g/loaded"
ar-report --dump >"$D/dump"
run as_nobody ar-report --usage --from now --to +1h --svg "$D/g/usage.svg"
expect_exit 2
expect_err "ar-report: $D/g/usage.svg: Permission denied"
run as_nobody ar-map --svg "$D/g/plan.svg"
expect_exit 2
expect_err "ar-map: $D/g/plan.svg: Permission denied"
run as_nobody ar-report --store "$D/g/loaded" --load <"$D/dump"
expect_exit 3
expect_err "ar-report: $D/g/loaded: Permission denied"
run as_nobody ar-report --store "$D/g/made" --create --group $SG_GID
expect_exit 3
expect_err "ar-report: $D/g/made: Permission denied"
run as_nobody ar-report --upgrade --info
expect_exit 3
expect_err "ar-report: $AR_STORE: Permission denied"
run ls -A "$D/g"
expect_out
# Where the user may write, a chart is the user's own file.
mkdir "$D/mine"
chown 65534:65534 "$D/mine"
run as_nobody ar-map --svg "$D/mine/plan.svg"
expect_exit 0
run stat -c '%u %g' "$D/mine/plan.svg"
expect_out '65534 65534'
expect_check

begin 'setgid: a store not on the list is refused, however it is named, and nothing is made'
sg_store
mkdir "$D/mine"
chown 65534:65534 "$D/mine"
for where in "$D/mine/store" "$AR_STORE/" "$D/./store" "$D//store" \
    "${AR_STORE#/}"; do
	run as_nobody ar-report --store "$where" --create --info
	expect_exit 2
	expect_out
	expect_err "ar-report: $where: not a store that this command, installed setgid, serves (see $SG_LIST)"
done
run as_nobody env AR_STORE="$D/mine/store" ar-add start=+1h duration=1h
expect_exit 2
expect_err "ar-add: $D/mine/store: not a store that this command, installed setgid, serves (see $SG_LIST)"
run ls -A "$D/mine"
expect_out
expect_check

# A command waiting for its input holds the store's descriptors: the
# user who started it can neither list nor open them, nor read its memory.
begin 'setgid: a running command'"'"'s descriptors are out of its user'"'"'s reach'
sg_store
mkfifo "$D/in"
chmod 0666 "$D/in"
setpriv --reuid=65534 --regid=65534 --clear-groups -- ar-add <"$D/in" \
    >"$D/waiting.out" 2>&1 &
pid=$!
exec 3>"$D/in"
i=0
while ! ls -l "/proc/$pid/fd" 2>/dev/null | grep -q data.mdb &&
    [ "$i" -lt 2000 ]; do
	sleep 0.01
	i=$((i + 1))
done
ls -l "/proc/$pid/fd" 2>/dev/null | grep -q data.mdb ||
    fail "ar-add never opened data.mdb: $(cat "$D/waiting.out")"
run as_nobody ls "/proc/$pid/fd"
[ "$RC" != 0 ] || fail "the user lists the descriptors: $(cat "$D/.out")"
fd=$(ls -l "/proc/$pid/fd" | sed -n 's/.* \([0-9]*\) -> .*data.mdb$/\1/p' | head -1)
run as_nobody sh -c 'exec 4>>"$1"' sh "/proc/$pid/fd/$fd"
[ "$RC" != 0 ] || fail "the user opened data.mdb through /proc/$pid/fd/$fd"
run as_nobody dd if="/proc/$pid/mem" bs=1 count=1 skip=4096
[ "$RC" != 0 ] || fail "the user read the command's memory"
exec 3>&-
wait "$pid"
run cat "$D/waiting.out"
expect_out
expect_check
fi
