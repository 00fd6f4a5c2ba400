/*
 * ar-search - is there room for a request?  (GarQ Algorithm 2)
 */
#include "cmd.h"

static int
prepare(struct ctx *x, struct item *it, char *err)
{
	return cmd_request(x, it, err);
}

static int
apply(struct ctx *x, ar_txn *t, struct item *it)
{
	(void)x;
	it->nalts = 1;
	return ar_search(t, &it->rq, &it->alts[0]);
}

static int
emit(struct ctx *x, struct item *it)
{
	if (cmd_answer(it, &it->alts[0]) != 0 || cmd_print(x, &it->rec) != 0)
		return -1;
	return it->alts[0].status == AR_AVAILABLE ? 0 : EXIT_REFUSED;
}

static const struct cmd search = {
	.name = "ar-search",
	.usage = "[key=value ...]",
	.shortopts = "",
	.prepare = prepare,
	.apply = apply,
	.emit = emit,
};

int
main(int argc, char **argv)
{
	return cmd_main(&search, argc, argv, NULL);
}
