# 92-json-types.sh - one JSON type per field (format/RECORDS.md): a field
# is a number, or null where a figure is not known, or a string, the same
# whatever produced it: the store, the command line, key=value or JSON
# input, a JSON string or a JSON number, a command that reads the field or
# one that passes it through.

# json_types FILE: "key type" for every field of every JSON line in FILE,
# once each; type is string, number, null or other.
json_types() {
	awk '
	# The end of the string that opens at i, the index of its quote.
	function strend(s, i) {
		for (i++; substr(s, i, 1) != "\""; i++)
			if (substr(s, i, 1) == "\\")
				i++
		return i
	}
	{
		s = $0
		n = length(s)
		for (i = 2; i <= n; i++) {
			if (substr(s, i, 1) != "\"")
				continue
			j = strend(s, i)
			key = substr(s, i + 1, j - i - 1)
			i = j + 2
			c = substr(s, i, 1)
			if (c == "\"") {
				type = "string"
				i = strend(s, i) + 1
			} else {
				type = c == "n" ? "null" : c ~ /[-0-9]/ ? "number" : "other"
				while (i <= n && substr(s, i, 1) !~ /[,}]/)
					i++
			}
			print key, type
		}
	}' "$1" | sort -u
}

begin 'types: a field has one JSON type whatever produced it'
mkstore --hosts 'cn[1-8]'
# One reservation from before the store had price classes: class none.
run ar-add start=+7h duration=1h
expect_exit 0
printf '%s\n' 'class=1 name=late price=4 ahead_min=0s ahead_max=1h limit=8' \
    'class=2 name=early price=2 ahead_min=1h limit=6' >"$D/classes"
run ar-price --set <"$D/classes"
expect_exit 0
# The same request fields from the command line, as JSON strings and as
# JSON numbers; and fields a command only passes through.
{
	ar-add --json start=+30m duration=1h nodes=2 jobs=2 user=u job=j \
	    owner=7 free=1 copy=9
	printf '%s\n' '{"start":"+2h","duration":"1h","nodes":"3","jobs":"1","class":"2","price":"5"}' |
	    ar-add --json
	printf '%s\n' '{"start":"+3h","duration":"1h","nodes":3,"jobs":1,"class":2,"price":5}' |
	    ar-add --json
	ar-add --json start=+4h duration=1h hosts=cn1 user=u job=h
	ar-add --json start=+4h duration=1h hosts=cn1 conflict=0
	ar-add --json start=+5h duration=1h nodes=9 id=77 class=3 price=1
	ar-search --json start=+1h duration=1h nodes=2 id=1 owner=0
	# A moldable request: the level found is numbers.
	ar-add --json start=+6h duration=1h nodes=8:2,2:1
	ar-search --json start=+6h duration=1h nodes=8:2,2:1
	ar-suggest --json start=+6h duration=1h nodes=8:2,2:1
	printf '%s\n' '{"start":"+1h","duration":"1h","id":1,"owner":0}' |
	    ar-search --json
	ar-suggest --json start=+1h duration=1h nodes=8 id=1 -k 2
	ar-price --json start=+6h duration=1h nodes=2 id=4
	ar-map --json id=1 nodes=2
	printf '%s\n' '{"id":"2","nodes":"2"}' '{"id":3,"nodes":2}' |
	    ar-map --json
	ar-map --json --plan
	ar-del --json id=3 free=2
	printf '%s\n' '{"user":"u","job":"h","copy":"1"}' | ar-del --json
	ar-report --json --all
	ar-report --json --info
	ar-report --json --free
	ar-price --json --show
	ar-report --json --usage --from 2026-11-21T00:00Z --to +8h --window 2h
	ar-report --json --usage --from 2026-11-21T00:00Z --to +8h --by user
	ar-report --json --usage --from 2026-11-21T00:00Z --to +8h --by class
	# History forgotten: figures not known.
	ar-del --json -q --forget 2026-11-21T02:00Z --now 2026-11-22T00:00Z
	ar-report --json --usage --from 2026-11-21T00:00Z --to 2026-11-21T02:00Z
	printf '%s\n' '{"price":100,"mean":10,"sd":1.5}' \
	    '{"price":"60","mean":"13","sd":"2"}' | ar-price --json --capacity 40
} >"$D/all" 2>"$D/err"
run cat "$D/err"
expect_out
run json_types "$D/all"
keep types
# Every field of one type, but a figure that may be null.
run awk '{ n[$1]++; t[$1] = t[$1] " " $2 }
    END { for (k in n) if (n[k] > 1 && t[k] != " null number") print k t[k] }' \
    "$D/types"
expect_out
run grep -E '^(id|benefit|nodes|jobs|free|copy|owner|class|price|conflict|refused|awt|acceptance|utilisation|limit|protection|mean|sd) ' "$D/types"
expect_out <<'EOF'
acceptance null
acceptance number
awt null
awt number
benefit number
class null
class number
conflict number
copy number
free number
id number
jobs number
limit number
mean number
nodes number
owner number
price number
protection number
refused null
refused number
sd number
utilisation null
utilisation number
EOF
expect_check
