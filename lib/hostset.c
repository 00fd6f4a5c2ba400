/*
 * hostset.c - sets of hosts as sorted runs of host indexes: what a
 * reservation holds, what is free at a moment of the plan.  A set is
 * kept normal: runs ascending, none empty, no two touching, so two sets
 * are equal exactly when their runs are.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "internal.h"

void
hostset_free(struct hostset *s)
{
	free(s->r);
	memset(s, 0, sizeof(*s));
}

/* Append the run [first, first + count), which may touch the last. */
int
hostset_append(struct hostset *s, uint32_t first, uint32_t count)
{
	if (count == 0)
		return 0;
	if (s->n > 0 && s->r[s->n - 1].first + s->r[s->n - 1].count == first) {
		s->r[s->n - 1].count += count;
		return 0;
	}
	if (array_room(&s->r, &s->cap, s->n + 1, sizeof(*s->r)) != 0)
		return ENOMEM;
	s->r[s->n].first = first;
	s->r[s->n].count = count;
	s->n++;
	return 0;
}

int
hostset_copy(struct hostset *dst, const struct hostset *src)
{
	int rc;

	dst->n = 0;
	for (size_t i = 0; i < src->n; i++)
		if ((rc = hostset_append(dst, src->r[i].first,
		    src->r[i].count)) != 0)
			return rc;
	return 0;
}

void
hostset_swap(struct hostset *a, struct hostset *b)
{
	struct hostset c = *a;

	*a = *b;
	*b = c;
}

uint64_t
hostset_count(const struct hostset *s)
{
	uint64_t n = 0;

	for (size_t i = 0; i < s->n; i++)
		n += s->r[i].count;
	return n;
}

int
hostset_equal(const struct hostset *a, const struct hostset *b)
{
	return a->n == b->n && (a->n == 0 ||
	    memcmp(a->r, b->r, a->n * sizeof(*a->r)) == 0);
}

/*
 * out = a with b added (op 0), taken away (op 1), or only what both hold
 * (op 2), by one merge of the two run lists; out may not be a or b.
 */
static int
combine(struct hostset *out, const struct hostset *a, const struct hostset *b,
    int op)
{
	size_t i = 0, j = 0;
	uint64_t pos = 0, next, ea, eb;
	int ina, inb, rc;

	out->n = 0;
	/* Walk the boundaries of both lists; between two of them
	 * membership in a and in b is constant. */
	while (i < a->n || j < b->n) {
		ea = i < a->n ? (pos < a->r[i].first ? a->r[i].first :
		    (uint64_t)a->r[i].first + a->r[i].count) : UINT64_MAX;
		eb = j < b->n ? (pos < b->r[j].first ? b->r[j].first :
		    (uint64_t)b->r[j].first + b->r[j].count) : UINT64_MAX;
		ina = i < a->n && pos >= a->r[i].first;
		inb = j < b->n && pos >= b->r[j].first;
		next = ea < eb ? ea : eb;
		if ((op == 0 ? ina || inb : op == 1 ? ina && !inb :
		    ina && inb) && next > pos &&
		    (rc = hostset_append(out, (uint32_t)pos,
		    (uint32_t)(next - pos))) != 0)
			return rc;
		pos = next;
		if (i < a->n && pos == (uint64_t)a->r[i].first + a->r[i].count)
			i++;
		if (j < b->n && pos == (uint64_t)b->r[j].first + b->r[j].count)
			j++;
	}
	return 0;
}

int
hostset_union(struct hostset *out, const struct hostset *a,
    const struct hostset *b)
{
	return combine(out, a, b, 0);
}

int
hostset_minus(struct hostset *out, const struct hostset *a,
    const struct hostset *b)
{
	return combine(out, a, b, 1);
}

/* The first host both hold, or -1. */
int64_t
hostset_common(const struct hostset *a, const struct hostset *b)
{
	size_t i = 0, j = 0;
	uint64_t ea, eb;

	while (i < a->n && j < b->n) {
		ea = (uint64_t)a->r[i].first + a->r[i].count;
		eb = (uint64_t)b->r[j].first + b->r[j].count;
		if (a->r[i].first < eb && b->r[j].first < ea)
			return a->r[i].first > b->r[j].first ? a->r[i].first :
			    b->r[j].first;
		if (ea <= eb)
			i++;
		else
			j++;
	}
	return -1;
}

int
hostset_has(const struct hostset *s, uint32_t h)
{
	size_t lo = 0, hi = s->n;

	/* The runs ascend: the last that begins at or before h. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->r[mid].first <= h)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 && h - s->r[lo - 1].first < s->r[lo - 1].count;
}

int
hostset_subset(const struct hostset *sub, const struct hostset *of)
{
	size_t j = 0;

	for (size_t i = 0; i < sub->n; i++) {
		while (j < of->n && (uint64_t)of->r[j].first + of->r[j].count <=
		    sub->r[i].first)
			j++;
		if (j == of->n || of->r[j].first > sub->r[i].first ||
		    (uint64_t)of->r[j].first + of->r[j].count <
		    (uint64_t)sub->r[i].first + sub->r[i].count)
			return 0;
	}
	return 1;
}

/*
 * Choose k hosts of avail into out, by fit (enum ar_fit).  First fit
 * takes them in host order.  Best fit keeps a reservation in as few
 * runs as it can: the smallest run that holds what is still wanted, or
 * else the largest run whole, and again.  Worst fit takes the largest
 * run, and again, so that what stays free is cut where there is most.
 * Each is taken from the low end of its run, so that what stays free
 * stays contiguous; of runs alike the lowest.  Returns ENOSPC if avail
 * holds fewer.
 */
int
hostset_fit(struct hostset *out, const struct hostset *avail, uint64_t k,
    enum ar_fit fit)
{
	struct hostset taken = { 0 };
	size_t best;
	uint64_t want = k, c;
	int rc = 0;

	out->n = 0;
	if (hostset_count(avail) < k)
		return ENOSPC;
	if (fit == AR_FIT_FIRST) {
		for (size_t i = 0; i < avail->n && want > 0; i++) {
			c = avail->r[i].count < want ? avail->r[i].count : want;
			if ((rc = hostset_append(out, avail->r[i].first,
			    (uint32_t)c)) != 0)
				return rc;
			want -= c;
		}
		return 0;
	}
	/* Runs already taken are marked in taken (one entry per run index),
	 * so that each round looks at what is left. */
	if ((taken.r = calloc(avail->n, sizeof(*taken.r))) == NULL)
		return ENOMEM;
	while (want > 0) {
		best = avail->n;
		for (size_t i = 0; i < avail->n; i++) {
			if (taken.r[i].count)
				continue;
			c = avail->r[i].count;
			if (best == avail->n)
				best = i;
			else if (fit == AR_FIT_WORST) {
				if (c > avail->r[best].count)
					best = i;
			} else if (c >= want) {
				if (avail->r[best].count < want ||
				    c < avail->r[best].count)
					best = i;
			} else if (avail->r[best].count < want &&
			    c > avail->r[best].count)
				best = i;
		}
		taken.r[best].count = 1;
		c = avail->r[best].count < want ? avail->r[best].count : want;
		taken.r[best].first = (uint32_t)c;
		want -= c;
	}
	/* In host order, as a set. */
	for (size_t i = 0; i < avail->n && rc == 0; i++)
		if (taken.r[i].count)
			rc = hostset_append(out, avail->r[i].first,
			    taken.r[i].first);
	free(taken.r);
	return rc;
}

int
hostset_choose(struct hostset *out, const struct hostset *avail, uint64_t k,
    int first_fit)
{
	return hostset_fit(out, avail, k, first_fit ? AR_FIT_FIRST :
	    AR_FIT_BEST);
}
