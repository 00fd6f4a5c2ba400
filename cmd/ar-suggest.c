/*
 * ar-suggest - the earliest starts where a request fits (GarQ Algorithm
 * 4); with --longest, the longest job that fits from a start; with
 * --extend, how far a reservation can grow.
 */
#include <stdio.h>
#include <string.h>

#include "cmd.h"

enum mode { EARLIEST, LONGEST, EXTEND };

enum { OPT_LONGEST = 300, OPT_EXTEND, OPT_MOVE };

struct opts {
	int64_t limit;          /* how far past the asked start to look */
	uint64_t count;         /* alternatives per request */
	int searched;           /* --limit or --count given */
	enum mode mode;
	int move;               /* --move: another start in its window */
};

/* What a line of ar-suggest --extend keeps: the reservation it names,
 * and the library's refusal of it (AR_ENOTFOUND, AR_EDONE) or 0. */
struct suggest_line {
	uint64_t id;
	int refusal;
};

static const struct option longopts[] = {
	{ "limit", required_argument, NULL, 'l' },
	{ "count", required_argument, NULL, 'k' },
	{ "longest", no_argument, NULL, OPT_LONGEST },
	{ "extend", no_argument, NULL, OPT_EXTEND },
	{ "move", no_argument, NULL, OPT_MOVE },
	{ NULL, 0, NULL, 0 }
};

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
	}
	return -1;
}

static int
options_end(struct ctx *x)
{
	struct opts *o = x->data;

	if (o->move && o->mode != EXTEND)
		fprintf(stderr, "%s: --move goes with --extend\n", x->cmd->name);
	else if (o->searched && o->mode != EARLIEST)
		fprintf(stderr, "%s: --limit and --count are not for --longest "
		    "or --extend\n", x->cmd->name);
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

static int
apply(struct ctx *x, ar_txn *t, struct item *it)
{
	struct opts *o = x->data;

	it->nalts = 1;
	if (o->mode == EXTEND)
		return extend(x, t, it);
	if (o->mode == LONGEST)
		return ar_longest(t, &it->rq, &it->alts[0]);
	return ar_suggest(t, &it->rq, o->limit, it->alts, o->count, &it->nalts);
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
		if (cmd_answer(it, &it->alts[i]) != 0 ||
		    cmd_print(x, &it->rec) != 0)
			return -1;
	}
	return 0;
}

static const struct cmd suggest = {
	.name = "ar-suggest",
	.bit = CMD_SUGGEST,
	.usage = "[-l limit] [-k count] [--longest | --extend [--move]] "
	    "[key=value ...]",
	.shortopts = "l:k:",
	.longopts = longopts,
	.option = option,
	.options_end = options_end,
	.prepare = prepare,
	.apply = apply,
	.emit = emit,
	.line_size = sizeof(struct suggest_line),
};

int
main(int argc, char **argv)
{
	struct opts o = { 12 * 3600, 1, 0, EARLIEST, 0 };

	return cmd_main(&suggest, argc, argv, &o);
}
