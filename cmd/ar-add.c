/*
 * ar-add - admit reservations atomically: GarQ Algorithm 3, with start
 * windows, parametric copies and FCFS-LRH / FCFS-EDS rearrangement.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"

static const struct option longopts[] = {
	{ "no-move", no_argument, NULL, 'n' },
	{ "later", no_argument, NULL, 'e' },
	{ "partial", no_argument, NULL, 'p' },
	{ NULL, 0, NULL, 0 }
};

static int
option(struct ctx *x, int opt, const char *arg)
{
	unsigned *flags = x->data;

	(void)arg;
	switch (opt) {
	case 'n':
		*flags |= AR_NOMOVE;
		return 0;
	case 'e':
		*flags |= AR_LATER;
		return 0;
	case 'p':
		*flags |= AR_PARTIAL;
		x->answers = 2;         /* room for the copies refused */
		return 0;
	}
	return -1;
}

static int
prepare(struct ctx *x, struct item *it, char *err)
{
	if (cmd_request(x, it, err) != 0)
		return -1;
	it->rq.flags = *(unsigned *)x->data;
	return 0;
}

/* Keep what the library did while its transaction is open. */
static int
apply(struct ctx *x, ar_txn *t, struct item *it)
{
	const struct ar_placed *g, *m;
	size_t ng, nm;
	int rc;

	(void)x;
	it->nalts = 1;
	it->ngranted = it->nplaced = 0;
	if ((rc = ar_add(t, &it->rq, &it->alts[0])) != 0)
		return rc;
	ar_added(t, &g, &ng, &m, &nm);
	if (ng + nm > it->placedcap) {
		struct ar_placed *p;
		struct ar_resv *r;

		if ((p = realloc(it->placed, (ng + nm) * sizeof(*p))) == NULL)
			return ENOMEM;
		it->placed = p;
		if ((r = realloc(it->moved, (ng + nm) * sizeof(*r))) == NULL)
			return ENOMEM;
		it->moved = r;
		it->placedcap = ng + nm;
	}
	if (ng > 0)             /* a refusal lists nothing, maybe no array */
		memcpy(it->placed, g, ng * sizeof(*g));
	if (nm > 0)
		memcpy(it->placed + ng, m, nm * sizeof(*m));
	it->ngranted = ng;
	it->nplaced = ng + nm;
	/* A refusal is written too, in the demand log. */
	it->wrote = !it->alts[0].replayed;
	/* A replay's copies are told in the state they are in now. */
	for (size_t i = it->alts[0].replayed ? 0 : ng; i < it->nplaced; i++)
		if ((rc = ar_get(t, it->placed[i].id, &it->moved[i])) != 0)
			return rc;
	/* Copies refused after others were granted (--partial) are told the
	 * room left at the window's first start, as one copy alone would. */
	if (ng > 0 && ng < it->rq.jobs && !it->alts[0].replayed) {
		struct ar_request one = it->rq;

		one.jobs = 1;
		if ((rc = ar_search(t, &one, &it->alts[1])) != 0)
			return rc;
		it->alts[1].status = AR_REFUSED;
		it->nalts = 2;
	}
	return 0;
}

/*
 * One line per copy granted, then one per copy refused (with --partial;
 * else one for the request refused), then one per reservation moved.  A
 * replay prints the copies granted before under the client key, each in
 * its state now, with replayed=yes and no free count (nothing was added).
 */
static int
emit(struct ctx *x, struct item *it)
{
	struct ar_answer a = it->alts[0];
	struct ar_record *r = &it->rec;
	size_t refused = it->rq.jobs - it->ngranted;

	if (a.reason == AR_R_KEY) {
		cmd_warn(x, it->line, "field 'client_key': already used by "
		    "reservation %llu for a different request",
		    (unsigned long long)a.id);
		return EXIT_USAGE;
	}
	if (a.replayed)
		refused = 0;    /* why copies were refused then is not kept */
	else
		ar_record_del(r, "replayed");
	if (refused > 0 && !(it->rq.flags & AR_PARTIAL))
		refused = 1;
	for (size_t i = 0; i < it->ngranted; i++) {
		a.start = it->placed[i].start;
		a.end = it->placed[i].end;
		a.free = it->placed[i].free;
		if (a.replayed)
			a.status = it->moved[i].state;
		if (ar_record_set_uint(r, "id", it->placed[i].id) != 0 ||
		    (it->rq.jobs > 1 &&
		    ar_record_set_int(r, "copy", (int64_t)i + 1) != 0) ||
		    cmd_answer(it, &a) != 0)
			return -1;
		if (a.replayed) {
			ar_record_del(r, "free");
			if (ar_record_set(r, "replayed", "yes") != 0)
				return -1;
		}
		if (cmd_print(x, r) != 0)
			return -1;
	}
	if (refused > 0)
		ar_record_del(r, "id");
	for (size_t i = it->ngranted; i < it->ngranted + refused; i++)
		if ((it->rq.jobs > 1 && (it->rq.flags & AR_PARTIAL) &&
		    ar_record_set_int(r, "copy", (int64_t)i + 1) != 0) ||
		    cmd_answer(it, &it->alts[it->nalts - 1]) != 0 ||
		    cmd_print(x, r) != 0)
			return -1;
	for (size_t i = it->ngranted; i < it->nplaced; i++) {
		struct ar_record moved;
		int rc;

		ar_record_init(&moved);
		rc = cmd_resv(&moved, &it->moved[i]) != 0 ||
		    ar_record_set_time(&moved, "old_start",
		    it->placed[i].from) != 0 ||
		    ar_record_set(&moved, "status", "moved") != 0 ||
		    cmd_print(x, &moved) != 0;
		ar_record_free(&moved);
		if (rc)
			return -1;
	}
	return it->ngranted < it->rq.jobs ? EXIT_REFUSED : 0;
}

static const struct cmd add = {
	.name = "ar-add",
	.usage = "[-enp] [key=value ...]",
	.write = AR_WRITE,
	.shortopts = "enp",
	.longopts = longopts,
	.option = option,
	.prepare = prepare,
	.apply = apply,
	.emit = emit,
};

int
main(int argc, char **argv)
{
	unsigned flags = 0;

	return cmd_main(&add, argc, argv, &flags);
}
