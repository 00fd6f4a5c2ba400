/*
 * ar-price - price classes and their nested booking limits (Umar's
 * thesis, ch. 5).  With --capacity, and no store: one record per class
 * in, highest price first, and the same records out with the protection
 * levels and booking limits ar_booking_limits gives them.
 */
#include <stdio.h>
#include <string.h>

#include "cmd.h"

enum { OPT_CAPACITY = 300, OPT_METHOD };

static const struct option longopts[] = {
	{ "capacity", required_argument, NULL, OPT_CAPACITY },
	{ "method", required_argument, NULL, OPT_METHOD },
	{ NULL, 0, NULL, 0 }
};

static const struct {
	const char *name;
	enum ar_rm_method method;
} methods[] = {
	{ "emsr-b", AR_EMSR_B },
	{ "emsr-a", AR_EMSR_A },
	{ "littlewood", AR_LITTLEWOOD },
};

struct opts {
	uint32_t capacity;      /* 0 until --capacity */
	enum ar_rm_method method;
	size_t n;               /* classes read */
	struct ar_fare_class classes[AR_CLASSES_MAX];
};

static int
option(struct ctx *x, int opt, const char *arg)
{
	struct opts *o = x->data;
	char err[AR_ERRMAX];
	uint64_t u;

	if (opt == OPT_CAPACITY) {
		if (ar_uint_parse(arg, 1, 1000000, &u, err) != 0) {
			fprintf(stderr, "%s: option '--capacity': %s\n",
			    x->cmd->name, err);
			return -1;
		}
		o->capacity = (uint32_t)u;
		x->standalone = 1;
		return 0;
	}
	if (opt != OPT_METHOD)
		return -1;
	for (size_t i = 0; i < sizeof(methods) / sizeof(methods[0]); i++)
		if (strcmp(arg, methods[i].name) == 0) {
			o->method = methods[i].method;
			return 0;
		}
	fprintf(stderr, "%s: option '--method': unknown method '%.40s' (use "
	    "emsr-b, emsr-a or littlewood)\n", x->cmd->name, arg);
	return -1;
}

/* A number field, 0 to AR_FARE_MAX: 1 found, 0 absent, -1 bad. */
static int
number_field(struct item *it, const char *key, double *v, char *err)
{
	const char *s = ar_record_get(&it->rec, key);
	char msg[AR_ERRMAX];

	if (s == NULL)
		return 0;
	if (ar_real_parse(s, 0, AR_FARE_MAX, v, msg) != 0) {
		snprintf(err, AR_ERRMAX, "field '%s': %.200s", key, msg);
		return -1;
	}
	return 1;
}

/* One class: its price below the one before, its forecast if given. */
static int
prepare(struct ctx *x, struct item *it, char *err)
{
	struct opts *o = x->data;
	struct ar_fare_class *c;
	int rc;

	if (o->n == AR_CLASSES_MAX) {
		snprintf(err, AR_ERRMAX, "more than %d classes",
		    AR_CLASSES_MAX);
		return -1;
	}
	c = &o->classes[o->n];
	if ((rc = number_field(it, "price", &c->price, err)) < 0)
		return -1;
	if (rc == 0) {
		snprintf(err, AR_ERRMAX, "missing field 'price'");
		return -1;
	}
	if (c->price == 0) {
		snprintf(err, AR_ERRMAX, "field 'price': must be above 0");
		return -1;
	}
	if (o->n > 0 && c->price >= o->classes[o->n - 1].price) {
		snprintf(err, AR_ERRMAX, "field 'price': not below the class "
		    "before");
		return -1;
	}
	if (number_field(it, "mean", &c->mean, err) < 0 ||
	    number_field(it, "sd", &c->sd, err) < 0)
		return -1;
	o->n++;
	return 0;
}

/* Every class read and good: the limits, printed on each. */
static int
all(struct ctx *x, struct item *items, size_t n)
{
	static const char *const forecast[2] = { "mean", "sd" };
	struct opts *o = x->data;
	struct ar_fare_class *c = o->classes;
	int rc, status = 0;

	if (n == 0) {
		fprintf(stderr, "%s: no classes in the input\n", x->cmd->name);
		return EXIT_USAGE;
	}
	/* The cheapest class has none cheaper to be protected from: its
	 * forecast is never used. */
	for (size_t i = 0; i + 1 < n; i++)
		for (size_t f = 0; f < 2; f++)
			if (ar_record_get(&items[i].rec, forecast[f]) == NULL) {
				cmd_warn(x, items[i].line, "missing field '%s' "
				    "(only the last class may go without)",
				    forecast[f]);
				status = EXIT_USAGE;
			}
	if (status != 0)
		return status;
	if (o->method == AR_LITTLEWOOD && n != 2) {
		fprintf(stderr, "%s: option '--method': littlewood takes two "
		    "classes, not %zu\n", x->cmd->name, n);
		return EXIT_USAGE;
	}
	if ((rc = ar_booking_limits(o->capacity, o->method, c, n)) != 0) {
		fprintf(stderr, "%s: %s\n", x->cmd->name, ar_strerror(rc));
		return EXIT_USAGE;
	}
	for (size_t i = 0; i < n; i++) {
		struct ar_record *r = &items[i].rec;

		if (ar_record_set_uint(r, "protection", c[i].protection) != 0 ||
		    ar_record_set_uint(r, "limit", c[i].limit) != 0 ||
		    cmd_print(x, r) != 0) {
			fprintf(stderr, "%s: out of memory\n", x->cmd->name);
			return EXIT_STORE;
		}
	}
	return 0;
}

static int
standalone(struct ctx *x, int argc, char **argv)
{
	struct opts *o = x->data;

	if (o->capacity == 0) {
		fprintf(stderr, "%s: --capacity is needed: classes kept in the "
		    "store are still to come\n", x->cmd->name);
		return EXIT_USAGE;
	}
	return cmd_read_all(x, argc, argv, prepare, all);
}

static const struct cmd price = {
	.name = "ar-price",
	.usage = "--capacity n [--method emsr-b | emsr-a | littlewood] "
	    "[key=value ...]",
	.shortopts = "",
	.longopts = longopts,
	.option = option,
	.standalone = standalone,
};

int
main(int argc, char **argv)
{
	struct opts o = { 0, AR_EMSR_B, 0, { { 0, 0, 0, 0, 0 } } };

	return cmd_main(&price, argc, argv, &o);
}
