/*
 * calendar.c - GarQ's static Calendar Queue (its section 3.2, after
 * Brown): a fixed number of buckets of a fixed width delta, one hour as
 * in the paper's evaluation (the traces' mean job time), 720 of them for
 * the 30-day interval, reused lap after lap (bucket = start / delta mod
 * 720).  Each bucket holds a list, sorted by start, of the reservations
 * that take part of its hour: one longer than delta is entered, a copy,
 * in every bucket it spans.
 *
 * A search reads the buckets the interval spans: in each, the
 * reservations of its list that overlap, into the bucket's slots, which
 * are then read: O(k m_sub).  Its times being absolute, an entry of an
 * earlier lap is passed over.  The interval search reads on bucket by
 * bucket, first fit as the floor does.  Adding enters a copy in each
 * bucket, in start order (O(k) each); deleting takes them out, and when
 * time passes a bucket, the copies there of reservations still running
 * go too.
 */
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#define DELTA 12                /* slots of a bucket: an hour */
#define BUCKETS (HORIZON / SLOT / DELTA)

struct copy {
	int64_t start, end;     /* the reservation's, in slots */
	uint32_t nodes;
	const void *owner;      /* the reservation it is a copy of */
	struct copy *next;
};

struct calendar {
	struct copy *b[BUCKETS];
	size_t copies;
	int64_t use[DELTA];     /* nodes in use per slot of one bucket */
};

/* A reservation: its copies are found by their owner. */
struct owner {
	int64_t start;
};

static void *
cal_make(int64_t clock)
{
	(void)clock;
	return calloc(1, sizeof(struct calendar));
}

static void
cal_destroy(void *s)
{
	struct calendar *c = s;

	for (int i = 0; i < BUCKETS; i++)
		while (c->b[i] != NULL) {
			struct copy *e = c->b[i];

			c->b[i] = e->next;
			free(e);
		}
	free(c);
}

/* Read absolute bucket k's slots [from, to) (within it) into c->use. */
static void
bucket_use(struct calendar *c, int64_t k, int64_t from, int64_t to)
{
	int64_t lo = k * DELTA;

	memset(c->use, 0, sizeof(c->use));
	for (struct copy *e = c->b[k % BUCKETS]; e != NULL && e->start < to;
	    e = e->next) {
		cells++;
		if (e->end <= from)
			continue;
		for (int64_t x = e->start > from ? e->start : from;
		    x < (e->end < to ? e->end : to); x++)
			c->use[x - lo] += e->nodes;
	}
}

static int
cal_fits(void *s, int64_t first, int64_t len, uint32_t nodes)
{
	struct calendar *c = s;
	int64_t end = first + len;

	for (int64_t k = first / DELTA; k * DELTA < end; k++) {
		int64_t from = k * DELTA > first ? k * DELTA : first;
		int64_t to = (k + 1) * DELTA < end ? (k + 1) * DELTA : end;

		bucket_use(c, k, from, to);
		for (int64_t x = from; x < to; x++) {
			cells++;
			if (c->use[x - k * DELTA] + nodes > NODES)
				return 0;
		}
	}
	return 1;
}

static int64_t
cal_first_fit(void *s, int64_t first, int64_t hi, int64_t len,
    uint32_t nodes)
{
	struct calendar *c = s;
	int64_t start = first, run = 0;

	for (int64_t k = first / DELTA; k * DELTA < hi + len; k++) {
		int64_t from = k * DELTA > first ? k * DELTA : first;
		int64_t to = (k + 1) * DELTA < hi + len ? (k + 1) * DELTA :
		    hi + len;

		bucket_use(c, k, from, to);
		for (int64_t x = from; x < to; x++) {
			cells++;
			if (c->use[x - k * DELTA] + nodes > NODES) {
				if ((start = x + 1) > hi)
					return -1;
				run = 0;
			} else if (++run >= len)
				return start;
		}
	}
	return -1;
}

static void *
cal_add(void *s, int64_t first, int64_t len, uint32_t nodes)
{
	struct calendar *c = s;
	struct owner *o = malloc(sizeof(*o));

	if (o == NULL)
		return NULL;
	o->start = first;
	for (int64_t k = first / DELTA; k * DELTA < first + len; k++) {
		struct copy *e = malloc(sizeof(*e)), **p = &c->b[k % BUCKETS];

		if (e == NULL)
			return NULL;    /* the replay stops: no memory */
		e->start = first;
		e->end = first + len;
		e->nodes = nodes;
		e->owner = o;
		for (; *p != NULL && (*p)->start <= first; p = &(*p)->next)
			cells++;
		e->next = *p;
		*p = e;
		c->copies++;
	}
	return o;
}

/* Take h's copies out of the buckets of slots [from, to). */
static void
uncopy(struct calendar *c, const void *h, int64_t from, int64_t to)
{
	for (int64_t k = from / DELTA; k * DELTA < to; k++) {
		struct copy **p = &c->b[k % BUCKETS], *e;

		for (; *p != NULL && (*p)->owner != h; p = &(*p)->next)
			cells++;
		if ((e = *p) == NULL)
			continue;
		*p = e->next;
		free(e);
		c->copies--;
	}
}

static void
cal_del(void *s, void *h, int64_t first, int64_t from, int64_t end,
    uint32_t nodes)
{
	(void)first;
	(void)nodes;
	if (from < end)
		uncopy(s, h, from, end);
	free(h);
}

/* The buckets wholly past: those before the one the clock is in. */
static void
cal_past(void *s, void *h, int64_t from, int64_t to, uint32_t nodes)
{
	(void)nodes;
	if (from / DELTA < to / DELTA)
		uncopy(s, h, from, to / DELTA * DELTA);
}

static size_t
cal_bytes(const void *s)
{
	const struct calendar *c = s;

	return sizeof(*c) + c->copies * sizeof(struct copy);
}

const struct structure calendar_structure = {
	"calendar queue (1 h)", cal_make, cal_destroy, NULL, cal_fits,
	cal_first_fit, cal_add, cal_del, cal_past, cal_bytes
};
