/*
 * ar-report - what the store holds: reservations (all, or those a record
 * and a time range select), free nodes per slot, the store's
 * description, the invariant check, and what the cluster did and will
 * do (--usage), as records, a table or charts.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chart.h"
#include "array.h"
#include "cmd.h"

enum mode { LIST, ALL, FREE, INFO, CHECK, USAGE, DUMP, HOSTS };
/* What --drain, --remove, --undrain and --add-hosts do to hosts. */
enum drain_op { NO_DRAIN, DRAIN, REMOVE, UNDRAIN, ADD_HOSTS };
enum {
	OPT_FROM = 300, OPT_TO, OPT_WINDOW, OPT_BY, OPT_TABLE, OPT_SVG,
	OPT_DUMP, OPT_LOAD, OPT_HOST_LIST, OPT_DRAIN, OPT_REMOVE, OPT_UNDRAIN,
	OPT_FORCE, OPT_ADD_HOSTS
};

/* The reservations --list and --all print: those with every field the
 * filter record names, overlapping [from, to). */
struct filter {
	int given;              /* a filter record was given */
	uint64_t id;            /* 0: any */
	uint64_t series;        /* 0: any */
	int user, job;          /* the labels below are asked for */
	char user_is[AR_LABEL_MAX + 1], job_is[AR_LABEL_MAX + 1];
	int64_t owner;          /* -1: any */
	enum ar_status state;   /* 0: any */
	int running;            /* -1: any, else 0 or 1 */
	int64_t from, to;
	int found;              /* some reservation was printed */
};

struct opts {
	enum mode mode;
	struct filter f;
	const char *from, *to;  /* --free, --usage, --list, --all: the
				   interval, as given */
	const char *window;     /* --usage: as given */
	const char *by;
	int table;
	const char *svg;        /* a file, or NULL */
	enum drain_op op;
	const char *drain;      /* --drain, --remove, --undrain: the hosts;
				   --add-hosts: the file */
	int force;              /* --force: cancel what a drain displaces */
};

static const struct option longopts[] = {
	{ "all", no_argument, NULL, 'a' },
	{ "check", no_argument, NULL, 'c' },
	{ "free", no_argument, NULL, 'f' },
	{ "info", no_argument, NULL, 'i' },
	{ "list", no_argument, NULL, 'l' },
	{ "usage", no_argument, NULL, 'u' },
	{ "from", required_argument, NULL, OPT_FROM },
	{ "to", required_argument, NULL, OPT_TO },
	{ "window", required_argument, NULL, OPT_WINDOW },
	{ "by", required_argument, NULL, OPT_BY },
	{ "table", no_argument, NULL, OPT_TABLE },
	{ "svg", required_argument, NULL, OPT_SVG },
	{ "dump", no_argument, NULL, OPT_DUMP },
	{ "load", no_argument, NULL, OPT_LOAD },
	{ "host-list", no_argument, NULL, OPT_HOST_LIST },
	{ "drain", required_argument, NULL, OPT_DRAIN },
	{ "remove", required_argument, NULL, OPT_REMOVE },
	{ "undrain", required_argument, NULL, OPT_UNDRAIN },
	{ "force", no_argument, NULL, OPT_FORCE },
	{ "add-hosts", required_argument, NULL, OPT_ADD_HOSTS },
	{ NULL, 0, NULL, 0 }
};

static int
option(struct ctx *x, int opt, const char *arg)
{
	struct opts *o = x->data;
	const char *modes = "aflicu";
	const enum mode m[] = { ALL, FREE, LIST, INFO, CHECK, USAGE };
	const char *p;

	if (opt == OPT_FROM)
		o->from = arg;
	else if (opt == OPT_TO)
		o->to = arg;
	else if (opt == OPT_WINDOW)
		o->window = arg;
	else if (opt == OPT_BY)
		o->by = arg;
	else if (opt == OPT_TABLE)
		o->table = 1;
	else if (opt == OPT_SVG)
		o->svg = arg;
	else if (opt == OPT_DUMP)
		o->mode = DUMP;
	else if (opt == OPT_HOST_LIST)
		o->mode = HOSTS;
	else if (opt == OPT_LOAD)
		x->standalone = 1;
	else if (opt == OPT_FORCE)
		o->force = 1;
	else if (opt == OPT_DRAIN || opt == OPT_REMOVE || opt == OPT_UNDRAIN ||
	    opt == OPT_ADD_HOSTS) {
		o->op = opt == OPT_DRAIN ? DRAIN : opt == OPT_REMOVE ?
		    REMOVE : opt == OPT_UNDRAIN ? UNDRAIN : ADD_HOSTS;
		o->drain = arg;
		x->write = AR_WRITE;
		x->store_wide = 1;
	}
	else if (opt != 0 && (p = strchr(modes, opt)) != NULL)
		o->mode = m[p - modes];
	else
		return -1;
	return 0;
}

/* --force goes with --drain or --remove, and these three alone. */
static int
options_end(struct ctx *x)
{
	struct opts *o = x->data;
	int draining = o->op == DRAIN || o->op == REMOVE;

	if (o->op != NO_DRAIN && (o->mode != LIST || o->to != NULL ||
	    o->window != NULL || o->by != NULL || o->table || o->svg != NULL ||
	    x->standalone)) {
		fprintf(stderr, "%s: --drain, --remove, --undrain and "
		    "--add-hosts go alone\n", x->cmd->name);
		return -1;
	}
	if (o->force && !draining) {
		fprintf(stderr, "%s: --force goes with --drain or --remove\n",
		    x->cmd->name);
		return -1;
	}
	if ((o->op == UNDRAIN || o->op == ADD_HOSTS) && o->from != NULL) {
		fprintf(stderr, "%s: --from does not go with --%s\n",
		    x->cmd->name, o->op == UNDRAIN ? "undrain" : "add-hosts");
		return -1;
	}
	return 0;
}

struct out {
	struct ctx *x;
	struct ar_record rec;
	int write_error;        /* errno of a failed write to stdout, or 0 */
	int64_t now;            /* the store's clock */
	char *hex;              /* --dump: an entry's bytes in hex */
	size_t hexcap;
	uint64_t entries;       /* --dump: how many */
};

/* Listings go out as they are made, 64 KiB at a time: a store of
 * millions of records is not held in memory. */
#define LIST_CHUNK 65536

/* Is v running: granted, started, and not ended by the clock? */
static int
running(const struct ar_resv *v, int64_t now)
{
	return v->state == AR_GRANTED && v->start <= now && now < v->end;
}

/* Has v every field of the filter, and does it overlap its range? */
static int
selected(const struct filter *f, const struct ar_resv *v, int64_t now)
{
	return (f->id == 0 || v->id == f->id) &&
	    (f->series == 0 || v->series == f->series) &&
	    (!f->user || strcmp(v->user, f->user_is) == 0) &&
	    (!f->job || strcmp(v->job, f->job_is) == 0) &&
	    (f->owner < 0 || v->owner == f->owner) &&
	    (f->state == 0 || ar_resv_status(v) == f->state) &&
	    (f->running < 0 || running(v, now) == f->running) &&
	    v->start < f->to && v->end > f->from;
}

static int
listed(const struct ar_resv *v, void *arg)
{
	struct out *o = arg;
	struct filter *f = &((struct opts *)o->x->data)->f;
	struct ar_record *r = &o->rec;

	if (!selected(f, v, o->now))
		return 0;
	f->found = 1;
	if (cmd_resv(r, v) != 0 ||
	    ar_record_set(r, "running", running(v, o->now) ? "yes" :
	    "no") != 0 ||
	    ar_record_set_duration(r, "duration", v->duration) != 0 ||
	    ar_record_set_time(r, "created", v->created) != 0 ||
	    ar_record_set_time(r, "changed", v->changed) != 0 ||
	    cmd_print(o->x, r) != 0)
		return ENOMEM;
	if (o->x->outlen >= LIST_CHUNK && cmd_flush(o->x) != 0) {
		o->write_error = errno ? errno : EIO;
		return o->write_error;
	}
	return 0;
}

static void
violation(const char *msg, void *arg)
{
	struct out *o = arg;

	ar_record_clear(&o->rec);
	if (ar_record_set(&o->rec, "violation", msg) != 0 ||
	    cmd_print(o->x, &o->rec) != 0)
		fprintf(stderr, "%s: violation: %s\n", o->x->cmd->name, msg);
}

/* On a pool's record, its partition's own policy (format 10), if it
 * has one: limits=b_1,b_2,... and reclaim=, as ar-price --partition
 * sets them. */
static int
part_policy(ar_txn *t, uint32_t partition, struct ar_record *r)
{
	struct ar_part_policy p;
	char buf[AR_CLASSES_MAX * 12], *at = buf;
	int rc;

	if ((rc = ar_partition_policy(t, partition, &p)) != 0)
		return rc;
	for (size_t i = 0; i < p.n; i++)
		at += snprintf(at, sizeof(buf) - (size_t)(at - buf), "%s%lu",
		    i > 0 ? "," : "", (unsigned long)p.limit[i]);
	if ((p.n > 0 && ar_record_set(r, "limits", buf) != 0) ||
	    (p.grace == -1 && ar_record_set(r, "reclaim", "no") != 0) ||
	    (p.grace > 0 && ar_record_set_duration(r, "reclaim",
	    p.grace) != 0))
		return ENOMEM;
	return 0;
}

/*
 * The partitions' pools, a record each (its partition's policy on it),
 * after --info's record when the store has more than one partition or
 * any feature; or (each_host) every host, a record each, pool by pool,
 * with its partition and features.
 */
/* The drains, for --info (a record each) and --host-list (each host's
 * drain, if any: drained[i] its start, 0 if none). */
struct drained {
	struct out *o;
	int64_t *from;          /* --host-list: per host, or NULL */
	int *removed;
};

static int
drained_one(const struct ar_drain *d, void *arg)
{
	struct drained *dr = arg;
	struct ar_record *r = &dr->o->rec;
	struct ctx *x = dr->o->x;

	if (dr->from != NULL) {
		for (uint32_t i = 0; i < d->nhosts; i++) {
			dr->from[d->hosts[i]] = d->from;
			dr->removed[d->hosts[i]] = d->removed;
		}
		return 0;
	}
	ar_record_clear(r);
	if (cmd_set_hosts(x, r, "hosts", d->hosts, d->nhosts) != 0)
		return ENOMEM;
	if (ar_record_set(r, "status", d->removed ? "removed" :
	    "drained") != 0 || ar_record_set_time(r, "from", d->from) != 0 ||
	    ar_record_set_uint(r, "id", d->id) != 0 || cmd_print(x, r) != 0)
		return ENOMEM;
	return 0;
}

static int
pools(struct out *o, ar_txn *t, int each_host)
{
	const struct ar_partition *parts;
	const struct ar_pool *pl;
	struct ar_record *r = &o->rec;
	struct ar_hostlist h;
	const struct ar_hostlist *all = NULL;
	struct drained dr = { o, NULL, NULL };
	char err[AR_ERRMAX], name[AR_HOSTNAME_MAX + 1];
	uint32_t at;
	size_t np, nk;
	int rc, plain;

	if ((rc = ar_layout(t, &parts, &np, &pl, &nk)) != 0)
		return rc;
	if (each_host && (all = cmd_hosts(o->x)) == NULL)
		return AR_ECORRUPT;
	if (each_host && ((dr.from = calloc(all->count,
	    sizeof(*dr.from))) == NULL || (dr.removed = calloc(all->count,
	    sizeof(*dr.removed))) == NULL || (rc = ar_drains(t, drained_one,
	    &dr)) != 0)) {
		free(dr.from);
		free(dr.removed);
		return rc != 0 ? rc : ENOMEM;
	}
	plain = np == 1 && nk == 1 && *pl[0].features == '\0';
	if (plain && !each_host)
		return 0;
	ar_hostlist_init(&h);
	for (size_t k = 0; k < nk && rc == 0; k++) {
		const struct ar_partition *p = &parts[pl[k].partition];

		if (!each_host) {
			ar_record_clear(r);
			if (ar_record_set(r, "partition", p->name) != 0 ||
			    (*pl[k].features && ar_record_set(r, "features",
			    pl[k].features) != 0) ||
			    ar_record_set(r, "hosts", pl[k].hosts) != 0 ||
			    ar_record_set_int(r, "nodes", pl[k].count) != 0 ||
			    (p->is_default && ar_record_set(r, "default",
			    "yes") != 0) ||
			    (*p->borrow && ar_record_set(r, "borrow",
			    p->borrow) != 0))
				rc = ENOMEM;
			if (rc == 0)
				rc = part_policy(t, pl[k].partition, r);
			if (rc == 0 && cmd_print(o->x, r) != 0)
				rc = ENOMEM;
			continue;
		}
		if (ar_hostlist_parse(pl[k].hosts, &h, err) != 0)
			rc = AR_ECORRUPT;
		for (uint32_t i = 0; rc == 0 && i < h.count; i++) {
			ar_record_clear(r);
			if (ar_hostlist_find(all, ar_hostlist_name(&h, i,
			    name), &at) != 0) {
				rc = AR_ECORRUPT;
				break;
			}
			if (ar_record_set(r, "hosts", name) != 0 ||
			    ar_record_set(r, "partition", p->name) != 0 ||
			    (*pl[k].features && ar_record_set(r, "features",
			    pl[k].features) != 0) || (dr.from[at] != 0 &&
			    ar_record_set_time(r, dr.removed[at] ? "removed" :
			    "drained", dr.from[at]) != 0) ||
			    cmd_print(o->x, r) != 0)
				rc = ENOMEM;
		}
	}
	ar_hostlist_free(&h);
	free(dr.from);
	free(dr.removed);
	return rc;
}

static int
info(struct out *o, ar_txn *t)
{
	struct drained dr = { o, NULL, NULL };
	struct ar_info i;
	struct ar_reclaim p;
	struct ar_record *r = &o->rec;
	int rc;

	if ((rc = ar_info(t, &i)) != 0 || (rc = ar_reclaim_policy(t, &p)) != 0)
		return rc;
	if (ar_record_set_int(r, "nodes", i.config.nodes) != 0 ||
	    ar_record_set(r, "hosts", o->x->host_names) != 0 ||
	    ar_record_set_duration(r, "slot", i.config.slot) != 0 ||
	    ar_record_set_duration(r, "horizon", i.config.horizon) != 0 ||
	    ar_record_set_time(r, "clock", i.clock) != 0 ||
	    ar_record_set(r, "clock_mode",
	    cmd_clock_mode(i.config.flags)) != 0 ||
	    ar_record_set(r, "owners", cmd_owners(i.config.flags)) != 0 ||
	    ar_record_set_uint(r, "live", i.live) != 0 ||
	    ar_record_set_uint(r, "records", i.records) != 0 ||
	    ar_record_set_uint(r, "next_id", i.next_id) != 0 ||
	    ar_record_set_uint(r, "map_size", i.map_size) != 0 ||
	    ar_record_set_uint(r, "map_max", i.config.map_max) != 0 ||
	    ar_record_set_int(r, "format", i.format) != 0 ||
	    (p.grace != 0 && ar_record_set_duration(r, "reclaim",
	    p.grace) != 0))
		return ENOMEM;
	if (cmd_print(o->x, r) != 0)
		return ENOMEM;
	if ((rc = pools(o, t, 0)) != 0)
		return rc;
	return ar_drains(t, drained_one, &dr);
}


/* One record per slot: its start and the nodes free in it. */
static int
free_slots(struct out *o, ar_txn *t)
{
	struct opts *op = o->x->data;
	struct ar_info i;
	char err[AR_ERRMAX];
	int64_t from, to;
	uint32_t nfree;
	int rc;

	if ((rc = ar_info(t, &i)) != 0)
		return rc;
	from = i.clock - i.clock % i.config.slot;
	if (op->from != NULL && ar_time_parse(op->from, o->x->now, &from,
	    err) != 0) {
		fprintf(stderr, "%s: option '--from': %s\n", o->x->cmd->name, err);
		return EINVAL;
	}
	if (op->to != NULL && ar_time_parse(op->to, o->x->now, &to, err) != 0) {
		fprintf(stderr, "%s: option '--to': %s\n", o->x->cmd->name, err);
		return EINVAL;
	}
	if (op->to != NULL && to <= from) {
		fprintf(stderr, "%s: option '--to': not after '--from'\n",
		    o->x->cmd->name);
		return EINVAL;
	}
	/* From the start of the slot holding from: 12 slots by default. */
	from -= from % i.config.slot;
	if (op->to == NULL)
		to = from + 12 * i.config.slot;
	for (int64_t s = from; s < to; s += i.config.slot) {
		if ((rc = ar_free(t, s, s + i.config.slot, &nfree)) == EINVAL)
			fprintf(stderr, "%s: option '--free': slot %s is outside "
			    "the ring (from the clock to the horizon)\n",
			    o->x->cmd->name, ar_time_format(s, err));
		if (rc != 0)
			return rc;
		ar_record_clear(&o->rec);
		if (ar_record_set_time(&o->rec, "start", s) != 0 ||
		    ar_record_set_int(&o->rec, "free", nfree) != 0 ||
		    cmd_print(o->x, &o->rec) != 0)
			return ENOMEM;
	}
	return 0;
}

/* --usage: the figures as they come, printed, or kept for --table and
 * --svg. */
struct usage {
	struct out *o;
	int keep;               /* keep them, print at the end */
	int nulls;              /* JSON records: a figure not known, or a
				   fraction of nothing, is null, not the
				   text key=value has for it */
	struct usage_kept k;
};

/* One window, group or total from the library: printed, or kept. */
static int
usage_one(const struct ar_usage *u, void *arg)
{
	struct usage *us = arg;
	struct usage_kept *k = &us->k;
	struct out *o = us->o;

	if (!us->keep)
		return cmd_usage_record(&o->rec, u, u->label, k->by, &k->pr,
		    us->nulls) != 0 || cmd_print(o->x, &o->rec) != 0 ?
		    ENOMEM : 0;
	if (array_room(&k->u, &k->cap, k->n + 1, sizeof(*k->u)) != 0 ||
	    array_room(&k->labels, &k->labelcap, k->n + 1,
	    sizeof(*k->labels)) != 0)
		return ENOMEM;
	k->u[k->n] = *u;
	k->labels[k->n] = NULL;
	if (u->label != NULL && (k->labels[k->n] = strdup(u->label)) == NULL)
		return ENOMEM;
	k->u[k->n++].label = NULL;
	return 0;
}

/* Parse a time option; -1 after a message. */
static int
time_opt(struct ctx *x, const char *name, const char *arg, int64_t *t)
{
	char err[AR_ERRMAX];

	if (ar_time_parse(arg, x->now, t, err) == 0)
		return 0;
	fprintf(stderr, "%s: option '--%s': %s\n", x->cmd->name, name, err);
	return -1;
}

/* --list and --all: the reservations the filter selects. */
static int
list(struct out *o, ar_txn *t)
{
	struct opts *op = o->x->data;
	struct filter *f = &op->f;
	struct ar_resv v;
	int rc;

	o->now = ar_txn_now(t);
	f->from = 0;
	f->to = INT64_MAX;
	if ((op->from != NULL && time_opt(o->x, "from", op->from,
	    &f->from) != 0) ||
	    (op->to != NULL && time_opt(o->x, "to", op->to, &f->to) != 0))
		return EINVAL;
	if (f->to <= f->from) {
		fprintf(stderr, "%s: option '--to': not after '--from'\n",
		    o->x->cmd->name);
		return EINVAL;
	}
	if (f->id == 0)
		return ar_list(t, op->mode == LIST ? AR_LIVE : 0, listed, o);
	/* One reservation is read as one, not found in all. */
	if ((rc = ar_get(t, f->id, &v)) == AR_ENOTFOUND ||
	    (rc == 0 && op->mode == LIST && v.state != AR_GRANTED))
		return 0;
	return rc != 0 ? rc : listed(&v, o);
}

/* The range, window and grouping of --usage; EINVAL after a message. */
static int
usage_args(struct ctx *x, ar_txn *t, int64_t *from, int64_t *to,
    int64_t *window, enum ar_usage_by *by)
{
	struct opts *op = x->data;
	struct ar_info i;
	size_t b;
	int rc;

	if ((rc = ar_info(t, &i)) != 0)
		return rc;
	*window = 12 * i.config.slot;
	*by = AR_BY_WINDOW;
	if (op->by != NULL) {
		for (b = 1; b <= AR_BY_PARTITION &&
		    strcmp(op->by, cmd_usage_by_name(b)) != 0; b++)
			;
		if (b > AR_BY_PARTITION) {
			fprintf(stderr, "%s: option '--by': unknown label '%.40s' "
			    "(use user, job, class or partition)\n",
			    x->cmd->name, op->by);
			return EINVAL;
		}
		*by = (enum ar_usage_by)b;
	}
	if (op->window != NULL && cmd_duration_opt(x, "option '--window'",
	    op->window, window) != 0)
		return EINVAL;
	if (*window % i.config.slot != 0) {
		fprintf(stderr, "%s: option '--window': not a whole number of "
		    "slots (%lld s)\n", x->cmd->name, (long long)i.config.slot);
		return EINVAL;
	}
	/* By default the day up to the clock's slot. */
	*to = i.clock - i.clock % i.config.slot;
	if ((op->to != NULL && time_opt(x, "to", op->to, to) != 0) ||
	    (op->from != NULL && time_opt(x, "from", op->from, from) != 0))
		return EINVAL;
	if (op->from == NULL)
		*from = *to - 86400;
	else if (op->to == NULL)
		*to = *from + 86400;
	if (*to <= *from) {
		fprintf(stderr, "%s: option '--to': not after '--from'\n",
		    x->cmd->name);
		return EINVAL;
	}
	if ((*to - *from) / *window >= AR_USAGE_MAX) {
		fprintf(stderr, "%s: option '--window': more than %d windows\n",
		    x->cmd->name, AR_USAGE_MAX);
		return EINVAL;
	}
	return 0;
}

/* --table: the figures aligned in columns under headings with units. */
static int
usage_table(struct ctx *x, const struct usage_kept *k)
{
	struct textbuf b = { NULL, 0, 0, 0 };
	int rc = 0;

	if (chart_usage_table(k, &b) != 0 || cmd_write(x, b.p, b.n) != 0)
		rc = ENOMEM;
	textbuf_free(&b);
	return rc;
}

/* --svg: charts of the windows or groups, into path, or - for stdout. */
static int
usage_svg(struct ctx *x, const struct usage_kept *k, const char *path)
{
	struct textbuf b = { NULL, 0, 0, 0 };
	int rc = 0;

	if (k->by == AR_BY_WINDOW && k->n <= 1) {
		fprintf(stderr, "%s: option '--svg': nothing to draw\n",
		    x->cmd->name);
		return EINVAL;
	}
	chart_usage_svg(k, &b);
	if (b.nomem)
		rc = ENOMEM;
	else if (strcmp(path, "-") == 0)
		rc = cmd_write(x, b.p, b.n) != 0 ? ENOMEM : 0;
	else if (textbuf_save(&b, path) != 0) {
		fprintf(stderr, "%s: %s: %s\n", x->cmd->name, path,
		    strerror(errno));
		rc = EINVAL;
	}
	textbuf_free(&b);
	return rc;
}

static int
usage(struct out *o, ar_txn *t)
{
	struct opts *op = o->x->data;
	struct usage us;
	struct usage_kept *k = &us.k;
	int64_t from, to, window;
	int rc;

	memset(&us, 0, sizeof(us));
	us.o = o;
	us.keep = op->table || op->svg != NULL;
	us.nulls = o->x->json && !us.keep;
	k->where = o->x->dir;
	if ((rc = usage_args(o->x, t, &from, &to, &window, &k->by)) != 0 ||
	    (rc = ar_pricing(t, &k->pr)) != 0)
		return rc;
	k->window = window;
	k->now = ar_txn_now(t);
	rc = ar_usage(t, from, to, window, k->by, usage_one, &us);
	if (rc == 0 && op->table)
		rc = usage_table(o->x, k);
	if (rc == 0 && op->svg != NULL)
		rc = usage_svg(o->x, k, op->svg);
	for (size_t i = 0; i < k->n; i++)
		free(k->labels[i]);
	free(k->labels);
	free(k->u);
	return rc;
}

/*
 * The filter record of --list and --all: the fields a reservation must
 * have, each as it is printed.  -1 with a message in err if bad.
 */
static int
filter(struct ctx *x, struct item *it, char *err)
{
	static const char *const states[] = { "granted", "held", "cancelled",
	    "finished", "expired", "reclaimed" };
	static const enum ar_status state_of[] = { AR_GRANTED, AR_HELD,
	    AR_CANCELLED, AR_FINISHED, AR_EXPIRED, AR_RECLAIMED };
	const size_t nstates = sizeof(states) / sizeof(states[0]);
	struct opts *op = x->data;
	struct filter *f = &op->f;
	const char *k = "", *v;
	char msg[AR_ERRMAX];
	uint64_t u;
	size_t i, j;

	f->given = 1;
	for (i = 0; i < it->rec.nfields; i++) {
		k = it->rec.fields[i].key;
		v = it->rec.fields[i].value;
		if (strcmp(k, "id") == 0 || strcmp(k, "series") == 0) {
			if (ar_uint_parse(v, 1, UINT64_MAX, *k == 'i' ? &f->id :
			    &f->series, msg) != 0)
				goto bad;
		} else if (strcmp(k, "owner") == 0) {
			if (ar_uint_parse(v, 0, UINT32_MAX, &u, msg) != 0)
				goto bad;
			f->owner = (int64_t)u;
		} else if (strcmp(k, "user") == 0 || strcmp(k, "job") == 0) {
			if (strlen(v) > AR_LABEL_MAX) {
				snprintf(msg, sizeof(msg), "longer than %d "
				    "bytes", AR_LABEL_MAX);
				goto bad;
			}
			strcpy(*k == 'u' ? f->user_is : f->job_is, v);
			*(*k == 'u' ? &f->user : &f->job) = 1;
		} else if (strcmp(k, "status") == 0) {
			for (j = 0; j < nstates && strcmp(v, states[j]) != 0;
			    j++)
				;
			if (j == nstates) {
				snprintf(msg, sizeof(msg), "must be granted, "
				    "held, cancelled, finished, expired or "
				    "reclaimed");
				goto bad;
			}
			if (op->mode == LIST && state_of[j] != AR_GRANTED &&
			    state_of[j] != AR_HELD) {
				snprintf(msg, sizeof(msg), "--list shows "
				    "granted and held reservations only (use "
				    "--all)");
				goto bad;
			}
			f->state = state_of[j];
		} else if (strcmp(k, "running") == 0) {
			if (strcmp(v, "yes") != 0 && strcmp(v, "no") != 0) {
				snprintf(msg, sizeof(msg), "must be yes or no");
				goto bad;
			}
			f->running = strcmp(v, "yes") == 0;
		} else {
			snprintf(err, AR_ERRMAX, "field '%s': not one to "
			    "select by (use id, series, user, job, owner, "
			    "status or running)", k);
			return -1;
		}
	}
	return 0;
bad:
	snprintf(err, AR_ERRMAX, "field '%s': %.200s", k, msg);
	return -1;
}

/* Bytes in hex, lowercase, into *buf (of *cap, grown); NULL if memory
 * ran out. */
static char *
hex(const void *data, size_t n, char **buf, size_t *cap)
{
	static const char digit[] = "0123456789abcdef";
	const unsigned char *p = data;

	if (array_room(buf, cap, 2 * n + 1, 1) != 0)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		(*buf)[2 * i] = digit[p[i] >> 4];
		(*buf)[2 * i + 1] = digit[p[i] & 15];
	}
	(*buf)[2 * n] = '\0';
	return *buf;
}

/* --dump: an entry of the store as a record, its bytes in hex. */
static int
dumped(const struct ar_entry *e, void *arg)
{
	struct out *o = arg;
	struct ar_record *r = &o->rec;

	ar_record_clear(r);
	if (ar_record_set(r, "table", e->table) != 0 ||
	    hex(e->key, e->key_size, &o->hex, &o->hexcap) == NULL ||
	    ar_record_set(r, "key", o->hex) != 0 ||
	    hex(e->value, e->value_size, &o->hex, &o->hexcap) == NULL ||
	    ar_record_set(r, "value", o->hex) != 0 ||
	    cmd_print(o->x, r) != 0)
		return ENOMEM;
	o->entries++;
	if (o->x->outlen >= LIST_CHUNK && cmd_flush(o->x) != 0) {
		o->write_error = errno ? errno : EIO;
		return o->write_error;
	}
	return 0;
}

/* --drain, --remove and --undrain: the hosts, and what the library did. */
struct drain_job {
	struct ctx *x;
	const struct opts *o;
	uint32_t *idx;          /* the hosts as indexes in the store's list */
	uint32_t n;
	int64_t from;
	struct ar_answer ans;
	struct ar_resv *displaced;      /* as they are after the job */
	size_t ndisplaced, dcap;
};

static int
drain_txn(ar_txn *t, void *arg)
{
	struct drain_job *j = arg;
	const uint64_t *ids;
	uint32_t *to;
	size_t n;
	int rc;

	j->ndisplaced = 0;
	/* Hosts added since the names were read renumber them. */
	if ((rc = cmd_hosts_read(j->x, t, &to)) != 0)
		return rc;
	for (uint32_t i = 0; to != NULL && i < j->n; i++)
		j->idx[i] = to[j->idx[i]];
	free(to);
	if (j->o->op == UNDRAIN)
		return ar_undrain(t, j->idx, j->n);
	if ((rc = ar_drain(t, j->idx, j->n, j->from, (j->o->force ? AR_FORCE :
	    0) | (j->o->op == REMOVE ? AR_DRAIN_REMOVE : 0), j->x->uid,
	    &j->ans)) != 0)
		return rc;
	ar_displaced(t, &ids, &n);
	if (array_room(&j->displaced, &j->dcap, n, sizeof(*j->displaced)) != 0)
		return ENOMEM;
	for (size_t i = 0; i < n && rc == 0; i++)
		rc = ar_get(t, ids[i], &j->displaced[j->ndisplaced++]);
	return rc;
}

/* What a drain did: its record, then one per reservation it displaced
 * (cancelled with --force, else still granted); an exit status. */
static int
drain_emit(struct drain_job *j)
{
	struct ctx *x = j->x;
	struct ar_record r;
	const struct ar_answer *a = &j->ans;
	int rc = 0, granted = a->status == AR_GRANTED;

	ar_record_init(&r);
	if (ar_record_set(&r, "hosts", j->o->drain) != 0 ||
	    ar_record_set(&r, "status", j->o->op == UNDRAIN ? "undrained" :
	    !granted ? "refused" : j->o->op == REMOVE ? "removed" :
	    "drained") != 0 ||
	    (j->o->op != UNDRAIN && (ar_record_set_time(&r, "from",
	    a->start) != 0 || (granted && ar_record_set_uint(&r, "id",
	    a->id) != 0) || (!granted && (ar_record_set(&r, "reason",
	    ar_reason_name(a->reason)) != 0 || (a->conflict != 0 &&
	    ar_record_set_uint(&r, "conflict", a->conflict) != 0))))) ||
	    cmd_print(x, &r) != 0)
		rc = -1;
	for (size_t i = 0; rc == 0 && i < j->ndisplaced; i++) {
		ar_record_clear(&r);
		if (cmd_resv(&r, &j->displaced[i]) != 0 ||
		    ar_record_set(&r, "reason", "displaced") != 0 ||
		    cmd_print(x, &r) != 0)
			rc = -1;
	}
	ar_record_free(&r);
	if (rc != 0) {
		fprintf(stderr, "%s: out of memory\n", x->cmd->name);
		return EXIT_STORE;
	}
	return granted || j->o->op == UNDRAIN ? 0 : EXIT_REFUSED;
}

/* --drain, --remove, --undrain: one write transaction. */
static int
drain(struct ctx *x, ar_store *s)
{
	const struct opts *o = x->data;
	struct drain_job j = { .x = x, .o = o, .from = x->now };
	const struct ar_hostlist *all;
	struct ar_hostlist h;
	const char *opt = o->op == DRAIN ? "drain" : o->op == REMOVE ?
	    "remove" : "undrain";
	char err[AR_ERRMAX];
	int rc;

	if (o->from != NULL && time_opt(x, "from", o->from, &j.from) != 0)
		return EXIT_USAGE;
	if ((all = cmd_hosts(x)) == NULL)
		return EXIT_STORE;
	ar_hostlist_init(&h);
	/* No more than the store has: a short list may name millions. */
	if ((rc = ar_hostlist_parse_max(o->drain, all->count, &h, err)) != 0 ||
	    (j.idx = malloc(h.count * sizeof(*j.idx))) == NULL ||
	    (rc = ar_hostlist_find_all(all, &h, j.idx, err)) != 0) {
		if (rc == 0 || rc == -2)
			snprintf(err, sizeof(err), "out of memory");
		fprintf(stderr, "%s: option '--%s': %s\n", x->cmd->name, opt,
		    err);
		ar_hostlist_free(&h);
		free(j.idx);
		return rc == 0 || rc == -2 ? EXIT_STORE : EXIT_USAGE;
	}
	j.n = (uint32_t)h.count;
	ar_hostlist_free(&h);
	rc = ar_write(s, 0, x->now, drain_txn, &j);
	if (rc == AR_ENOTFOUND || rc == AR_EPERM) {
		fprintf(stderr, "%s: option '--%s': %s\n", x->cmd->name, opt,
		    rc == AR_EPERM ? "a host is removed, for good" :
		    "a host is not drained");
		rc = EXIT_REFUSED;
	} else
		rc = rc != 0 ? cmd_store_error(x, rc) : drain_emit(&j);
	free(j.idx);
	free(j.displaced);
	return rc;
}

/* --add-hosts: the description's text, and the store's hosts after. */
struct add_job {
	const char *text;
	char err[AR_ERRMAX];
	char *names;
};

static int
add_txn(ar_txn *t, void *arg)
{
	struct add_job *j = arg;
	const char *names;
	int rc;

	free(j->names);
	j->names = NULL;
	if ((rc = ar_add_hosts(t, j->text, j->err)) != 0 ||
	    (rc = ar_hosts(t, &names)) != 0)
		return rc;
	return (j->names = strdup(names)) == NULL ? ENOMEM : 0;
}

/* --add-hosts: one write transaction; then a record of the hosts that
 * joined and the nodes there are now.  An exit status. */
static int
add_hosts(struct ctx *x, ar_store *s)
{
	const struct opts *o = x->data;
	const struct ar_hostlist *was = cmd_hosts(x);
	struct add_job j = { NULL, "", NULL };
	struct ar_hostlist now;
	struct ar_record r;
	char msg[AR_ERRMAX], name[AR_HOSTNAME_MAX + 1], *text, *list = NULL;
	uint32_t *idx = NULL, at;
	size_t n = 0, len = 0, cap = 0;
	int rc;

	if (was == NULL)
		return EXIT_STORE;
	if ((rc = cmd_read_text(x->cmd->name, "add-hosts", o->drain,
	    &text)) != 0)
		return rc;
	j.text = text;
	rc = ar_write(s, 0, x->now, add_txn, &j);
	free(text);
	if (rc == EINVAL) {
		fprintf(stderr, "%s: %s: %s\n", x->cmd->name, o->drain, j.err);
		free(j.names);
		return EXIT_USAGE;
	}
	if (rc != 0) {
		free(j.names);
		return cmd_store_error(x, rc);
	}
	ar_hostlist_init(&now);
	ar_record_init(&r);
	rc = ar_hostlist_parse(j.names, &now, msg) != 0 ||
	    (idx = malloc(now.count * sizeof(*idx))) == NULL;
	for (uint32_t i = 0; rc == 0 && i < now.count; i++)
		if (ar_hostlist_find(was, ar_hostlist_name(&now, i, name),
		    &at) != 0)
			idx[n++] = i;
	if (rc == 0)
		rc = ar_hostlist_format_subset(&now, idx, n, &list, &len,
		    &cap) != 0 || ar_record_set(&r, "hosts", list) != 0 ||
		    ar_record_set(&r, "status", "added") != 0 ||
		    ar_record_set_uint(&r, "nodes", now.count) != 0 ||
		    cmd_print(x, &r) != 0;
	ar_record_free(&r);
	ar_hostlist_free(&now);
	free(list);
	free(idx);
	free(j.names);
	if (rc != 0) {
		fprintf(stderr, "%s: out of memory\n", x->cmd->name);
		return EXIT_STORE;
	}
	return 0;
}

/* What the mode asks for, from one read transaction; an exit status. */
static int
show(struct ctx *x, struct item *items, size_t n)
{
	struct opts *op = x->data;
	struct out o = { x, { NULL, 0, 0, NULL }, 0, 0, NULL, 0, 0 };
	uint64_t bad = 0;
	ar_txn *t;
	int rc;

	(void)items;
	(void)n;
	if ((rc = ar_txn_begin(x->store, 0, x->now, &t)) != 0) {
		fprintf(stderr, "%s: %s\n", x->cmd->name, ar_strerror(rc));
		return EXIT_STORE;
	}
	/* Hosts may have been added since the command began. */
	if ((rc = cmd_hosts_read(x, t, NULL)) != 0) {
		ar_txn_abort(t);
		fprintf(stderr, "%s: %s\n", x->cmd->name, ar_strerror(rc));
		return EXIT_STORE;
	}
	ar_record_init(&o.rec);
	switch (op->mode) {
	case LIST:
	case ALL:
		rc = list(&o, t);
		break;
	case FREE:
		rc = free_slots(&o, t);
		break;
	case INFO:
		rc = info(&o, t);
		break;
	case HOSTS:
		rc = pools(&o, t, 1);
		break;
	case CHECK:
		rc = ar_check(t, violation, &o, &bad);
		x->keep_output = 1;
		break;
	case USAGE:
		rc = usage(&o, t);
		break;
	case DUMP:
		/* The count closes it: a dump cut short does not load. */
		if ((rc = ar_dump(t, dumped, &o)) == 0) {
			ar_record_clear(&o.rec);
			if (ar_record_set_uint(&o.rec, "entries",
			    o.entries) != 0 || cmd_print(x, &o.rec) != 0)
				rc = ENOMEM;
		}
		break;
	}
	ar_txn_abort(t);
	ar_record_free(&o.rec);
	free(o.hex);
	if (rc == EINVAL && op->mode != INFO && op->mode != CHECK)
		return EXIT_USAGE;
	if (o.write_error) {
		fprintf(stderr, "%s: write error: %s\n", x->cmd->name,
		    strerror(o.write_error));
		return EXIT_STORE;
	}
	if (rc != 0) {
		fprintf(stderr, "%s: %s\n", x->cmd->name, ar_strerror(rc));
		return EXIT_STORE;
	}
	if (bad > 0) {
		fprintf(stderr, "%s: %llu invariant violations\n", x->cmd->name,
		    (unsigned long long)bad);
		return EXIT_STORE;
	}
	/* As grep: a filter that selects nothing is "not found". */
	return op->f.given && !op->f.found ? EXIT_REFUSED : 0;
}

static int
whole(struct ctx *x, ar_store *s)
{
	struct opts *op = x->data;

	if (op->op != NO_DRAIN) {
		if (x->argc == 0)
			return op->op == ADD_HOSTS ? add_hosts(x, s) :
			    drain(x, s);
		fprintf(stderr, "%s: --%s takes no records\n", x->cmd->name,
		    op->op == DRAIN ? "drain" : op->op == REMOVE ? "remove" :
		    op->op == UNDRAIN ? "undrain" : "add-hosts");
		return EXIT_USAGE;
	}
	if (x->argc == 0)
		return show(x, NULL, 0);
	if (op->mode != LIST && op->mode != ALL) {
		fprintf(stderr, "%s: a filter record goes with --list or "
		    "--all\n", x->cmd->name);
		return EXIT_USAGE;
	}
	return cmd_read_all(x, x->argc, x->argv, filter, show);
}

/* --load: the entries of a dump, read from stdin one line at a time. */
struct loader {
	struct ctx *x;
	char *line;
	size_t cap;
	unsigned long lineno;
	unsigned char *bytes;   /* the key's, then the value's */
	size_t bcap;
	uint64_t entries;       /* read so far */
	int bad;                /* a line was not an entry: said so */
};

/* A lowercase hex digit's value. */
static int
nibble(char c)
{
	return c <= '9' ? c - '0' : c - 'a' + 10;
}

/* The bytes of the field "name=HEX " at *p, into l->bytes from off;
 * their count, or -1 after saying what is wrong. */
static long
hex_field(struct loader *l, char **p, const char *name, size_t off)
{
	size_t n = strlen(name), len;
	char *s = *p, *end;

	if (strncmp(s, name, n) != 0 || s[n] != '=') {
		fprintf(stderr, "%s: line %lu: field '%s': missing\n",
		    l->x->cmd->name, l->lineno, name);
		return -1;
	}
	s += n + 1;
	/* No bytes print as "". */
	len = strncmp(s, "\"\"", 2) == 0 ? 0 : strspn(s, "0123456789abcdef");
	end = s + (len == 0 && *s == '"' ? 2 : len);
	if (len % 2 != 0 || (*end != ' ' && *end != '\0')) {
		fprintf(stderr, "%s: line %lu: field '%s': not bytes in "
		    "lowercase hex\n", l->x->cmd->name, l->lineno, name);
		return -1;
	}
	if (array_room(&l->bytes, &l->bcap, off + len / 2 + 1, 1) != 0)
		return -1;
	for (size_t i = 0; i < len / 2; i++)
		l->bytes[off + i] = (unsigned char)(nibble(s[2 * i]) << 4 |
		    nibble(s[2 * i + 1]));
	*p = *end == ' ' ? end + 1 : end;
	return (long)(len / 2);
}

/* ar_load's next: the next line that is not blank, as --dump wrote it. */
static int
next_entry(struct ar_entry *e, void *arg)
{
	struct loader *l = arg;
	ssize_t len;
	long klen, vlen;
	char *p, *sp;

	do {
		errno = 0;
		if ((len = getline(&l->line, &l->cap, stdin)) == -1) {
			if (errno != 0)
				return errno;
			fprintf(stderr, "%s: line %lu: the dump ends before its "
			    "count of entries\n", l->x->cmd->name, l->lineno);
			goto bad;
		}
		l->lineno++;
		if (len > 0 && l->line[len - 1] == '\n')
			l->line[--len] = '\0';
	} while (ar_record_skip(l->line, (size_t)len));
	p = l->line;
	if (strncmp(p, "entries=", 8) == 0) {
		if (strtoull(p + 8, &sp, 10) == l->entries && *sp == '\0' &&
		    isdigit((unsigned char)p[8]))
			return 0;
		fprintf(stderr, "%s: line %lu: field 'entries': %llu were "
		    "read\n", l->x->cmd->name, l->lineno,
		    (unsigned long long)l->entries);
		goto bad;
	}
	if (strncmp(p, "table=", 6) != 0 || (sp = strchr(p, ' ')) == NULL) {
		fprintf(stderr, "%s: line %lu: field 'table': missing\n",
		    l->x->cmd->name, l->lineno);
		goto bad;
	}
	*sp = '\0';
	e->table = p + 6;
	p = sp + 1;
	if ((klen = hex_field(l, &p, "key", 0)) < 0 ||
	    (vlen = hex_field(l, &p, "value", (size_t)klen)) < 0)
		goto bad;
	if (*p != '\0') {
		fprintf(stderr, "%s: line %lu: a field after 'value'\n",
		    l->x->cmd->name, l->lineno);
		goto bad;
	}
	e->key = l->bytes;
	e->key_size = (size_t)klen;
	e->value = l->bytes + klen;
	e->value_size = (size_t)vlen;
	l->entries++;
	return 1;
bad:
	l->bad = 1;
	return EINVAL;
}

/* --load: make the store from a dump; an exit status. */
static int
load(struct ctx *x, int argc, char **argv)
{
	struct loader l = { .x = x };
	int rc;

	(void)argv;
	if (argc > 0) {
		fprintf(stderr, "%s: --load reads a dump from stdin, takes "
		    "no records as arguments\n", x->cmd->name);
		return EXIT_USAGE;
	}
	rc = ar_load(x->dir, next_entry, &l);
	free(l.line);
	free(l.bytes);
	if (l.bad)
		return EXIT_USAGE;
	if (rc == EEXIST) {
		fprintf(stderr, "%s: %s: a store is there already: --load "
		    "makes a new one\n", x->cmd->name, x->shown);
		return EXIT_STORE;
	}
	if (rc == ENOTSUP) {
		fprintf(stderr, "%s: %s: the dump is of a store whose owners "
		    "are database roles: it loads only into PostgreSQL\n",
		    x->cmd->name, x->dir);
		return EXIT_STORE;
	}
	if (rc == AR_ECORRUPT) {
		fprintf(stderr, "%s: line %lu: not a dump of a store of format "
		    "%d (ar-report --dump makes one)\n", x->cmd->name, l.lineno,
		    AR_FORMAT_VERSION);
		return EXIT_USAGE;
	}
	return rc != 0 ? cmd_store_error(x, rc) : 0;
}

static const struct cmd report = {
	.name = "ar-report",
	.bit = CMD_REPORT,
	.usage = "[-c | -i | [-a | -l] [--from time] [--to time] "
	    "[key=value ...] | -f [--from time] [--to time] | "
	    "-u [--from time] [--to time] [--window duration] [--by label] "
	    "[--table] [--svg file] | --host-list | --dump | --load | "
	    "--drain hosts [--from time] [--force] | "
	    "--remove hosts [--from time] [--force] | --undrain hosts | "
	    "--add-hosts file]",
	.shortopts = "acfilu",
	.longopts = longopts,
	.option = option,
	.options_end = options_end,
	.whole = whole,
	.whole_reads = 1,
	.standalone = load,
};

int
main(int argc, char **argv)
{
	struct opts o = { .mode = LIST, .f = { .owner = -1, .running = -1 } };

	return cmd_main(&report, argc, argv, &o);
}
