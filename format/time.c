/*
 * time.c - times, durations and numbers as the records spell them, read:
 * the printers of times and durations are the library's (lib/times.c),
 * which writes them in its own messages too.
 *
 * Calendar arithmetic is done here (proleptic Gregorian, UTC) rather than
 * with timegm/mktime so that no locale, TZ setting or libc extension can
 * change a result.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "format.h"

#define TIME_MAX INT64_C(253402300799)	/* 9999-12-31T23:59:59Z */
#define DUR_MAX INT64_C(3155760000)	/* 100 years of 365.25 days */
#define QUOTE_MAX 40			/* bytes of user input in a message */

/* Duration units, largest first. */
static const char units[] = "wdhms";
static const int64_t unitsecs[] = { 604800, 86400, 3600, 60, 1 };

static int fail(char *, const char *, ...)
    __attribute__((format(printf, 2, 3)));
static int offset(const char *, int64_t *, char *);

static int
fail(char *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, AR_ERRMAX, fmt, ap);
	va_end(ap);
	return -1;
}

/*
 * Copy s for a message into q (QUOTE_MAX + 4 bytes): cut long input and
 * show any byte that is not printable ASCII as '?', so that a message is
 * always one short clean line whatever the input was.
 */
static const char *
quote(char *q, const char *s)
{
	size_t i;
	unsigned char c;

	for (i = 0; s[i] != '\0' && i < QUOTE_MAX; i++) {
		c = s[i];
		q[i] = c >= 0x20 && c < 0x7f ? c : '?';
	}
	strcpy(q + i, s[i] != '\0' ? "..." : "");
	return q;
}

static int
isdig(int c)
{
	return c >= '0' && c <= '9';
}

/* Skip c at *pp if it is there. */
static int
lit(const char **pp, char c)
{
	if (**pp != c)
		return 0;
	(*pp)++;
	return 1;
}

/* Read exactly n digits at *pp into *v. */
static int
fixed(const char **pp, int n, int *v)
{
	const char *p = *pp;

	for (*v = 0; n > 0; n--, p++) {
		if (!isdig(*p))
			return -1;
		*v = *v * 10 + (*p - '0');
	}
	*pp = p;
	return 0;
}

static int
leap(int y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static int
monthdays(int y, int m)
{
	static const unsigned char n[] =
	    { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };

	return m == 2 && leap(y) ? 29 : n[m - 1];
}

/*
 * Days from 1970-01-01 to y-m-d, for y >= 1 (Howard Hinnant's
 * days_from_civil: years are counted from March so that the leap day
 * comes last, in 400-year eras of 146097 days).
 */
static int64_t
days_from_civil(int64_t y, int m, int d)
{
	int64_t era, yoe, doy, doe;

	y -= m <= 2;
	era = y / 400;
	yoe = y - era * 400;
	doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

/* 2026-11-21T10:00[:00](Z|+HH:MM|+HHMM), or a space instead of the T. */
static int
iso(const char *s, int64_t *t, char *err)
{
	const char *p = s;
	int y, mo, d, h, mi, sec = 0, oh = 0, om = 0, sign = 1;
	int64_t v;
	char q[QUOTE_MAX + 4];

	if (fixed(&p, 4, &y) || !lit(&p, '-') || fixed(&p, 2, &mo) ||
	    !lit(&p, '-') || fixed(&p, 2, &d))
		goto bad;
	if (*p == '\0')
		return fail(err, "missing time of day in '%s'", quote(q, s));
	if (!lit(&p, 'T') && !lit(&p, ' '))
		goto bad;
	if (fixed(&p, 2, &h) || !lit(&p, ':') || fixed(&p, 2, &mi) ||
	    (lit(&p, ':') && fixed(&p, 2, &sec)))
		goto bad;
	if (*p == '.' || *p == ',')
		return fail(err, "fractions of a second are not supported "
		    "in '%s'", quote(q, s));
	if (*p == '\0')
		return fail(err, "missing time zone in '%s' (add Z or an "
		    "offset)", quote(q, s));
	if (*p == '+' || *p == '-') {
		sign = *p++ == '-' ? -1 : 1;
		if (fixed(&p, 2, &oh))
			goto bad;
		lit(&p, ':');
		if (fixed(&p, 2, &om))
			goto bad;
	} else if (!lit(&p, 'Z'))
		goto bad;
	if (*p != '\0')
		goto bad;

	if (y < 1970)
		return fail(err, "invalid year %d in '%s'", y, quote(q, s));
	if (mo < 1 || mo > 12)
		return fail(err, "invalid month %d in '%s'", mo, quote(q, s));
	if (d < 1 || d > monthdays(y, mo))
		return fail(err, "invalid day %d in '%s'", d, quote(q, s));
	if (h > 23)
		return fail(err, "invalid hour %d in '%s'", h, quote(q, s));
	if (mi > 59)
		return fail(err, "invalid minute %d in '%s'", mi, quote(q, s));
	if (sec > 59)
		return fail(err, "invalid second %d in '%s'", sec, quote(q, s));
	if (oh > 23 || om > 59)
		return fail(err, "invalid time zone offset in '%s'",
		    quote(q, s));

	/* Every term is bounded by the checks above: no overflow. */
	v = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + sec -
	    sign * (oh * 3600 + om * 60);
	if (v < 0 || v > TIME_MAX)
		return fail(err, "time out of range in '%s'", quote(q, s));
	*t = v;
	return 0;
bad:
	return fail(err, "invalid time '%s' (use 2026-11-21T10:00Z, @EPOCH "
	    "or now+DURATION)", quote(q, s));
}

int
ar_time_parse(const char *s, int64_t now, int64_t *t, char *err)
{
	const char *p;
	int64_t d, v;
	uint64_t u;
	char q[QUOTE_MAX + 4];

	if (*s == '\0')
		return fail(err, "empty time");
	if (*s == '@') {
		if (ar_uint_parse(s + 1, 0, TIME_MAX, &u, err) == -1)
			return fail(err, "invalid epoch time '%s' (0 to %"
			    PRId64 ")", quote(q, s), TIME_MAX);
		*t = (int64_t)u;
		return 0;
	}
	if (strncmp(s, "now", 3) == 0)
		p = s + 3;
	else if (*s == '+')
		p = s;
	else
		return iso(s, t, err);

	v = now;
	if (*p == '+' || *p == '-') {
		if (offset(p + 1, &d, err) == -1)
			return -1;
		if (*p == '+' ? __builtin_add_overflow(now, d, &v) :
		    __builtin_sub_overflow(now, d, &v))
			v = -1;
	} else if (*p != '\0')
		return fail(err, "invalid time '%s' (use now, now+DURATION or "
		    "now-DURATION)", quote(q, s));
	if (v < 0 || v > TIME_MAX)
		return fail(err, "time out of range in '%s'", quote(q, s));
	*t = v;
	return 0;
}

/*
 * Read decimal digits at *pp into *n.  Values above DUR_MAX are all
 * stored as DUR_MAX + 1: too big either way, and then no later
 * arithmetic on them can overflow.
 */
static int
number(const char **pp, int64_t *n)
{
	const char *p = *pp;

	if (!isdig(*p))
		return -1;
	for (*n = 0; isdig(*p); p++)
		if ((*n = *n * 10 + (*p - '0')) > DUR_MAX)
			*n = DUR_MAX + 1;
	*pp = p;
	return 0;
}

/* total + n * unit, saturated at DUR_MAX + 1 like number(). */
static int64_t
addmul(int64_t total, int64_t n, int64_t unit)
{
	int64_t v;

	if (__builtin_mul_overflow(n, unit, &v) ||
	    __builtin_add_overflow(total, v, &v) || v > DUR_MAX)
		return DUR_MAX + 1;
	return v;
}

/* Units spelled out, as Slurm writes times (now+1hour); each may take
 * an 's' or not, whatever the count. */
static const struct {
	const char *name;
	int64_t secs;
} words[] = {
	{ "second", 1 }, { "minute", 60 }, { "hour", 3600 }, { "day", 86400 },
	{ "week", 604800 }
};

/*
 * The part of a time after now+ or now-: a duration, or as Slurm writes
 * it a count and a unit spelled out (30minutes, 2days).  A single letter
 * after the count is a duration's unit, not a word.  0 with the seconds
 * in *d, or -1 with a message.
 */
static int
offset(const char *s, int64_t *d, char *err)
{
	const char *p = s, *w;
	int64_t n, total;
	size_t len;
	char q[QUOTE_MAX + 4];

	if (number(&p, &n) == -1)
		return ar_duration_parse(s, d, err);
	for (w = p; *w >= 'a' && *w <= 'z'; w++)
		;
	if (*w != '\0' || w - p < 2)
		return ar_duration_parse(s, d, err);
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		len = strlen(words[i].name);
		if (strncmp(p, words[i].name, len) != 0 ||
		    (p[len] != '\0' && strcmp(p + len, "s") != 0))
			continue;
		if ((total = addmul(0, n, words[i].secs)) == 0)
			return fail(err, "duration must be positive: '%s'",
			    quote(q, s));
		if (total > DUR_MAX)
			return fail(err, "duration longer than 100 years: "
			    "'%s'", quote(q, s));
		*d = total;
		return 0;
	}
	return fail(err, "unknown unit in '%s' (use w d h m s, or seconds, "
	    "minutes, hours, days, weeks)", quote(q, s));
}

/* D-HH, D-HH:MM, D-HH:MM:SS and HH:MM:SS, with the first number read. */
static int
clockform(const char *s, const char *p, int64_t n, int64_t *total,
    char *err)
{
	int64_t days = 0, h = n, m = 0, sec = 0;
	char q[QUOTE_MAX + 4];

	if (lit(&p, '-')) {
		days = n;
		if (number(&p, &h) == -1 ||
		    (lit(&p, ':') && (number(&p, &m) == -1 ||
		    (lit(&p, ':') && number(&p, &sec) == -1))))
			goto bad;
		if (h > 23)
			return fail(err, "hours must be below 24 in duration "
			    "'%s'", quote(q, s));
	} else {
		p++;
		if (number(&p, &m) == -1)
			goto bad;
		if (*p == '\0')
			return fail(err, "ambiguous duration '%s' (use "
			    "HH:MM:SS, or units as in 1h30m)", quote(q, s));
		if (!lit(&p, ':') || number(&p, &sec) == -1)
			goto bad;
	}
	if (*p != '\0')
		goto bad;
	if (m > 59)
		return fail(err, "minutes must be below 60 in duration '%s'",
		    quote(q, s));
	if (sec > 59)
		return fail(err, "seconds must be below 60 in duration '%s'",
		    quote(q, s));
	*total = addmul(addmul(addmul(addmul(0, days, 86400), h, 3600), m, 60),
	    sec, 1);
	return 0;
bad:
	return fail(err, "invalid duration '%s'", quote(q, s));
}

int
ar_duration_parse(const char *s, int64_t *d, char *err)
{
	const char *p = s, *u;
	int64_t n, total = 0;
	int last = -1;
	char q[QUOTE_MAX + 4];

	if (*s == '\0')
		return fail(err, "empty duration");
	if (number(&p, &n) == -1)
		return fail(err, "invalid duration '%s'", quote(q, s));
	if (*p == ':' || *p == '-') {
		if (clockform(s, p, n, &total, err) == -1)
			return -1;
	} else
		for (;;) {
			if (*p == '\0')
				return fail(err, "duration needs a unit: '%s'",
				    quote(q, s));
			if ((u = strchr(units, *p)) == NULL)
				return fail(err, "unknown unit in duration "
				    "'%s' (use w d h m s)", quote(q, s));
			if (u - units == last)
				return fail(err, "repeated unit in duration "
				    "'%s'", quote(q, s));
			if (u - units < last)
				return fail(err, "units out of order in "
				    "duration '%s'", quote(q, s));
			last = u - units;
			total = addmul(total, n, unitsecs[last]);
			if (*++p == '\0')
				break;
			if (number(&p, &n) == -1)
				return fail(err, "invalid duration '%s'",
				    quote(q, s));
		}
	if (total == 0)
		return fail(err, "duration must be positive: '%s'",
		    quote(q, s));
	if (total > DUR_MAX)
		return fail(err, "duration longer than 100 years: '%s'",
		    quote(q, s));
	*d = total;
	return 0;
}

int
ar_uint_parse(const char *s, uint64_t min, uint64_t max, uint64_t *v,
    char *err)
{
	const char *p;
	uint64_t n = 0;
	int over = 0;
	char q[QUOTE_MAX + 4];

	for (p = s; isdig(*p); p++)
		over |= __builtin_mul_overflow(n, 10, &n) ||
		    __builtin_add_overflow(n, (uint64_t)(*p - '0'), &n);
	if (p == s || *p != '\0')
		return fail(err, "not a number: '%s'", quote(q, s));
	if (*s == '0' && p - s > 1)
		return fail(err, "leading zero in number: '%s'", quote(q, s));
	if (over || n < min || n > max)
		return fail(err, "must be between %" PRIu64 " and %" PRIu64,
		    min, max);
	*v = n;
	return 0;
}

/* Take a digit into a mantissa of up to 19 digits; past them, one of
 * the integer part only scales the number. */
static void
mantissa(uint64_t *m, int64_t *e, char c, int fraction)
{
	if (*m < UINT64_C(1000000000000000000)) {
		*m = *m * 10 + (uint64_t)(c - '0');
		*e -= fraction;
	} else if (!fraction)
		(*e)++;
}

int
ar_real_parse(const char *s, double min, double max, double *v, char *err)
{
	static const double tens[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6,
	    1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17,
	    1e18, 1e19, 1e20, 1e21, 1e22 };
	const char *p = s;
	uint64_t m = 0;
	int64_t e = 0, x = 0;
	int neg, xneg = 0;
	double d;
	char q[QUOTE_MAX + 4];

	neg = lit(&p, '-');
	if (*p == '0' && isdig(p[1]))
		return fail(err, "leading zero in number: '%s'", quote(q, s));
	if (!isdig(*p))
		return fail(err, "not a number: '%s'", quote(q, s));
	for (; isdig(*p); p++)
		mantissa(&m, &e, *p, 0);
	if (lit(&p, '.')) {
		if (!isdig(*p))
			return fail(err, "not a number: '%s'", quote(q, s));
		for (; isdig(*p); p++)
			mantissa(&m, &e, *p, 1);
	}
	if (lit(&p, 'e') || lit(&p, 'E')) {
		if (!(xneg = lit(&p, '-')))
			lit(&p, '+');
		if (!isdig(*p))
			return fail(err, "not a number: '%s'", quote(q, s));
		for (; isdig(*p); p++)
			if (x < 1000000)
				x = x * 10 + (*p - '0');
	}
	if (*p != '\0')
		return fail(err, "not a number: '%s'", quote(q, s));
	/* Not strtod: the locale could make it read 1.5 as 1.  A mantissa
	 * below 2^53 and a power of ten up to 1e22 are exact, so one
	 * operation rounds them once. */
	e += xneg ? -x : x;
	for (d = (double)m; e > 22; e -= 22)
		d *= 1e22;
	for (; e < -22; e += 22)
		d /= 1e22;
	d = e < 0 ? d / tens[-e] : d * tens[e];
	if (neg)
		d = -d;
	if (!(d >= min && d <= max))
		return fail(err, "must be between %g and %g", min, max);
	*v = d;
	return 0;
}
