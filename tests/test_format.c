/*
 * test_format.c - table-driven tests of format/: times, durations,
 * numbers, records, field names and host lists.  Each table pairs an input with the
 * canonical output it must give, or with the exact message it must fail
 * with.
 * Nothing here reads the clock: `now` is the fixed NOW below.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "format.h"

#define NOW INT64_C(1763719200)		/* 2025-11-21T10:00:00Z */
#define NELEM(a) (sizeof(a) / sizeof((a)[0]))
#define KV 0
#define JS AR_REC_JSON

/* Long names, and arrays 31 and 32 levels deep inside a record. */
#define A16 "aaaaaaaaaaaaaaaa"
#define A64 A16 A16 A16 A16
#define O8 "[[[[[[[["
#define C8 "]]]]]]]]"
#define DEEP31 O8 O8 O8 "[[[[[[[1]]]]]]]" C8 C8 C8
#define DEEP32 "[" DEEP31 "]"

static int npass, nfail, nrows;

/* Count one check; on failure say what was tested, got and wanted. */
static void
check(int ok, const char *what, const char *in, const char *got,
    const char *want)
{
	if (ok) {
		npass++;
		return;
	}
	nfail++;
	printf("FAIL %s '%s'\n  got:  '%s'\n  want: '%s'\n", what, in, got,
	    want);
}

static void
checkstr(const char *what, const char *in, const char *got, const char *want)
{
	check(strcmp(got, want) == 0, what, in, got, want);
}

/* Good times: input and its value as ar_time_format prints it. */
static const struct {
	int64_t now;
	const char *in, *want;
} times[] = {
	{ NOW, "2026-11-21T10:00:00Z", "2026-11-21T10:00:00Z" },
	{ NOW, "2026-11-21T10:00Z", "2026-11-21T10:00:00Z" },
	{ NOW, "2026-11-21 10:00Z", "2026-11-21T10:00:00Z" },
	{ NOW, "2026-11-21 10:00:07Z", "2026-11-21T10:00:07Z" },
	{ NOW, "2026-11-21T10:00:00+02:00", "2026-11-21T08:00:00Z" },
	{ NOW, "2026-11-21T10:00:00-0130", "2026-11-21T11:30:00Z" },
	{ NOW, "2026-11-21T10:00+0000", "2026-11-21T10:00:00Z" },
	{ NOW, "2026-11-21T10:00-00:00", "2026-11-21T10:00:00Z" },
	{ NOW, "2026-11-21T00:30+01:00", "2026-11-20T23:30:00Z" },
	{ NOW, "2026-03-01T00:30+01:00", "2026-02-28T23:30:00Z" },
	{ NOW, "2024-03-01T00:30+01:00", "2024-02-29T23:30:00Z" },
	{ NOW, "2026-12-31T23:59:59-23:59", "2027-01-01T23:58:59Z" },
	{ NOW, "1970-01-01T23:59+23:59", "1970-01-01T00:00:00Z" },
	{ NOW, "1970-01-01T00:00:00Z", "1970-01-01T00:00:00Z" },
	{ NOW, "9999-12-31T23:59:59Z", "9999-12-31T23:59:59Z" },
	{ NOW, "2024-02-29T12:00Z", "2024-02-29T12:00:00Z" },
	{ NOW, "2000-02-29T00:00Z", "2000-02-29T00:00:00Z" },
	{ NOW, "2025-12-31T23:59:59Z", "2025-12-31T23:59:59Z" },
	{ NOW, "2026-01-01T00:00:00Z", "2026-01-01T00:00:00Z" },
	{ NOW, "2026-04-30T00:00Z", "2026-04-30T00:00:00Z" },
	{ NOW, "2038-01-19T03:14:08Z", "2038-01-19T03:14:08Z" },
	{ NOW, "@0", "1970-01-01T00:00:00Z" },
	{ NOW, "@1700000000", "2023-11-14T22:13:20Z" },
	{ NOW, "@253402300799", "9999-12-31T23:59:59Z" },
	{ NOW, "now", "2025-11-21T10:00:00Z" },
	{ NOW, "now+2h", "2025-11-21T12:00:00Z" },
	{ NOW, "now-90m", "2025-11-21T08:30:00Z" },
	{ NOW, "+90m", "2025-11-21T11:30:00Z" },
	{ NOW, "now+1w", "2025-11-28T10:00:00Z" },
	{ NOW, "now+1d12h", "2025-11-22T22:00:00Z" },
	{ NOW, "now+01:00:00", "2025-11-21T11:00:00Z" },
	{ NOW, "now-1-00", "2025-11-20T10:00:00Z" },
	{ NOW, "now+36525d", "2125-11-22T10:00:00Z" },
	/* Slurm's forms: a count and a unit spelled out. */
	{ NOW, "now+1hour", "2025-11-21T11:00:00Z" },
	{ NOW, "now+2hours", "2025-11-21T12:00:00Z" },
	{ NOW, "now+2days", "2025-11-23T10:00:00Z" },
	{ NOW, "now+1day", "2025-11-22T10:00:00Z" },
	{ NOW, "now+30minutes", "2025-11-21T10:30:00Z" },
	{ NOW, "now+1minute", "2025-11-21T10:01:00Z" },
	{ NOW, "now+90seconds", "2025-11-21T10:01:30Z" },
	{ NOW, "now+1second", "2025-11-21T10:00:01Z" },
	{ NOW, "now+1week", "2025-11-28T10:00:00Z" },
	{ NOW, "now+2weeks", "2025-12-05T10:00:00Z" },
	{ NOW, "now+1hours", "2025-11-21T11:00:00Z" },
	{ NOW, "now+2hour", "2025-11-21T12:00:00Z" },
	{ NOW, "now-3hours", "2025-11-21T07:00:00Z" },
	{ NOW, "now-1day", "2025-11-20T10:00:00Z" },
	{ NOW, "+45minutes", "2025-11-21T10:45:00Z" },
	{ NOW, "now+010minutes", "2025-11-21T10:10:00Z" },
	{ NOW, "now+36525days", "2125-11-22T10:00:00Z" },
	{ 0, "now", "1970-01-01T00:00:00Z" },
	{ 0, "now+1s", "1970-01-01T00:00:01Z" },
	{ INT64_C(253402300799), "now", "9999-12-31T23:59:59Z" },
};

/* Bad times and the exact message. */
static const struct {
	int64_t now;
	const char *in, *err;
} badtimes[] = {
	{ NOW, "", "empty time" },
	{ NOW, "2026-13-01T00:00Z",
	    "invalid month 13 in '2026-13-01T00:00Z'" },
	{ NOW, "2026-00-10T00:00Z",
	    "invalid month 0 in '2026-00-10T00:00Z'" },
	{ NOW, "2026-11-21T10:00",
	    "missing time zone in '2026-11-21T10:00' (add Z or an offset)" },
	{ NOW, "2026-11-21T10:00:00",
	    "missing time zone in '2026-11-21T10:00:00' (add Z or an "
	    "offset)" },
	{ NOW, "2026-11-21", "missing time of day in '2026-11-21'" },
	{ NOW, "2026-02-29T00:00Z", "invalid day 29 in '2026-02-29T00:00Z'" },
	{ NOW, "2100-02-29T00:00Z", "invalid day 29 in '2100-02-29T00:00Z'" },
	{ NOW, "2026-04-31T00:00Z", "invalid day 31 in '2026-04-31T00:00Z'" },
	{ NOW, "2026-01-00T00:00Z", "invalid day 0 in '2026-01-00T00:00Z'" },
	{ NOW, "2026-01-32T00:00Z", "invalid day 32 in '2026-01-32T00:00Z'" },
	{ NOW, "1969-12-31T23:59:59Z",
	    "invalid year 1969 in '1969-12-31T23:59:59Z'" },
	{ NOW, "0000-01-01T00:00Z", "invalid year 0 in '0000-01-01T00:00Z'" },
	{ NOW, "2026-11-21T24:00Z", "invalid hour 24 in '2026-11-21T24:00Z'" },
	{ NOW, "2026-11-21T10:60Z",
	    "invalid minute 60 in '2026-11-21T10:60Z'" },
	{ NOW, "2026-11-21T10:00:60Z",
	    "invalid second 60 in '2026-11-21T10:00:60Z'" },
	{ NOW, "2026-11-21T10:00:00.5Z",
	    "fractions of a second are not supported in "
	    "'2026-11-21T10:00:00.5Z'" },
	{ NOW, "2026-11-21T10:00:00,5Z",
	    "fractions of a second are not supported in "
	    "'2026-11-21T10:00:00,5Z'" },
	{ NOW, "2026-11-21T10:00+24:00",
	    "invalid time zone offset in '2026-11-21T10:00+24:00'" },
	{ NOW, "2026-11-21T10:00+01:60",
	    "invalid time zone offset in '2026-11-21T10:00+01:60'" },
	{ NOW, "2026-11-21T10:00+1",
	    "invalid time '2026-11-21T10:00+1' (use 2026-11-21T10:00Z, @EPOCH "
	    "or now+DURATION)" },
	{ NOW, "2026-11-21T10:00+01:0",
	    "invalid time '2026-11-21T10:00+01:0' (use 2026-11-21T10:00Z, "
	    "@EPOCH or now+DURATION)" },
	{ NOW, "2026-11-21t10:00Z",
	    "invalid time '2026-11-21t10:00Z' (use 2026-11-21T10:00Z, @EPOCH "
	    "or now+DURATION)" },
	{ NOW, "2026-11-21T10:00z",
	    "invalid time '2026-11-21T10:00z' (use 2026-11-21T10:00Z, @EPOCH "
	    "or now+DURATION)" },
	{ NOW, "2026-11-21T10:00Z ",
	    "invalid time '2026-11-21T10:00Z ' (use 2026-11-21T10:00Z, @EPOCH "
	    "or now+DURATION)" },
	{ NOW, " 2026-11-21T10:00Z",
	    "invalid time ' 2026-11-21T10:00Z' (use 2026-11-21T10:00Z, @EPOCH "
	    "or now+DURATION)" },
	{ NOW, "26-11-21T10:00Z",
	    "invalid time '26-11-21T10:00Z' (use 2026-11-21T10:00Z, @EPOCH "
	    "or now+DURATION)" },
	{ NOW, "2026-1-21T10:00Z",
	    "invalid time '2026-1-21T10:00Z' (use 2026-11-21T10:00Z, @EPOCH "
	    "or now+DURATION)" },
	{ NOW, "2026-11-21T1:00Z",
	    "invalid time '2026-11-21T1:00Z' (use 2026-11-21T10:00Z, @EPOCH "
	    "or now+DURATION)" },
	{ NOW, "2026-11-21T10Z",
	    "invalid time '2026-11-21T10Z' (use 2026-11-21T10:00Z, @EPOCH "
	    "or now+DURATION)" },
	{ NOW, "-2h",
	    "invalid time '-2h' (use 2026-11-21T10:00Z, @EPOCH or "
	    "now+DURATION)" },
	{ NOW, "tomorrow",
	    "invalid time 'tomorrow' (use 2026-11-21T10:00Z, @EPOCH or "
	    "now+DURATION)" },
	{ NOW, "2026-11-21T10:00:00Zxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
	    "invalid time '2026-11-21T10:00:00Zxxxxxxxxxxxxxxxxxxxx...' (use "
	    "2026-11-21T10:00Z, @EPOCH or now+DURATION)" },
	{ NOW, "2026-11-21\001\n",
	    "invalid time '2026-11-21?\?' (use 2026-11-21T10:00Z, @EPOCH or "
	    "now+DURATION)" },
	{ NOW, "2026-11-21T10:00Z\xc3\xa9",
	    "invalid time '2026-11-21T10:00Z?\?' (use 2026-11-21T10:00Z, "
	    "@EPOCH or now+DURATION)" },
	{ NOW, "1970-01-01T00:00+00:01",
	    "time out of range in '1970-01-01T00:00+00:01'" },
	{ NOW, "9999-12-31T23:59-00:01",
	    "time out of range in '9999-12-31T23:59-00:01'" },
	{ NOW, "@-1", "invalid epoch time '@-1' (0 to 253402300799)" },
	{ NOW, "@", "invalid epoch time '@' (0 to 253402300799)" },
	{ NOW, "@01", "invalid epoch time '@01' (0 to 253402300799)" },
	{ NOW, "@+5", "invalid epoch time '@+5' (0 to 253402300799)" },
	{ NOW, "@1.5", "invalid epoch time '@1.5' (0 to 253402300799)" },
	{ NOW, "@253402300800",
	    "invalid epoch time '@253402300800' (0 to 253402300799)" },
	{ NOW, "@99999999999999999999999",
	    "invalid epoch time '@99999999999999999999999' (0 to "
	    "253402300799)" },
	{ NOW, "now+", "empty duration" },
	{ NOW, "now+90", "duration needs a unit: '90'" },
	{ NOW, "+90", "duration needs a unit: '90'" },
	{ NOW, "now+0s", "duration must be positive: '0s'" },
	{ NOW, "now+ 2h", "invalid duration ' 2h'" },
	{ NOW, "nowish",
	    "invalid time 'nowish' (use now, now+DURATION or now-DURATION)" },
	{ NOW, "now 2h",
	    "invalid time 'now 2h' (use now, now+DURATION or now-DURATION)" },
	{ NOW, "Now",
	    "invalid time 'Now' (use 2026-11-21T10:00Z, @EPOCH or "
	    "now+DURATION)" },
	{ NOW, "now+2fortnights", "unknown unit in '2fortnights' (use w d h "
	    "m s, or seconds, minutes, hours, days, weeks)" },
	{ NOW, "now+1Hour", "unknown unit in duration '1Hour' (use w d h m "
	    "s)" },
	{ NOW, "now+1hourss", "unknown unit in '1hourss' (use w d h m s, or "
	    "seconds, minutes, hours, days, weeks)" },
	{ NOW, "now+1 hour", "unknown unit in duration '1 hour' (use w d h m "
	    "s)" },
	{ NOW, "now+hour", "invalid duration 'hour'" },
	{ NOW, "now+0hours", "duration must be positive: '0hours'" },
	{ NOW, "now+36526days",
	    "duration longer than 100 years: '36526days'" },
	{ NOW, "now+99999999999999999999weeks",
	    "duration longer than 100 years: '99999999999999999999weeks'" },
	{ NOW, "now+1hour30minutes", "invalid duration '1hour30minutes'" },
	{ NOW, "now-36500days", "time out of range in 'now-36500days'" },
	{ NOW, "now-36500d", "time out of range in 'now-36500d'" },
	{ INT64_C(253402300799), "now+1s", "time out of range in 'now+1s'" },
	{ -1, "now", "time out of range in 'now'" },
	{ INT64_MAX, "now+1s", "time out of range in 'now+1s'" },
	{ INT64_MIN, "now-1s", "time out of range in 'now-1s'" },
};

/* Good durations and their canonical form. */
static const struct {
	const char *in, *want;
} durs[] = {
	{ "90m", "1h30m" },
	{ "2h", "2h" },
	{ "1d12h", "1d12h" },
	{ "1h30m15s", "1h30m15s" },
	{ "45s", "45s" },
	{ "1w", "7d" },
	{ "1w2d3h4m5s", "9d3h4m5s" },
	{ "3600s", "1h" },
	{ "86400s", "1d" },
	{ "61m", "1h1m" },
	{ "0h1s", "1s" },
	{ "007m", "7m" },
	{ "1d0s", "1d" },
	{ "01:00:00", "1h" },
	{ "1:02:03", "1h2m3s" },
	{ "100:00:00", "4d4h" },
	{ "0:00:01", "1s" },
	{ "1-00", "1d" },
	{ "1-12", "1d12h" },
	{ "1-12:30", "1d12h30m" },
	{ "1-12:30:15", "1d12h30m15s" },
	{ "0-0:0:1", "1s" },
	{ "5217w", "36519d" },
	{ "36525d", "36525d" },
	{ "3155760000s", "36525d" },
	{ "876600:00:00", "36525d" },
	{ "36524-23:59:59", "36524d23h59m59s" },
};

static const struct {
	const char *in, *err;
} baddurs[] = {
	{ "", "empty duration" },
	{ "90", "duration needs a unit: '90'" },
	{ "1h30", "duration needs a unit: '1h30'" },
	{ "10:30",
	    "ambiguous duration '10:30' (use HH:MM:SS, or units as in 1h30m)" },
	{ "0s", "duration must be positive: '0s'" },
	{ "0w0d0h0m0s", "duration must be positive: '0w0d0h0m0s'" },
	{ "0:00:00", "duration must be positive: '0:00:00'" },
	{ "0-0", "duration must be positive: '0-0'" },
	{ "30m1h", "units out of order in duration '30m1h'" },
	{ "1s1w", "units out of order in duration '1s1w'" },
	{ "1h1h", "repeated unit in duration '1h1h'" },
	{ "5x", "unknown unit in duration '5x' (use w d h m s)" },
	{ "5H", "unknown unit in duration '5H' (use w d h m s)" },
	{ "1.5h", "unknown unit in duration '1.5h' (use w d h m s)" },
	{ "1y", "unknown unit in duration '1y' (use w d h m s)" },
	{ "h", "invalid duration 'h'" },
	{ "-5m", "invalid duration '-5m'" },
	{ "+5m", "invalid duration '+5m'" },
	{ " 5m", "invalid duration ' 5m'" },
	{ "5m ", "invalid duration '5m '" },
	{ "1h 30m", "invalid duration '1h 30m'" },
	{ "1hm", "invalid duration '1hm'" },
	{ "36525d1s", "duration longer than 100 years: '36525d1s'" },
	{ "3155760001s", "duration longer than 100 years: '3155760001s'" },
	{ "5218w", "duration longer than 100 years: '5218w'" },
	{ "99999999999999999999999s",
	    "duration longer than 100 years: '99999999999999999999999s'" },
	{ "9999999999999999w9999999999999999d",
	    "duration longer than 100 years: "
	    "'9999999999999999w9999999999999999d'" },
	{ "876600:00:01", "duration longer than 100 years: '876600:00:01'" },
	{ "1-24", "hours must be below 24 in duration '1-24'" },
	{ "1:60:00", "minutes must be below 60 in duration '1:60:00'" },
	{ "1:00:60", "seconds must be below 60 in duration '1:00:60'" },
	{ "1-1:60", "minutes must be below 60 in duration '1-1:60'" },
	{ "1-1:1:99999999999",
	    "seconds must be below 60 in duration '1-1:1:99999999999'" },
	{ "1:2:3:4", "invalid duration '1:2:3:4'" },
	{ "1-", "invalid duration '1-'" },
	{ "1-2:", "invalid duration '1-2:'" },
	{ ":30", "invalid duration ':30'" },
	{ "1::00", "invalid duration '1::00'" },
	{ "1-2-3", "invalid duration '1-2-3'" },
	{ "1:00:00x", "invalid duration '1:00:00x'" },
	{ "1:00x", "invalid duration '1:00x'" },
	{ "1h\001", "invalid duration '1h?'" },
};

/* ar_time_format and ar_duration_format of chosen values. */
static const struct {
	int64_t v;
	const char *want;
} timefmts[] = {
	{ 0, "1970-01-01T00:00:00Z" },
	{ 1700000000, "2023-11-14T22:13:20Z" },
	{ 951782400, "2000-02-29T00:00:00Z" },
	{ -1, "1969-12-31T23:59:59Z" },
	{ INT64_C(253402300799), "9999-12-31T23:59:59Z" },
	{ INT64_C(253402300800), "10000-01-01T00:00:00Z" },
	{ INT64_MAX, "292277026596-12-04T15:30:07Z" },
	{ INT64_MIN, "-292277022657-01-27T08:29:52Z" },
}, durfmts[] = {
	{ 0, "0s" },
	{ 1, "1s" },
	{ 59, "59s" },
	{ 60, "1m" },
	{ 3599, "59m59s" },
	{ 3600, "1h" },
	{ 86399, "23h59m59s" },
	{ 86400, "1d" },
	{ 90061, "1d1h1m1s" },
	{ 604800, "7d" },
	{ -90, "-1m30s" },
	{ INT64_MAX, "106751991167300d15h30m7s" },
	{ INT64_MIN, "-106751991167300d15h30m8s" },
};

/* ar_uint_parse: want is the value printed, or the message. */
static const struct {
	const char *in;
	uint64_t min, max;
	const char *want;
} uints[] = {
	{ "0", 0, 10, "0" },
	{ "10", 0, 10, "10" },
	{ "1", 1, 64, "1" },
	{ "64", 1, 64, "64" },
	{ "18446744073709551615", 0, UINT64_MAX, "18446744073709551615" },
	{ "18446744073709551616", 0, UINT64_MAX,
	    "must be between 0 and 18446744073709551615" },
	{ "99999999999999999999999", 0, UINT64_MAX,
	    "must be between 0 and 18446744073709551615" },
	{ "11", 0, 10, "must be between 0 and 10" },
	{ "0", 1, 64, "must be between 1 and 64" },
	{ "65", 1, 64, "must be between 1 and 64" },
	{ "x1", 0, 10, "not a number: 'x1'" },
	{ "", 0, 10, "not a number: ''" },
	{ "-1", 0, 10, "not a number: '-1'" },
	{ "+1", 0, 10, "not a number: '+1'" },
	{ " 1", 0, 10, "not a number: ' 1'" },
	{ "1 ", 0, 10, "not a number: '1 '" },
	{ "1e3", 0, 10000, "not a number: '1e3'" },
	{ "0x10", 0, 100, "not a number: '0x10'" },
	{ "007", 0, 10, "leading zero in number: '007'" },
	{ "00", 0, 10, "leading zero in number: '00'" },
	{ "12345678901234567890123456789012345678901234567890x", 0, 10,
	    "not a number: '1234567890123456789012345678901234567890...'" },
	{ "1\t", 0, 10, "not a number: '1?'" },
};

/* ar_real_parse: want is the value printed with %.17g, or the message. */
static const struct {
	const char *in;
	double min, max;
	const char *want;
} reals[] = {
	{ "0", 0, 10, "0" },
	{ "-0", 0, 10, "-0" },
	{ "10", 0, 10, "10" },
	{ "1.5", 0, 10, "1.5" },
	{ "2.3", 0, 10, "2.2999999999999998" },
	{ "0.1", 0, 10, "0.10000000000000001" },
	{ "77.39130435", 0, 100, "77.391304349999999" },
	{ "0.000123", 0, 1, "0.00012300000000000001" },
	{ "-2.5", -10, 10, "-2.5" },
	{ "1e-3", 0, 1, "0.001" },
	{ "1E+6", 0, 1e12, "1000000" },
	{ "2.5e2", 0, 1e12, "250" },
	{ "1e12", 0, 1e12, "1000000000000" },
	{ "1e22", 0, 1e30, "1e+22" },
	{ "1e23", 0, 1e30, "9.9999999999999992e+22" },
	{ "12345678901234567890123", 0, 1e30, "1.2345678901234568e+22" },
	{ "123456789012345678901234567890e-10", 0, 1e30,
	    "1.2345678901234567e+19" },
	{ "1e-999", 0, 1, "0" },
	{ "1e999", 0, 1e12, "must be between 0 and 1e+12" },
	{ "1.0000001e12", 0, 1e12, "must be between 0 and 1e+12" },
	{ "-1", 0, 10, "must be between 0 and 10" },
	{ "-0.5", 0, 1e12, "must be between 0 and 1e+12" },
	{ "10.5", 0, 10, "must be between 0 and 10" },
	{ "", 0, 10, "not a number: ''" },
	{ "-", 0, 10, "not a number: '-'" },
	{ "+1", 0, 10, "not a number: '+1'" },
	{ ".5", 0, 10, "not a number: '.5'" },
	{ "5.", 0, 10, "not a number: '5.'" },
	{ "1e", 0, 10, "not a number: '1e'" },
	{ "1e+", 0, 10, "not a number: '1e+'" },
	{ "1.5x", 0, 10, "not a number: '1.5x'" },
	{ " 1", 0, 10, "not a number: ' 1'" },
	{ "1,5", 0, 10, "not a number: '1,5'" },
	{ "nan", 0, 10, "not a number: 'nan'" },
	{ "inf", 0, 10, "not a number: 'inf'" },
	{ "0x10", 0, 100, "not a number: '0x10'" },
	{ "01", 0, 10, "leading zero in number: '01'" },
	{ "-01.5", -10, 10, "leading zero in number: '-01.5'" },
};

/*
 * Good records: a line parsed with flags in and printed with flags out.
 * The line is a string literal, so it cannot hold a NUL.
 */
static const struct {
	int in;
	const char *line;
	int out;
	const char *want;
} recs[] = {
	/* key=value */
	{ KV, "", KV, "\n" },
	{ KV, "   \t ", KV, "\n" },
	{ KV, "a=1", KV, "a=1\n" },
	{ KV, "  a=1   b=2  ", KV, "a=1 b=2\n" },
	{ KV, "a=1\tb=2\t", KV, "a=1 b=2\n" },
	{ KV, "a=1 b=2\r", KV, "a=1 b=2\n" },
	{ KV, "a=", KV, "a=\"\"\n" },
	{ KV, "a= b=", KV, "a=\"\" b=\"\"\n" },
	{ KV, "a=\"\"", KV, "a=\"\"\n" },
	{ KV, "a=\"x y\"", KV, "a=\"x y\"\n" },
	{ KV, "a=\"x\\ty\"", KV, "a=\"x\\ty\"\n" },
	{ KV, "a=\"x\ty\"", KV, "a=\"x\\ty\"\n" },
	{ KV, "a=\"\\\"\\\\\\n\"", KV, "a=\"\\\"\\\\\\n\"\n" },
	{ KV, "a=\"plain\"", KV, "a=plain\n" },
	{ KV, "a=\"x y\"\tb=1", KV, "a=\"x y\" b=1\n" },
	{ KV, "a=b=c", KV, "a=\"b=c\"\n" },
	{ KV, "a==", KV, "a=\"=\"\n" },
	{ KV, "a=C:\\x", KV, "a=\"C:\\\\x\"\n" },
	{ KV, "a=it's", KV, "a=it's\n" },
	{ KV, "user=\xc3\xa9lodie", KV, "user=\xc3\xa9lodie\n" },
	{ KV, "a=\xe2\x82\xac\xf0\x9f\x98\x80", KV,
	    "a=\xe2\x82\xac\xf0\x9f\x98\x80\n" },
	{ KV, "a=\"\xc3\xa9 \xc3\xa9\"", KV, "a=\"\xc3\xa9 \xc3\xa9\"\n" },
	{ KV, "k.x-y_z=1 _=2 A9=3 a.=4 a-=5", KV,
	    "k.x-y_z=1 _=2 A9=3 a.=4 a-=5\n" },
	{ KV, A64 "=1", KV, A64 "=1\n" },
	{ KV, "start=2026-11-21T10:00:00Z zz=unknown user=bob x.y=1", KV,
	    "start=2026-11-21T10:00:00Z zz=unknown user=bob x.y=1\n" },
	{ KV, "b=2 a=1 c=3", KV, "b=2 a=1 c=3\n" },
	{ KV, "A=1 a=2", KV, "A=1 a=2\n" },
	{ KV, "a=\\ b=\\\\", KV, "a=\"\\\\\" b=\"\\\\\\\\\"\n" },
	/* A comment begins where a field's name would. */
	{ KV, "# a=1", KV, "\n" },
	{ KV, "  \t# a=1", KV, "\n" },
	{ KV, "a=1 # b=2", KV, "a=1\n" },
	{ KV, "a=1\t#b=2 \"", KV, "a=1\n" },
	{ KV, "a=1 b=2#3 c=#4 d=\"# 5\" #", KV,
	    "a=1 b=2#3 c=#4 d=\"# 5\"\n" },
	{ KV, "a=1 #\r", KV, "a=1\n" },
	/* key=value to JSON */
	{ KV, "", JS, "{}\n" },
	{ KV, "a=1 b=x", JS, "{\"a\":\"1\",\"b\":\"x\"}\n" },
	{ KV, "a=\"x\\ny\"", JS, "{\"a\":\"x\\ny\"}\n" },
	{ KV, "a=\"q\\\"\\\\\"", JS, "{\"a\":\"q\\\"\\\\\"}\n" },
	{ KV, "a=\"\\t\"", JS, "{\"a\":\"\\t\"}\n" },
	{ KV, "a=\xc3\xa9", JS, "{\"a\":\"\xc3\xa9\"}\n" },
	{ KV, "a=/ b=", JS, "{\"a\":\"/\",\"b\":\"\"}\n" },
	{ KV, "a=true", JS, "{\"a\":\"true\"}\n" },
	/* JSON */
	{ JS, "{}", JS, "{}\n" },
	{ JS, "  { \t}  ", JS, "{}\n" },
	{ JS, "{\"a\":1}", JS, "{\"a\":1}\n" },
	{ JS, "{ \"a\" : 1 , \"b\" : \"x\" }", JS, "{\"a\":1,\"b\":\"x\"}\n" },
	{ JS, "{\"n\":-1.5e+10}", JS, "{\"n\":-1.5e+10}\n" },
	{ JS, "{\"n\":0,\"m\":-0,\"o\":0.0,\"p\":1E5,\"q\":2e-3}", JS,
	    "{\"n\":0,\"m\":-0,\"o\":0.0,\"p\":1E5,\"q\":2e-3}\n" },
	{ JS, "{\"t\":true,\"f\":false,\"z\":null}", JS,
	    "{\"t\":true,\"f\":false,\"z\":null}\n" },
	{ JS, "{\"a\":[1, 2, {\"b\": [ ]}]}", JS,
	    "{\"a\":[1, 2, {\"b\": [ ]}]}\n" },
	{ JS, "{\"a\":{\"x\":\"\\u0041\"}}", JS,
	    "{\"a\":{\"x\":\"\\u0041\"}}\n" },
	{ JS, "{\"a\":[]}", JS, "{\"a\":[]}\n" },
	{ JS, "{\"a\":{}}", JS, "{\"a\":{}}\n" },
	{ JS, "{\"s\":\"\\u0041\\u00e9\\u20AC\\ud83d\\ude00\"}", JS,
	    "{\"s\":\"A\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"}\n" },
	{ JS, "{\"s\":\"\\/\\b\\f\\r\"}", JS,
	    "{\"s\":\"/\\u0008\\u000c\\u000d\"}\n" },
	{ JS, "{\"s\":\"\\u001f\\u007f\x7f\"}", JS,
	    "{\"s\":\"\\u001f\\u007f\\u007f\"}\n" },
	{ JS, "{\"s\":\"\\n\\t\\\"\\\\\"}", JS,
	    "{\"s\":\"\\n\\t\\\"\\\\\"}\n" },
	{ JS, "{\"\\u0061\":1}", JS, "{\"a\":1}\n" },
	{ JS, "{\"a\":1}\r", JS, "{\"a\":1}\n" },
	{ JS, "{\"s\":\"\"}", JS, "{\"s\":\"\"}\n" },
	{ JS, "{\"s\":\"x y=z\"}", JS, "{\"s\":\"x y=z\"}\n" },
	{ JS, "{\"a\":" DEEP31 "}", JS, "{\"a\":" DEEP31 "}\n" },
	/* JSON to key=value */
	{ JS, "{}", KV, "\n" },
	{ JS, "{\"a\":1,\"b\":\"x y\"}", KV, "a=1 b=\"x y\"\n" },
	{ JS, "{\"a\":[1, 2]}", KV, "a=\"[1, 2]\"\n" },
	{ JS, "{\"a\":[1,2]}", KV, "a=[1,2]\n" },
	{ JS, "{\"a\":{\"b\":1}}", KV, "a=\"{\\\"b\\\":1}\"\n" },
	{ JS, "{\"a\":\"\"}", KV, "a=\"\"\n" },
	{ JS, "{\"a\":null}", KV, "a=null\n" },
	{ JS, "{\"a\":\"x=y\"}", KV, "a=\"x=y\"\n" },
	{ JS, "{\"a\":\"\\u00e9\"}", KV, "a=\xc3\xa9\n" },
};

/*
 * key=value cannot write control characters other than tab and newline:
 * they print as '?', quoted the first time as they are control
 * characters, and the '?' then prints bare.
 */
static const struct {
	const char *json, *first, *second;
} lossy[] = {
	{ "{\"a\":\"\\r\"}", "a=\"?\"\n", "a=?\n" },
	{ "{\"a\":\"\\u007f\"}", "a=\"?\"\n", "a=?\n" },
	{ "{\"a\":\"x\\u0001 y\"}", "a=\"x? y\"\n", "a=\"x? y\"\n" },
};

/* Bad records: line (len bytes, so it may hold a NUL) and the message. */
static const struct {
	int flags;
	const char *line;
	size_t len;
	const char *err;
} badrecs[] = {
#define L(s) s, sizeof(s) - 1
	{ KV, L("a"), "missing '=' after 'a'" },
	{ KV, L("a b=1"), "missing '=' after 'a'" },
	{ KV, L("a=1 b"), "missing '=' after 'b'" },
	{ KV, L("a =1"), "missing '=' after 'a'" },
	{ KV, L("=1"), "missing field name at byte 1" },
	{ KV, L("a=1  =1"), "missing field name at byte 6" },
	{ KV, L("1a=1"), "invalid field name at byte 1" },
	{ KV, L(".a=1"), "invalid field name at byte 1" },
	{ KV, L("-a=1"), "invalid field name at byte 1" },
	{ KV, L("a!=1"), "invalid field name at byte 2" },
	{ KV, L("\"a\"=1"), "invalid field name at byte 1" },
	{ KV, L("a#=1"), "invalid field name at byte 2" },
	{ KV, L("a=1#x b"), "missing '=' after 'b'" },
	{ JS, L("# {}"), "expected '{' at byte 1" },
	{ JS, L("{\"a\":1} # x"), "text after the object at byte 9" },
	{ KV, L("\xc3\xa9=1"), "invalid field name at byte 1" },
	{ KV, L("a" A64 "=1"),
	    "field name longer than 64 bytes at byte 1" },
	{ KV, L("a=1 a=2"), "duplicate field 'a'" },
	{ KV, L("a=1 b=2 c=3 b=\"x\""), "duplicate field 'b'" },
	{ KV, L("start=1 user=\"x"), "unterminated quote in field 'user'" },
	{ KV, L("a=\""), "unterminated quote in field 'a'" },
	{ KV, L("a=\"x\\\""), "unterminated quote in field 'a'" },
	{ KV, L("a=\"x\\"), "unterminated quote in field 'a'" },
	{ KV, L("a=\"x\\q\""), "invalid escape in field 'a' at byte 5" },
	{ KV, L("a=\"\\u0041\""), "invalid escape in field 'a' at byte 4" },
	{ KV, L("a=\"\\r\""), "invalid escape in field 'a' at byte 4" },
	{ KV, L("a=\"x\"y"),
	    "text after closing quote in field 'a' at byte 6" },
	{ KV, L("a=\"x\"\"y\""),
	    "text after closing quote in field 'a' at byte 6" },
	{ KV, L("a=x\"y"), "unexpected quote in field 'a' at byte 4" },
	{ KV, L("a=x\001"), "control character in field 'a' at byte 4" },
	{ KV, L("a=\"\001\""), "control character in field 'a' at byte 4" },
	{ KV, L("a=\"\x7f\""), "control character in field 'a' at byte 4" },
	{ KV, L("a=x\x7f"), "control character in field 'a' at byte 4" },
	{ KV, L("a=1\r\r"), "control character in field 'a' at byte 4" },
	{ KV, L("a=1\rb=2"), "control character in field 'a' at byte 4" },
	{ KV, L("a=1\nb=2"), "control character in field 'a' at byte 4" },
	{ KV, L("a=b\0c"), "NUL byte at byte 4" },
	{ KV, L("\0"), "NUL byte at byte 1" },
	{ KV, L("a=\xff"), "invalid UTF-8 at byte 3" },
	{ KV, L("a=\xc0\x80"), "invalid UTF-8 at byte 3" },
	{ KV, L("a=\xc1\xbf"), "invalid UTF-8 at byte 3" },
	{ KV, L("a=\xe0\x9f\xbf"), "invalid UTF-8 at byte 3" },
	{ KV, L("a=\xf0\x8f\xbf\xbf"), "invalid UTF-8 at byte 3" },
	{ KV, L("a=\xed\xa0\x80"), "invalid UTF-8 at byte 3" },
	{ KV, L("a=\xf4\x90\x80\x80"), "invalid UTF-8 at byte 3" },
	{ KV, L("a=\xe2\x82"), "invalid UTF-8 at byte 3" },
	{ KV, L("a=\xc3"), "invalid UTF-8 at byte 3" },
	{ KV, L("a=\x80"), "invalid UTF-8 at byte 3" },
	{ KV, L("a=\xf8\x88\x80\x80\x80"), "invalid UTF-8 at byte 3" },
	{ KV, L("a=\xc3\xa9\xc3(b"), "invalid UTF-8 at byte 5" },
	{ KV, L("a=1 b=\"\xff\""), "invalid UTF-8 at byte 8" },
	/* JSON */
	{ JS, L(""), "expected '{' at end of line" },
	{ JS, L("   "), "expected '{' at end of line" },
	{ JS, L("a=1"), "expected '{' at byte 1" },
	{ JS, L("[]"), "expected '{' at byte 1" },
	{ JS, L("{"), "expected '\"' at end of line" },
	{ JS, L("{'a':1}"), "expected '\"' at byte 2" },
	{ JS, L("{\"a\"}"), "expected ':' at byte 5" },
	{ JS, L("{\"a\" 1}"), "expected ':' at byte 6" },
	{ JS, L("{\"a\":}"), "expected a value at byte 6" },
	{ JS, L("{\"a\":1"), "expected ',' or '}' at end of line" },
	{ JS, L("{\"a\":1,}"), "expected '\"' at byte 8" },
	{ JS, L("{\"a\":1 \"b\":2}"), "expected ',' or '}' at byte 8" },
	{ JS, L("{\"a\":1}x"), "text after the object at byte 8" },
	{ JS, L("{\"a\":1}{}"), "text after the object at byte 8" },
	{ JS, L("{\"a\":1}\r\r"), "text after the object at byte 8" },
	{ JS, L("{\"a\":01}"), "invalid number at byte 6" },
	{ JS, L("{\"a\":-}"), "invalid number at byte 6" },
	{ JS, L("{\"a\":-a}"), "invalid number at byte 6" },
	{ JS, L("{\"a\":1.}"), "invalid number at byte 6" },
	{ JS, L("{\"a\":1e}"), "invalid number at byte 6" },
	{ JS, L("{\"a\":1e+}"), "invalid number at byte 6" },
	{ JS, L("{\"a\":.5}"), "expected a value at byte 6" },
	{ JS, L("{\"a\":+1}"), "expected a value at byte 6" },
	{ JS, L("{\"a\":tru}"), "expected a value at byte 6" },
	{ JS, L("{\"a\":True}"), "expected a value at byte 6" },
	{ JS, L("{\"a\":nul"), "expected a value at byte 6" },
	{ JS, L("{\"a\":truex}"), "expected ',' or '}' at byte 10" },
	{ JS, L("{\"a\":\"x}"), "unterminated string at byte 6" },
	{ JS, L("{\"a"), "unterminated string at byte 2" },
	{ JS, L("{\"a\":\"\\x\"}"), "invalid escape at byte 7" },
	{ JS, L("{\"a\":\"\\U0041\"}"), "invalid escape at byte 7" },
	{ JS, L("{\"a\":\"\\u00\"}"), "invalid \\u escape at byte 7" },
	{ JS, L("{\"a\":\"\\u00g0\"}"), "invalid \\u escape at byte 7" },
	{ JS, L("{\"a\":\"\\u0000\"}"), "\\u0000 is not allowed at byte 7" },
	{ JS, L("{\"a\":\"\\ud800\"}"), "lone surrogate at byte 7" },
	{ JS, L("{\"a\":\"\\udc00\"}"), "lone surrogate at byte 7" },
	{ JS, L("{\"a\":\"\\ud800\\u0041\"}"), "lone surrogate at byte 7" },
	{ JS, L("{\"a\":\"\\ud800\\ud800\"}"), "lone surrogate at byte 7" },
	{ JS, L("{\"a\":\"x\ty\"}"), "control character at byte 8" },
	{ JS, L("{\"a\":[\"\001\"]}"), "control character at byte 8" },
	{ JS, L("{\"a\":1,\n\"b\":2}"), "expected '\"' at byte 8" },
	{ JS, L("{\"a b\":1}"), "invalid field name at byte 2" },
	{ JS, L("{\"\":1}"), "invalid field name at byte 2" },
	{ JS, L("{\"1a\":1}"), "invalid field name at byte 2" },
	{ JS, L("{\"a\\u0000\":1}"), "\\u0000 is not allowed at byte 4" },
	{ JS, L("{\"a" A64 "\":1}"),
	    "invalid field name at byte 2" },
	{ JS, L("{\"a\":1,\"a\":2}"), "duplicate field 'a'" },
	{ JS, L("{\"\\u0061\":1,\"a\":2}"), "duplicate field 'a'" },
	{ JS, L("{\"a\":[1,]}"), "expected a value at byte 9" },
	{ JS, L("{\"a\":[1 2]}"), "expected ',' or ']' at byte 9" },
	{ JS, L("{\"a\":[1"), "expected ',' or ']' at end of line" },
	{ JS, L("{\"a\":{\"b\"}}"), "expected ':' at byte 10" },
	{ JS, L("{\"a\":{1:2}}"), "expected '\"' at byte 7" },
	{ JS, L("{\"a\":{\"b\":1,}}"), "expected '\"' at byte 13" },
	{ JS, L("{\"a\":" DEEP32 "}"),
	    "nested deeper than 32 levels at byte 37" },
	{ JS, L("{\"a\":\"\xff\"}"), "invalid UTF-8 at byte 7" },
	{ JS, L("{\"a\":\"\0\"}"), "NUL byte at byte 7" },
#undef L
};

/* Editing: apply one operation to a parsed record, print it. */
enum op { SET, INT, TIME, DUR, DEL, GET };
static const struct {
	const char *line;
	enum op op;
	const char *key, *value;	/* for INT, TIME, DUR: a number */
	int out;
	const char *want;		/* for GET: the value or "(null)" */
} edits[] = {
	{ "a=1 b=2", SET, "b", "3", KV, "a=1 b=3\n" },
	{ "a=1 b=2", SET, "a", "3", KV, "a=3 b=2\n" },
	{ "a=1 b=2", SET, "c", "x", KV, "a=1 b=2 c=x\n" },
	{ "", SET, "c", "x", KV, "c=x\n" },
	{ "", SET, "c", "x", JS, "{\"c\":\"x\"}\n" },
	{ "a=1", SET, "a", "two words", KV, "a=\"two words\"\n" },
	{ "a=1", SET, "a", "", KV, "a=\"\"\n" },
	{ "a=1", SET, "a", "x\001y", KV, "a=\"x?y\"\n" },
	{ "a=1", SET, "a", "x\001y", JS, "{\"a\":\"x\\u0001y\"}\n" },
	{ "a=1", SET, "a", "x\ry", KV, "a=\"x?y\"\n" },
	{ "a=1", SET, "a", "x\xffy", KV, "a=x?y\n" },
	{ "a=1", SET, "a", "x\xff y", KV, "a=\"x? y\"\n" },
	{ "a=1", SET, "a", "\xed\xa0\x80", JS, "{\"a\":\"???\"}\n" },
	{ "a=1", SET, "a", "x\ny\tz", KV, "a=\"x\\ny\\tz\"\n" },
	{ "a=1", SET, "a", "\"q\"", KV, "a=\"\\\"q\\\"\"\n" },
	{ "a=1 z=9", INT, "n", "-5", KV, "a=1 z=9 n=-5\n" },
	{ "a=1 z=9", INT, "n", "-5", JS,
	    "{\"a\":\"1\",\"z\":\"9\",\"n\":-5}\n" },
	{ "n=x", INT, "n", "9223372036854775807", JS,
	    "{\"n\":9223372036854775807}\n" },
	{ "t=x", TIME, "t", "0", KV, "t=1970-01-01T00:00:00Z\n" },
	{ "", TIME, "t", "1763719200", JS,
	    "{\"t\":\"2025-11-21T10:00:00Z\"}\n" },
	{ "d=1", DUR, "d", "5400", KV, "d=1h30m\n" },
	{ "", DUR, "d", "0", JS, "{\"d\":\"0s\"}\n" },
	{ "a=1 b=2 c=3", DEL, "b", NULL, KV, "a=1 c=3\n" },
	{ "a=1 b=2 c=3", DEL, "a", NULL, KV, "b=2 c=3\n" },
	{ "a=1 b=2 c=3", DEL, "c", NULL, KV, "a=1 b=2\n" },
	{ "a=1 b=2 c=3", DEL, "d", NULL, KV, "a=1 b=2 c=3\n" },
	{ "a=1", DEL, "a", NULL, KV, "\n" },
	{ "a=1", DEL, "a", NULL, JS, "{}\n" },
	{ "a=1 b=\"x y\"", GET, "b", NULL, KV, "x y" },
	{ "a=1 b=\"x y\"", GET, "c", NULL, KV, "(null)" },
	{ "a=1 b=\"x y\"", GET, "A", NULL, KV, "(null)" },
	{ "a= b=\"x y\"", GET, "a", NULL, KV, "" },
};

/* Names of 200 and 255 bytes, and a list of 254 bytes' prefix. */
#define A50 A16 A16 A16 "aa"
#define A200 A50 A50 A50 A50
#define A254 A200 A50 "aaaa"

/*
 * Good host lists: the canonical form, the number of hosts and, for
 * short lists, every name in index order.  The canonical form parses
 * back to itself.
 */
static const struct {
	const char *in, *want;
	size_t count;
	const char *names;		/* NULL: not listed */
} hostlists[] = {
	{ "cn001", "cn001", 1, "cn001" },
	{ "cn[001-004]", "cn[001-004]", 4, "cn001 cn002 cn003 cn004" },
	{ "cn[001-004,009]", "cn[001-004,009]", 5,
	    "cn001 cn002 cn003 cn004 cn009" },
	{ "cn[001-064]", "cn[001-064]", 64, NULL },
	{ "gpu[1-4],cn[01-03]", "cn[01-03],gpu[1-4]", 7,
	    "cn01 cn02 cn03 gpu1 gpu2 gpu3 gpu4" },
	{ "gpu[1-4],cn[01-60]", "cn[01-60],gpu[1-4]", 64, NULL },
	{ "cn[1-3,7,10-12]", "cn[1-3,7,10-12]", 7,
	    "cn1 cn2 cn3 cn7 cn10 cn11 cn12" },
	/* zero padding: the low bound's digits */
	{ "cn[001-010]", "cn[001-010]", 10,
	    "cn001 cn002 cn003 cn004 cn005 cn006 cn007 cn008 cn009 cn010" },
	{ "cn[8-10]", "cn[8-10]", 3, "cn8 cn9 cn10" },
	{ "cn[08-10]", "cn[08-10]", 3, "cn08 cn09 cn10" },
	{ "cn[098-101]", "cn[098-101]", 4, "cn098 cn099 cn100 cn101" },
	{ "cn[09-100]", "cn[09-100]", 92, NULL },
	{ "cn[0-3]", "cn[0-3]", 4, "cn0 cn1 cn2 cn3" },
	{ "cn[00-03]", "cn[00-03]", 4, "cn00 cn01 cn02 cn03" },
	{ "cn[007]", "cn007", 1, "cn007" },
	{ "cn0[1-3]", "cn[01-03]", 3, "cn01 cn02 cn03" },
	{ "cn1[0-2],cn9", "cn[9-12]", 4, "cn9 cn10 cn11 cn12" },
	{ "cn9,cn10,cn11", "cn[9-11]", 3, "cn9 cn10 cn11" },
	{ "cn[9,10]", "cn[9-10]", 2, "cn9 cn10" },
	/* cn9 and cn09 are two hosts; shorter numbers come first */
	{ "cn[9,09]", "cn[9,09]", 2, "cn9 cn09" },
	{ "cn09,cn9", "cn[9,09]", 2, "cn9 cn09" },
	{ "cn[1-3],cn[01-03]", "cn[1-3,01-03]", 6,
	    "cn1 cn2 cn3 cn01 cn02 cn03" },
	{ "cn[98-100],cn099", "cn[98-99,099-100]", 4,
	    "cn98 cn99 cn099 cn100" },
	/* order and merging */
	{ "cn[5]", "cn5", 1, "cn5" },
	{ "cn[5-5]", "cn5", 1, "cn5" },
	{ "cn[1-2,3-4]", "cn[1-4]", 4, "cn1 cn2 cn3 cn4" },
	{ "cn[3-4,1-2]", "cn[1-4]", 4, "cn1 cn2 cn3 cn4" },
	{ "cn[5-8],cn[1-4]", "cn[1-8]", 8, NULL },
	{ "cn3,cn1,cn2", "cn[1-3]", 3, "cn1 cn2 cn3" },
	{ "cn[1-3],cn[5-7]", "cn[1-3,5-7]", 6, "cn1 cn2 cn3 cn5 cn6 cn7" },
	{ "gpu1,cn1", "cn1,gpu1", 2, "cn1 gpu1" },
	{ "login,cn[1-2],cn", "cn,cn[1-2],login", 4, "cn cn1 cn2 login" },
	{ "A1,a1", "A1,a1", 2, "A1 a1" },
	/* several brackets: the first varies slowest, as Slurm expands */
	{ "rack[1-2]-node[01-02]", "rack1-node[01-02],rack2-node[01-02]", 4,
	    "rack1-node01 rack1-node02 rack2-node01 rack2-node02" },
	{ "rack[1-2]-node[01-04]", "rack1-node[01-04],rack2-node[01-04]", 8,
	    "rack1-node01 rack1-node02 rack1-node03 rack1-node04 "
	    "rack2-node01 rack2-node02 rack2-node03 rack2-node04" },
	{ "rack[9-10]-n[1-2]", "rack9-n[1-2],rack10-n[1-2]", 4,
	    "rack9-n1 rack9-n2 rack10-n1 rack10-n2" },
	{ "a[1-2]b[3-4]c", "a1b[3-4]c,a2b[3-4]c", 4,
	    "a1b3c a1b4c a2b3c a2b4c" },
	{ "a[1-2][3-4]", "a[13-14,23-24]", 4, "a13 a14 a23 a24" },
	{ "a[1-2]b1", "a1b1,a2b1", 2, "a1b1 a2b1" },
	{ "x[1-2]y0", "x1y0,x2y0", 2, "x1y0 x2y0" },
	{ "a[1-1000]b[1-1000]", NULL, 1000000, NULL },
	/* suffixes, dots, dashes and underscores */
	{ "n[1-2]-ib", "n[1-2]-ib", 2, "n1-ib n2-ib" },
	{ "n1-ib", "n1-ib", 1, "n1-ib" },
	{ "n[1-2]-ib,n[1-2]", "n[1-2],n[1-2]-ib", 4, "n1 n2 n1-ib n2-ib" },
	{ "n[1-2]-ib,n[1-2]-eth", "n[1-2]-eth,n[1-2]-ib", 4,
	    "n1-eth n2-eth n1-ib n2-ib" },
	{ "r[1-2]n", "r[1-2]n", 2, "r1n r2n" },
	{ "node-[1-3].example.org", "node-[1-3].example.org", 3,
	    "node-1.example.org node-2.example.org node-3.example.org" },
	{ "a.b_c-d", "a.b_c-d", 1, "a.b_c-d" },
	{ "a1b2", "a1b2", 1, "a1b2" },
	{ "a1b[2-3]", "a1b[2-3]", 2, "a1b2 a1b3" },
	{ "-", "-", 1, "-" },
	{ "[1-4]", "[1-4]", 4, "1 2 3 4" },
	{ "7", "7", 1, "7" },
	{ "login", "login", 1, "login" },
	/* limits */
	{ "cn999999999999999999", "cn999999999999999999", 1,
	    "cn999999999999999999" },
	{ "cn[000000000000000001-000000000000000002]",
	    "cn[000000000000000001-000000000000000002]", 2,
	    "cn000000000000000001 cn000000000000000002" },
	{ "a[1-2][12345678901234567]", "a[112345678901234567,"
	    "212345678901234567]", 2,
	    "a112345678901234567 a212345678901234567" },
	{ "b," A254 "[1-9]", A254 "[1-9],b", 10, NULL },
	{ "cn[0-999999]", "cn[0-999999]", 1000000, NULL },
	{ "cn[0000001-1000000]", "cn[0000001-1000000]", 1000000, NULL },
	{ "cn[1-999999],x", "cn[1-999999],x", 1000000, NULL },
};

/* Bad host lists and the exact message. */
static const struct {
	const char *in, *err;
} badhostlists[] = {
	{ "", "empty host list" },
	{ ",", "empty host name at byte 1" },
	{ ",cn1", "empty host name at byte 1" },
	{ "cn1,", "empty host name at end of host list" },
	{ "cn1,,cn2", "empty host name at byte 5" },
	/* brackets */
	{ "cn[", "unclosed '[' at byte 3" },
	{ "cn[1-2", "unclosed '[' at byte 3" },
	{ "cn[1-2,", "unclosed '[' at byte 3" },
	{ "cn[1-2]x[", "unclosed '[' at byte 9" },
	{ "cn]", "unexpected ']' at byte 3" },
	{ "]", "unexpected ']' at byte 1" },
	{ "cn[1]]", "unexpected ']' at byte 6" },
	{ "cn[[1]]", "nested '[' at byte 4" },
	{ "cn[1[2]]", "nested '[' at byte 5" },
	{ "cn[1-[2]]", "nested '[' at byte 6" },
	/* ranges */
	{ "cn[]", "empty range at byte 4" },
	{ "cn[,1]", "empty range at byte 4" },
	{ "cn[1,]", "empty range at byte 6" },
	{ "cn[1,,2]", "empty range at byte 6" },
	{ "cn[-1]", "expected a number at byte 4" },
	{ "cn[1-]", "expected a number at byte 6" },
	{ "cn[1--2]", "expected a number at byte 6" },
	{ "cn[a]", "expected a number at byte 4" },
	{ "cn[1-a]", "expected a number at byte 6" },
	{ "cn[1x]", "expected ',' or ']' at byte 5" },
	{ "cn[1-2-3]", "expected ',' or ']' at byte 7" },
	{ "cn[1.5]", "expected ',' or ']' at byte 5" },
	{ "cn[123x456]", "expected ',' or ']' at byte 7" },
	{ "cn[5-3]", "reversed range '5-3' at byte 4" },
	{ "cn[10-9]", "reversed range '10-9' at byte 4" },
	{ "cn[1,7-03]", "reversed range '7-03' at byte 6" },
	{ "cn[1-010]", "mixed widths in range '1-010' at byte 4" },
	{ "cn[001-10]", "mixed widths in range '001-10' at byte 4" },
	{ "cn[00-5]", "mixed widths in range '00-5' at byte 4" },
	{ "cn[1,08-010]", "mixed widths in range '08-010' at byte 6" },
	{ "cn[0-1000000]", "range of more than 1000000 hosts at byte 4" },
	{ "cn[1-99999999999]", "range of more than 1000000 hosts at byte 4" },
	/* limits */
	{ "cn[1-1000000],x", "more than 1000000 hosts at byte 15" },
	{ "x,cn[1-1000000]", "more than 1000000 hosts at byte 3" },
	{ "a[1-1000]b[1-1001]", "more than 1000000 hosts at byte 1" },
	{ "a[1-2]b[1-500000],c", "more than 1000000 hosts at byte 19" },
	{ "cn1234567890123456789", "number longer than 18 digits at byte 3" },
	{ "cn[1234567890123456789]",
	    "number longer than 18 digits at byte 4" },
	{ "cn[1-1234567890123456789]",
	    "number longer than 18 digits at byte 6" },
	{ "cn1[234567890123456789]", "number longer than 18 digits at byte 3" },
	{ "[10-11][12345678901234567]",
	    "number longer than 18 digits at byte 2" },
	{ "aa" A254, "host name longer than 255 bytes at byte 1" },
	{ "x," A254 "[1-10]", "host name longer than 255 bytes at byte 3" },
	/* duplicates: at the name or range that repeats the host */
	{ "cn1,cn1", "duplicate host 'cn1' at byte 5" },
	{ "cn[1-2],cn2", "duplicate host 'cn2' at byte 9" },
	{ "cn[1-4,3]", "duplicate host 'cn3' at byte 8" },
	{ "cn[3,1-4]", "duplicate host 'cn3' at byte 6" },
	{ "cn[1-4],cn[3-5]", "duplicate host 'cn3' at byte 9" },
	{ "cn[8-10],cn[09-10]", "duplicate host 'cn10' at byte 10" },
	{ "cn1[0-1],cn10", "duplicate host 'cn10' at byte 10" },
	{ "cn[1-3],cn[01-03],cn2", "duplicate host 'cn2' at byte 19" },
	{ "rack[1,1]-n[1-2]", "duplicate host 'rack1-n1' at byte 8" },
	{ "rack[1-2]-n[1-2,2]", "duplicate host 'rack1-n2' at byte 17" },
	{ "login,login", "duplicate host 'login' at byte 7" },
	{ A50 "," A50, "duplicate host '" A16 A16 "aaaaaaaa...' at byte 52" },
	/* characters */
	{ "cn 1", "blank at byte 3" },
	{ "cn\t1", "blank at byte 3" },
	{ " cn1", "blank at byte 1" },
	{ "cn1 ", "blank at byte 4" },
	{ "cn1, cn2", "blank at byte 5" },
	{ "cn[1, 2]", "blank at byte 6" },
	{ "cn1\n", "control character at byte 4" },
	{ "cn\x7f", "control character at byte 3" },
	{ "cn[\001]", "control character at byte 4" },
	{ "cn\xc3\xa9", "non-ASCII byte at byte 3" },
	{ "cn/1", "invalid character '/' at byte 3" },
	{ "cn:1", "invalid character ':' at byte 3" },
	{ "cn*", "invalid character '*' at byte 3" },
	{ "cn;rm", "invalid character ';' at byte 3" },
	{ "\"cn1\"", "invalid character '\"' at byte 1" },
	{ "cn[1+2]", "invalid character '+' at byte 5" },
	{ "cn1=", "invalid character '=' at byte 4" },
};

/* Host lists parsed with a bound: the canonical form, or the message. */
static const struct {
	const char *in;
	size_t max;
	const char *want;
} boundedhosts[] = {
	{ "cn[1-64]", 64, "cn[1-64]" },
	{ "cn[1-60],gpu[1-4]", 64, "cn[1-60],gpu[1-4]" },
	{ "a[1-8]b[1-8]", 64, "a1b[1-8],a2b[1-8],a3b[1-8],a4b[1-8],a5b[1-8],"
	    "a6b[1-8],a7b[1-8],a8b[1-8]" },
	{ "cn[1-65]", 64, "range of more than 64 hosts at byte 4" },
	{ "cn[1-60],gpu[1-5]", 64, "more than 64 hosts at byte 10" },
	{ "cn[1-64],x", 64, "more than 64 hosts at byte 10" },
	{ "a[1-8]b[1-9]", 64, "more than 64 hosts at byte 1" },
	{ "cn1", 1, "cn1" },
	{ "cn1,cn2", 1, "more than 1 host at byte 5" },
	{ "cn1", 0, "more than 0 hosts at byte 1" },
	{ "cn[1-2]", 0, "range of more than 0 hosts at byte 4" },
	{ "cn[1-1000000]", 2000000, "cn[1-1000000]" },
	{ "cn[0-1000000]", 2000000,
	    "range of more than 1000000 hosts at byte 4" },
	{ "cn[1-2]", 1, "range of more than 1 host at byte 4" },
};

/* Hosts printed by index: idx holds the indexes, blank-separated. */
static const struct {
	const char *list, *idx, *want;
} hostsubsets[] = {
	{ "cn[001-010],gpu[1-4]", "", "" },
	{ "cn[001-010],gpu[1-4]", "0", "cn001" },
	{ "cn[001-010],gpu[1-4]", "0 1 2 3 8", "cn[001-004,009]" },
	{ "cn[001-010],gpu[1-4]", "9 10", "cn010,gpu1" },
	{ "cn[001-010],gpu[1-4]", "0 2 4 6 8", "cn[001,003,005,007,009]" },
	{ "cn[001-010],gpu[1-4]", "10 11 12 13", "gpu[1-4]" },
	{ "cn[001-010],gpu[1-4]", "13", "gpu4" },
	{ "cn[001-010],gpu[1-4]", "0 1 2 3 4 5 6 7 8 9 10 11 12 13",
	    "cn[001-010],gpu[1-4]" },
	{ "cn[8-12]", "0 1 2", "cn[8-10]" },
	{ "cn[8-12]", "1 2", "cn[9-10]" },
	{ "cn[8-12]", "2 3", "cn[10-11]" },
	{ "cn[8-12]", "0 4", "cn[8,12]" },
	{ "cn[9,09,10]", "0 2", "cn[9-10]" },
	{ "cn[9,09,10]", "1 2", "cn[09-10]" },
	{ "cn[9,09,10]", "0 1", "cn[9,09]" },
	{ "rack[1-2]-n[1-4]", "2 3 4", "rack1-n[3-4],rack2-n1" },
	{ "rack[1-2]-n[1-4]", "3 7", "rack1-n4,rack2-n4" },
	{ "n[1-3],n[1-3]-ib", "0 3", "n1,n1-ib" },
	{ "n[1-3],n[1-3]-ib", "1 2 4 5", "n[2-3],n[2-3]-ib" },
	{ "login,cn[1-4]", "3 4", "cn4,login" },
	{ "cn,cn[1-2]", "0 1 2", "cn,cn[1-2]" },
	{ "cn,cn[1-2]", "0 2", "cn,cn2" },
	{ "cn[0000001-1000000]", "0 1 999998 999999",
	    "cn[0000001-0000002,0999999-1000000]" },
	{ "cn[1-1000000]", "8 9 99999 999999", "cn[9-10,100000,1000000]" },
};

/* Hosts of one list looked up in another: indexes, or the message. */
static const struct {
	const char *list, *sub, *want;
} hostfinds[] = {
	{ "cn[001-064]", "cn[005-008]", "4 5 6 7" },
	{ "cn[001-064]", "cn064,cn001", "0 63" },
	{ "cn[001-064]", "cn[063-065]", "unknown host 'cn065'" },
	{ "cn[001-064]", "cn[5-8]", "unknown host 'cn5'" },
	{ "cn[001-064]", "gpu1", "unknown host 'gpu1'" },
	{ "gpu[1-4],cn[01-60]", "gpu2,cn01", "0 61" },
	{ "cn[8-12]", "cn[9-11]", "1 2 3" },
	{ "cn[1-4],cn[6-9]", "cn[3-7]", "unknown host 'cn5'" },
	{ "cn[1-4],cn[5-9]", "cn[3-7]", "2 3 4 5 6" },
	{ "cn,cn[1-2],login", "login,cn", "0 3" },
	{ "n[1-2],n[1-2]-ib", "n2-ib", "3" },
	{ "rack[1-2]-n[1-4]", "rack[1-2]-n4", "3 7" },
	{ "cn[1-1000000]", "cn[999999-1000000],cn1", "0 999998 999999" },
};

/* Names looked up one at a time: the index, or -1. */
static const struct {
	const char *list, *name;
	int64_t want;
} hostnames[] = {
	{ "cn[001-064]", "cn001", 0 },
	{ "cn[001-064]", "cn064", 63 },
	{ "cn[001-064]", "cn1", -1 },
	{ "cn[001-064]", "cn065", -1 },
	{ "cn[001-064]", "cn0001", -1 },
	{ "cn[001-064]", "cn000", -1 },
	{ "cn[001-064]", "", -1 },
	{ "cn[001-064]", "cn 001", -1 },
	{ "cn[001-064]", "cn[001]", -1 },
	{ "cn[001-064]", "cn0000000000000000001", -1 },
	{ "cn[001-064]", "CN001", -1 },
	{ "cn,cn[1-2],login", "cn", 0 },
	{ "cn,cn[1-2],login", "login", 3 },
	{ "cn,cn[1-2],login", "logi", -1 },
	{ "n[1-2],n[1-2]-ib", "n2-ib", 3 },
	{ "n[1-2],n[1-2]-ib", "n3-ib", -1 },
	{ "n[1-2],n[1-2]-ib", "n2-i", -1 },
	{ "cn[9,09,10]", "cn09", 1 },
	{ "cn[9,09,10]", "cn10", 2 },
	{ "cn[9,09,10]", "cn010", -1 },
	{ "cn[0000001-1000000]", "cn1000000", 999999 },
	{ "cn[0000001-1000000]", "cn0500000", 499999 },
	{ "cn[0000001-1000000]", "cn500000", -1 },
};

static void
test_times(void)
{
	char err[AR_ERRMAX], buf[AR_TIMEBUF], got[AR_ERRMAX];
	int64_t t, t2;
	size_t i;

	for (i = 0; i < NELEM(times); i++, nrows++) {
		if (ar_time_parse(times[i].in, times[i].now, &t, err) == -1) {
			check(0, "time", times[i].in, err, times[i].want);
			continue;
		}
		checkstr("time", times[i].in, ar_time_format(t, buf),
		    times[i].want);
		/* The printed form is a time that parses to the same. */
		check(ar_time_parse(buf, 0, &t2, err) == 0 && t2 == t,
		    "time round trip", buf, err, buf);
	}
	for (i = 0; i < NELEM(badtimes); i++, nrows++) {
		if (ar_time_parse(badtimes[i].in, badtimes[i].now, &t,
		    got) == 0)
			strcpy(got, "(accepted)");
		checkstr("bad time", badtimes[i].in, got, badtimes[i].err);
		check(strlen(got) < 200 && strchr(got, '\n') == NULL,
		    "short message", badtimes[i].in, got, "< 200 bytes");
	}
	for (i = 0; i < NELEM(timefmts); i++, nrows++)
		checkstr("time format", timefmts[i].want,
		    ar_time_format(timefmts[i].v, buf), timefmts[i].want);
}

static void
test_durations(void)
{
	char err[AR_ERRMAX], buf[AR_TIMEBUF], got[AR_ERRMAX];
	int64_t d, d2;
	size_t i;

	for (i = 0; i < NELEM(durs); i++, nrows++) {
		if (ar_duration_parse(durs[i].in, &d, err) == -1) {
			check(0, "duration", durs[i].in, err, durs[i].want);
			continue;
		}
		checkstr("duration", durs[i].in, ar_duration_format(d, buf),
		    durs[i].want);
		check(ar_duration_parse(buf, &d2, err) == 0 && d2 == d,
		    "duration round trip", buf, err, buf);
	}
	for (i = 0; i < NELEM(baddurs); i++, nrows++) {
		if (ar_duration_parse(baddurs[i].in, &d, got) == 0)
			strcpy(got, "(accepted)");
		checkstr("bad duration", baddurs[i].in, got, baddurs[i].err);
	}
	for (i = 0; i < NELEM(durfmts); i++, nrows++)
		checkstr("duration format", durfmts[i].want,
		    ar_duration_format(durfmts[i].v, buf), durfmts[i].want);
}

/* Field names: "" passes, else the near miss taken for a typo.  Near
 * misses of every kind are refused, labels far from every field pass. */
static const struct {
	const char *in, *want;
} field_names[] = {
	/* The commands' fields, and names marked as one's own. */
	{ "nodes", "" }, { "start", "" }, { "id", "" }, { "sd", "" },
	{ "refused_booking_limit", "" }, { "revenue_c8", "" },
	{ "x-node", "" }, { "X-Nodes", "" }, { "x-client_key", "" },
	/* Case. */
	{ "Nodes", "nodes" }, { "NODES", "nodes" }, { "Duration", "duration" },
	{ "ID", "id" }, { "Sd", "sd" }, { "End", "end" }, { "Job", "job" },
	/* Other schedulers' names. */
	{ "NodeCnt", "nodes" }, { "nodecnt", "nodes" }, { "NumNodes", "nodes" },
	{ "StartTime", "start" }, { "EndTime", "end" }, { "Users", "user" },
	{ "walltime", "duration" }, { "TimeLimit", "duration" },
	{ "JobName", "job" }, { "begin", "start" },
	/* One slip from a field of 4 to 9 characters. */
	{ "node", "nodes" }, { "nodess", "nodes" }, { "ndoes", "nodes" },
	{ "nodez", "nodes" }, { "strat", "start" }, { "star", "start" },
	{ "Strat", "start" }, { "duraton", "duration" },
	{ "durations", "duration" }, { "usr", "user" }, { "jbos", "jobs" },
	{ "host", "hosts" }, { "Hosts", "hosts" }, { "erliest", "earliest" },
	{ "lates", "latest" }, { "nodse", "nodes" }, { "odes", "" },
	{ "onde", "" }, { "hols", "hold" }, { "evrey", "every" },
	{ "count_", "count" }, { "until_", "until" }, { "old-start", "old_start" },
	/* The first two letters swapped. */
	{ "ndoes", "nodes" }, { "tsart", "start" }, { "uesr", "user" },
	/* Two slips from a field of 10 or more. */
	{ "occurence", "occurrence" }, { "clientkey", "client_key" },
	{ "client-key", "client_key" }, { "Client_Keys", "client_key" },
	{ "ocurence", "occurrence" }, { "protectoin", "protection" },
	{ "granted_c9", "granted_c1" },
	/* Labels: far from every field, or sharing no first letter. */
	{ "ticket", "" }, { "note", "" }, { "project", "" },
	{ "account", "" }, { "partition", "" }, { "queue", "" },
	{ "comment", "" }, { "tag", "" }, { "team", "" }, { "block", "" },
	{ "mount", "" }, { "season", "" }, { "stable", "" }, { "ghosts", "" },
	{ "user_id", "" }, { "job_id", "" }, { "userid", "" },
	{ "hostname", "" }, { "nodelist", "" }, { "client_id", "" },
	{ "ids", "" }, { "sdx", "" }, { "ends", "" }, { "tos", "" },
	{ "a", "" }, { "z", "" }, { "_", "" }, { "x", "" }, { "x-", "" },
	{ A64, "" },
};

static void
test_names(void)
{
	char err[AR_ERRMAX], want[AR_ERRMAX];
	const char *const *fields;
	size_t i, n, nfields;

	fields = cmd_field_names(&nfields);
	for (i = 0; i < NELEM(field_names); i++, nrows++) {
		if (ar_field_check(field_names[i].in, fields, nfields,
		    err) == 0)
			err[0] = '\0';
		want[0] = '\0';
		if (*field_names[i].want)
			snprintf(want, sizeof(want), "unknown field '%s' (did "
			    "you mean '%s'?)", field_names[i].in, field_names[i].want);
		checkstr("name", field_names[i].in, err, want);
	}
	/* Sorted, so that lookups find them; and every one passes. */
	for (n = 0; n < nfields; n++) {
		check(n == 0 || strcmp(fields[n - 1], fields[n]) < 0,
		    "field order", fields[n], fields[n - (n > 0)],
		    "after it");
		check(ar_field_check(fields[n], fields, nfields, err) == 0,
		    "field", fields[n], err, "");
	}
}

static void
test_uints(void)
{
	char got[AR_ERRMAX];
	uint64_t v;
	size_t i;

	for (i = 0; i < NELEM(uints); i++, nrows++) {
		if (ar_uint_parse(uints[i].in, uints[i].min, uints[i].max, &v,
		    got) == 0)
			snprintf(got, sizeof(got), "%" PRIu64, v);
		checkstr("uint", uints[i].in, got, uints[i].want);
	}
}

static void
test_reals(void)
{
	char got[AR_ERRMAX];
	double v;
	size_t i;

	for (i = 0; i < NELEM(reals); i++, nrows++) {
		if (ar_real_parse(reals[i].in, reals[i].min, reals[i].max, &v,
		    got) == 0)
			snprintf(got, sizeof(got), "%.17g", v);
		checkstr("real", reals[i].in, got, reals[i].want);
	}
}

/* Print r with flags into a fresh string (the caller frees it). */
static char *
print(const struct ar_record *r, int flags)
{
	char *buf = NULL, *s;
	size_t len = 0, cap = 0;

	if (ar_record_print(r, flags, &buf, &len, &cap) == -1 ||
	    (s = malloc(len + 1)) == NULL) {
		fprintf(stderr, "out of memory\n");
		exit(2);
	}
	memcpy(s, buf, len);
	s[len] = '\0';
	free(buf);
	return s;
}

static void
test_records(struct ar_record *r)
{
	struct ar_record r2;
	char err[AR_ERRMAX], got[AR_ERRMAX], *out, *out2;
	size_t i, len;
	int rc;

	ar_record_init(&r2);
	for (i = 0; i < NELEM(recs); i++, nrows++) {
		if (ar_record_parse(r, recs[i].line, strlen(recs[i].line),
		    recs[i].in, err) != 0) {
			check(0, "record", recs[i].line, err, recs[i].want);
			continue;
		}
		out = print(r, recs[i].out);
		checkstr("record", recs[i].line, out, recs[i].want);
		/* What was printed parses back and prints the same. */
		len = strlen(out) - 1;
		if (ar_record_parse(&r2, out, len, recs[i].out, err) != 0)
			check(0, "record round trip", out, err, out);
		else {
			out2 = print(&r2, recs[i].out);
			checkstr("record round trip", out, out2, out);
			free(out2);
		}
		free(out);
	}
	for (i = 0; i < NELEM(lossy); i++, nrows++) {
		if (ar_record_parse(r, lossy[i].json, strlen(lossy[i].json), JS,
		    err) != 0) {
			check(0, "lossy", lossy[i].json, err, "parsed");
			continue;
		}
		out = print(r, KV);
		checkstr("lossy", lossy[i].json, out, lossy[i].first);
		if (ar_record_parse(r, out, strlen(out) - 1, KV, err) != 0)
			check(0, "lossy reparse", out, err, lossy[i].second);
		else {
			out2 = print(r, KV);
			checkstr("lossy reparse", out, out2, lossy[i].second);
			free(out2);
		}
		free(out);
	}
	for (i = 0; i < NELEM(badrecs); i++, nrows++) {
		/* A record that held fields must come out empty. */
		ar_record_parse(r, "x=1 y=2", 7, KV, err);
		rc = ar_record_parse(r, badrecs[i].line, badrecs[i].len,
		    badrecs[i].flags, got);
		if (rc == 0)
			strcpy(got, "(accepted)");
		checkstr("bad record", badrecs[i].line, got, badrecs[i].err);
		check(rc == -1 && r->nfields == 0, "bad record leaves it empty",
		    badrecs[i].line, rc == -1 ? "not empty" : "rc != -1",
		    "empty");
	}
	ar_record_free(&r2);
}

/* Lines that hold no record, and some that do. */
static const struct {
	const char *line;
	int skip;
} skips[] = {
	{ "", 1 },
	{ " \t ", 1 },
	{ "\r", 1 },
	{ "  \r", 1 },
	{ "#", 1 },
	{ "# start=+1h", 1 },
	{ "\t  # {\"a\":1}", 1 },
	{ "#\001\xff", 1 },
	{ "a=1", 0 },
	{ "a=1 # x", 0 },
	{ "{}", 0 },
	{ " \r ", 0 },
	{ "\r\r", 0 },
	{ "x#", 0 },
};

static void
test_skips(void)
{
	char got[2] = "0", want[2] = "0";

	for (size_t i = 0; i < NELEM(skips); i++, nrows++) {
		got[0] = '0' + ar_record_skip(skips[i].line,
		    strlen(skips[i].line));
		want[0] = '0' + skips[i].skip;
		checkstr("skip", skips[i].line, got, want);
	}
}

static void
test_long_lines(struct ar_record *r)
{
	char err[AR_ERRMAX], *line, *out;
	size_t n = AR_LINE_MAX + 1;

	if ((line = malloc(n)) == NULL)
		exit(2);
	memcpy(line, "a=", 2);
	memset(line + 2, 'x', n - 2);
	nrows++;
	check(ar_record_parse(r, line, n, KV, err) == -1 &&
	    strcmp(err, "line longer than 65536 bytes") == 0,
	    "long line", "a=xxx...", err, "line longer than 65536 bytes");
	nrows++;
	check(ar_record_parse(r, line, n - 1, KV, err) == 0 &&
	    strlen(ar_record_get(r, "a")) == n - 3,
	    "longest line", "a=xxx...", err, "accepted");
	/* Every byte escaped six-fold still prints. */
	nrows++;
	memset(line + 2, '\001', n - 2);
	line[n - 1] = '\0';
	ar_record_clear(r);
	if (ar_record_set(r, "a", line + 2) == -1)
		exit(2);
	out = print(r, JS);
	check(strlen(out) == 9 + 6 * (n - 3), "escaped line", "a=\\001...",
	    "wrong length", "six bytes a byte");
	free(out);
	free(line);
}

static void
test_edits(struct ar_record *r)
{
	char err[AR_ERRMAX], *out;
	const char *v;
	int64_t n;
	size_t i;
	int rc = 0;

	for (i = 0; i < NELEM(edits); i++, nrows++) {
		if (ar_record_parse(r, edits[i].line, strlen(edits[i].line),
		    KV, err) != 0) {
			check(0, "edit", edits[i].line, err, "parsed");
			continue;
		}
		n = edits[i].value ? strtoll(edits[i].value, NULL, 10) : 0;
		switch (edits[i].op) {
		case SET:
			rc = ar_record_set(r, edits[i].key, edits[i].value);
			break;
		case INT:
			rc = ar_record_set_int(r, edits[i].key, n);
			break;
		case TIME:
			rc = ar_record_set_time(r, edits[i].key, n);
			break;
		case DUR:
			rc = ar_record_set_duration(r, edits[i].key, n);
			break;
		case DEL:
			ar_record_del(r, edits[i].key);
			break;
		case GET:
			v = ar_record_get(r, edits[i].key);
			checkstr("get", edits[i].key, v ? v : "(null)",
			    edits[i].want);
			continue;
		}
		if (rc != 0) {
			check(0, "edit", edits[i].line, "-1", "0");
			continue;
		}
		out = print(r, edits[i].out);
		checkstr("edit", edits[i].line, out, edits[i].want);
		free(out);
	}
}

/* Printing appends to what the buffer holds, and grows it. */
/* Numeric fields read as text, made JSON numbers: the line, its JSON. */
static const struct {
	int in;
	const char *line, *want;
} numbers[] = {
	{ KV, "id=5 user=7 nodes=2",
	    "{\"id\":5,\"user\":\"7\",\"nodes\":2}\n" },
	{ KV, "price=60.5 sd=2e-3 free=-1", "{\"price\":60.5,\"sd\":2e-3,"
	    "\"free\":-1}\n" },
	{ KV, "id=01 nodes=+2 free=1.5e999 copy=x jobs=", "{\"id\":\"01\","
	    "\"nodes\":\"+2\",\"free\":\"1.5e999\",\"copy\":\"x\","
	    "\"jobs\":\"\"}\n" },
	{ JS, "{\"id\":\"5\",\"nodes\":[2],\"jobs\":true,\"free\":\" 3\"}",
	    "{\"id\":5,\"nodes\":[2],\"jobs\":true,\"free\":\" 3\"}\n" },
};

static void
test_numbers(struct ar_record *r)
{
	static const char *const keys[] = { "id", "nodes", "jobs", "free",
	    "copy", "price", "sd", NULL };
	char err[AR_ERRMAX], *out;

	for (size_t i = 0; i < NELEM(numbers); i++, nrows++) {
		if (ar_record_parse(r, numbers[i].line, strlen(numbers[i].line),
		    numbers[i].in, err) != 0) {
			check(0, "numbers", numbers[i].line, err, "parsed");
			continue;
		}
		ar_record_numbers(r, keys);
		out = print(r, JS);
		checkstr("numbers", numbers[i].line, out, numbers[i].want);
		free(out);
	}
	nrows++;
	ar_record_parse(r, "a=1", 3, KV, err);
	if (ar_record_set_null(r, "a") != 0 || ar_record_set_null(r, "b") != 0)
		check(0, "null", "a=1", "no memory", "");
	out = print(r, JS);
	checkstr("null", "a=1", out, "{\"a\":null,\"b\":null}\n");
	free(out);
}

static void
test_append(struct ar_record *r)
{
	char err[AR_ERRMAX], *buf = NULL;
	size_t len = 0, cap = 0, i;
	int ok = 1;

	nrows++;
	ar_record_parse(r, "a=1 b=\"x y\"", 11, KV, err);
	for (i = 0; i < 1000 && ok; i++)
		ok = ar_record_print(r, KV, &buf, &len, &cap) == 0 &&
		    ar_record_print(r, JS, &buf, &len, &cap) == 0;
	ok = ok && len == 1000 * (12 + 20) && len <= cap &&
	    memcmp(buf + len - 32,
	    "a=1 b=\"x y\"\n{\"a\":\"1\",\"b\":\"x y\"}\n", 32) == 0;
	check(ok, "append", "1000 lines", ok ? "" : "wrong output", "");
	free(buf);
}

/* Print a whole host list into a fresh string (the caller frees it). */
static char *
hostprint(const struct ar_hostlist *h)
{
	char *buf = NULL;
	size_t len = 0, cap = 0;

	if (ar_hostlist_format(h, &buf, &len, &cap) != 0) {
		fprintf(stderr, "out of memory\n");
		exit(2);
	}
	return buf;
}

/* Read blank-separated indexes into idx (room for 64); their count. */
static size_t
readidx(const char *s, uint32_t *idx)
{
	size_t n = 0;
	char *end;

	while (*s != '\0' && n < 64) {
		idx[n++] = strtoul(s, &end, 10);
		s = end;
	}
	return n;
}

/* Write idx[0 .. n) blank-separated into buf. */
static char *
printidx(const uint32_t *idx, size_t n, char *buf, size_t size)
{
	size_t i, o = 0;

	buf[0] = '\0';
	for (i = 0; i < n && o < size; i++)
		o += snprintf(buf + o, size - o, "%s%" PRIu32, i ? " " : "",
		    idx[i]);
	return buf;
}

static void
test_hostlists(void)
{
	struct ar_hostlist h, h2;
	char err[AR_ERRMAX], got[AR_ERRMAX], name[AR_HOSTNAME_MAX + 1];
	char *out, *out2, *names;
	size_t i, len;
	uint32_t k, j;
	int ok;

	ar_hostlist_init(&h);
	ar_hostlist_init(&h2);
	for (i = 0; i < NELEM(hostlists); i++, nrows++) {
		if (ar_hostlist_parse(hostlists[i].in, &h, err) != 0) {
			check(0, "host list", hostlists[i].in, err,
			    hostlists[i].want ? hostlists[i].want : "parsed");
			continue;
		}
		snprintf(got, sizeof(got), "%zu", h.count);
		snprintf(err, sizeof(err), "%zu", hostlists[i].count);
		checkstr("host count", hostlists[i].in, got, err);
		out = hostprint(&h);
		if (hostlists[i].want != NULL)
			checkstr("host list", hostlists[i].in, out,
			    hostlists[i].want);
		/* The canonical form parses to the same hosts, and prints
		 * as itself. */
		if (ar_hostlist_parse(out, &h2, err) != 0)
			check(0, "host list round trip", out, err, out);
		else {
			out2 = hostprint(&h2);
			checkstr("host list round trip", hostlists[i].in, out2,
			    out);
			free(out2);
		}
		/* Every name, in order, found at its index. */
		if (hostlists[i].names != NULL) {
			if ((names = malloc(h.count * (AR_HOSTNAME_MAX + 1) +
			    1)) == NULL)
				exit(2);
			for (k = 0, len = 0; k < h.count; k++)
				len += sprintf(names + len, "%s%s",
				    k > 0 ? " " : "",
				    ar_hostlist_name(&h, k, name));
			names[len] = '\0';
			checkstr("host names", hostlists[i].in, names,
			    hostlists[i].names);
			free(names);
		}
		for (k = 0, ok = 1; k < h.count && ok; k++)
			ok = ar_hostlist_name(&h, k, name) != NULL &&
			    ar_hostlist_find(&h, name, &j) == 0 && j == k;
		check(ok, "host found at its index", hostlists[i].in, name,
		    "every host");
		check(ar_hostlist_name(&h, h.count, name) == NULL,
		    "no host past the end", hostlists[i].in, name, "NULL");
		free(out);
	}
	for (i = 0; i < NELEM(badhostlists); i++, nrows++) {
		/* A list that held hosts must come out empty. */
		ar_hostlist_parse("cn[1-4]", &h, err);
		if (ar_hostlist_parse(badhostlists[i].in, &h, got) == 0)
			strcpy(got, "(accepted)");
		checkstr("bad host list", badhostlists[i].in, got,
		    badhostlists[i].err);
		check(strlen(got) < 200 && strchr(got, '\n') == NULL,
		    "short message", badhostlists[i].in, got, "< 200 bytes");
		check(h.count == 0 && h.nruns == 0,
		    "bad host list leaves it empty", badhostlists[i].in,
		    "not empty", "empty");
	}
	for (i = 0; i < NELEM(boundedhosts); i++, nrows++) {
		if (ar_hostlist_parse_max(boundedhosts[i].in,
		    boundedhosts[i].max, &h, got) == 0) {
			out = hostprint(&h);
			snprintf(got, sizeof(got), "%s", out);
			free(out);
		}
		checkstr("bounded host list", boundedhosts[i].in, got,
		    boundedhosts[i].want);
	}
	ar_hostlist_free(&h);
	ar_hostlist_free(&h2);
}

static void
test_host_subsets(void)
{
	struct ar_hostlist h, h2;
	char err[AR_ERRMAX], got[AR_ERRMAX], *buf = NULL;
	uint32_t idx[64], back[64];
	size_t i, n, len, cap = 0;

	ar_hostlist_init(&h);
	ar_hostlist_init(&h2);
	for (i = 0; i < NELEM(hostsubsets); i++, nrows++) {
		if (ar_hostlist_parse(hostsubsets[i].list, &h, err) != 0) {
			check(0, "host subset", hostsubsets[i].list, err,
			    "parsed");
			continue;
		}
		n = readidx(hostsubsets[i].idx, idx);
		len = 0;
		if (ar_hostlist_format_subset(&h, idx, n, &buf, &len,
		    &cap) != 0) {
			check(0, "host subset", hostsubsets[i].idx, "failed",
			    hostsubsets[i].want);
			continue;
		}
		checkstr("host subset", hostsubsets[i].idx, buf,
		    hostsubsets[i].want);
		/* What is printed names the same hosts. */
		if (n == 0)
			continue;
		if (ar_hostlist_parse(buf, &h2, err) != 0 ||
		    ar_hostlist_find_all(&h, &h2, back, err) != 0)
			check(0, "host subset reparsed", buf, err,
			    hostsubsets[i].idx);
		else
			checkstr("host subset reparsed", buf,
			    printidx(back, h2.count, got, sizeof(got)),
			    hostsubsets[i].idx);
	}

	/* Bad indexes append nothing; a good print appends and ends with
	 * a NUL. */
	ar_hostlist_parse("cn[1-4]", &h, err);
	len = 0;
	idx[0] = 1;
	idx[1] = 4;
	nrows++;
	check(ar_hostlist_format_subset(&h, idx, 2, &buf, &len, &cap) == -2 &&
	    len == 0, "index out of range", "1 4", "accepted", "-2");
	idx[1] = 1;
	nrows++;
	check(ar_hostlist_format_subset(&h, idx, 2, &buf, &len, &cap) == -2 &&
	    len == 0, "index repeated", "1 1", "accepted", "-2");
	idx[0] = 2;
	nrows++;
	check(ar_hostlist_format_subset(&h, idx, 2, &buf, &len, &cap) == -2 &&
	    len == 0, "index out of order", "2 1", "accepted", "-2");
	strcpy(buf, "hosts=");
	len = 6;
	nrows++;
	check(ar_hostlist_format(&h, &buf, &len, &cap) == 0 && len == 13 &&
	    strcmp(buf, "hosts=cn[1-4]") == 0, "host list appended", "cn[1-4]",
	    buf, "hosts=cn[1-4]");
	free(buf);
	ar_hostlist_free(&h);
	ar_hostlist_free(&h2);
}

static void
test_host_lookups(void)
{
	struct ar_hostlist h, sub;
	char err[AR_ERRMAX], got[AR_ERRMAX], *buf = NULL;
	uint32_t *idx, i32;
	size_t i, len = 0, cap = 0;

	ar_hostlist_init(&h);
	ar_hostlist_init(&sub);
	for (i = 0; i < NELEM(hostfinds); i++, nrows++) {
		if (ar_hostlist_parse(hostfinds[i].list, &h, err) != 0 ||
		    ar_hostlist_parse(hostfinds[i].sub, &sub, err) != 0) {
			check(0, "find hosts", hostfinds[i].sub, err,
			    hostfinds[i].want);
			continue;
		}
		if ((idx = calloc(sub.count, sizeof(*idx))) == NULL)
			exit(2);
		if (ar_hostlist_find_all(&h, &sub, idx, got) == 0)
			printidx(idx, sub.count, got, sizeof(got));
		checkstr("find hosts", hostfinds[i].sub, got,
		    hostfinds[i].want);
		free(idx);
	}
	for (i = 0; i < NELEM(hostnames); i++, nrows++) {
		if (ar_hostlist_parse(hostnames[i].list, &h, err) != 0) {
			check(0, "find host", hostnames[i].list, err, "parsed");
			continue;
		}
		if (ar_hostlist_find(&h, hostnames[i].name, &i32) == 0)
			snprintf(got, sizeof(got), "%" PRIu32, i32);
		else
			strcpy(got, "-1");
		snprintf(err, sizeof(err), "%" PRId64, hostnames[i].want);
		checkstr("find host", hostnames[i].name, got, err);
	}
	/* An empty list holds nothing and prints nothing. */
	ar_hostlist_free(&h);
	nrows++;
	check(ar_hostlist_find(&h, "cn1", &i32) == -1 &&
	    ar_hostlist_name(&h, 0, got) == NULL &&
	    ar_hostlist_format(&h, &buf, &len, &cap) == 0 && len == 0 &&
	    buf[0] == '\0', "empty list", "", "not empty", "empty");
	free(buf);
	ar_hostlist_free(&sub);
}

int
main(void)
{
	struct ar_record r;

	ar_record_init(&r);
	test_times();
	test_durations();
	test_uints();
	test_reals();
	test_records(&r);
	test_skips();
	test_long_lines(&r);
	test_edits(&r);
	test_numbers(&r);
	test_append(&r);
	ar_record_free(&r);
	test_names();
	test_hostlists();
	test_host_subsets();
	test_host_lookups();
	printf("%d table rows\n", nrows);
	printf("%d passed, %d failed\n", npass, nfail);
	return nfail != 0;
}
