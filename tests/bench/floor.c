/*
 * floor.c - the floor every figure is compared with: GarQ's slotted ring
 * as a plain array of node counts in memory (Algorithms 2-4), with the
 * same rules as ar's library.  compare.c makes it a backend.
 */
#include <stdlib.h>

#include "bench.h"

struct garq {
	int64_t slot;           /* seconds */
	int64_t m;              /* buckets: the horizon in slots */
	int64_t base;           /* first slot the ring holds: floor(clock) */
	uint32_t *used;         /* used[s % m]: nodes in use in slot s */
};

struct garq *
garq_new(int64_t slot, int64_t slots, int64_t clock)
{
	struct garq *g;

	if ((g = malloc(sizeof(*g))) == NULL)
		return NULL;
	if ((g->used = calloc((size_t)slots, sizeof(*g->used))) == NULL) {
		free(g);
		return NULL;
	}
	g->slot = slot;
	g->m = slots;
	g->base = slots_down(clock, slot);
	return g;
}

void
garq_free(struct garq *g)
{
	if (g != NULL)
		free(g->used);
	free(g);
}

/* Time passes: the buckets of the slots now past are emptied for reuse. */
void
garq_clock(struct garq *g, int64_t clock)
{
	int64_t nb = slots_down(clock, g->slot);

	for (int64_t s = g->base; s < nb && s < g->base + g->m; s++)
		g->used[s % g->m] = 0;
	if (nb > g->base)
		g->base = nb;
}

int64_t
garq_base(const struct garq *g)
{
	return g->base;
}

/* Algorithm 2: do nodes more fit in every slot of [first, first + len)? */
enum fit
garq_search(const struct garq *g, int64_t first, int64_t len, uint32_t nodes)
{
	int64_t i = first % g->m;

	if (first + len > g->base + g->m)
		return BEYOND;
	for (int64_t k = 0; k < len; k++) {
		cells++;
		if (g->used[i] + nodes > NODES)
			return FULL;
		if (++i == g->m)
			i = 0;
	}
	return FIT;
}

/*
 * Algorithm 4: the earliest start in [first, first + limit] (and not past
 * the horizon) where it fits, or -1.
 */
int64_t
garq_suggest(const struct garq *g, int64_t first, int64_t len,
    uint32_t nodes, int64_t limit)
{
	int64_t hi = first + limit / g->slot, start = first, count = 0;
	int64_t i = first % g->m;

	if (hi > g->base + g->m - len)
		hi = g->base + g->m - len;
	for (int64_t s = first; s < hi + len && start <= hi; s++) {
		cells++;
		if (g->used[i] + nodes > NODES) {
			start = s + 1;
			count = 0;
		} else if (++count >= len)
			return start;
		if (++i == g->m)
			i = 0;
	}
	return -1;
}

/* Algorithm 3 (and delete, with nodes < 0). */
void
garq_add(struct garq *g, int64_t first, int64_t len, int64_t nodes)
{
	int64_t i = first % g->m;

	cells += (uint64_t)len;
	for (int64_t k = 0; k < len; k++) {
		g->used[i] = (uint32_t)(g->used[i] + nodes);
		if (++i == g->m)
			i = 0;
	}
}

/* The share of node-slots in use over the horizon. */
double
garq_used(const struct garq *g)
{
	double sum = 0;

	for (int64_t i = 0; i < g->m; i++)
		sum += g->used[i];
	return sum / ((double)NODES * (double)g->m);
}
