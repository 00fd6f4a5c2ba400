# 98-move.sh - moving a store: ar-report --dump writes every entry of
# every table, --load makes a new store of them, on any backend.

# busy_store: a store with a bit of everything: labels, client keys,
# price classes and the demand log, named hosts and their mapping, a
# hold, a series, a cancellation and a move.
busy_store() {
	mkstore --hosts 'cn[01-12]'
	printf '%s\n' \
	    'class=1 name=gold price=100 ahead_min=0 ahead_max=2h limit=12' \
	    'class=2 name=tin price=40 ahead_min=2h limit=8' >"$D/classes"
	ar-price --set <"$D/classes" || fail 'ar-price --set failed'
	ar-add >/dev/null <<'EOS'
start=+1h duration=2h nodes=4 user=ann job=sim key=k1
start=+1h end=+6h duration=1h nodes=6 user=bob
start=+3h duration=1h nodes=2 hosts=cn[11-12]
start=+4h duration=1h nodes=3 hold=30m
start=+8h duration=30m nodes=1 every=2h count=3 user=cron
start=+20h duration=1h nodes=12
EOS
	[ $? -le 1 ] || fail 'ar-add failed'
	ar-del id=2 >/dev/null || fail 'ar-del failed'
	ar-map --plan >/dev/null || fail 'ar-map failed'
}

begin 'move: a loaded store is the store dumped, entry for entry'
busy_store
run ar-report --dump
expect_exit 0
keep dump
run sh -c 'tail -n 1 "$1"' - "$D/dump"
expect_out 'entries=45'
orig=$AR_STORE
AR_STORE=$D/copy
run ar-report --load <"$D/dump"
expect_exit 0
expect_out
expect_err
expect_check
run ar-report --dump
expect_exit 0
expect_out <"$D/dump"
AR_STORE=$orig

begin 'move: the copy answers every command as the original does'
busy_store
ar-report --dump >"$D/dump"
AR_STORE=$D/copy ar-report --load <"$D/dump" || fail 'load failed'
cat >"$D/next" <<'EOS'
start=+1h duration=1h nodes=3
start=+1h end=+9h duration=2h nodes=8 user=late
start=+2h duration=1h nodes=2 hosts=cn[11-12]
EOS
orig=$AR_STORE
for s in store copy; do
	AR_STORE=$orig
	[ "$s" = store ] || AR_STORE=$D/copy
	{
		ar-add <"$D/next"
		ar-add --confirm id=4
		ar-del series=5
		ar-add --modify id=1 duration=3h
		ar-search start=+1h duration=1h nodes=5
		ar-suggest start=+1h duration=1h nodes=9
		ar-price --quote start=+3h duration=1h nodes=1
		ar-map --plan
		ar-report --all
		ar-report --usage --from now --to +1d --window 1d
	} 2>&1 | sed "s|$AR_STORE|STORE|" >"$D/$s.out"
done
run cat "$D/copy.out"
expect_out <"$D/store.out"
expect_check
AR_STORE=$orig
expect_check

begin 'move: --load onto a store that is there refuses, and changes nothing'
busy_store
ar-report --dump >"$D/dump"
run ar-report --load <"$D/dump"
expect_exit 3
expect_out
expect_err "ar-report: $AR_STORE: a store is there already: --load makes a new one"
run ar-report --dump
expect_out <"$D/dump"

begin 'move: a dump cut short or damaged makes no store'
busy_store
ar-report --dump >"$D/dump"
head -n 20 "$D/dump" >"$D/short"
AR_STORE=$D/copy
[ -z "$AR_E2E_PG" ] || AR_STORE=$(pg_store "e2e_${RUN}_${n}_copy")
run ar-report --load <"$D/short"
expect_exit 2
expect_out
expect_err 'ar-report: line 20: the dump ends before its count of entries'
run ar-report --info
expect_exit 3
sed '3s/key=/key=x/' "$D/dump" >"$D/bad"
run ar-report --load <"$D/bad"
expect_exit 2
expect_err "ar-report: line 3: field 'key': not bytes in lowercase hex"
sed '$s/=.*/=36/' "$D/dump" >"$D/bad"
run ar-report --load <"$D/bad"
expect_exit 2
expect_err "ar-report: line 46: field 'entries': 45 were read"
sed '2s/table=[a-z]*/table=nonesuch/' "$D/dump" >"$D/bad"
run ar-report --load <"$D/bad"
expect_exit 2
expect_err 'ar-report: line 2: not a dump of a store of format 10 (ar-report --dump makes one)'
run ar-report --info
expect_exit 3

# On PostgreSQL the cases above move a store from PostgreSQL to LMDB;
# this one moves one the other way, and back.
if [ -n "$AR_E2E_PG" ]; then
begin 'move: an LMDB store loads into PostgreSQL and back, entry for entry'
AR_STORE=$D/store
busy_store
ar-report --dump >"$D/dump"
AR_STORE=$(pg_store "e2e_${RUN}_${n}_pg")
run ar-report --load <"$D/dump"
expect_exit 0
expect_err
expect_check
run ar-report --dump
expect_out <"$D/dump"
keep pgdump
AR_STORE=$D/back
run ar-report --load <"$D/pgdump"
expect_exit 0
expect_check
run ar-report --dump
expect_out <"$D/dump"
fi
