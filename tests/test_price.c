/*
 * test_price.c - unit tests of the booking limits (lib/price.c): the
 * thesis's Table 5.3, cases worked out by hand below, and every input
 * ar_booking_limits refuses; and the normal quantile they rest on.
 *
 * In the hand-worked cases Phi^-1 values are to six places; y is rounded
 * down to whole nodes, kept within the level below it (y_n = C), and
 * b_1 = C, b_j = C - y_j-1.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ar.h"
#include "check.h"
#include "internal.h"           /* normal_quantile */

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* Known quantiles of the standard normal distribution. */
static void
test_quantile(void)
{
	static const struct {
		double p, x;
	} known[] = {
		{ 0.5, 0 },
		{ 0.975, 1.959963984540054 },
		{ 0.025, -1.959963984540054 },
		{ 0.001, -3.090232306167813 },
		{ 0.999, 3.090232306167813 },
		{ 0.4, -0.2533471031357998 },
		{ 0.75, 0.6744897501960817 },
		{ 0.9, 1.2815515655446008 },
		{ 0.05, -1.6448536269514726 },
		{ 0.02425, -1.9729610513118845 },   /* where the tail begins */
		{ 0.02, -2.0537489106318225 },
		{ 1e-10, -6.361340902404056 },
		{ 1e-300, -37.0470962993612 },
	};
	double x;

	for (size_t i = 0; i < NELEM(known); i++) {
		x = normal_quantile(known[i].p);
		CHECK(fabs(x - known[i].x) < 1e-13 * (1 + fabs(known[i].x)),
		    "quantile(%g) = %.15g, want %.15g", known[i].p, x,
		    known[i].x);
	}
	CHECK(normal_quantile(0.5) == 0, "quantile(0.5) is exactly 0");
	CHECK(normal_quantile(0) == -HUGE_VAL, "quantile(0) is -inf");
	CHECK(normal_quantile(-1) == -HUGE_VAL, "quantile(-1) is -inf");
	CHECK(normal_quantile(1) == HUGE_VAL, "quantile(1) is +inf");
	CHECK(normal_quantile(2) == HUGE_VAL, "quantile(2) is +inf");
	/* The smallest double still gives a number, if not a precise one. */
	x = normal_quantile(4.9406564584124654e-324);
	CHECK(x < -38 && x > -39, "quantile(denorm_min) = %g", x);
	/* Monotone across the seam of the two forms and the mirror. */
	for (double p = 0.0001, last = -HUGE_VAL; p < 1; p += 0.0001) {
		x = normal_quantile(p);
		if (!(x > last)) {
			CHECK(0, "quantile not increasing at %.4f", p);
			break;
		}
		last = x;
	}
}

/* A case: capacity, method, prices and forecasts in; levels and limits. */
struct rm_case {
	const char *name;
	uint32_t capacity;
	enum ar_rm_method method;
	size_t n;
	double price[AR_CLASSES_MAX], mean[AR_CLASSES_MAX], sd[AR_CLASSES_MAX];
	uint32_t protection[AR_CLASSES_MAX], limit[AR_CLASSES_MAX];
};

static const struct rm_case cases[] = {
	/*
	 * The thesis's worked example (section 5.4, Tables 5.1-5.3).
	 * EMSR-b: y2 from classes 1+2 as one: mu = 23, sd = sqrt(1.5^2 +
	 * 1.7^2) = 2.267157, price (100*10 + 60*13) / 23 = 77.391304;
	 * Phi^-1(1 - 40/77.391304 = 0.483146) = -0.042259, y2 = 22.904 ->
	 * 22.  y1: Phi^-1(1 - 60/100 = 0.4) = -0.253347, y1 = 10 - 0.380
	 * = 9.620 -> 9.  b = (40, 40 - 9, 40 - 22) = (40, 31, 18).
	 */
	{ "table 5.3", 40, AR_EMSR_B, 3, { 100, 60, 40 }, { 10, 13, 20 },
	    { 1.5, 1.7, 2.3 }, { 9, 22, 40 }, { 40, 31, 18 } },
	/*
	 * EMSR-a on the same: y2 = [10 + 1.5 Phi^-1(1 - 40/100 = 0.6)]
	 * + [13 + 1.7 Phi^-1(1 - 40/60 = 0.333333)] = (10 + 1.5 * 0.253347)
	 * + (13 - 1.7 * 0.430727) = 10.380 + 12.268 = 22.648 -> 22; y1 as
	 * above.  The same limits.
	 */
	{ "table 5.3, emsr-a", 40, AR_EMSR_A, 3, { 100, 60, 40 },
	    { 10, 13, 20 }, { 1.5, 1.7, 2.3 }, { 9, 22, 40 }, { 40, 31, 18 } },
	/* With 20 nodes y2 = 22.904 is kept to the capacity: b3 = 0. */
	{ "table 5.3, 20 nodes", 20, AR_EMSR_B, 3, { 100, 60, 40 },
	    { 10, 13, 20 }, { 1.5, 1.7, 2.3 }, { 9, 20, 20 }, { 20, 11, 0 } },
	/*
	 * Two classes, 50 nodes, prices 200 and 50, class 1 mean 20 sd 5:
	 * Phi^-1(1 - 50/200 = 0.75) = 0.674490, y1 = 20 + 3.372 = 23.372
	 * -> 23, b = (50, 27).  Littlewood, EMSR-a and EMSR-b agree.
	 */
	{ "two classes, littlewood", 50, AR_LITTLEWOOD, 2, { 200, 50 },
	    { 20 }, { 5 }, { 23, 50 }, { 50, 27 } },
	{ "two classes, emsr-b", 50, AR_EMSR_B, 2, { 200, 50 }, { 20 },
	    { 5 }, { 23, 50 }, { 50, 27 } },
	{ "two classes, emsr-a", 50, AR_EMSR_A, 2, { 200, 50 }, { 20 },
	    { 5 }, { 23, 50 }, { 50, 27 } },
	/* Demand known exactly (sd 0): 12.5 protects 12, b2 = 38. */
	{ "two classes, sd 0", 50, AR_LITTLEWOOD, 2, { 200, 50 }, { 12.5 },
	    { 0 }, { 12, 50 }, { 50, 38 } },
	/* y1 = 60 + 4 * 0.674490 = 62.698, kept to 50: class 2 is shut. */
	{ "two classes, demand above capacity", 50, AR_LITTLEWOOD, 2,
	    { 200, 50 }, { 60 }, { 4 }, { 50, 50 }, { 50, 0 } },
	/* One class has all the nodes. */
	{ "one class", 7, AR_EMSR_B, 1, { 10 }, { 0 }, { 0 }, { 7 }, { 7 } },
	/*
	 * Three classes, 100 nodes, prices 1000, 500, 250, means 20, 30,
	 * sds 4, 6.  EMSR-b: y2: mu = 50, sd = sqrt(52) = 7.211103, price
	 * (20000 + 15000) / 50 = 700, Phi^-1(1 - 250/700 = 0.642857) =
	 * 0.366106, y2 = 50 + 2.640 = 52.640 -> 52.  y1: Phi^-1(1 -
	 * 500/1000 = 0.5) = 0, y1 = 20 exactly -> 20 (not 19).
	 * b = (100, 80, 48).
	 */
	{ "three classes", 100, AR_EMSR_B, 3, { 1000, 500, 250 },
	    { 20, 30 }, { 4, 6 }, { 20, 52, 100 }, { 100, 80, 48 } },
	/*
	 * Where EMSR-a and EMSR-b part: 40 nodes, prices 100, 95, 10, means
	 * 10, 10, sds 3, 3.  y1 = 10 + 3 Phi^-1(1 - 95/100 = 0.05) = 10 -
	 * 3 * 1.644854 = 5.065 -> 5 in both.  EMSR-b y2: mu = 20, sd =
	 * 4.242641, price 97.5, Phi^-1(1 - 10/97.5 = 0.897436) = 1.267076,
	 * y2 = 25.376 -> 25, b = (40, 35, 15).  EMSR-a y2 = [10 + 3
	 * Phi^-1(0.9) = 10 + 3 * 1.281552] + [10 + 3 Phi^-1(1 - 10/95 =
	 * 0.894737) = 10 + 3 * 1.252120] = 13.845 + 13.756 = 27.601 -> 27:
	 * each class's own margin adds up where the pooled one does not;
	 * b = (40, 35, 13).
	 */
	{ "emsr-b pools", 40, AR_EMSR_B, 3, { 100, 95, 10 }, { 10, 10 },
	    { 3, 3 }, { 5, 25, 40 }, { 40, 35, 15 } },
	{ "emsr-a adds up", 40, AR_EMSR_A, 3, { 100, 95, 10 }, { 10, 10 },
	    { 3, 3 }, { 5, 27, 40 }, { 40, 35, 13 } },
	/*
	 * Six classes, 200 nodes, prices 600, 500, ..., 100, means 10, 15,
	 * 20, 25, 30, sds 3, 4, 5, 6, 7.  EMSR-b, from the bottom:
	 *   y5: mu 100, sd sqrt(135) = 11.618950, price 35000/100 = 350,
	 *       Phi^-1(1 - 100/350 = 0.714286) = 0.565949: 106.576 -> 106
	 *   y4: mu 70, sd sqrt(86) = 9.273618, price 29000/70 = 414.285714,
	 *       Phi^-1(0.517241) = 0.043231: 70.401 -> 70
	 *   y3: mu 45, sd sqrt(50) = 7.071068, price 21500/45 = 477.777778,
	 *       Phi^-1(0.372093) = -0.326315: 42.693 -> 42
	 *   y2: mu 25, sd 5, price 13500/25 = 540,
	 *       Phi^-1(0.259259) = -0.645631: 21.772 -> 21
	 *   y1: mu 10, sd 3, Phi^-1(1 - 500/600 = 0.166667) = -0.967422:
	 *       7.098 -> 7
	 * b = (200, 193, 179, 158, 130, 94).
	 */
	{ "six classes, emsr-b", 200, AR_EMSR_B, 6,
	    { 600, 500, 400, 300, 200, 100 }, { 10, 15, 20, 25, 30 },
	    { 3, 4, 5, 6, 7 }, { 7, 21, 42, 70, 106, 200 },
	    { 200, 193, 179, 158, 130, 94 } },
	/*
	 * EMSR-a, each class's own level y_i = mu_i + sd_i Phi^-1(1 - p/p_i)
	 * against the price p below the boundary, summed:
	 *   y5 vs 100: Phi^-1 of 0.833333, 0.8, 0.75, 0.666667, 0.5 =
	 *       0.967422, 0.841621, 0.674490, 0.430727, 0: 12.902 + 18.366
	 *       + 23.372 + 27.584 + 30 = 112.226 -> 112
	 *   y4 vs 200: Phi^-1 of 0.666667, 0.6, 0.5, 0.333333 = 0.430727,
	 *       0.253347, 0, -0.430727: 11.292 + 16.013 + 20 + 22.416 =
	 *       69.721 -> 69
	 *   y3 vs 300: Phi^-1 of 0.5, 0.4, 0.25 = 0, -0.253347, -0.674490:
	 *       10 + 13.987 + 16.628 = 40.614 -> 40
	 *   y2 vs 400: Phi^-1 of 0.333333, 0.2 = -0.430727, -0.841621:
	 *       8.708 + 11.634 = 20.341 -> 20
	 *   y1 vs 500: as EMSR-b, 7
	 * b = (200, 193, 180, 160, 131, 88): EMSR-a protects more at the
	 * cheapest boundary, less above it.
	 */
	{ "six classes, emsr-a", 200, AR_EMSR_A, 6,
	    { 600, 500, 400, 300, 200, 100 }, { 10, 15, 20, 25, 30 },
	    { 3, 4, 5, 6, 7 }, { 7, 20, 40, 69, 112, 200 },
	    { 200, 193, 180, 160, 131, 88 } },
	/*
	 * A level kept within the one below it: prices 100, 60, 59.9,
	 * class 2 no mean but sd 10.  y2 (EMSR-b): mu 10, sd
	 * sqrt(1.5^2 + 10^2) = 10.111874, price 100 (class 2 weighs
	 * nothing), Phi^-1(1 - 59.9/100 = 0.401) = -0.250753, y2 = 7.464
	 * -> 7; y1 = 9.620 -> 9 is more, kept to 7.  b = (40, 33, 33).
	 */
	{ "nested cap", 40, AR_EMSR_B, 3, { 100, 60, 59.9 }, { 10, 0 },
	    { 1.5, 10 }, { 7, 7, 40 }, { 40, 33, 33 } },
	/* Demand known exactly: y2 = 4 + 6 = 10, y1 = 4. */
	{ "sd 0, emsr-b", 30, AR_EMSR_B, 3, { 10, 5, 1 }, { 4, 6 },
	    { 0, 0 }, { 4, 10, 30 }, { 30, 26, 20 } },
	{ "sd 0, emsr-a", 30, AR_EMSR_A, 3, { 10, 5, 1 }, { 4, 6 },
	    { 0, 0 }, { 4, 10, 30 }, { 30, 26, 20 } },
	/*
	 * No mean demand, sd 2 each: EMSR-b weighs the prices equally,
	 * 75; y2 = 0 + 2.828427 Phi^-1(1 - 25/75 = 0.666667 -> 0.430727) =
	 * 1.218 -> 1; y1 = 0 + 2 Phi^-1(0.5) = 0.  b = (40, 40, 39).
	 */
	{ "no mean demand", 40, AR_EMSR_B, 3, { 100, 50, 25 }, { 0, 0 },
	    { 2, 2 }, { 0, 1, 40 }, { 40, 40, 39 } },
	/*
	 * Fractions that add up to whole nodes: with sd 0 the levels are
	 * the summed means, y3 = 0.7 + 0.2 + 0.1 = 1 (0.9999999999999999 in
	 * doubles) -> 1, not 0; y2 = 0.9 -> 0, y1 = 0.7 -> 0.
	 */
	{ "whole nodes", 10, AR_EMSR_A, 4, { 8, 4, 2, 1 }, { 0.7, 0.2, 0.1 },
	    { 0, 0, 0 }, { 0, 0, 1, 10 }, { 10, 10, 10, 9 } },
};

static void
test_cases(void)
{
	struct ar_fare_class cl[AR_CLASSES_MAX];
	const struct rm_case *c;
	int rc;

	for (size_t i = 0; i < NELEM(cases); i++) {
		c = &cases[i];
		memset(cl, 0, sizeof(cl));
		for (size_t j = 0; j < c->n; j++) {
			cl[j].price = c->price[j];
			cl[j].mean = c->mean[j];
			cl[j].sd = c->sd[j];
		}
		rc = ar_booking_limits(c->capacity, c->method, cl, c->n);
		CHECK(rc == 0, "%s: %s", c->name, ar_strerror(rc));
		for (size_t j = 0; j < c->n; j++) {
			CHECK(cl[j].protection == c->protection[j],
			    "%s: class %zu: protection %u, want %u", c->name,
			    j + 1, cl[j].protection, c->protection[j]);
			CHECK(cl[j].limit == c->limit[j],
			    "%s: class %zu: limit %u, want %u", c->name, j + 1,
			    cl[j].limit, c->limit[j]);
		}
	}
}

/* Table 5.2's classes, to be spoilt one way or another. */
static void
table52(struct ar_fare_class *cl)
{
	static const struct ar_fare_class t[3] = {
		{ 100, 10, 1.5, 1111, 2222 },
		{ 60, 13, 1.7, 1111, 2222 },
		{ 40, 20, 2.3, 1111, 2222 },
	};

	memcpy(cl, t, sizeof(t));
}

static void
test_invalid(void)
{
	struct ar_fare_class cl[AR_CLASSES_MAX + 1];
	static const struct {
		const char *what;
		int cls;
		enum { PRICE, MEAN, SD } field;
		double v;
	} bad[] = {
		{ "price 0", 0, PRICE, 0 },
		{ "negative price", 2, PRICE, -1 },
		{ "price NaN", 1, PRICE, NAN },
		{ "price infinite", 0, PRICE, HUGE_VAL },
		{ "price above AR_FARE_MAX", 0, PRICE, 2e12 },
		{ "price equal to the one before", 1, PRICE, 100 },
		{ "price above the one before", 2, PRICE, 70 },
		{ "negative mean", 0, MEAN, -1 },
		{ "negative sd", 1, SD, -0.5 },
		{ "mean NaN", 1, MEAN, NAN },
		{ "sd NaN", 0, SD, NAN },
		{ "sd infinite", 0, SD, HUGE_VAL },
		{ "mean above AR_FARE_MAX", 1, MEAN, 1.5e12 },
	};
	int rc;

	for (size_t i = 0; i < NELEM(bad); i++) {
		table52(cl);
		if (bad[i].field == PRICE)
			cl[bad[i].cls].price = bad[i].v;
		else if (bad[i].field == MEAN)
			cl[bad[i].cls].mean = bad[i].v;
		else
			cl[bad[i].cls].sd = bad[i].v;
		rc = ar_booking_limits(40, AR_EMSR_B, cl, 3);
		CHECK(rc == EINVAL, "%s: %s", bad[i].what, ar_strerror(rc));
		CHECK(cl[0].limit == 2222 && cl[2].protection == 1111,
		    "%s: classes changed", bad[i].what);
	}
	table52(cl);
	CHECK(ar_booking_limits(0, AR_EMSR_B, cl, 3) == EINVAL,
	    "capacity 0");
	CHECK(ar_booking_limits(40, AR_EMSR_B, cl, 0) == EINVAL, "no classes");
	CHECK(ar_booking_limits(40, AR_EMSR_B, NULL, 3) == EINVAL,
	    "classes NULL");
	CHECK(ar_booking_limits(40, (enum ar_rm_method)3, cl, 3) == EINVAL,
	    "an unknown method");
	CHECK(ar_booking_limits(40, AR_LITTLEWOOD, cl, 3) == EINVAL,
	    "littlewood with three classes");
	CHECK(ar_booking_limits(40, AR_LITTLEWOOD, cl, 1) == EINVAL,
	    "littlewood with one class");
	CHECK(cl[0].limit == 2222 && cl[2].protection == 1111,
	    "refused calls changed the classes");

	/* The last class's forecast is not read: anything goes there. */
	cl[2].mean = -5;
	cl[2].sd = NAN;
	rc = ar_booking_limits(40, AR_EMSR_B, cl, 3);
	CHECK(rc == 0 && cl[2].limit == 18, "the last class's forecast was "
	    "read: %s, b3 = %u", ar_strerror(rc), cl[2].limit);

	/* AR_CLASSES_MAX classes are fine, one more is not. */
	for (size_t j = 0; j <= AR_CLASSES_MAX; j++) {
		cl[j].price = 1000.0 - 10 * (double)j;
		cl[j].mean = 1;
		cl[j].sd = 1;
	}
	rc = ar_booking_limits(1000, AR_EMSR_A, cl, AR_CLASSES_MAX);
	CHECK(rc == 0, "%d classes: %s", AR_CLASSES_MAX, ar_strerror(rc));
	for (size_t j = 1; j < AR_CLASSES_MAX; j++)
		CHECK(cl[j].limit <= cl[j - 1].limit &&
		    cl[j - 1].protection <= cl[j].protection,
		    "%d classes: not nested at class %zu", AR_CLASSES_MAX,
		    j + 1);
	CHECK(ar_booking_limits(1000, AR_EMSR_B, cl, AR_CLASSES_MAX + 1) ==
	    EINVAL, "%d classes", AR_CLASSES_MAX + 1);
}

/*
 * Extreme but valid inputs give nested limits within the capacity:
 * prices so far apart that the ratio is no number from 1, or so close
 * that it is none from 0, forecasts at AR_FARE_MAX.
 */
static void
test_extremes(void)
{
	static const double prices[][3] = {
		{ 1e12, 1e-300, 5e-324 },
		{ 1, 0.9999999999999999, 0.9999999999999998 },
		{ 1e12, 1e12 - 1e-3, 1 },
	};
	static const double demand[] = { 0, 1e-300, 0.5, 1e12 };
	struct ar_fare_class cl[3];
	uint32_t caps[] = { 1, 40, 1000000, UINT32_MAX };
	int rc;

	for (size_t p = 0; p < NELEM(prices); p++)
	for (size_t m = 0; m < NELEM(demand); m++)
	for (size_t s = 0; s < NELEM(demand); s++)
	for (size_t c = 0; c < NELEM(caps); c++)
	for (int method = AR_EMSR_B; method <= AR_EMSR_A; method++) {
		for (int j = 0; j < 3; j++) {
			cl[j].price = prices[p][j];
			cl[j].mean = demand[m];
			cl[j].sd = demand[s];
		}
		rc = ar_booking_limits(caps[c], method, cl, 3);
		if (rc != 0 || cl[0].limit != caps[c] ||
		    cl[1].limit > cl[0].limit || cl[2].limit > cl[1].limit ||
		    cl[0].protection > cl[1].protection ||
		    cl[2].protection != caps[c] ||
		    cl[1].limit != caps[c] - cl[0].protection ||
		    cl[2].limit != caps[c] - cl[1].protection) {
			CHECK(0, "prices %g %g %g, mean %g, sd %g, capacity "
			    "%u, method %d: rc %d, limits %u %u %u",
			    prices[p][0], prices[p][1], prices[p][2],
			    demand[m], demand[s], caps[c], method, rc,
			    cl[0].limit, cl[1].limit, cl[2].limit);
			return;
		}
	}
	CHECK(1, "extremes");
}

int
main(void)
{
	test_quantile();
	test_cases();
	test_invalid();
	test_extremes();
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}
