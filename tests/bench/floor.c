/*
 * floor.c - the floor every figure is compared with: GarQ's slotted ring
 * as a plain array of node counts in memory (Algorithms 2-4), with the
 * same rules as ar's library.
 */
#include <stdio.h>
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

/* --- the floor as a backend ---------------------------------------------- */

struct live {
	int64_t first, len;
	uint32_t nodes;
};

struct floor {
	struct garq *g;
	struct live *v;
	size_t n, cap;
};

static int
floor_purge(const struct backend *b, int64_t clock, struct stats *st)
{
	struct floor *f = b->ctx;
	int64_t base;

	garq_clock(f->g, clock);
	base = garq_base(f->g);
	for (size_t i = 0; i < f->n;) {
		struct live *r = &f->v[i];
		uint64_t t0;

		if ((r->first + r->len) * SLOT > clock) {
			i++;
			continue;
		}
		t0 = now_ns();
		/* Only the part not yet past holds counts. */
		if (r->first + r->len > base) {
			int64_t from = r->first > base ? r->first : base;

			garq_add(f->g, from, r->first + r->len - from,
			    -(int64_t)r->nodes);
		}
		*r = f->v[--f->n];
		if (sample(&st->op[OP_DELETE], now_ns() - t0) != 0)
			return -1;
		st->ndeleted++;
	}
	return 0;
}

static int
floor_run(const struct backend *b, const struct trace *tr, size_t from,
    size_t to, int64_t clock, struct stats *st)
{
	int rc;

	(void)clock;
	for (size_t i = from; i < to; i++)
		if ((rc = admit(b, tr, i, st)) != 0)
			return rc;
	return 0;
}

static int
floor_search(void *ctx, const struct req *q, enum fit *fit)
{
	struct floor *f = ctx;

	*fit = garq_search(f->g, slots_up(q->start, SLOT), slots_up(q->dur, SLOT),
	    q->nodes);
	return 0;
}

static int
floor_suggest(void *ctx, const struct req *q, int64_t *start)
{
	struct floor *f = ctx;
	int64_t s = garq_suggest(f->g, slots_up(q->start, SLOT),
	    slots_up(q->dur, SLOT), q->nodes, SUGGEST_LIMIT);

	*start = s < 0 ? -1 : s * SLOT;
	return 0;
}

static int
floor_add(void *ctx, const struct req *q, int64_t start, int64_t *granted)
{
	struct floor *f = ctx;
	struct live *p;

	if (f->n == f->cap) {
		f->cap = f->cap ? 2 * f->cap : 4096;
		if ((p = realloc(f->v, f->cap * sizeof(*p))) == NULL) {
			fprintf(stderr, "bench: out of memory\n");
			return -1;
		}
		f->v = p;
	}
	p = &f->v[f->n++];
	p->first = start / SLOT;
	p->len = slots_up(q->dur, SLOT);
	p->nodes = q->nodes;
	garq_add(f->g, p->first, p->len, q->nodes);
	*granted = start;
	return 0;
}

int
floor_backend(struct backend *b, int64_t clock)
{
	struct floor *f;

	if ((f = calloc(1, sizeof(*f))) == NULL ||
	    (f->g = garq_new(SLOT, HORIZON / SLOT, clock)) == NULL) {
		free(f);
		fprintf(stderr, "bench: out of memory\n");
		return -1;
	}
	b->name = "floor (array in RAM)";
	b->ctx = f;
	b->purge = floor_purge;
	b->run = floor_run;
	b->search = floor_search;
	b->suggest = floor_suggest;
	b->add = floor_add;
	b->period = NULL;
	b->hook = NULL;
	return 0;
}

void
floor_backend_free(struct backend *b)
{
	struct floor *f = b->ctx;

	garq_free(f->g);
	free(f->v);
	free(f);
}
