/*
 * fuzz_time.c - libFuzzer target for times, durations and numbers.
 *
 * The input, NUL-terminated, is parsed as a time, a duration, an
 * unsigned number and a decimal one.  A failure must give a short
 * one-line message; a success must be in range and survive formatting
 * and parsing again, and a decimal agree with strtod's reading.
 * The formatters also get the first eight bytes as a raw int64_t.
 */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"

#define TIME_MAX INT64_C(253402300799)
#define DUR_MAX INT64_C(3155760000)

static void
checkerr(int rc, const char *err)
{
	size_t i, n = strlen(err);

	if (rc != -1 || n == 0 || n >= 200)
		abort();
	for (i = 0; i < n; i++)
		if (err[i] < 0x20 || err[i] > 0x7e)
			abort();
}

static void
times(const char *s, int64_t now)
{
	char err[AR_ERRMAX], buf[AR_TIMEBUF];
	int64_t t, t2;
	int rc;

	if ((rc = ar_time_parse(s, now, &t, err)) != 0) {
		checkerr(rc, err);
		return;
	}
	if (t < 0 || t > TIME_MAX)
		abort();
	ar_time_format(t, buf);
	if (ar_time_parse(buf, 0, &t2, err) != 0 || t2 != t)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[AR_ERRMAX], buf[AR_TIMEBUF], *s;
	int64_t d, d2, raw = 0;
	uint64_t u = 0, u2, min, max;
	double x;
	int rc;

	if ((s = malloc(size + 1)) == NULL)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';

	times(s, INT64_C(1763719200));
	times(s, 0);
	times(s, TIME_MAX);
	times(s, INT64_MAX);
	times(s, INT64_MIN);

	if ((rc = ar_duration_parse(s, &d, err)) != 0)
		checkerr(rc, err);
	else if (d <= 0 || d > DUR_MAX ||
	    ar_duration_parse(ar_duration_format(d, buf), &d2, err) != 0 ||
	    d2 != d)
		abort();

	/* The canonical spelling of a number is the only one accepted. */
	if ((rc = ar_uint_parse(s, 0, UINT64_MAX, &u, err)) != 0)
		checkerr(rc, err);
	else {
		snprintf(buf, sizeof(buf), "%" PRIu64, u);
		if (strcmp(buf, s) != 0)
			abort();
	}
	memcpy(&raw, data, size < sizeof(raw) ? size : sizeof(raw));
	min = (uint64_t)raw & 0xffff;
	max = (uint64_t)raw >> 16;
	if ((rc = ar_uint_parse(s, min, max, &u2, err)) != 0)
		checkerr(rc, err);
	else if (u2 < min || u2 > max || u2 != u)
		abort();

	/* Within the few ulps a long mantissa or a far exponent may cost of
	 * strtod's correctly rounded value (the fuzzer runs in the C
	 * locale); values near the subnormals lose more and are left out. */
	if ((rc = ar_real_parse(s, -1e300, 1e300, &x, err)) != 0)
		checkerr(rc, err);
	else if (x < -1e300 || x > 1e300 || (fabs(x) > 1e-290 &&
	    fabs(x - strtod(s, NULL)) > 1e-14 * fabs(x)))
		abort();

	if (strlen(ar_time_format(raw, buf)) >= AR_TIMEBUF - 1 ||
	    strlen(ar_duration_format(raw, buf)) >= AR_TIMEBUF - 1)
		abort();
	free(s);
	return 0;
}
