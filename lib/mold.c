/*
 * mold.c - moldable requests: the benefit levels of RSPB (seed 004).  A
 * request that accepts several sizes (node counts, or copy counts of a
 * parametric request) is tried one size at a time, each
 * as a rigid request of that size over the request's whole window, in
 * the order of ar_levels_order; the first that fits is the answer.  A
 * level that does not fit leaves the store as it was (a refused
 * admission books and moves nothing), so each level sees the same plan,
 * and all of it happens in the caller's one transaction.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* The nodes a level asks for in all, 0 jobs counting as 1. */
static uint64_t
level_size(const struct ar_level *l)
{
	return (uint64_t)l->nodes * (l->jobs != 0 ? l->jobs : 1);
}

/* Benefit, highest first; then size, largest first. */
static int
by_benefit(const void *a, const void *b)
{
	const struct ar_level *x = a, *y = b;
	uint64_t sx = level_size(x), sy = level_size(y);

	if (x->benefit != y->benefit)
		return x->benefit < y->benefit ? 1 : -1;
	return sx < sy ? 1 : sx > sy ? -1 : 0;
}

void
ar_levels_order(struct ar_level *levels, uint32_t n)
{
	if (n > 1)
		qsort(levels, n, sizeof(*levels), by_benefit);
}

int
levels_check(const struct ar_request *rq)
{
	if (rq->nlevels > AR_LEVELS_MAX || rq->levels == NULL ||
	    rq->nhosts > 0 || (rq->flags & AR_PARTIAL))
		return EINVAL;
	for (uint32_t i = 0; i < rq->nlevels; i++) {
		const struct ar_level *l = &rq->levels[i];

		if (l->nodes == 0 || l->jobs > AR_JOBS_MAX ||
		    (l->jobs == 0) != (rq->levels[0].jobs == 0))
			return EINVAL;
		for (uint32_t j = 0; j < i; j++)
			if (rq->levels[j].nodes == l->nodes &&
			    rq->levels[j].jobs == l->jobs)
				return EINVAL;
	}
	return 0;
}

/* The copies level l asks for, of request rq. */
static uint32_t
level_jobs(const struct ar_request *rq, const struct ar_level *l)
{
	return l->jobs != 0 ? l->jobs : rq->jobs;
}

int
level_of(const struct ar_request *rq, uint32_t nodes, uint32_t jobs,
    uint32_t *benefit)
{
	*benefit = 0;
	if (rq->nlevels == 0)
		return nodes == rq->nodes && jobs == rq->jobs;
	for (uint32_t i = 0; i < rq->nlevels; i++)
		if (rq->levels[i].nodes == nodes &&
		    level_jobs(rq, &rq->levels[i]) == jobs) {
			*benefit = rq->levels[i].benefit;
			return 1;
		}
	return 0;
}

int
levels_try(ar_txn *t, const struct ar_request *rq, level_fn *fn, void *arg,
    struct ar_request *one, struct ar_level *got)
{
	struct ar_level order[AR_LEVELS_MAX];
	int rc, fits;

	memset(got, 0, sizeof(*got));
	if ((rc = levels_check(rq)) != 0)
		return rc;
	memcpy(order, rq->levels, rq->nlevels * sizeof(*order));
	ar_levels_order(order, rq->nlevels);
	*one = *rq;
	one->levels = NULL;
	one->nlevels = 0;
	for (uint32_t i = 0; i < rq->nlevels; i++) {
		one->nodes = order[i].nodes;
		one->jobs = level_jobs(rq, &order[i]);
		if ((rc = fn(t, one, arg, &fits)) != 0)
			return rc;
		if (fits) {
			*got = order[i];
			return 0;
		}
	}
	return 0;
}
