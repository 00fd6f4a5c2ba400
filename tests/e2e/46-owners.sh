# 46-owners.sh - who owns a reservation: the uid that made it, or on
# PostgreSQL, for a store created with --owners role, the database role
# of the session that made it, whatever uid the client runs as, so that
# a site relies on the database's rights rather than on every host's
# user database (a root on a laptop is root by uid, not by role).  The
# role cases run on PostgreSQL (make pg-test) and make roles of their
# own, which they drop.

begin 'owners: --owners role is for PostgreSQL; an LMDB store'"'"'s owners are uids'
run ar-report --store "$D/lmdb" --create --simulated --owners role --info
expect_exit 2
expect_out
expect_err "ar-report: option '--owners': role is for a PostgreSQL store (an LMDB store's owners are uids)"
run test -e "$D/lmdb"
expect_exit 1

begin 'owners: --owners takes uid or role, with --create'
run ar-report --create --simulated --owners gid --info
expect_exit 2
expect_out
usage_of ar-report >"$D/usage"
{ echo "ar-report: option '--owners': uid or role, not 'gid'"; cat "$D/usage"; } \
    >"$D/err"
expect_err <"$D/err"
mkstore
run ar-report --owners uid --info
expect_exit 2
expect_err 'ar-report: --nodes, --hosts, --slot, --horizon, --max-size and --owners go with --create'

if can_be_nobody; then
	begin 'owners: a private store: another user can neither read it nor book in it'
	mklive --nodes 4
	chmod a+x "$TOP" "$D"
	# Copies the other user can reach, wherever the tree is (a clone in
	# a private directory included).
	mkdir "$D/bin" && cp "$AR_BIN/ar-report" "$AR_BIN/ar-add" "$D/bin/" &&
	    chmod a+rx "$D/bin" "$D/bin/ar-report" "$D/bin/ar-add"
	sum=$(store_sum)
	for args in 'ar-report --list' 'ar-add start=+1h duration=1h'; do
		set -- $args
		run as_nobody env -u AR_NOW PATH="$D/bin:$PATH" "$@"
		expect_exit 3
		expect_out
		expect_err "$1: $AR_STORE: Permission denied"
	done
	run store_sum
	expect_out "$sum"
	expect_check
else
	skip 'owners: a private store: another user can neither read it nor book in it' \
	    'needs root and setpriv(1)'
fi

if [ -n "$AR_E2E_PG" ] && command -v psql >/dev/null 2>&1; then
# own_sql SQL: run SQL on the suite's database as its superuser.
own_sql() {
	psql -X -q -At -v ON_ERROR_STOP=1 "$AR_E2E_PG" -c "$1"
}

# as_role ROLE CMD...: CMD on the case's store, its session ROLE's.
as_role() {
	role=$1
	shift
	AR_STORE=$(echo "$AR_STORE" | sed "s|://[^@/]*@|://$role@|") "$@"
}

OWN_U1=ar_u1_$RUN OWN_U2=ar_u2_$RUN OWN_ADM=ar_adm_$RUN

# own_roles: two users and an administrator (a member of ar_admin), who
# may use the store's tables, as a site would grant them.
own_roles() {
	own_sql "DO \$\$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE
	    rolname = 'ar_admin') THEN CREATE ROLE ar_admin; END IF; END \$\$;
	    CREATE ROLE $OWN_U1 LOGIN; CREATE ROLE $OWN_U2 LOGIN;
	    CREATE ROLE $OWN_ADM LOGIN IN ROLE ar_admin;
	    GRANT SELECT, INSERT, UPDATE, DELETE ON ar_schema, ar_store, ar_kv
	    TO $OWN_U1, $OWN_U2, $OWN_ADM" >"$D/sql" 2>&1 ||
	    fail "making the roles: $(cat "$D/sql")"
}

own_drop() {
	own_sql "DROP OWNED BY $OWN_U1, $OWN_U2, $OWN_ADM;
	    DROP ROLE $OWN_U1, $OWN_U2, $OWN_ADM" >"$D/sql" 2>&1 ||
	    fail "dropping the roles: $(cat "$D/sql")"
}

oid_of() {
	own_sql "SELECT oid FROM pg_roles WHERE rolname = '$1'"
}

begin 'owners: with --owners role a reservation is its session'"'"'s role'"'"'s, whatever uid the client has'
mkstore --nodes 4 --owners role
own_roles
run ar-report --info
filter 's/ map_size=[0-9]*//'
expect_out 'nodes=4 hosts=node[1-4] slot=5m horizon=30d clock=2026-11-21T00:00:00Z clock_mode=simulated owners=role live=0 records=0 next_id=1 map_max=17179869184 format=10'
run as_role "$OWN_U1" ar-add start=+1h duration=1h user=u1 client_key=k
expect_exit 0
run ar-report --list
expect_out "id=1 user=u1 client_key=k start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=1 owner=$(oid_of "$OWN_U1") status=granted running=no duration=1h created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z"
# Another role: not the owner, though the client's uid is the same.
run as_role "$OWN_U2" ar-del id=1
expect_exit 1
expect_out 'id=1 status=refused reason=not-owner'
run as_role "$OWN_U2" ar-add --modify id=1 nodes=2
expect_exit 1
expect_out 'id=1 nodes=2 status=refused reason=not-owner'
# A client key is the role's own: another's books anew.
run as_role "$OWN_U2" ar-add start=+1h duration=1h user=u2 client_key=k
expect_exit 0
expect_out 'start=2026-11-21T01:00:00Z duration=1h user=u2 client_key=k id=2 end=2026-11-21T02:00:00Z free=3 status=granted'
run as_role "$OWN_U1" ar-del id=1
expect_exit 0
expect_out 'id=1 status=cancelled'
expect_check
own_drop

begin 'owners: with --owners role a superuser or a member of ar_admin acts for every owner'
mkstore --nodes 4 --owners role
own_roles
run as_role "$OWN_U1" ar-add start=+1h duration=1h
run as_role "$OWN_U1" ar-add start=+2h duration=1h
run as_role "$OWN_ADM" ar-del id=1
expect_exit 0
expect_out 'id=1 status=cancelled'
run ar-del id=2
expect_exit 0
expect_out 'id=2 status=cancelled'
expect_check
own_drop

begin 'owners: a store whose owners are roles moves between PostgreSQL stores, not into LMDB'
mkstore --nodes 4 --owners role
run ar-add start=+1h duration=1h
ar-report --dump >"$D/dump"
run ar-report --store "$D/lmdb" --load <"$D/dump"
expect_exit 3
expect_out
expect_err "ar-report: $D/lmdb: the dump is of a store whose owners are database roles: it loads only into PostgreSQL"
run test -e "$D/lmdb/data.mdb"
expect_exit 1
run ar-report --store "$(pg_store "e2e_${RUN}_${n}_copy")" --load <"$D/dump"
expect_exit 0
run ar-report --store "$(pg_store "e2e_${RUN}_${n}_copy")" --info
filter 's/ map_size=[0-9]*//'
expect_out 'nodes=4 hosts=node[1-4] slot=5m horizon=30d clock=2026-11-21T00:00:00Z clock_mode=simulated owners=role live=1 records=1 next_id=2 map_max=17179869184 format=10'

begin 'owners: with uid owners (the default) the client'"'"'s uid is the owner, whatever the role'
mkstore --nodes 4
own_roles
run as_role "$OWN_U1" ar-add start=+1h duration=1h
run ar-report --list
filter 's/.* owner=\([0-9]*\) .*/\1/'
expect_out "$ME"
run as_role "$OWN_U2" ar-del id=1
expect_exit 0
expect_out 'id=1 status=cancelled'
expect_check
own_drop
else
	for what in "with --owners role a reservation is its session's role's" \
	    'with --owners role a superuser or a member of ar_admin acts for every owner' \
	    'a store whose owners are roles moves between PostgreSQL stores' \
	    "with uid owners (the default) the client's uid is the owner"; do
		skip "owners: $what" 'needs PostgreSQL and psql (make pg-test)'
	done
fi
