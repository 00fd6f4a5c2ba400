/*
 * compare.c - the structures of GarQ's comparison as backends of the
 * replay: the same operation mix (replay.c's admit), each call timed and
 * its cells counted; among them the floor, GarQ's array, which every
 * other backend is checked against.
 */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

uint64_t cells;

/* --- the floor's array behind the interface ------------------------------ */

static void *
array_make(int64_t clock)
{
	return garq_new(SLOT, HORIZON / SLOT, clock);
}

static void
array_destroy(void *s)
{
	garq_free(s);
}

static void
array_clock(void *s, int64_t clock)
{
	garq_clock(s, clock);
}

static int
array_fits(void *s, int64_t first, int64_t len, uint32_t nodes)
{
	return garq_search(s, first, len, nodes) == FIT;
}

static int64_t
array_first_fit(void *s, int64_t first, int64_t hi, int64_t len,
    uint32_t nodes)
{
	return garq_suggest(s, first, len, nodes, (hi - first) * SLOT);
}

static void *
array_add(void *s, int64_t first, int64_t len, uint32_t nodes)
{
	garq_add(s, first, len, nodes);
	return s;               /* no handle: the counts are all it keeps */
}

static void
array_del(void *s, void *h, int64_t first, int64_t from, int64_t end,
    uint32_t nodes)
{
	(void)h;
	(void)first;
	if (from < end)
		garq_add(s, from, end - from, -(int64_t)nodes);
}

static size_t
array_bytes(const void *s)
{
	(void)s;
	return (size_t)(HORIZON / SLOT) * sizeof(uint32_t);
}

/* garq_clock empties the past buckets itself: no past. */
const struct structure array_structure = {
	"floor (array in RAM)", array_make, array_destroy, array_clock,
	array_fits, array_first_fit, array_add, array_del, NULL, array_bytes
};

/* --- a structure as a backend -------------------------------------------- */

struct held {
	int64_t first, from, end;       /* slots; from: not past yet */
	uint32_t nodes;
	void *h;
};

struct cmp {
	const struct structure *ops;
	void *s;
	int64_t base;                   /* the clock's slot */
	struct held *v;
	size_t n, cap;
	uint64_t cells[NOPS];           /* summed over the calls ... */
	uint64_t calls[NOPS];           /* ... made */
	double bytes_sum;               /* at the end of each period */
	size_t bytes_n, bytes_peak;
};

/* Count the cells of one call of op (admit times the calls). */
#define COUNTED(x, op, call) do { \
	uint64_t c0_ = cells; \
	call; \
	(x)->cells[op] += cells - c0_; \
	(x)->calls[op]++; \
} while (0)

static int
cmp_purge(const struct backend *b, int64_t clock, struct stats *st)
{
	struct cmp *x = b->ctx;
	int64_t base = slots_down(clock, SLOT);

	for (size_t i = 0; i < x->n;) {
		struct held *r = &x->v[i];

		uint64_t t0;

		if (r->end * SLOT > clock) {
			i++;
			continue;
		}
		t0 = now_ns();
		COUNTED(x, OP_DELETE, x->ops->del(x->s, r->h, r->first,
		    r->from, r->end, r->nodes));
		if (sample(&st->op[OP_DELETE], now_ns() - t0) != 0)
			return -1;
		*r = x->v[--x->n];
		st->ndeleted++;
	}
	/* What is left runs on past the clock: its past slots go. */
	for (size_t i = 0; i < x->n; i++)
		if (x->v[i].from < base) {
			if (x->ops->past != NULL)
				x->ops->past(x->s, x->v[i].h, x->v[i].from,
				    base, x->v[i].nodes);
			x->v[i].from = base;
		}
	if (x->ops->clock != NULL)
		x->ops->clock(x->s, clock);
	x->base = base;
	return 0;
}

/* The floor's rules: beyond the horizon when it ends past it. */
static int
cmp_search(void *ctx, const struct req *q, enum fit *f)
{
	struct cmp *x = ctx;
	int64_t first = slots_up(q->start, SLOT), len = slots_up(q->dur, SLOT);

	int yes;

	if (first + len > x->base + HORIZON / SLOT) {
		*f = BEYOND;
		return 0;
	}
	COUNTED(x, OP_SEARCH, yes = x->ops->fits(x->s, first, len, q->nodes));
	*f = yes ? FIT : FULL;
	return 0;
}

static int
cmp_suggest(void *ctx, const struct req *q, int64_t *start)
{
	struct cmp *x = ctx;
	int64_t first = slots_up(q->start, SLOT), len = slots_up(q->dur, SLOT);
	int64_t hi = first + SUGGEST_LIMIT / SLOT, s;

	if (hi > x->base + HORIZON / SLOT - len)
		hi = x->base + HORIZON / SLOT - len;
	COUNTED(x, OP_SUGGEST, s = first > hi ? -1 :
	    x->ops->first_fit(x->s, first, hi, len, q->nodes));
	*start = s < 0 ? -1 : s * SLOT;
	return 0;
}

static int
cmp_add(void *ctx, const struct req *q, int64_t start, int64_t *granted)
{
	struct cmp *x = ctx;
	struct held *p;

	if (x->n == x->cap) {
		x->cap = x->cap ? 2 * x->cap : 4096;
		if ((p = realloc(x->v, x->cap * sizeof(*p))) == NULL)
			goto nomem;
		x->v = p;
	}
	p = &x->v[x->n];
	p->first = p->from = start / SLOT;
	p->end = p->first + slots_up(q->dur, SLOT);
	p->nodes = q->nodes;
	COUNTED(x, OP_ADD, p->h = x->ops->add(x->s, p->first,
	    p->end - p->first, q->nodes));
	if (p->h == NULL)
		goto nomem;
	x->n++;
	*granted = start;
	return 0;
nomem:
	fprintf(stderr, "bench: out of memory\n");
	return -1;
}

/* The memory the structure holds now, as a sample: not the replay's
 * own list of what it granted, which every structure would need. */
static void
memory_sample(struct cmp *x)
{
	size_t bytes = x->ops->bytes(x->s);

	x->bytes_sum += (double)bytes;
	x->bytes_n++;
	if (bytes > x->bytes_peak)
		x->bytes_peak = bytes;
}

/* At the end of a period the plan holds the most: its memory then. */
static int
cmp_period(const struct backend *b, int64_t clock, int after)
{
	(void)clock;
	if (after)
		memory_sample(b->ctx);
	return 0;
}

int
structure_backend(struct backend *b, const struct structure *ops,
    int64_t clock)
{
	struct cmp *x = calloc(1, sizeof(*x));

	if (x == NULL || (x->s = ops->make(clock)) == NULL) {
		free(x);
		fprintf(stderr, "bench: out of memory\n");
		return -1;
	}
	x->ops = ops;
	x->base = slots_down(clock, SLOT);
	b->name = ops->name;
	b->ctx = x;
	b->purge = cmp_purge;
	b->run = admit_each;
	b->search = cmp_search;
	b->suggest = cmp_suggest;
	b->add = cmp_add;
	b->period = cmp_period;
	b->hook = NULL;
	return 0;
}

void
structure_backend_free(struct backend *b)
{
	struct cmp *x = b->ctx;

	for (size_t i = 0; i < x->n; i++)
		x->ops->del(x->s, x->v[i].h, x->v[i].first, x->v[i].from,
		    x->v[i].end, x->v[i].nodes);
	x->ops->destroy(x->s);
	free(x->v);
	free(x);
}

double
structure_cells(const struct backend *b, int op)
{
	const struct cmp *x = b->ctx;

	return x->calls[op] ? (double)x->cells[op] / (double)x->calls[op] :
	    -1;
}

void
structure_memory(const struct backend *b, double *mean, size_t *peak)
{
	struct cmp *x = b->ctx;

	/* A replay cut short ends inside a period: where it stopped. */
	memory_sample(x);
	*mean = x->bytes_sum / (double)x->bytes_n;
	*peak = x->bytes_peak;
}
