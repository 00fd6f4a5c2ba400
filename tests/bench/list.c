/*
 * list.c - GarQ's Linked List (its section 3.3): the reservations as
 * tuples <start, end, nodes>, one list sorted by start.
 *
 * A search walks the list from its head to the last reservation that
 * starts before the interval ends, adds the nodes of those that overlap
 * it into a temporary array of the interval's slots (the paper's Figure
 * 7), and reads the array: O(reservations + slots).  An interval search
 * does that again and again, the interval shifted past the busy slots
 * the last search found, until it fits or passes the limit.  Adding and
 * deleting walk from the head to the place: O(reservations).  The list
 * is continuous in the paper (any start and end); here its times are the
 * replay's slots, so that it answers as the floor does.
 */
#include <stdlib.h>
#include <string.h>

#include "bench.h"

struct entry {
	int64_t start, end;     /* slots */
	uint32_t nodes;
	struct entry *next;
};

struct list {
	struct entry *head;
	size_t n;
	int64_t *use;           /* the temporary array, per slot */
	size_t cap;
};

static void *
list_make(int64_t clock)
{
	(void)clock;
	return calloc(1, sizeof(struct list));
}

static void
list_destroy(void *s)
{
	struct list *l = s;

	while (l->head != NULL) {
		struct entry *e = l->head;

		l->head = e->next;
		free(e);
	}
	free(l->use);
	free(l);
}

/*
 * The last slot of [first, first + len) without room for nodes more, or
 * -1 if they fit in all; -2 without memory for the array.
 */
static int64_t
last_full(struct list *l, int64_t first, int64_t len, uint32_t nodes)
{
	int64_t end = first + len, sum = 0, full = -1;

	if ((size_t)len + 1 > l->cap) {
		int64_t *u = realloc(l->use, ((size_t)len + 1) * sizeof(*u));

		if (u == NULL)
			return -2;
		l->use = u;
		l->cap = (size_t)len + 1;
	}
	memset(l->use, 0, ((size_t)len + 1) * sizeof(*l->use));
	for (struct entry *e = l->head; e != NULL && e->start < end;
	    e = e->next) {
		cells++;
		if (e->end <= first)
			continue;
		l->use[(e->start > first ? e->start : first) - first] += e->nodes;
		l->use[(e->end < end ? e->end : end) - first] -= e->nodes;
	}
	for (int64_t i = 0; i < len; i++) {
		cells++;
		sum += l->use[i];
		if (sum + nodes > NODES)
			full = first + i;
	}
	return full;
}

static int
list_fits(void *s, int64_t first, int64_t len, uint32_t nodes)
{
	return last_full(s, first, len, nodes) == -1;
}

static int64_t
list_first_fit(void *s, int64_t first, int64_t hi, int64_t len,
    uint32_t nodes)
{
	int64_t full;

	for (int64_t at = first; at <= hi; at = full + 1)
		if ((full = last_full(s, at, len, nodes)) < 0)
			return full == -1 ? at : -1;
	return -1;
}

static void *
list_add(void *s, int64_t first, int64_t len, uint32_t nodes)
{
	struct list *l = s;
	struct entry *e = malloc(sizeof(*e)), **p = &l->head;

	if (e == NULL)
		return NULL;
	e->start = first;
	e->end = first + len;
	e->nodes = nodes;
	for (; *p != NULL && (*p)->start <= first; p = &(*p)->next)
		cells++;
	e->next = *p;
	*p = e;
	l->n++;
	return e;
}

static void
list_del(void *s, void *h, int64_t first, int64_t from, int64_t end,
    uint32_t nodes)
{
	struct list *l = s;
	struct entry **p = &l->head;

	(void)first;
	(void)from;
	(void)end;
	(void)nodes;
	for (; *p != NULL && *p != h; p = &(*p)->next)
		cells++;
	if (*p == NULL)
		return;
	*p = ((struct entry *)h)->next;
	free(h);
	l->n--;
}

static size_t
list_bytes(const void *s)
{
	const struct list *l = s;

	return sizeof(*l) + l->n * sizeof(struct entry) +
	    l->cap * sizeof(*l->use);
}

/* Its times are absolute: a past slot is never asked about again, so
 * neither the clock nor the past concern it. */
const struct structure list_structure = {
	"sorted linked list", list_make, list_destroy, NULL, list_fits,
	list_first_fit, list_add, list_del, NULL, list_bytes
};
