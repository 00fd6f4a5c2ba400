# 91-typos.sh - a field name that is a near miss of one the commands know
# is bad input, in every command that reads records, key=value and JSON
# alike; labels far from every field, and those marked x-, pass.

begin 'typos: node=32 books nothing: bad input naming the field meant; the other lines go on'
mkstore --nodes 64
run ar-add <<'EOF'
start=+1h duration=1h node=32
start=+1h duration=1h Nodes=32
start=+1h duration=1h NodeCnt=4
start=+1h Duration=2h nodes=2
strat=+1h duration=1h nodes=2
start=+1h duration=1h nodes=2 user=alice
EOF
expect_exit 2
expect_out 'start=2026-11-21T01:00:00Z duration=1h nodes=2 user=alice id=1 end=2026-11-21T02:00:00Z free=64 status=granted'
expect_err <<'EOF'
ar-add: line 1: unknown field 'node' (did you mean 'nodes'?)
ar-add: line 2: unknown field 'Nodes' (did you mean 'nodes'?)
ar-add: line 3: unknown field 'NodeCnt' (did you mean 'nodes'?)
ar-add: line 4: unknown field 'Duration' (did you mean 'duration'?)
ar-add: line 5: unknown field 'strat' (did you mean 'start'?)
EOF
run ar-add start=+1h duration=1h node=32
expect_exit 2
expect_out
expect_err "ar-add: arguments: unknown field 'node' (did you mean 'nodes'?)"
run ar-report --all
expect_out "id=1 user=alice start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=2 owner=$ME status=granted running=no duration=1h created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z"
expect_check

begin 'typos: labels pass untouched; a name marked x- passes whatever it looks like'
mkstore --nodes 8
run ar-add start=+1h duration=1h ticket=OPS-12 note=x team=hpc x-node=rack4 X-Nodes=2 queue=q
expect_exit 0
expect_out 'start=2026-11-21T01:00:00Z duration=1h ticket=OPS-12 note=x team=hpc x-node=rack4 X-Nodes=2 queue=q id=1 end=2026-11-21T02:00:00Z free=8 status=granted'
expect_check

begin 'typos: every command that reads records refuses them, JSON too'
mkstore --nodes 8
run ar-add start=+1h duration=1h
for cmd in ar-search ar-suggest 'ar-price' 'ar-add --modify' \
    'ar-add --confirm' ar-del ar-map 'ar-report --list'; do
	# shellcheck disable=SC2086
	run $cmd id=1 start=+1h duration=1h nodes=1 Hold=1
	expect_exit 2
	expect_out
	expect_err "${cmd%% *}: arguments: unknown field 'Hold' (did you mean 'hold'?)"
	# ar-report reads its filter from the arguments only.
	[ "$cmd" = 'ar-report --list' ] && continue
	# shellcheck disable=SC2086
	run $cmd --json <<'EOF'
{"id":1,"start":"+1h","duration":"1h","nodez":1}
EOF
	expect_exit 2
	expect_out
	expect_err "${cmd%% *}: line 1: unknown field 'nodez' (did you mean 'nodes'?)"
done
run ar-price --set <<'EOF'
class=1 price=100 ahead_min=0 limti=8
EOF
expect_exit 2
expect_err "ar-price: line 1: unknown field 'limti' (did you mean 'limit'?)"
run ar-price --capacity 8 <<'EOF'
price=100 mean=1 SD=1
price=50
EOF
expect_exit 2
expect_err "ar-price: line 1: unknown field 'SD' (did you mean 'sd'?)"
run ar-report --all
expect_out "id=1 start=2026-11-21T01:00:00Z end=2026-11-21T02:00:00Z nodes=1 owner=$ME status=granted running=no duration=1h created=2026-11-21T00:00:00Z changed=2026-11-21T00:00:00Z"
expect_check

# Every field a command prints is one of the commands' fields: a record
# flows through the others untouched.  Each name printed here is given
# back to ar-search, which must not take it for a typo.
begin 'typos: no field any command prints is taken for a typo'
mkstore --hosts 'cn[1-8]'
printf '%s\n' 'class=1 name=a price=100 ahead_min=0 ahead_max=1h limit=8' \
    'class=2 name=b price=50 ahead_min=1h limit=6 min=1' | ar-price --set
{
	ar-add start=+2h duration=1h nodes=2 user=u job=j client_key=k
	ar-add start=+2h duration=1h nodes=2 user=u job=j client_key=k
	ar-add earliest=+2h latest=+3h duration=1h nodes=2 jobs=2 --partial
	ar-add start=+3h duration=1h nodes=1 every=daily count=2
	ar-add start=+3h duration=1h nodes=1 every=daily until=+2d
	ar-add start=+3h duration=1h hosts=cn8 hold=10m
	ar-add start=+3h duration=1h hosts=cn8
	ar-add start=+3h duration=1h nodes=8
	ar-add start=+5h duration=1h nodes=6
	ar-add --modify id=1 nodes=1
	ar-add --confirm id=8
	ar-del id=2
	ar-suggest start=+2h duration=1h nodes=8 -k 2
	ar-search start=+2h duration=1h nodes=8
	ar-price start=+2h duration=1h nodes=1
	ar-price --show
	ar-price --update
	ar-price --capacity 8 <<'EOF'
price=100 mean=1 sd=1
price=50
EOF
	ar-map --plan
	printf 'id=1\nid=99\n' | ar-map
	ar-report --all
	ar-report --info
	ar-report --free
	ar-report --usage --from now-1h --to +4h
	ar-report --usage --by class --from now-1h --to +4h
	ar-report --usage --by user --from now-1h --to +4h
	ar-report --dump | head -2
	ar-report --dump | tail -1
	ar-del --now +1d --purge
	ar-del --forget now-1h
} >"$D/all" 2>/dev/null
tr ' ' '\n' <"$D/all" | sed -n 's/=.*//p' | sort -u >"$D/names"
run sh -c 'wc -l <"$1"' sh "$D/names"
[ "$(cat "$D/.out")" -ge 80 ] || fail "only $(cat "$D/.out") names printed"
while read -r k; do
	case $k in start | duration) continue ;; esac
	printf 'start=+1h duration=1h %s=1\n' "$k"
done <"$D/names" >"$D/back"
run ar-search <"$D/back"
grep 'unknown field' "$D/.err" >"$D/typos"
run cat "$D/typos"
expect_out
