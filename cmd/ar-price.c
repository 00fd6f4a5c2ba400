/*
 * ar-price - price classes and their nested booking limits (Umar's
 * thesis, ch. 5).  Quote requests against the store's classes; show and
 * set the classes; update their limits from the demand log by EMSR-b;
 * or, with --capacity and no store, compute limits from forecasts.  And
 * the reclaim policy: a grace per class (--set) and the store's
 * (--reclaim).  With --partition, a partition's own limits and grace
 * (format 10) instead of the store's.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"

enum {
	OPT_CAPACITY = 300, OPT_METHOD, OPT_SHOW, OPT_SET, OPT_UPDATE,
	OPT_HISTORY, OPT_RETENTION, OPT_RECLAIM, OPT_PARTITION
};

static const struct option longopts[] = {
	{ "capacity", required_argument, NULL, OPT_CAPACITY },
	{ "method", required_argument, NULL, OPT_METHOD },
	{ "show", no_argument, NULL, OPT_SHOW },
	{ "set", no_argument, NULL, OPT_SET },
	{ "update", no_argument, NULL, OPT_UPDATE },
	{ "history", required_argument, NULL, OPT_HISTORY },
	{ "retention", required_argument, NULL, OPT_RETENTION },
	{ "reclaim", required_argument, NULL, OPT_RECLAIM },
	{ "partition", required_argument, NULL, OPT_PARTITION },
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

enum mode { QUOTE, CAPACITY, SHOW, SET, UPDATE };

struct opts {
	enum mode mode;
	uint32_t capacity;      /* --capacity */
	enum ar_rm_method method;
	int64_t history;        /* --update: how far back the log is read */
	int64_t retention;      /* --set: -1 to keep the store's */
	int64_t reclaim;        /* --reclaim: the store's grace, 0: none; */
	int reclaim_given;      /* ... given */
	const char *reclaim_arg;        /* ... as given */
	const char *partition;  /* --partition: its policy, not the store's */
	int64_t part_grace;     /* --set --partition: a reclaim= line's, */
	int part_grace_given;   /* ... given */
	int64_t grace[AR_CLASSES_MAX];  /* --set: each class's reclaim=, as
					   struct ar_reclaim has it */
	size_t n;               /* classes read, good or bad */
	struct ar_fare_class classes[AR_CLASSES_MAX];
	struct ar_pricing pricing;      /* --set: the classes read */
	long line[AR_CLASSES_MAX];      /* ... and their lines */
};

/* Take a mode option; another mode already chosen is bad usage, and so
 * is --reclaim with any but --set. */
static int
mode(struct ctx *x, struct opts *o, enum mode m)
{
	if (o->mode != QUOTE && o->mode != m) {
		fprintf(stderr, "%s: --capacity, --show, --set and --update go "
		    "alone\n", x->cmd->name);
		return -1;
	}
	if (o->reclaim_given && m != SET) {
		fprintf(stderr, "%s: --reclaim goes alone or with --set\n",
		    x->cmd->name);
		return -1;
	}
	o->mode = m;
	x->standalone = m == CAPACITY;
	x->whole = m == SHOW || m == SET || m == UPDATE;
	x->write = m == SET || m == UPDATE ? AR_WRITE : 0;
	x->store_wide = m == SET || m == UPDATE;
	return 0;
}

/*
 * A grace period as the reclaim policy takes it: a duration, or "no"
 * (never reclaimed: 0 for the store's, -1 for a class's, given as
 * never).  -1 with a message in msg if it is neither.
 */
static int
grace_parse(const char *s, int64_t never, int64_t *grace, char *msg)
{
	char why[AR_ERRMAX];

	if (strcmp(s, "no") == 0) {
		*grace = never;
		return 0;
	}
	if (ar_duration_parse(s, grace, why) == 0 && *grace > 0 &&
	    *grace <= AR_DURATION_MAX)
		return 0;
	snprintf(msg, AR_ERRMAX, "not a duration or 'no': '%.40s'", s);
	return -1;
}

static int
option(struct ctx *x, int opt, const char *arg)
{
	struct opts *o = x->data;
	char err[AR_ERRMAX];
	uint64_t u;

	switch (opt) {
	case OPT_PARTITION:
		o->partition = arg;
		x->whole = 1;
		return 0;
	case OPT_RECLAIM:
		o->reclaim_arg = arg;
		/* A partition's may also be the store's (see whole). */
		if (strcmp(arg, "store") != 0 &&
		    grace_parse(arg, 0, &o->reclaim, err) != 0) {
			fprintf(stderr, "%s: option '--reclaim': %s\n",
			    x->cmd->name, err);
			return -1;
		}
		o->reclaim_given = 1;
		if (o->mode == SET)
			return 0;
		if (o->mode != QUOTE) {
			fprintf(stderr, "%s: --reclaim goes alone or with "
			    "--set\n", x->cmd->name);
			return -1;
		}
		x->whole = 1;
		x->write = AR_WRITE;
		x->store_wide = 1;
		return 0;
	case OPT_CAPACITY:
		if (ar_uint_parse(arg, 1, 1000000, &u, err) != 0) {
			fprintf(stderr, "%s: option '--capacity': %s\n",
			    x->cmd->name, err);
			return -1;
		}
		o->capacity = (uint32_t)u;
		return mode(x, o, CAPACITY);
	case OPT_SHOW:
		return mode(x, o, SHOW);
	case OPT_SET:
		return mode(x, o, SET);
	case OPT_UPDATE:
		return mode(x, o, UPDATE);
	case OPT_HISTORY:
		return cmd_duration_opt(x, "option '--history'", arg,
		    &o->history);
	case OPT_RETENTION:
		return cmd_duration_opt(x, "option '--retention'", arg,
		    &o->retention);
	case OPT_METHOD:
		for (size_t i = 0; i < sizeof(methods) / sizeof(methods[0]);
		    i++)
			if (strcmp(arg, methods[i].name) == 0) {
				o->method = methods[i].method;
				return 0;
			}
		fprintf(stderr, "%s: option '--method': unknown method '%.40s' "
		    "(use emsr-b, emsr-a or littlewood)\n", x->cmd->name, arg);
	}
	return -1;
}

/* A number field, 0 to AR_FARE_MAX: 1 found, 0 absent, -1 bad. */
static int
number_field(struct ctx *x, struct item *it, const char *key, double *v,
    char *err)
{
	const char *s = cmd_get(x, &it->rec, key);
	char msg[AR_ERRMAX];

	if (s == NULL)
		return 0;
	if (ar_real_parse(s, 0, AR_FARE_MAX, v, msg) != 0) {
		snprintf(err, AR_ERRMAX, "field '%s': %.200s", key, msg);
		return -1;
	}
	return 1;
}

/* --capacity: one class, its price below the one before, its forecast. */
static int
prepare_fare(struct ctx *x, struct item *it, char *err)
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
	if ((rc = number_field(x, it, "price", &c->price, err)) < 0)
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
	if (number_field(x, it, "mean", &c->mean, err) < 0 ||
	    number_field(x, it, "sd", &c->sd, err) < 0)
		return -1;
	o->n++;
	return 0;
}

/* --capacity: every class read and good: the limits, printed on each. */
static int
fares(struct ctx *x, struct item *items, size_t n)
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
			if (cmd_get(x, &items[i].rec, forecast[f]) == NULL) {
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
	return cmd_read_all(x, argc, argv, prepare_fare, fares);
}

/* A book-ahead bound: a duration, or 0 (as --show prints it, 0s). */
static int
ahead_field(struct ctx *x, struct item *it, const char *key, int64_t *v,
    char *err)
{
	const char *s = cmd_get(x, &it->rec, key);
	char msg[AR_ERRMAX];

	if (s == NULL)
		return 0;
	if (s[0] == '0' && (s[1] == '\0' ||
	    (strchr("smhd", s[1]) != NULL && s[2] == '\0')))
		*v = 0;
	else if (ar_duration_parse(s, v, msg) != 0) {
		snprintf(err, AR_ERRMAX, "field '%s': %.200s", key, msg);
		return -1;
	}
	return 1;
}

/* --set: one class record, class=N name= price= ahead_min= ahead_max=
 * limit= min=; no limit means "as the class before" until the store
 * says. */

/* A count of nodes in field key, if it is there, into *dst; -1 with err
 * if it is bad. */
static int
nodes_field(struct ctx *x, struct item *it, const char *key, uint32_t *dst,
    char *err)
{
	const char *v = cmd_get(x, &it->rec, key);
	char msg[AR_ERRMAX];
	uint64_t u;

	if (v == NULL)
		return 0;
	if (ar_uint_parse(v, 0, 1000000, &u, msg) != 0) {
		snprintf(err, AR_ERRMAX, "field '%s': %.200s", key, msg);
		return -1;
	}
	*dst = (uint32_t)u;
	return 0;
}

static int
prepare_class(struct ctx *x, struct item *it, char *err)
{
	struct opts *o = x->data;
	struct ar_pricing *p = &o->pricing;
	struct ar_class *c;
	const char *v;
	char msg[AR_ERRMAX];
	uint64_t u;

	if (o->n == AR_CLASSES_MAX) {
		snprintf(err, AR_ERRMAX, "more than %d classes",
		    AR_CLASSES_MAX);
		return -1;
	}
	c = &p->c[o->n];
	memset(c, 0, sizeof(*c));
	/* Counted whether good or bad: a bad line shifts no other. */
	o->n++;
	if ((v = cmd_get(x, &it->rec, "class")) != NULL &&
	    (ar_uint_parse(v, 1, AR_CLASSES_MAX, &u, msg) != 0 ||
	    u != o->n)) {
		snprintf(err, AR_ERRMAX, "field 'class': not %zu, its place "
		    "in price order", o->n);
		return -1;
	}
	v = cmd_get(x, &it->rec, "name");
	if (v != NULL && strlen(v) > AR_CLASS_NAME_MAX) {
		snprintf(err, AR_ERRMAX, "field 'name': longer than %d bytes",
		    AR_CLASS_NAME_MAX);
		return -1;
	}
	snprintf(c->name, sizeof(c->name), "%s", v ? v : "");
	if ((v = cmd_get(x, &it->rec, "price")) == NULL ||
	    ar_uint_parse(v, 1, (uint64_t)AR_FARE_MAX, &u, msg) != 0) {
		snprintf(err, AR_ERRMAX, "field 'price': %.200s", v == NULL ?
		    "missing (an integer per node and slot)" : msg);
		return -1;
	}
	c->price = (int64_t)u;
	c->ahead_max = -1;
	if (ahead_field(x, it, "ahead_min", &c->ahead_min, err) < 0 ||
	    ahead_field(x, it, "ahead_max", &c->ahead_max, err) < 0)
		return -1;
	c->limit = UINT32_MAX;          /* absent: as the class before */
	if (nodes_field(x, it, "limit", &c->limit, err) != 0 ||
	    nodes_field(x, it, "min", &c->min, err) != 0)
		return -1;
	o->grace[o->n - 1] = 0;         /* absent: the store's */
	if ((v = cmd_get(x, &it->rec, "reclaim")) != NULL &&
	    grace_parse(v, -1, &o->grace[o->n - 1], msg) != 0) {
		snprintf(err, AR_ERRMAX, "field 'reclaim': %.200s", msg);
		return -1;
	}
	o->line[o->n - 1] = it->line;
	p->n = o->n;
	return 0;
}

/* --set --partition: a class line, class=N limit=L (absent: the
 * partition's hosts for the first, else the class before's), or the
 * partition's grace, reclaim= alone; what else a line has (the store's
 * class fields, as --show prints them) is not read. */
static int
prepare_part_class(struct ctx *x, struct item *it, char *err)
{
	struct opts *o = x->data;
	const char *v, *cls = cmd_get(x, &it->rec, "class");
	char msg[AR_ERRMAX];
	uint64_t u;

	if ((v = cmd_get(x, &it->rec, "partition")) != NULL &&
	    strcmp(v, o->partition) != 0) {
		snprintf(err, AR_ERRMAX, "field 'partition': not '%.40s', "
		    "the one --partition names", o->partition);
		return -1;
	}
	if (cls == NULL && cmd_get(x, &it->rec, "limit") == NULL &&
	    (v = cmd_get(x, &it->rec, "reclaim")) != NULL) {
		if (grace_parse(v, -1, &o->part_grace, msg) != 0) {
			snprintf(err, AR_ERRMAX, "field 'reclaim': %.200s",
			    msg);
			return -1;
		}
		o->part_grace_given = 1;
		return 0;
	}
	if (o->n == AR_CLASSES_MAX) {
		snprintf(err, AR_ERRMAX, "more than %d classes",
		    AR_CLASSES_MAX);
		return -1;
	}
	o->n++;
	if (cls != NULL && (ar_uint_parse(cls, 1, AR_CLASSES_MAX, &u,
	    msg) != 0 || u != o->n)) {
		snprintf(err, AR_ERRMAX, "field 'class': not %zu, its place "
		    "in price order", o->n);
		return -1;
	}
	o->pricing.c[o->n - 1].limit = UINT32_MAX;
	if (nodes_field(x, it, "limit", &o->pricing.c[o->n - 1].limit,
	    err) != 0)
		return -1;
	o->line[o->n - 1] = it->line;
	o->pricing.n = o->n;
	return 0;
}

/* Why ar_set_pricing refused a field. */
static const char *
why(const char *field)
{
	if (strcmp(field, "price") == 0)
		return "not below the class before";
	if (strcmp(field, "limit") == 0)
		return "a booking limit is at most the one before, and the "
		    "first is the capacity";
	if (strcmp(field, "class") == 0)
		return "a partition limits every class of the store, or none";
	if (strcmp(field, "min") == 0)
		return "a floor is at most the class's limit";
	if (strcmp(field, "ahead_min") == 0 || strcmp(field, "ahead_max") == 0)
		return "the book-ahead ranges must cover 0 to forever, without "
		    "gap or overlap, the last open";
	return "invalid";
}

static int
set_txn(ar_txn *t, void *arg)
{
	struct ctx *x = arg;
	struct opts *o = x->data;
	struct ar_pricing p = o->pricing, now;
	struct ar_reclaim rp;
	struct ar_info info;
	const char *field;
	size_t bad;
	int rc;

	if ((rc = ar_info(t, &info)) != 0 || (rc = ar_pricing(t, &now)) != 0 ||
	    (rc = ar_reclaim_policy(t, &rp)) != 0)
		return rc;
	p.retention = o->retention >= 0 ? o->retention : now.retention;
	for (size_t i = 0; i < p.n; i++)
		if (p.c[i].limit == UINT32_MAX)
			p.c[i].limit = i == 0 ? info.config.nodes :
			    p.c[i - 1].limit;
	if ((rc = ar_set_pricing(t, &p, &bad, &field)) == EINVAL)
		cmd_warn(x, o->line[bad], "field '%s': %s", field, why(field));
	if (rc != 0)
		return rc;
	/* The classes' graces go with them, as a whole. */
	for (size_t i = 0; i < AR_CLASSES_MAX; i++)
		rp.cls[i] = i < p.n ? o->grace[i] : 0;
	if (o->reclaim_given)
		rp.grace = o->reclaim;
	return ar_set_reclaim(t, &rp);
}

/* --reclaim alone: the store's grace, the classes' as they are. */
static int
reclaim_txn(ar_txn *t, void *arg)
{
	struct opts *o = arg;
	struct ar_reclaim rp;
	int rc;

	if ((rc = ar_reclaim_policy(t, &rp)) != 0)
		return rc;
	rp.grace = o->reclaim;
	return ar_set_reclaim(t, &rp);
}

/* The index of partition name in t's store: 0, or AR_ENOTFOUND. */
static int
partition_find(ar_txn *t, const char *name, uint32_t *index)
{
	const struct ar_partition *parts;
	const struct ar_pool *pools;
	size_t np, nk;
	int rc;

	if ((rc = ar_layout(t, &parts, &np, &pools, &nk)) != 0)
		return rc;
	for (*index = 0; *index < np; (*index)++)
		if (strcmp(parts[*index].name, name) == 0)
			return 0;
	return AR_ENOTFOUND;
}

/* A partition's policy as --partition's options and lines change it:
 * --set its limits (and a reclaim= line's grace), --reclaim its grace. */
static int
part_txn(ar_txn *t, void *arg)
{
	struct ctx *x = arg;
	struct opts *o = x->data;
	const struct ar_partition *parts;
	const struct ar_pool *pools;
	struct ar_part_policy p;
	const char *field;
	size_t np, nk, bad;
	uint32_t part;
	int rc;

	if ((rc = partition_find(t, o->partition, &part)) != 0 ||
	    (rc = ar_layout(t, &parts, &np, &pools, &nk)) != 0 ||
	    (rc = ar_partition_policy(t, part, &p)) != 0)
		return rc;
	if (o->mode == SET) {
		p.n = o->pricing.n;
		memset(p.limit, 0, sizeof(p.limit));
		for (size_t i = 0; i < p.n; i++)
			p.limit[i] = o->pricing.c[i].limit != UINT32_MAX ?
			    o->pricing.c[i].limit : i == 0 ?
			    (uint32_t)parts[part].hosts : p.limit[i - 1];
		if (o->part_grace_given)
			p.grace = o->part_grace;
	}
	if (o->reclaim_given)
		p.grace = o->reclaim;
	/* Only a class line can be wrong: the graces were parsed. */
	if ((rc = ar_set_partition_policy(t, part, &p, &bad, &field)) ==
	    EINVAL && o->n > 0)
		cmd_warn(x, o->line[bad < o->n ? bad : o->n - 1],
		    "field '%s': %s", field, why(field));
	return rc;
}

/* The message and exit code of a partition's policy refused: rc. */
static int
part_error(struct ctx *x, int rc)
{
	struct opts *o = x->data;

	if (rc == AR_ENOTFOUND) {
		fprintf(stderr, "%s: option '--partition': no partition "
		    "'%.40s' in the store\n", x->cmd->name, o->partition);
		return EXIT_USAGE;
	}
	if (rc == ENOTSUP) {
		fprintf(stderr, "%s: option '--partition': the store has no "
		    "partitions of its own (it was not created from a host "
		    "description): set the store's policy\n", x->cmd->name);
		return EXIT_USAGE;
	}
	if (rc == EINVAL)
		return EXIT_USAGE;
	return rc != 0 ? cmd_store_error(x, rc) : 0;
}

/* --set --partition: the lines read are the partition's limits. */
static int
part_set_all(struct ctx *x, struct item *items, size_t n)
{
	(void)items;
	(void)n;
	return part_error(x, ar_write(x->store, 0, x->now, part_txn, x));
}

/* --set: the classes read replace the store's in one transaction. */
static int
set_all(struct ctx *x, struct item *items, size_t n)
{
	int rc;

	(void)items;
	(void)n;
	if ((rc = ar_write(x->store, 0, x->now, set_txn, x)) == EINVAL)
		return EXIT_USAGE;
	if (rc == EBUSY) {
		fprintf(stderr, "%s: %s: the number of classes cannot change "
		    "while reservations with a class are live\n", x->cmd->name,
		    x->shown);
		return EXIT_REFUSED;
	}
	return rc != 0 ? cmd_store_error(x, rc) : 0;
}

/* A class as a record: what --set reads. */
static int
class_record(struct ar_record *r, const struct ar_class *c, size_t i,
    int64_t retention, int64_t grace)
{
	ar_record_clear(r);
	return ar_record_set_uint(r, "class", i + 1) != 0 ||
	    (*c->name && ar_record_set(r, "name", c->name) != 0) ||
	    ar_record_set_int(r, "price", c->price) != 0 ||
	    ar_record_set_duration(r, "ahead_min", c->ahead_min) != 0 ||
	    (c->ahead_max != -1 &&
	    ar_record_set_duration(r, "ahead_max", c->ahead_max) != 0) ||
	    ar_record_set_uint(r, "limit", c->limit) != 0 ||
	    (c->min != 0 && ar_record_set_uint(r, "min", c->min) != 0) ||
	    ar_record_set_duration(r, "retention", retention) != 0 ||
	    (grace == -1 && ar_record_set(r, "reclaim", "no") != 0) ||
	    (grace > 0 && ar_record_set_duration(r, "reclaim", grace) != 0) ?
	    -1 : 0;
}

/* The partitions' policies as records (only partition only's, if not
 * NULL): partition=P class=N limit=L for each class it limits, then
 * partition=P reclaim=D if it has a grace; what --set --partition
 * reads. */
static int
part_records(struct ctx *x, ar_txn *t, const char *only)
{
	const struct ar_partition *parts;
	const struct ar_pool *pools;
	struct ar_part_policy p;
	struct ar_record r;
	size_t np, nk;
	int rc;

	if ((rc = ar_layout(t, &parts, &np, &pools, &nk)) != 0)
		return rc;
	ar_record_init(&r);
	for (uint32_t k = 0; k < np && rc == 0; k++) {
		if ((only != NULL && strcmp(parts[k].name, only) != 0) ||
		    (rc = ar_partition_policy(t, k, &p)) != 0)
			continue;
		for (size_t i = 0; i < p.n && rc == 0; i++) {
			ar_record_clear(&r);
			if (ar_record_set(&r, "partition", parts[k].name) != 0 ||
			    ar_record_set_uint(&r, "class", i + 1) != 0 ||
			    ar_record_set_uint(&r, "limit", p.limit[i]) != 0 ||
			    cmd_print(x, &r) != 0)
				rc = ENOMEM;
		}
		if (p.grace == 0 || rc != 0)
			continue;
		ar_record_clear(&r);
		if (ar_record_set(&r, "partition", parts[k].name) != 0 ||
		    (p.grace == -1 ? ar_record_set(&r, "reclaim", "no") :
		    ar_record_set_duration(&r, "reclaim", p.grace)) != 0 ||
		    cmd_print(x, &r) != 0)
			rc = ENOMEM;
	}
	ar_record_free(&r);
	return rc;
}

/* --update --partition: what it computed, and the limits before. */
struct part_update {
	struct ctx *x;
	struct ar_part_policy before;
	struct ar_fare_class fc[AR_CLASSES_MAX];
	size_t n, classes;
};

static int
part_update_txn(ar_txn *t, void *arg)
{
	struct part_update *u = arg;
	struct opts *o = u->x->data;
	struct ar_pricing pr;
	uint32_t part;
	int rc;

	if ((rc = partition_find(t, o->partition, &part)) != 0 ||
	    (rc = ar_partition_policy(t, part, &u->before)) != 0 ||
	    (rc = ar_pricing(t, &pr)) != 0)
		return rc;
	u->classes = pr.n;
	if (pr.n == 0)
		return ENOENT;
	if (o->method == AR_LITTLEWOOD && pr.n != 2)
		return EDOM;
	return ar_update_partition_limits(t, part, o->method,
	    ar_txn_now(t) - o->history, u->fc, &u->n);
}

/* --update --partition: its limits from its own demand, printed as
 * --update prints the store's, each line naming the partition. */
static int
part_update(struct ctx *x, ar_store *s)
{
	struct opts *o = x->data;
	struct part_update u;
	struct ar_record r;
	int rc, st = 0;

	memset(&u, 0, sizeof(u));
	u.x = x;
	rc = ar_write(s, 0, x->now, part_update_txn, &u);
	if (rc == ENOENT) {
		fprintf(stderr, "%s: %s: the store has no price classes "
		    "(set them with --set)\n", x->cmd->name, x->shown);
		return EXIT_REFUSED;
	}
	if (rc == EDOM) {
		fprintf(stderr, "%s: option '--method': littlewood takes two "
		    "classes, not %zu\n", x->cmd->name, u.classes);
		return EXIT_USAGE;
	}
	if (rc != 0)
		return part_error(x, rc);
	ar_record_init(&r);
	for (size_t i = 0; i < u.n && st == 0; i++) {
		ar_record_clear(&r);
		st = ar_record_set(&r, "partition", o->partition) != 0 ||
		    ar_record_set_uint(&r, "class", i + 1) != 0 ||
		    ar_record_set_uint(&r, "limit", u.fc[i].limit) != 0 ||
		    ar_record_set_real(&r, "mean", u.fc[i].mean) != 0 ||
		    ar_record_set_real(&r, "sd", u.fc[i].sd) != 0 ||
		    ar_record_set_uint(&r, "protection",
		    u.fc[i].protection) != 0 ||
		    (u.before.n > 0 && ar_record_set_uint(&r, "old_limit",
		    u.before.limit[i]) != 0) || cmd_print(x, &r) != 0;
	}
	ar_record_free(&r);
	if (st != 0) {
		fprintf(stderr, "%s: out of memory\n", x->cmd->name);
		return EXIT_STORE;
	}
	return 0;
}

/*
 * --partition: its policy set (--set, --reclaim, --update) and shown.
 * --reclaim takes "store", the store's grace, and "no" is the
 * partition's never.
 */
static int
part_whole(struct ctx *x, ar_store *s)
{
	struct opts *o = x->data;
	char err[AR_ERRMAX];
	uint32_t part;
	ar_txn *t;
	int rc, st = 0;

	if (o->reclaim_given && strcmp(o->reclaim_arg, "store") == 0)
		o->reclaim = 0;
	else if (o->reclaim_given)
		(void)grace_parse(o->reclaim_arg, -1, &o->reclaim, err);
	if (o->mode == UPDATE)
		return part_update(x, s);
	if (o->mode == QUOTE && !o->reclaim_given) {
		fprintf(stderr, "%s: option '--partition': goes with --show, "
		    "--set or --reclaim\n", x->cmd->name);
		return EXIT_USAGE;
	}
	if (o->mode == SET)
		st = cmd_read_all(x, 0, NULL, prepare_part_class,
		    part_set_all);
	else if (o->mode == QUOTE)      /* --reclaim alone: no output */
		return part_error(x, ar_write(s, 0, x->now, part_txn, x));
	if (st != 0)
		return st;
	if ((rc = ar_txn_begin(s, 0, x->now, &t)) != 0)
		return cmd_store_error(x, rc);
	if ((rc = partition_find(t, o->partition, &part)) == 0)
		rc = part_records(x, t, o->partition);
	ar_txn_abort(t);
	if (rc == AR_ENOTFOUND)
		return part_error(x, rc);
	return rc != 0 ? cmd_store_error(x, rc) : 0;
}

struct update {
	struct ctx *x;
	struct ar_pricing before;
	struct ar_fare_class fc[AR_CLASSES_MAX];
	size_t n;
};

static int
update_txn(ar_txn *t, void *arg)
{
	struct update *u = arg;
	struct opts *o = u->x->data;
	int rc;

	if ((rc = ar_pricing(t, &u->before)) != 0)
		return rc;
	if (o->method == AR_LITTLEWOOD && u->before.n != 2)
		return EDOM;
	return ar_update_limits(t, o->method, ar_txn_now(t) - o->history,
	    u->fc, &u->n);
}

/*
 * After --update: a warning for each class it leaves closed to advance
 * booking (limit 0) or nearly (at most a tenth of the nodes), unless the
 * class has a floor, which says how far it may close.  The first class
 * always has every node.
 */
static void
closing(struct ctx *x, const struct ar_pricing *p, uint32_t nodes)
{
	for (size_t i = 1; i < p->n; i++) {
		const struct ar_class *c = &p->c[i];

		if (c->min != 0 || c->limit > nodes / 10)
			continue;
		fprintf(stderr, "%s: warning: class %zu%s%s%s: limit %lu of %lu "
		    "nodes: the update %scloses it to advance booking (set a "
		    "floor with min=)\n", x->cmd->name, i + 1,
		    *c->name ? " (" : "", c->name, *c->name ? ")" : "",
		    (unsigned long)c->limit, (unsigned long)nodes,
		    c->limit > 0 ? "nearly " : "");
	}
}

/* --show, --set, --update: the store's classes, before and after. */
static int
whole(struct ctx *x, ar_store *s)
{
	struct opts *o = x->data;
	struct update u = { x, { 0, { { "", 0, 0, 0, 0, 0 } }, 0 },
	    { { 0, 0, 0, 0, 0 } }, 0 };
	struct ar_pricing p;
	struct ar_reclaim rp;
	struct ar_record r;
	struct ar_info info;
	ar_txn *t;
	int rc, st = 0;

	if (o->reclaim_given && strcmp(o->reclaim_arg, "store") == 0 &&
	    o->partition == NULL) {
		fprintf(stderr, "%s: option '--reclaim': 'store' only with "
		    "--partition\n", x->cmd->name);
		return EXIT_USAGE;
	}
	if (o->partition != NULL)
		return part_whole(x, s);
	if (o->mode == QUOTE) {         /* --reclaim alone */
		rc = ar_write(s, 0, x->now, reclaim_txn, o);
		return rc != 0 ? cmd_store_error(x, rc) : 0;
	}
	if (o->mode == SET)
		return cmd_read_all(x, 0, NULL, prepare_class, set_all);
	if (o->mode == UPDATE) {
		rc = ar_write(s, 0, x->now, update_txn, &u);
		if (rc == AR_ENOTFOUND) {
			fprintf(stderr, "%s: %s: the store has no price classes "
			    "(set them with --set)\n", x->cmd->name, x->shown);
			return EXIT_REFUSED;
		}
		if (rc == EDOM) {
			fprintf(stderr, "%s: option '--method': littlewood "
			    "takes two classes, not %zu\n", x->cmd->name,
			    u.before.n);
			return EXIT_USAGE;
		}
		if (rc != 0)
			return cmd_store_error(x, rc);
	}
	if ((rc = ar_txn_begin(s, 0, x->now, &t)) != 0)
		return cmd_store_error(x, rc);
	if ((rc = ar_pricing(t, &p)) == 0 && (rc = ar_info(t, &info)) == 0)
		rc = ar_reclaim_policy(t, &rp);
	if (rc != 0) {
		ar_txn_abort(t);
		return cmd_store_error(x, rc);
	}
	if (o->mode == UPDATE)
		closing(x, &p, info.config.nodes);
	ar_record_init(&r);
	for (size_t i = 0; i < p.n && st == 0; i++) {
		st = class_record(&r, &p.c[i], i, p.retention, rp.cls[i]);
		if (st == 0 && o->mode == UPDATE)
			st = ar_record_set_real(&r, "mean", u.fc[i].mean) != 0 ||
			    ar_record_set_real(&r, "sd", u.fc[i].sd) != 0 ||
			    ar_record_set_uint(&r, "protection",
			    u.fc[i].protection) != 0 ||
			    ar_record_set_uint(&r, "old_limit",
			    u.before.c[i].limit) != 0;
		if (st == 0)
			st = cmd_print(x, &r);
	}
	ar_record_free(&r);
	/* --show: then the partitions' own. */
	if (st == 0 && o->mode == SHOW &&
	    (rc = part_records(x, t, NULL)) != 0) {
		ar_txn_abort(t);
		return cmd_store_error(x, rc);
	}
	ar_txn_abort(t);
	if (st != 0) {
		fprintf(stderr, "%s: out of memory\n", x->cmd->name);
		return EXIT_STORE;
	}
	return 0;
}

static const struct cmd price = {
	.name = "ar-price",
	.bit = CMD_PRICE,
	.usage = "[--show | --set | --update | --capacity n] [--method m] "
	    "[--history duration] [--retention duration] "
	    "[--reclaim duration | no | store] [--partition name] "
	    "[key=value ...]",
	.shortopts = "",
	.longopts = longopts,
	.option = option,
	.prepare = cmd_request,
	.apply = cmd_search_apply,
	.emit = cmd_search_emit,
	.whole = whole,
	.standalone = standalone,
};

int
main(int argc, char **argv)
{
	struct opts o;

	memset(&o, 0, sizeof(o));
	o.mode = QUOTE;
	o.method = AR_EMSR_B;
	o.history = 7 * 86400;
	o.retention = -1;
	return cmd_main(&price, argc, argv, &o);
}
