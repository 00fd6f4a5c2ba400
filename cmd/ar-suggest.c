/*
 * ar-suggest - the earliest starts where a request fits.  (GarQ
 * Algorithm 4)
 */
#include <stdio.h>
#include <string.h>

#include "cmd.h"

struct opts {
	int64_t limit;          /* how far past the asked start to look */
	uint64_t count;         /* alternatives per request */
};

static const struct option longopts[] = {
	{ "limit", required_argument, NULL, 'l' },
	{ "count", required_argument, NULL, 'k' },
	{ NULL, 0, NULL, 0 }
};

static int
option(struct ctx *x, int opt, const char *arg)
{
	struct opts *o = x->data;
	char err[AR_ERRMAX];

	if (opt == 'l')
		return cmd_duration_opt(x, "option '--limit'", arg, &o->limit);
	if (opt == 'k') {
		if (ar_uint_parse(arg, 1, ALTS_MAX, &o->count, err) == 0) {
			x->answers = (size_t)o->count;
			return 0;
		}
		fprintf(stderr, "%s: option '--count': %s\n", x->cmd->name, err);
	}
	return -1;
}

static int
prepare(struct ctx *x, struct item *it, char *err)
{
	return cmd_request(x, it, err);
}

static int
apply(struct ctx *x, ar_txn *t, struct item *it)
{
	struct opts *o = x->data;

	return ar_suggest(t, &it->rq, o->limit, it->alts, o->count, &it->nalts);
}

/* Each alternative is the request moved to the suggested start. */
static int
emit(struct ctx *x, struct item *it)
{
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
	.usage = "[-l limit] [-k count] [key=value ...]",
	.shortopts = "l:k:",
	.longopts = longopts,
	.option = option,
	.prepare = prepare,
	.apply = apply,
	.emit = emit,
};

int
main(int argc, char **argv)
{
	struct opts o = { 12 * 3600, 1 };

	return cmd_main(&suggest, argc, argv, &o);
}
