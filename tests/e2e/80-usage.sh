# 80-usage.sh - options, usage, versions, write errors and the exit codes.


# (The fields --help lists after the usage are 81-help.sh's.)
for c in ar-search ar-add ar-del ar-suggest ar-report ar-price; do
	begin "usage: $c --help prints the usage on stdout, exit 0"
	run $c --help
	expect_exit 0
	filter '/^reads:/,$d'
	usage_of $c >"$D/usage"
	expect_out <"$D/usage"
	expect_err
done

begin 'usage: an unknown long option is bad usage, usage on stderr'
run ar-add --bogus
expect_exit 2
expect_out
{ echo "ar-add: unrecognized option '--bogus'"; usage_of ar-add; } >"$D/usage"
expect_err <"$D/usage"

begin 'usage: an unknown short option is bad usage, usage on stderr'
run ar-report -q
expect_exit 2
expect_out
{ echo "ar-report: invalid option -- 'q'"; usage_of ar-report; } >"$D/usage"
expect_err <"$D/usage"

begin 'usage: --version names the command and the version'
run ar-suggest --version
expect_exit 0
expect_out 'ar-suggest (ar) 0.2.0'
expect_err
run ar-del -V
expect_exit 0
expect_out 'ar-del (ar) 0.2.0'

begin 'usage: a bad --now is bad usage'
mkstore
run ar-search --now tomorrow start=+1h duration=1h
expect_exit 2
expect_out
expect_err "ar-search: option '--now': invalid time 'tomorrow' (use 2026-11-21T10:00Z, @EPOCH or now+DURATION)"
expect_check

begin 'usage: a bad --wait is bad usage'
mkstore
run ar-add --wait soon start=+1h duration=1h
expect_exit 2
expect_out
expect_err "ar-add: option '--wait': invalid duration 'soon'"
run ar-report --all
expect_out
expect_check

begin 'usage: --wait 0 and AR_WAIT=2s work when nobody holds the lock'
mkstore
run ar-add --wait 0 start=+1h duration=1h
expect_exit 0
run env AR_WAIT=2s ar-add start=+2h duration=1h
expect_exit 0
expect_out 'start=2026-11-21T02:00:00Z duration=1h id=2 end=2026-11-21T03:00:00Z free=64 status=granted'
expect_check

if [ -c /dev/full ]; then
	begin 'usage: a write error on stdout is a store error, exit 3'
	mkstore
	run sh -c 'ar-report --info > /dev/full'
	expect_exit 3
	expect_out
	expect_err 'ar-report: write error: No space left on device'
	run sh -c 'ar-search start=+1h duration=1h > /dev/full'
	expect_exit 3
	expect_err 'ar-search: write error: No space left on device'
	expect_check
else
	skip 'usage: a write error on stdout' 'no /dev/full'
fi

# DESIGN.md: the fields may be given as arguments, and --json reads and
# writes JSON Lines; arguments are key=value whatever the output syntax.
begin 'usage: --json with the fields as arguments writes JSON'
mkstore
run ar-add start=+1h duration=1h
run ar-del --json id=1
expect_exit 0
expect_out '{"id":1,"status":"cancelled"}'
expect_err
expect_check
