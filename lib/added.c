/*
 * added.c - what admission did, as ar_added tells it: the copies
 * granted, in order, and the reservations moved for them, each once;
 * and what several admissions did, gathered (a series' occurrences,
 * ar_modify_all's changes), told the same way.
 */
#include <stdlib.h>

#include "array.h"
#include "internal.h"

void
ar_added(const ar_txn *t, const struct ar_placed **granted, size_t *ng,
    const struct ar_placed **moved, size_t *nm)
{
	*granted = t->granted;
	*ng = t->ngranted;
	*moved = t->moved;
	*nm = t->nmoved;
}

void
ar_displaced(const ar_txn *t, const uint64_t **ids, size_t *n)
{
	*ids = t->displaced;
	*n = t->ndisplaced;
}

/* The entry for id in a[0 .. n), or n. */
static size_t
find_placed(const struct ar_placed *a, size_t n, uint64_t id)
{
	size_t i;

	for (i = 0; i < n && a[i].id != id; i++)
		;
	return i;
}

/*
 * Add what the last admission did to acc.  One granted before that has
 * moved since is where it is now, granted from where it was; one moved
 * before that is granted now is no move but granted, from where it was
 * first.
 */
int
gathered_add(ar_txn *t, struct gathered *acc)
{
	size_t j;
	int rc;

	for (size_t i = 0; i < t->nmoved; i++) {
		const struct ar_placed *mv = &t->moved[i];

		if ((j = find_placed(acc->g, acc->ng, mv->id)) < acc->ng) {
			acc->g[j].start = mv->start;
			acc->g[j].end = mv->end;
		} else if ((j = find_placed(acc->m, acc->nm, mv->id)) <
		    acc->nm) {
			acc->m[j].start = mv->start;
			acc->m[j].end = mv->end;
		} else {
			if ((rc = array_room(&acc->m, &acc->mcap, acc->nm + 1,
			    sizeof(*acc->m))) != 0)
				return rc;
			acc->m[acc->nm++] = *mv;
		}
	}
	for (size_t i = 0; i < t->ngranted; i++) {
		if ((rc = array_room(&acc->g, &acc->gcap, acc->ng + 1,
		    sizeof(*acc->g))) != 0)
			return rc;
		acc->g[acc->ng] = t->granted[i];
		if ((j = find_placed(acc->m, acc->nm, t->granted[i].id)) <
		    acc->nm) {
			acc->g[acc->ng].from = acc->m[j].from;
			acc->m[j] = acc->m[--acc->nm];
		}
		acc->ng++;
	}
	return 0;
}

/* Make what acc gathered what ar_added() tells; moves that came back to
 * where they were are none. */
int
gathered_put(ar_txn *t, struct gathered *acc)
{
	int rc;

	t->ngranted = t->nmoved = 0;
	for (size_t i = 0; i < acc->ng; i++) {
		if ((rc = array_room(&t->granted, &t->gcap, i + 1,
		    sizeof(*t->granted))) != 0)
			return rc;
		t->granted[t->ngranted++] = acc->g[i];
	}
	for (size_t i = 0; i < acc->nm; i++) {
		if (acc->m[i].start == acc->m[i].from)
			continue;
		if ((rc = array_room(&t->moved, &t->mcap, t->nmoved + 1,
		    sizeof(*t->moved))) != 0)
			return rc;
		t->moved[t->nmoved++] = acc->m[i];
	}
	return 0;
}

void
gathered_free(struct gathered *acc)
{
	free(acc->g);
	free(acc->m);
}
