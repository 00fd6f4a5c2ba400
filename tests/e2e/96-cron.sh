# 96-cron.sh - README's crontab and systemd units, taken from README as a
# user would copy them: the crontab's lines parse as cron(8) reads them
# and define PATH; the units parse (systemd-analyze verify where there is
# one, and always a parser of our own); and every ar command in them runs
# on a scratch store, exit 0 and nothing on stderr.

SRC=$(dirname "$TESTS")

# readme_block FIRST: README's code block (lines indented by 4) whose
# first line is FIRST, unindented, up to the prose after it or the next
# block that begins with a comment naming a file.
readme_block() {
	awk -v first="$1" '
	    on && /^    # \// { exit }
	    on && $0 != "" && !/^    / { exit }
	    $0 == "    " first { on = 1 }
	    on { print substr($0, 5) }' "$SRC/README" |
	    sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'
}

# cron_check FILE: cron(8)'s reading of a crontab: NAME=value, or five
# time fields and a command with no bare %; one line per fault.
cron_check() {
	awk '
	function field(v, lo, hi, names,    n, i, a, item, step, r, b) {
		n = split(v, a, ",")
		for (i = 1; i <= n; i++) {
			item = a[i]
			step = ""
			if (item ~ /\//) {
				step = item
				sub(/^[^\/]*\//, "", step)
				sub(/\/.*/, "", item)
				if (step !~ /^[0-9]+$/ || step + 0 < 1)
					return 0
			}
			if (item == "*")
				continue
			r = split(item, b, "-")
			if (r > 2 || !value(b[1], lo, hi, names) ||
			    (r == 2 && (!value(b[2], lo, hi, names) ||
			    num(b[2], names) < num(b[1], names))))
				return 0
		}
		return n > 0
	}
	function num(s, names) {
		return s ~ /^[0-9]+$/ ? s + 0 : index(names, tolower(s)) / 4 + 1
	}
	function value(s, lo, hi, names,    k) {
		if (s ~ /^[0-9]+$/)
			return s + 0 >= lo && s + 0 <= hi
		k = index(names, tolower(s))
		return length(s) == 3 && k > 0 && (k - 1) % 4 == 0
	}
	/^[ \t]*(#|$)/ { next }
	/^[A-Za-z_][A-Za-z0-9_]*[ \t]*=/ { next }
	{
		ok = NF >= 6 && field($1, 0, 59, "") && field($2, 0, 23, "") &&
		    field($3, 1, 31, "") &&
		    field($4, 1, 12, "jan feb mar apr may jun jul aug sep oct nov dec ") &&
		    field($5, 0, 7, "sun mon tue wed thu fri sat ")
		cmd = $0
		for (i = 1; i <= 5; i++)
			sub(/^[ \t]*[^ \t]+/, "", cmd)
		if (!ok)
			print "line " NR ": bad schedule: " $0
		else if (cmd ~ /(^|[^\\])%/)
			print "line " NR ": a bare % ends the command: " $0
	}' "$1"
}

# unit_check FILE: a systemd unit as our own parser reads it: known
# sections, known keys, absolute commands, a calendar that parses.
unit_check() {
	awk '
	BEGIN {
		split("Unit:Description Unit:Documentation Unit:After " \
		    "Unit:Requires Unit:Wants Service:Type Service:User " \
		    "Service:Group Service:Environment Service:ExecStart " \
		    "Service:UMask Timer:OnCalendar Timer:Persistent " \
		    "Timer:RandomizedDelaySec Timer:Unit Install:WantedBy", k, " ")
		for (i in k)
			known[k[i]] = 1
	}
	/^[ \t]*([#;]|$)/ { next }
	/^\[[A-Za-z]+\]$/ {
		sect = substr($0, 2, length($0) - 2)
		if ((stray = sect !~ /^(Unit|Service|Timer|Install)$/))
			print "line " NR ": unknown section " $0
		next
	}
	stray { next }
	{
		key = $0
		sub(/=.*/, "", key)
		val = substr($0, length(key) + 2)
		if (sect == "" || index($0, "=") == 0)
			print "line " NR ": not key=value in a section: " $0
		else if (!((sect ":" key) in known))
			print "line " NR ": unknown key " key " in [" sect "]"
		else if (key == "ExecStart" && val !~ /^\//)
			print "line " NR ": ExecStart not an absolute path: " val
		else if (key == "OnCalendar" && val !~ /^(minutely|hourly|daily|weekly|monthly)$/ &&
		    val !~ /^(\*|[0-9]+)-(\*|[0-9]+)-(\*|[0-9]+) ([*0-9\/]+):([*0-9\/]+)(:[*0-9\/]+)?$/ &&
		    val !~ /^\*:[0-9]+\/[0-9]+$/)
			print "line " NR ": OnCalendar we cannot read: " val
		else if (key == "Type" && val != "oneshot")
			print "line " NR ": a timer'"'"'s service is Type=oneshot"
	}' "$1"
}

# cron_store: a store with hosts, price classes and a reservation, for
# every job in the examples to find something to do.
cron_store() {
	mkstore --hosts 'cn[01-16]'
	ar-price --set >/dev/null <<'EOF'
class=1 name=premium price=100 ahead_min=0 ahead_max=1h limit=16
class=2 name=budget price=40 ahead_min=1h limit=12
EOF
	ar-add start=+2h duration=1h nodes=4 user=alice >/dev/null
	empty_slurm
	AR_SCONTROL=$D/scontrol
	export AR_SCONTROL
}

# run_jobs: each command line of $D/jobs, exit 0 and nothing on stderr,
# and the store still checks.
run_jobs() {
	while IFS= read -r job; do
		run sh -c "$job" </dev/null
		expect_exit 0
		expect_err </dev/null
	done <"$D/jobs"
	expect_check
}

begin 'cron: README has a crontab, every line as cron reads it, PATH set to where ar is installed'
readme_block "# ar's crontab: one cluster's store, the commands in /usr/local/bin" \
    >"$D/crontab"
[ -s "$D/crontab" ] || fail "README has no crontab"
run cron_check "$D/crontab"
expect_out
grep -q '^PATH=\(.*:\)*/usr/local/bin\(:.*\)*$' "$D/crontab" ||
    fail "the crontab sets no PATH holding /usr/local/bin"
grep -q '^AR_STORE=/' "$D/crontab" || fail "the crontab names no store"
for job in 'ar-del .*--purge' 'ar-del .*--forget' 'ar-price --update' \
    'ar-map --slurm'; do
	grep -Eq "^[^#A-Z].* $job" "$D/crontab" ||
	    fail "the crontab has no $job job"
done

# Each ar command of a pipeline runs; the others (sh, mail) are not ours.
begin 'cron: every ar command of the crontab runs on a store, exit 0, no message'
cron_store
readme_block "# ar's crontab: one cluster's store, the commands in /usr/local/bin" |
    awk '!/^[ \t]*(#|$)/ && !/^[A-Za-z_]+=/ {
	for (i = 1; i <= 5; i++) sub(/^[ \t]*[^ \t]+[ \t]*/, "")
	n = split($0, p, "|")
	for (i = 1; i <= n; i++) if (p[i] ~ /^ *ar-/) print p[i] }' >"$D/jobs"
[ "$(wc -l <"$D/jobs")" -ge 4 ] || fail "fewer than four ar jobs in the crontab"
run_jobs

begin 'cron: the parser of crontabs refuses what cron would not read'
cat >"$D/bad" <<'EOF'
60 * * * * ar-del -q --purge
* 24 * * * ar-del -q --purge
* * 0 * * ar-del -q --purge
*/0 * * * * ar-del -q --purge
* * * foo * ar-del -q --purge
5-1 * * * * ar-del -q --purge
0 6 * * * ar-report --usage --from now-1d | mail -s 50% root
0 6 * * *
PATH=/usr/bin
0 6 * jan-mar mon,fri ar-del -q --purge
EOF
run cron_check "$D/bad"
expect_out <<'EOF'
line 1: bad schedule: 60 * * * * ar-del -q --purge
line 2: bad schedule: * 24 * * * ar-del -q --purge
line 3: bad schedule: * * 0 * * ar-del -q --purge
line 4: bad schedule: */0 * * * * ar-del -q --purge
line 5: bad schedule: * * * foo * ar-del -q --purge
line 6: bad schedule: 5-1 * * * * ar-del -q --purge
line 7: a bare % ends the command: 0 6 * * * ar-report --usage --from now-1d | mail -s 50% root
line 8: bad schedule: 0 6 * * *
EOF

begin 'systemd: README has a service and its timer, and they parse'
readme_block '# /etc/systemd/system/ar-nightly.service' >"$D/ar-nightly.service"
readme_block '# /etc/systemd/system/ar-nightly.timer' >"$D/ar-nightly.timer"
for u in service timer; do
	[ -s "$D/ar-nightly.$u" ] || fail "README has no ar-nightly.$u"
	run unit_check "$D/ar-nightly.$u"
	expect_out
done
grep -q '^OnCalendar=' "$D/ar-nightly.timer" || fail 'the timer has no OnCalendar'
grep -q '^WantedBy=timers.target$' "$D/ar-nightly.timer" ||
    fail 'the timer is not wanted by timers.target'
if command -v systemd-analyze >/dev/null 2>&1; then
	# verify looks for the commands: here, the ones just built.
	sed -i "s#=/usr/local/bin/#=$AR_BIN/#" "$D/ar-nightly.service"
	run systemd-analyze verify "$D/ar-nightly.service" "$D/ar-nightly.timer"
	expect_exit 0
	expect_out
	expect_err
fi

begin 'systemd: the service runs its commands on a store, exit 0, no message'
cron_store
readme_block '# /etc/systemd/system/ar-nightly.service' |
    sed -n 's#^ExecStart=/usr/local/bin/##p' >"$D/jobs"
[ "$(wc -l <"$D/jobs")" -ge 2 ] || fail 'the service runs fewer than two commands'
run_jobs

begin 'systemd: our parser of units refuses what systemd would not read'
cat >"$D/bad.timer" <<'EOF'
[Unit]
Description=x
[Timers]
OnCalendar=*-*-* 02:15:00
[Timer]
Persistant=true
OnCalendar=at two
[Service]
ExecStart=ar-del -q --purge
Type=simple
loose line
EOF
run unit_check "$D/bad.timer"
expect_out <<'EOF'
line 3: unknown section [Timers]
line 6: unknown key Persistant in [Timer]
line 7: OnCalendar we cannot read: at two
line 9: ExecStart not an absolute path: ar-del -q --purge
line 10: a timer's service is Type=oneshot
line 11: not key=value in a section: loose line
EOF
