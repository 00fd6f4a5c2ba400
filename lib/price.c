/*
 * price.c - nested booking limits for price classes (Umar's thesis,
 * ch. 5): Littlewood's rule for two classes, EMSR-a and EMSR-b for more.
 *
 * Classes are numbered 1..n from the highest price down.  y_j, the
 * protection level of classes 1..j together, is what the classes below
 * them may never take: class j+1 may hold at most b_(j+1) = C - y_j nodes
 * together with every cheaper class, and b_1 = C.  The levels are worked
 * out from the cheapest class up, each kept within the one below it
 * (y_n = C), so they never decrease and the limits never increase.
 *
 * Algorithm 5.1 of the thesis ends with b2 <- y2 - y1 and b3 <- y3 - y2,
 * limits that are not nested (each class only its own share); its worked
 * example (section 5.4, Table 5.3) and equation (5) take b_j = C - y_(j-1),
 * and so does this file: the example's figures are what the Table shows,
 * and nested limits are what the booking module of section 5.3 enforces.
 */
#include <errno.h>
#include <math.h>

#include "internal.h"

#define SQRT_2PI 2.50662827463100050029
#define SQRT_2 1.41421356237309504880

/* Acklam's approximation holds to a relative 1.15e-9; below P_LOW its
 * tail form is used. */
#define P_LOW 0.02425

/*
 * Phi^-1(p), the standard normal distribution's inverse CDF: Acklam's
 * rational approximation, then one step of Halley's method on
 * Phi(x) - p with Phi from erfc, which leaves an error near a double's
 * rounding.  The upper half is the lower one mirrored: 1 - p is exact
 * there, and the lower tail is where erfc is precise.  -inf for p <= 0,
 * +inf for p >= 1.
 */
double
normal_quantile(double p)
{
	static const double a[] = { -3.969683028665376e+01,
	    2.209460984245205e+02, -2.759285104469687e+02,
	    1.383577518672690e+02, -3.066479806614716e+01,
	    2.506628277459239e+00 };
	static const double b[] = { -5.447609879822406e+01,
	    1.615858368580409e+02, -1.556989798598866e+02,
	    6.680131188771972e+01, -1.328068155288572e+01 };
	static const double c[] = { -7.784894002430293e-03,
	    -3.223964580411365e-01, -2.400758277161838e+00,
	    -2.549732539343734e+00, 4.374664141464968e+00,
	    2.938163982698783e+00 };
	static const double d[] = { 7.784695709041462e-03,
	    3.224671290700398e-01, 2.445134137142996e+00,
	    3.754408661907416e+00 };
	double q, r, x, e, u;

	if (p > 0.5)
		return -normal_quantile(1 - p);
	if (!(p > 0))
		return -HUGE_VAL;
	if (p < P_LOW) {
		q = sqrt(-2 * log(p));
		x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) *
		    q + c[5]) /
		    ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
	} else {
		q = p - 0.5;
		r = q * q;
		x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) *
		    r + a[5]) * q /
		    (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) *
		    r + 1);
	}
	/* Far in the tail (p below 1e-310 or so) the density underflows and
	 * the step is no number: the approximation stands. */
	e = 0.5 * erfc(-x / SQRT_2) - p;
	u = e * SQRT_2PI * exp(x * x / 2);
	if (isfinite(u))
		x -= u / (1 + x * u / 2);
	return x;
}

/*
 * Littlewood's rule (equation 3): protect y = mu + sd Phi^-1(1 - low/high)
 * nodes for demand of mean mu and deviation sd at price high against a
 * request at price low.  Demand known exactly (sd 0) is protected as it
 * is, whatever the prices.
 */
static double
littlewood(double mu, double sd, double high, double low)
{
	if (sd == 0)
		return mu;
	return mu + sd * normal_quantile(1 - low / high);
}

/*
 * EMSR-b (equations 10-13): classes 0..k-1 as one artificial class, of
 * their summed demand, the root of their summed variances, and their
 * prices weighted by demand, against class k.  Without any demand the
 * weights are equal, which is where equal small demands tend.
 */
static double
emsr_b(const struct ar_fare_class *cl, size_t k)
{
	double mu = 0, var = 0, price = 0;
	size_t i;

	for (i = 0; i < k; i++) {
		mu += cl[i].mean;
		var += cl[i].sd * cl[i].sd;
	}
	for (i = 0; i < k; i++)
		price += cl[i].price * (mu > 0 ? cl[i].mean / mu : 1.0 / k);
	return littlewood(mu, sqrt(var), price, cl[k].price);
}

/*
 * EMSR-a (equations 7-8): the sum of what Littlewood's rule protects for
 * each of classes 0..k-1 on its own against class k.  A class protects
 * no less than nothing, so that one with a low forecast does not take
 * protection from the others.
 */
static double
emsr_a(const struct ar_fare_class *cl, size_t k)
{
	double y = 0, yi;

	for (size_t i = 0; i < k; i++) {
		yi = littlewood(cl[i].mean, cl[i].sd, cl[i].price, cl[k].price);
		if (yi > 0)
			y += yi;
	}
	return y;
}

/*
 * Whole nodes: the thesis's Algorithm 5.1 casts to integer, which the
 * worked example shows as rounding down (22.9 protects 22, 9.6 protects
 * 9).  A value that is whole in exact arithmetic but falls a rounding
 * error short of it (0.7 + 0.2 + 0.1) keeps its node.
 */
static uint32_t
whole_nodes(double y, uint32_t max)
{
	if (!(y > 0))
		return 0;
	if (y >= max)
		return max;
	return (uint32_t)floor(y + 1e-9);
}

static int
valid_demand(double v)
{
	return v >= 0 && v <= AR_FARE_MAX;
}

int
ar_booking_limits(uint32_t capacity, enum ar_rm_method method,
    struct ar_fare_class *classes, size_t n)
{
	uint32_t y;
	size_t j;

	if (capacity == 0 || classes == NULL || n < 1 ||
	    n > AR_CLASSES_MAX || (method != AR_EMSR_B &&
	    method != AR_EMSR_A && method != AR_LITTLEWOOD) ||
	    (method == AR_LITTLEWOOD && n != 2))
		return EINVAL;
	for (j = 0; j < n; j++) {
		double p = classes[j].price;

		if (!(p > 0 && p <= AR_FARE_MAX) ||
		    (j > 0 && !(p < classes[j - 1].price)))
			return EINVAL;
		if (j < n - 1 && (!valid_demand(classes[j].mean) ||
		    !valid_demand(classes[j].sd)))
			return EINVAL;
	}
	/* Littlewood's rule is EMSR-a and EMSR-b for two classes. */
	y = capacity;
	classes[n - 1].protection = y;
	for (j = n - 1; j > 0; j--) {
		y = whole_nodes(method == AR_EMSR_A ? emsr_a(classes, j) :
		    emsr_b(classes, j), y);
		classes[j - 1].protection = y;
	}
	classes[0].limit = capacity;
	for (j = 1; j < n; j++)
		classes[j].limit = capacity - classes[j - 1].protection;
	return 0;
}
