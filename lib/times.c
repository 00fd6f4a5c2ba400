/*
 * times.c - times and durations as records and messages write them:
 * ISO 8601 in UTC, and the largest units first.  The parsers, which
 * read what users write, are format/time.c's; what the library writes
 * in its own messages (ar_check's) is printed here, for everyone.
 *
 * Calendar arithmetic is done here (proleptic Gregorian, UTC) rather than
 * with gmtime so that no locale, TZ setting or libc extension can change
 * a result.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ar.h"

/* The units a duration prints in, largest first: weeks are read
 * (format/time.c), never printed. */
static const char units[] = "dhms";
static const int64_t unitsecs[] = { 86400, 3600, 60, 1 };

/* The inverse, for any day count an int64_t time can give. */
static void
civil_from_days(int64_t z, int64_t *y, int *m, int *d)
{
	int64_t era, doe, yoe, doy, mp;

	z += 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = z - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*d = doy - (153 * mp + 2) / 5 + 1;
	*m = mp < 10 ? mp + 3 : mp - 9;
	*y = yoe + era * 400 + (*m <= 2);
}

/* Write v as exactly width decimal digits, with leading zeros. */
static void
put_digits(char *o, unsigned v, int width)
{
	while (width-- > 0) {
		o[width] = (char)('0' + v % 10);
		v /= 10;
	}
}

char *
ar_time_format(int64_t t, char *buf)
{
	int64_t days = t / 86400, secs = t % 86400, y;
	int m, d;

	if (secs < 0) {
		secs += 86400;
		days--;
	}
	civil_from_days(days, &y, &m, &d);
	if (y < 0 || y > 9999) {        /* display only: no fast path */
		snprintf(buf, AR_TIMEBUF, "%04" PRId64 "-%02d-%02dT%02d:%02d:"
		    "%02dZ", y, m, d, (int)(secs / 3600), (int)(secs / 60 % 60),
		    (int)(secs % 60));
		return buf;
	}
	/* Every command prints times on every line: no printf here. */
	put_digits(buf, (unsigned)y, 4);
	buf[4] = '-';
	put_digits(buf + 5, (unsigned)m, 2);
	buf[7] = '-';
	put_digits(buf + 8, (unsigned)d, 2);
	buf[10] = 'T';
	put_digits(buf + 11, (unsigned)(secs / 3600), 2);
	buf[13] = ':';
	put_digits(buf + 14, (unsigned)(secs / 60 % 60), 2);
	buf[16] = ':';
	put_digits(buf + 17, (unsigned)(secs % 60), 2);
	buf[19] = 'Z';
	buf[20] = '\0';
	return buf;
}

char *
ar_duration_format(int64_t d, char *buf)
{
	uint64_t v = d < 0 ? -(uint64_t)d : (uint64_t)d, n;
	size_t len = 0, i;

	if (d == 0)
		return strcpy(buf, "0s");
	if (d < 0)
		buf[len++] = '-';
	for (i = 0; i < sizeof(unitsecs) / sizeof(unitsecs[0]); i++) {
		n = v / unitsecs[i];
		v %= unitsecs[i];
		if (n > 0)
			len += snprintf(buf + len, AR_TIMEBUF - len,
			    "%" PRIu64 "%c", n, units[i]);
	}
	return buf;
}

