/*
 * ar-add - admit reservations atomically.  (GarQ Algorithm 3)
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
	return ar_add(t, &it->rq, &it->alts[0]);
}

static int
emit(struct ctx *x, struct item *it)
{
	const struct ar_answer *a = &it->alts[0];

	if (a->status == AR_GRANTED) {
		if (ar_record_set_int(&it->rec, "id", (int64_t)a->id) != 0)
			return -1;
	} else
		ar_record_del(&it->rec, "id");
	if (cmd_answer(it, a) != 0 || cmd_print(x, &it->rec) != 0)
		return -1;
	return a->status == AR_GRANTED ? 0 : EXIT_REFUSED;
}

static const struct cmd add = {
	.name = "ar-add",
	.usage = "[key=value ...]",
	.write = 1,
	.shortopts = "",
	.prepare = prepare,
	.apply = apply,
	.emit = emit,
};

int
main(int argc, char **argv)
{
	return cmd_main(&add, argc, argv, NULL);
}
