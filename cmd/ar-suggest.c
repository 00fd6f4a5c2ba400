/*
 * ar-suggest - the earliest starts where a request fits (GarQ Algorithm
 * 4), with --fit the hosts each would take; with --longest, the longest
 * job that fits from a start; with --extend, how far a reservation can
 * grow; with --frames, the free time frames (seed 001).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"

#include "cmd.h"

enum mode { EARLIEST, LONGEST, EXTEND, FRAMES };

enum {
	OPT_LONGEST = 300, OPT_EXTEND, OPT_MOVE, OPT_FRAMES, OPT_FROM, OPT_TO,
	OPT_FIT
};

struct opts {
	int64_t limit;          /* how far past the asked start to look */
	uint64_t count;         /* alternatives per request */
	int searched;           /* --limit or --count given */
	enum mode mode;
	int move;               /* --move: another start in its window */
	int frames;             /* --frames */
	const char *from, *to;  /* --frames: the range, as given */
	int fit;                /* --fit given: options name their hosts */
	enum ar_fit how;        /* ... chosen so */
	const struct ar_partition *parts;       /* --frames: the store's */
	size_t nparts;
};

/* What a line of ar-suggest --extend keeps: the reservation it names,
 * and the library's refusal of it (AR_ENOTFOUND, AR_EDONE) or 0. */
struct suggest_line {
	uint64_t id;
	int refusal;
	uint32_t *hosts;        /* --fit: each alternative's hosts, ... */
	size_t cap;
	uint32_t nhosts;        /* ... as many for each, */
	unsigned char *placed;  /* ... where it has them */
	size_t placedcap;
};

static const struct option longopts[] = {
	{ "limit", required_argument, NULL, 'l' },
	{ "count", required_argument, NULL, 'k' },
	{ "longest", no_argument, NULL, OPT_LONGEST },
	{ "extend", no_argument, NULL, OPT_EXTEND },
	{ "move", no_argument, NULL, OPT_MOVE },
	{ "frames", no_argument, NULL, OPT_FRAMES },
	{ "from", required_argument, NULL, OPT_FROM },
	{ "to", required_argument, NULL, OPT_TO },
	{ "fit", required_argument, NULL, OPT_FIT },
	{ NULL, 0, NULL, 0 }
};

static const char *const fits[] = { "best", "first", "worst" };

static int
option(struct ctx *x, int opt, const char *arg)
{
	struct opts *o = x->data;
	char err[AR_ERRMAX];

	switch (opt) {
	case 'l':
		o->searched = 1;
		return cmd_duration_opt(x, "option '--limit'", arg, &o->limit);
	case 'k':
		o->searched = 1;
		if (ar_uint_parse(arg, 1, ALTS_MAX, &o->count, err) == 0) {
			x->answers = (size_t)o->count;
			return 0;
		}
		fprintf(stderr, "%s: option '--count': %s\n", x->cmd->name, err);
		return -1;
	case OPT_LONGEST:
	case OPT_EXTEND:
		if (o->mode != EARLIEST && o->mode != (opt == OPT_LONGEST ?
		    LONGEST : EXTEND)) {
			fprintf(stderr, "%s: --longest and --extend do not go "
			    "together\n", x->cmd->name);
			return -1;
		}
		o->mode = opt == OPT_LONGEST ? LONGEST : EXTEND;
		return 0;
	case OPT_MOVE:
		o->move = 1;
		return 0;
	case OPT_FRAMES:
		o->frames = 1;
		x->whole = 1;
		return 0;
	case OPT_FROM:
		o->from = arg;
		return 0;
	case OPT_TO:
		o->to = arg;
		return 0;
	case OPT_FIT:
		for (size_t i = 0; i < sizeof(fits) / sizeof(fits[0]); i++)
			if (strcmp(arg, fits[i]) == 0) {
				o->fit = 1;
				o->how = (enum ar_fit)i;
				return 0;
			}
		fprintf(stderr, "%s: option '--fit': '%s': not first, best or "
		    "worst\n", x->cmd->name, arg);
		return -1;
	}
	return -1;
}

static int
options_end(struct ctx *x)
{
	struct opts *o = x->data;

	if (o->frames && (o->mode != EARLIEST || o->move || o->searched ||
	    o->fit))
		fprintf(stderr, "%s: --frames goes with --from and --to "
		    "alone\n", x->cmd->name);
	else if (!o->frames && (o->from != NULL || o->to != NULL))
		fprintf(stderr, "%s: --from and --to go with --frames\n",
		    x->cmd->name);
	else if (o->move && o->mode != EXTEND)
		fprintf(stderr, "%s: --move goes with --extend\n", x->cmd->name);
	else if (o->searched && o->mode != EARLIEST)
		fprintf(stderr, "%s: --limit and --count are not for --longest "
		    "or --extend\n", x->cmd->name);
	else if (o->fit && o->mode != EARLIEST)
		fprintf(stderr, "%s: --fit is not for --longest or --extend\n",
		    x->cmd->name);
	else
		return 0;
	return -1;
}

/* --extend: the reservation's id, and nothing that would change its
 * shape when the record goes on to ar-add --modify. */
static int
extend_fields(struct ctx *x, struct item *it, char *err)
{
	struct suggest_line *l = it->own;
	static const char *const shape[] = { "start", "earliest", "latest",
	    "end", "duration", "nodes", "jobs", "hosts" };
	int rc;

	it->earliest = it->latest = -1;
	if ((rc = cmd_id_field(x, it, "id", &l->id, err)) == 0)
		snprintf(err, AR_ERRMAX, "missing field 'id'");
	if (rc != 1)
		return -1;
	for (size_t i = 0; i < sizeof(shape) / sizeof(shape[0]); i++)
		if (cmd_get(x, &it->rec, shape[i]) != NULL) {
			snprintf(err, AR_ERRMAX, "field '%s': --extend reads "
			    "only the reservation's id", shape[i]);
			return -1;
		}
	return 0;
}

static int
prepare(struct ctx *x, struct item *it, char *err)
{
	struct opts *o = x->data;

	if (o->mode == EXTEND)
		return extend_fields(x, it, err);
	return o->mode == LONGEST ? cmd_job(x, it, err) :
	    cmd_request(x, it, err);
}

/* --extend: ar_furthest; a reservation that is not there, or no longer
 * live, is told so. */
static int
extend(struct ctx *x, ar_txn *t, struct item *it)
{
	struct suggest_line *l = it->own;
	struct opts *o = x->data;
	int rc;

	l->refusal = 0;
	rc = ar_furthest(t, l->id, o->move ? AR_WINDOW : 0, &it->alts[0]);
	if (rc == AR_ENOTFOUND || rc == AR_EDONE) {
		cmd_warn(x, it->line, "reservation %llu: %s",
		    (unsigned long long)l->id, ar_strerror(rc));
		l->refusal = rc;
		return 0;
	}
	return rc;
}

/* --fit: the hosts each suggestion would take, where the plan as
 * mapped now leaves them free throughout (ar_place); a request that
 * names its hosts has them already. */
static int
place(struct ctx *x, ar_txn *t, struct item *it)
{
	struct suggest_line *l = it->own;
	struct opts *o = x->data;
	const struct ar_answer *a;
	int rc;

	l->nhosts = 0;
	if (it->rq.nhosts > 0)
		return 0;
	if (array_room(&l->placed, &l->placedcap, it->nalts, 1) != 0)
		return ENOMEM;
	for (size_t i = 0; i < it->nalts; i++) {
		a = &it->alts[i];
		l->placed[i] = 0;
		if (a->status != AR_SUGGESTED)
			continue;
		/* A moldable request's level says its nodes. */
		l->nhosts = (a->nodes > 0 ? a->nodes : it->rq.nodes) *
		    it->rq.jobs;
		if (array_room(&l->hosts, &l->cap, it->nalts * l->nhosts,
		    sizeof(*l->hosts)) != 0)
			return ENOMEM;
		rc = ar_place(t, a->start, a->end, l->nhosts, a->pool, o->how,
		    l->hosts + i * l->nhosts);
		if (rc != 0 && rc != ENOSPC)
			return rc;
		l->placed[i] = rc == 0;
	}
	return 0;
}

static int
apply(struct ctx *x, ar_txn *t, struct item *it)
{
	struct opts *o = x->data;
	int rc;

	it->nalts = 1;
	if (o->mode == EXTEND)
		return extend(x, t, it);
	if (o->mode == LONGEST)
		return ar_longest(t, &it->rq, &it->alts[0]);
	if ((rc = ar_suggest(t, &it->rq, o->limit, it->alts, o->count,
	    &it->nalts)) != 0 || !o->fit)
		return rc;
	return place(x, t, it);
}

/*
 * --longest: the request with the job's start, duration and end, ready
 * for ar-add.  --extend: the reservation's id with its new end (with
 * --move its duration, which ar-add --modify reads first, as it may start
 * elsewhere in its window), never a start, which would narrow a window.
 */
static int
emit_one(struct ctx *x, struct item *it)
{
	struct suggest_line *l = it->own;
	struct opts *o = x->data;
	struct ar_answer *a = &it->alts[0];
	struct ar_record *r = &it->rec;

	if (l->refusal != 0)
		return ar_record_set(r, "status", "unavailable") != 0 ||
		    ar_record_set(r, "reason", l->refusal == AR_ENOTFOUND ?
		    "not-found" : "done") != 0 || cmd_print(x, r) != 0 ? -1 :
		    EXIT_REFUSED;
	if (a->status == AR_SUGGESTED && (o->mode == LONGEST || o->move) &&
	    ar_record_set_duration(r, "duration", a->end - a->start) != 0)
		return -1;
	if (cmd_answer(it, a) != 0)
		return -1;
	if (o->mode == EXTEND)
		ar_record_del(r, "start");
	if (cmd_print(x, r) != 0)
		return -1;
	return a->status == AR_SUGGESTED ? 0 : EXIT_REFUSED;
}

/* Each alternative is the request moved to the suggested start. */
static int
emit(struct ctx *x, struct item *it)
{
	struct suggest_line *l = it->own;
	struct opts *o = x->data;

	if (o->mode != EARLIEST)
		return emit_one(x, it);
	if (it->nalts == 0)
		return cmd_answer(it, &it->alts[0]) != 0 ||
		    cmd_print(x, &it->rec) != 0 ? -1 : EXIT_REFUSED;
	for (size_t i = 0; i < it->nalts; i++) {
		/* A window must hold its suggested start to feed ar-add. */
		if (it->latest >= 0 && it->alts[i].start > it->latest)
			it->latest = it->alts[i].start;
		if (cmd_answer(it, &it->alts[i]) != 0 || (o->fit &&
		    it->rq.nhosts == 0 && cmd_set_hosts(x, &it->rec, "hosts",
		    l->hosts + i * l->nhosts, l->placed[i] ? l->nhosts : 0)
		    != 0) || cmd_print(x, &it->rec) != 0)
			return -1;
	}
	return 0;
}

static void
line_free(void *own)
{
	struct suggest_line *l = own;

	free(l->hosts);
	free(l->placed);
}

/* --frames: one record per free time frame. */
static int
frame_record(const struct ar_frame *f, void *arg)
{
	struct ctx *x = arg;
	struct opts *o = x->data;
	struct ar_record r;
	int rc;

	ar_record_init(&r);
	rc = (o->nparts > 1 && f->partition < o->nparts &&
	    ar_record_set(&r, "partition", o->parts[f->partition].name) !=
	    0) || ar_record_set_time(&r, "start", f->start) != 0 ||
	    ar_record_set_time(&r, "end", f->end) != 0 ||
	    ar_record_set_uint(&r, "free", f->free) != 0 ||
	    cmd_set_hosts(x, &r, "hosts", f->hosts, f->free) != 0 ||
	    cmd_print(x, &r) != 0 ? ENOMEM : 0;
	ar_record_free(&r);
	return rc;
}

/* --frames: in one read transaction. */
static int
whole(struct ctx *x, ar_store *s)
{
	struct opts *o = x->data;
	const struct ar_pool *pools;
	size_t npools;
	int64_t lo, hi;
	ar_txn *t;
	int rc;

	if ((rc = cmd_range(x, s, o->from, o->to, &lo, &hi)) != 0)
		return rc;
	if ((rc = ar_txn_begin(s, 0, x->now, &t)) != 0)
		return cmd_store_error(x, rc);
	if ((rc = cmd_hosts_read(x, t, NULL)) == 0 &&
	    (rc = ar_layout(t, &o->parts, &o->nparts, &pools, &npools)) == 0)
		rc = ar_frames(t, lo, hi, frame_record, x);
	ar_txn_abort(t);
	if (rc == ENOMEM) {
		fprintf(stderr, "%s: out of memory\n", x->cmd->name);
		return EXIT_STORE;
	}
	return rc != 0 ? cmd_store_error(x, rc) : 0;
}

static const struct cmd suggest = {
	.name = "ar-suggest",
	.bit = CMD_SUGGEST,
	.usage = "[-l limit] [-k count] [--fit first | best | worst] "
	    "[--longest | --extend [--move]] [key=value ...] | --frames "
	    "[--from time] [--to time]",
	.shortopts = "l:k:",
	.longopts = longopts,
	.option = option,
	.options_end = options_end,
	.prepare = prepare,
	.apply = apply,
	.emit = emit,
	.whole = whole,
	.line_size = sizeof(struct suggest_line),
	.line_free = line_free,
};

int
main(int argc, char **argv)
{
	struct opts o = { .limit = 12 * 3600, .count = 1, .mode = EARLIEST,
	    .how = AR_FIT_BEST };

	return cmd_main(&suggest, argc, argv, &o);
}
