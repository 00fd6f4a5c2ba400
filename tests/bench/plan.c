/*
 * plan.c - the schemes of schemes.h on a plan in memory: counts per
 * slot, the reservations and their pieces, and an undo log so that a
 * request of several copies, and FCFS-EDS's attempts to make room, are
 * all or nothing.
 *
 * FCFS-EDS is lib/flex.c again, rule for rule, without price classes,
 * holds or named hosts (the workloads have none): the same limits, the
 * same order of movers (by start slot and id), the same nearest later
 * start, the same skip past a hopeless slot, and reservation ids given
 * as ar gives them (one per copy granted, none for a refusal).  That is
 * what lets make compare hold it against ar_add, hashed.
 *
 * ORR's search.  Among sets of d free slots in [s, D) in at most T pieces
 * of at least p slots: the fewest pieces k, then the earliest end E,
 * then the earliest slots.  A set of the fewest pieces puts at most one
 * piece in a free run (two in one run would merge into one piece), so
 * with the runs of at least p slots (clipped at D), k is the least
 * number of runs whose lengths sum to d or more, the longest taken
 * (and k p <= d).  For E: the run holding slot E - 1 is in every set
 * ending at E (else the set would fit before E - 1), so, run by run in
 * order, E is found in the first run j where its clipped part x =
 * E - start(j) together with the k - 1 longest runs before it reaches
 * d: x = max(p, d - their sum).  Then the earliest slots, greedily:
 * each piece in turn takes the first run that can hold it with the rest
 * still possible (what is left at least p a piece still to come, and no
 * more than what the run j's part and the longest runs between can
 * hold), from that run's start, as long as it can be; the last piece is
 * what is left, ending at E.  tests/test_schemes.c holds this against
 * trying every set of slots.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schemes.h"

/* lib/flex.c's limits on making room. */
#define MOVERS_MAX 32
#define LOOKBACK (24 * 3600)    /* seconds */
#define STARTS_MAX 288

/* What to do to undo one change. */
enum undo_kind {
	UNDO_COUNT,             /* used[a .. b) had delta added */
	UNDO_START,             /* reservation id's one piece started at a */
	UNDO_INDEXED,           /* id was entered in flex[a] */
	UNDO_UNINDEXED,         /* id was taken out of flex[a] */
	UNDO_RESV               /* a reservation was made: a and b were nr
				   and npc before */
};

struct undo {
	enum undo_kind kind;
	int64_t a, b, delta;
	uint32_t id;
};

static void *
grown(void *v, size_t *cap, size_t n, size_t size)
{
	size_t c = *cap;

	if (n < c)
		return v;
	c = c ? 2 * c : 64;
	if ((v = realloc(v, c * size)) == NULL) {
		fprintf(stderr, "schemes: out of memory\n");
		exit(1);
	}
	*cap = c;
	return v;
}

static void
logged(struct plan *p, struct undo u)
{
	p->log = grown(p->log, &p->logcap, p->nlog, sizeof(*p->log));
	p->log[p->nlog++] = u;
}

void
plan_init(struct plan *p, uint32_t cap, int64_t slot, int64_t nslots,
    int64_t horizon)
{
	memset(p, 0, sizeof(*p));
	p->cap = cap;
	p->slot = slot;
	p->nslots = nslots;
	p->horizon = horizon;
	p->used = calloc((size_t)nslots, sizeof(*p->used));
	p->flex = calloc((size_t)nslots, sizeof(*p->flex));
	if (p->used == NULL || p->flex == NULL) {
		fprintf(stderr, "schemes: out of memory\n");
		exit(1);
	}
}

void
plan_free(struct plan *p)
{
	for (int64_t t = 0; t < p->nslots; t++)
		free(p->flex[t].id);
	free(p->flex);
	free(p->used);
	free(p->r);
	free(p->pc);
	free(p->log);
	memset(p, 0, sizeof(*p));
}

static void
count_add(struct plan *p, int64_t from, int64_t to, int64_t delta)
{
	for (int64_t t = from; t < to; t++)
		p->used[t] = (uint32_t)((int64_t)p->used[t] + delta);
	logged(p, (struct undo){ UNDO_COUNT, from, to, delta, 0 });
}

/* Enter id in flex[slot], in order of id. */
static void
flex_enter(struct plan *p, int64_t slot, uint32_t id, int log)
{
	struct idvec *v = &p->flex[slot];
	size_t cap = v->cap;
	uint32_t i;

	v->id = grown(v->id, &cap, v->n, sizeof(*v->id));
	v->cap = (uint32_t)cap;
	for (i = v->n; i > 0 && v->id[i - 1] > id; i--)
		v->id[i] = v->id[i - 1];
	v->id[i] = id;
	v->n++;
	if (log)
		logged(p, (struct undo){ UNDO_INDEXED, slot, 0, 0, id });
}

static void
flex_leave(struct plan *p, int64_t slot, uint32_t id, int log)
{
	struct idvec *v = &p->flex[slot];
	uint32_t i;

	for (i = 0; i < v->n && v->id[i] != id; i++)
		;
	if (i == v->n)
		return;
	memmove(v->id + i, v->id + i + 1, (v->n - i - 1) * sizeof(*v->id));
	v->n--;
	if (log)
		logged(p, (struct undo){ UNDO_UNINDEXED, slot, 0, 0, id });
}

static struct sresv *
resv(struct plan *p, uint32_t id)
{
	return &p->r[id - 1];
}

static struct piece *
one_piece(struct plan *p, uint32_t id)
{
	return &p->pc[resv(p, id)->first];
}

/* Back to where the log was at mark. */
static void
undo_to(struct plan *p, size_t mark)
{
	while (p->nlog > mark) {
		struct undo *u = &p->log[--p->nlog];

		switch (u->kind) {
		case UNDO_COUNT:
			for (int64_t t = u->a; t < u->b; t++)
				p->used[t] = (uint32_t)((int64_t)p->used[t] -
				    u->delta);
			break;
		case UNDO_START:
			one_piece(p, u->id)->start = u->a;
			break;
		case UNDO_INDEXED:
			flex_leave(p, u->a, u->id, 0);
			break;
		case UNDO_UNINDEXED:
			flex_enter(p, u->a, u->id, 0);
			break;
		case UNDO_RESV:
			p->nr = (size_t)u->a;
			p->npc = (size_t)u->b;
			break;
		}
	}
}

/* May FCFS-EDS move a reservation of this window (lib/resv.c's
 * resv_movable: more than one start)? */
static int
movable(const struct sresv *r)
{
	return r->earliest < r->latest;
}

/* A new reservation, copy of q, of nodes nodes in pieces pc[0 .. n),
 * which are taken in the counts unless taken says they are already. */
static void
grant(struct plan *p, const struct sreq *q, uint32_t nodes,
    const struct piece *pc, uint32_t n, int taken)
{
	struct sresv *r;

	logged(p, (struct undo){ UNDO_RESV, (int64_t)p->nr,
	    (int64_t)p->npc, 0, 0 });
	p->r = grown(p->r, &p->rcap, p->nr, sizeof(*p->r));
	r = &p->r[p->nr++];
	*r = (struct sresv){ q->k, nodes, q->earliest, q->latest, p->npc, n };
	for (uint32_t i = 0; i < n; i++) {
		p->pc = grown(p->pc, &p->pccap, p->npc, sizeof(*p->pc));
		p->pc[p->npc++] = pc[i];
		if (!taken)
			count_add(p, pc[i].start, pc[i].start + pc[i].len,
			    nodes);
	}
	if (n == 1 && movable(r))
		flex_enter(p, pc[0].start, (uint32_t)p->nr, 1);
}

/* The first slot of [from, to) where more than room nodes are in use,
 * or -1. */
static int64_t
first_over(const struct plan *p, int64_t from, int64_t to, uint32_t room)
{
	for (int64_t t = from; t < to; t++)
		if (p->used[t] > room)
			return t;
	return -1;
}

/* The first start in [lo, hi] where need nodes are free for len slots,
 * or -1 (lib's fit_first without classes). */
static int64_t
fit_first(const struct plan *p, int64_t lo, int64_t hi, int64_t len,
    uint32_t need)
{
	for (int64_t s = lo, bad; s <= hi; s = bad + 1)
		if ((bad = first_over(p, s, s + len, p->cap - need)) == -1)
			return s;
	return -1;
}

/* A request reduced to slots, as lib/ops.c's to_span does: the starts
 * [first, last] left by the clock and the horizon; 0 if it is refused
 * before any search (too many nodes, its window past, or ending past
 * the horizon from its first start). */
static int
span(const struct plan *p, const struct sreq *q, uint32_t nodes,
    int64_t *first, int64_t *last)
{
	int64_t end = p->now + p->horizon;

	if (nodes > p->cap || q->latest < p->now)
		return 0;
	*first = q->earliest > p->now ? q->earliest : p->now;
	*last = q->latest < end - q->dur ? q->latest : end - q->dur;
	return *first + q->dur <= end;
}

/* --- FCFS rigid and FCFS-EDS: lib/flex.c ------------------------------- */

/* The window a reservation may move in, or 0 (flex.c's may_move). */
static int
may_move(const struct plan *p, uint32_t id, uint32_t own, int64_t *lo,
    int64_t *hi)
{
	const struct sresv *r = &p->r[id - 1];
	const struct piece *x = &p->pc[r->first];

	if (id >= own || x->start <= p->now)
		return 0;
	*lo = r->earliest > p->now ? r->earliest : p->now;
	*hi = r->latest < p->now + p->horizon - x->len ? r->latest :
	    p->now + p->horizon - x->len;
	return *lo < *hi;
}

/* Add to movers[] the movable reservations covering slot b that start
 * from a day before it, not there yet, up to MOVERS_MAX (blockers). */
static void
blockers(const struct plan *p, int64_t b, uint32_t own, uint32_t *movers,
    size_t *n)
{
	int64_t from = b - LOOKBACK / p->slot, lo, hi;

	for (int64_t t = from < 0 ? 0 : from; t <= b; t++)
		for (uint32_t i = 0; i < p->flex[t].n; i++) {
			uint32_t id = p->flex[t].id[i];
			const struct piece *x;
			size_t j;

			if (*n >= MOVERS_MAX)
				return;
			x = &p->pc[p->r[id - 1].first];
			for (j = 0; j < *n && movers[j] != id; j++)
				;
			if (j == *n && x->start + x->len > b &&
			    may_move(p, id, own, &lo, &hi))
				movers[(*n)++] = id;
		}
}

/* The first slot of [s, s + len) without room for need nodes (-1: none)
 * and its movers; *hopeless if their leaving would not make room. */
static int64_t
next_blocker(const struct plan *p, uint32_t need, int64_t s, int64_t len,
    uint32_t own, uint32_t *movers, size_t *n, int *hopeless)
{
	uint32_t room = p->cap - need;
	uint64_t freeable = 0;
	size_t had = *n;
	int64_t bad;

	*hopeless = 0;
	if ((bad = first_over(p, s, s + len, room)) == -1)
		return -1;
	blockers(p, bad, own, movers, n);
	for (size_t i = had; i < *n; i++)
		freeable += p->r[movers[i] - 1].nodes;
	*hopeless = p->used[bad] > freeable + room;
	return bad;
}

static void
take_out(struct plan *p, uint32_t id)
{
	struct piece *x = one_piece(p, id);

	count_add(p, x->start, x->start + x->len, -(int64_t)resv(p, id)->nodes);
	flex_leave(p, x->start, id, 1);
}

static void
put_back(struct plan *p, uint32_t id, int64_t s)
{
	struct piece *x = one_piece(p, id);

	logged(p, (struct undo){ UNDO_START, x->start, 0, 0, id });
	x->start = s;
	count_add(p, s, s + x->len, resv(p, id)->nodes);
	flex_enter(p, s, id, 1);
}

/* Where a mover goes back: its own start if it fits, else the nearest
 * later one in its window; -1 if none (new_start with AR_LATER). */
static int64_t
new_start(const struct plan *p, uint32_t id, uint32_t own)
{
	const struct piece *x = &p->pc[p->r[id - 1].first];
	uint32_t need = p->r[id - 1].nodes;
	int64_t cur = x->start, lo, hi;

	if (!may_move(p, id, own, &lo, &hi))
		lo = hi = cur;
	for (int64_t s = cur; s <= hi; s++)
		if (fit_first(p, s, s, x->len, need) == s)
			return s;
	return -1;
}

static int
by_value(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* Make room for a copy of need nodes and len slots at s by moving
 * others (make_room): 1 if done, the copy's slots taken; else 0, the
 * plan as it was, and *next the next start worth trying. */
static int
make_room(struct plan *p, uint32_t need, int64_t s, int64_t len,
    uint32_t own, uint32_t *movers, int64_t *next)
{
	size_t n = 0, had = 0, mark;
	int64_t bad;
	int hopeless;

	*next = s + 1;
	bad = next_blocker(p, need, s, len, own, movers, &n, &hopeless);
	if (bad == -1 || hopeless) {
		if (hopeless)
			*next = bad + 1;
		return 0;
	}
	mark = p->nlog;
	for (;;) {
		for (size_t i = had; i < n; i++)
			take_out(p, movers[i]);
		had = n;
		bad = next_blocker(p, need, s, len, own, movers, &n,
		    &hopeless);
		if (bad == -1)
			break;
		if (hopeless) {
			*next = bad + 1;
			undo_to(p, mark);
			return 0;
		}
	}
	count_add(p, s, s + len, need);
	/* First come, first served: earlier grants choose first. */
	qsort(movers, n, sizeof(*movers), by_value);
	for (size_t i = 0; i < n; i++) {
		int64_t to = new_start(p, movers[i], own);

		if (to == -1) {
			undo_to(p, mark);
			return 0;
		}
		put_back(p, movers[i], to);
	}
	return 1;
}

/* One copy: first fit, then (unless rigid) room made at each start in
 * turn (place_copy).  1 if placed. */
static int
place_copy(struct plan *p, const struct sreq *q, int64_t first,
    int64_t last, int rigid, uint32_t own)
{
	uint32_t movers[MOVERS_MAX];
	struct piece x = { fit_first(p, first, last, q->dur, q->nodes),
	    q->dur };
	int64_t c, next;

	if (x.start != -1) {
		grant(p, q, q->nodes, &x, 1, 0);
		return 1;
	}
	if (rigid)
		return 0;
	if (last - first >= STARTS_MAX)
		last = first + STARTS_MAX - 1;
	for (c = first; c <= last; c = next)
		if (make_room(p, q->nodes, c, q->dur, own, movers, &next)) {
			x.start = c;
			grant(p, q, q->nodes, &x, 1, 1);
			return 1;
		}
	return 0;
}

/* Admission as ar_add: rigid with AR_NOMOVE, else with AR_LATER. */
static int
admit(struct plan *p, const struct sreq *q, int rigid)
{
	int64_t first, last;
	uint32_t own = (uint32_t)p->nr + 1, j;

	p->nlog = 0;
	if (!span(p, q, q->nodes, &first, &last))
		return 0;
	for (j = 0; j < q->jobs; j++)
		if (!place_copy(p, q, first, last, rigid, own))
			break;
	if (j == q->jobs)
		return 1;
	undo_to(p, 0);
	return 0;
}

/* Asked of the library with its latest start its earliest. */
int
plan_rigid(struct plan *p, const struct sreq *q)
{
	struct sreq at = *q;

	at.latest = at.earliest;
	return admit(p, &at, 1);
}

int
plan_eds(struct plan *p, const struct sreq *q)
{
	return admit(p, q, 0);
}

/* --- RSPB ---------------------------------------------------------------- */

size_t
plan_levels(const struct sreq *q, struct level *lv)
{
	static const int benefit[LEVELS_MAX] = { 10, 6, 3 };
	size_t n = 0;

	for (uint32_t i = 0, d = 1; i < LEVELS_MAX; i++, d *= 2) {
		struct level v = { q->nodes, q->jobs, benefit[i] };

		if (q->jobs > 1)
			v.copies = (q->jobs + d - 1) / d;
		else
			v.nodes = (q->nodes + d - 1) / d;
		if (n == 0 || v.nodes * v.copies !=
		    lv[n - 1].nodes * lv[n - 1].copies)
			lv[n++] = v;
	}
	return n;
}

/* Place the copies of level v, each at its first start in [first,
 * last]: the first copy's start, or -1 and none placed. */
static int64_t
place_level(struct plan *p, const struct sreq *q, const struct level *v,
    int64_t first, int64_t last)
{
	size_t mark = p->nlog;
	int64_t start = -1;

	for (uint32_t c = 0; c < v->copies; c++) {
		struct piece x = { fit_first(p, first, last, q->dur, v->nodes),
		    q->dur };

		if (x.start == -1) {
			undo_to(p, mark);
			return -1;
		}
		if (c == 0)
			start = x.start;
		grant(p, q, v->nodes, &x, 1, 0);
	}
	return start;
}

int
plan_mold(struct plan *p, const struct sreq *q, const struct level *lv,
    size_t nlv, size_t *chosen)
{
	int64_t first, last, start, best_start = 0;
	size_t best = nlv;

	p->nlog = 0;
	/* The window is every level's; only the nodes differ. */
	if (!span(p, q, 0, &first, &last))
		return 0;
	for (size_t i = 0; i < nlv; i++) {
		const struct level *v = &lv[i], *b = &lv[best < nlv ? best : 0];

		if (v->nodes > p->cap ||
		    (start = place_level(p, q, v, first, last)) == -1)
			continue;
		undo_to(p, 0);
		if (best == nlv || v->benefit > b->benefit ||
		    (v->benefit == b->benefit && (start < best_start ||
		    (start == best_start && (uint64_t)v->nodes * v->copies >
		    (uint64_t)b->nodes * b->copies)))) {
			best = i;
			best_start = start;
		}
	}
	if (best == nlv)
		return 0;
	place_level(p, q, &lv[best], first, last);
	*chosen = best;
	return 1;
}

/* --- ORR and TARR -------------------------------------------------------- */

/* The free runs of at least smallest slots in [s, end) for n nodes. */
struct runs {
	struct piece *v;
	size_t n, cap;
};

static void
free_runs(const struct plan *p, int64_t s, int64_t end, uint32_t n,
    int64_t smallest, struct runs *out)
{
	out->n = 0;
	for (int64_t t = s, from; t < end; t++) {
		if (p->used[t] > p->cap - n)
			continue;
		for (from = t; t < end && p->used[t] <= p->cap - n; t++)
			;
		if (t - from < smallest)
			continue;
		out->v = grown(out->v, &out->cap, out->n, sizeof(*out->v));
		out->v[out->n++] = (struct piece){ from, t - from };
	}
}

/* The sum of the k longest of runs v[0 .. n); -1 if there are fewer,
 * 0 for none (the last piece's turn asks for the runs between, k 0). */
static int64_t
longest_sum(const struct piece *v, size_t n, int k)
{
	int64_t top[ORR_PIECES], sum = 0;
	int have = 0, j;

	if (k == 0)
		return 0;
	if ((size_t)k > n)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (have == k && v[i].len <= top[k - 1])
			continue;
		for (j = have < k ? have++ : k - 1; j > 0 &&
		    top[j - 1] < v[i].len; j--)
			top[j] = top[j - 1];
		top[j] = v[i].len;
	}
	for (j = 0; j < k; j++)
		sum += top[j];
	return sum;
}

/* One copy's pieces by ORR's order into out[] (at most most): how many,
 * 0 if there is no set. */
static int
orr_one(const struct plan *p, int64_t s, int64_t end, int64_t d, uint32_t n,
    int64_t smallest, int most, struct runs *rs, struct piece *out)
{
	int64_t left, last_len, e = -1;
	size_t j, from;
	int k, c;

	if (smallest > d)
		smallest = d;
	free_runs(p, s, end, n, smallest, rs);
	for (k = 1; k <= most; k++) {
		int64_t sum = longest_sum(rs->v, rs->n, k);

		if (sum < 0)
			return 0;
		if (k * smallest <= d && sum >= d)
			break;
	}
	if (k > most)
		return 0;
	/* The end: the first run j whose part, with the k - 1 longest runs
	 * before it, reaches d. */
	for (j = 0; j < rs->n; j++) {
		int64_t before = k == 1 ? 0 : longest_sum(rs->v, j, k - 1), x;

		if (before < 0)
			continue;
		x = d - before > smallest ? d - before : smallest;
		if (x <= rs->v[j].len) {
			e = rs->v[j].start + x;
			break;
		}
	}
	last_len = e - rs->v[j].start;
	/* The earliest slots: piece by piece, the first run that can hold
	 * it with the rest still possible, as long as it can be. */
	left = d;
	from = 0;
	for (c = 0; c < k - 1; c++) {
		int after = k - 1 - c;          /* pieces after this one */

		for (; from < j; from++) {
			int64_t between = longest_sum(rs->v + from + 1,
			    j - from - 1, after - 1), lo, hi;

			if (between < 0)
				continue;
			lo = left - last_len - between > smallest ?
			    left - last_len - between : smallest;
			hi = left - after * smallest < rs->v[from].len ?
			    left - after * smallest : rs->v[from].len;
			if (lo <= hi) {
				out[c] = (struct piece){ rs->v[from].start,
				    hi };
				left -= hi;
				from++;
				break;
			}
		}
	}
	out[c] = (struct piece){ e - left, left };
	return k;
}

/* One copy's pieces by TARR's order, the earliest d free slots of
 * [s, end), into *out (grown): how many, 0 if there are not d. */
static int
tarr_one(const struct plan *p, int64_t s, int64_t end, int64_t d, uint32_t n,
    struct runs *out)
{
	int64_t left = d;

	out->n = 0;
	for (int64_t t = s, from; t < end && left > 0; t++) {
		if (p->used[t] > p->cap - n)
			continue;
		for (from = t; t < end && t - from < left &&
		    p->used[t] <= p->cap - n; t++)
			;
		out->v = grown(out->v, &out->cap, out->n, sizeof(*out->v));
		out->v[out->n++] = (struct piece){ from, t - from };
		left -= t - from;
	}
	return left == 0 ? (int)out->n : 0;
}

/* Split q's copies by ORR's order (most in 1 .. ORR_PIECES) or TARR's
 * (most 0): all copies or none. */
static int
split(struct plan *p, const struct sreq *q, int64_t smallest, int most)
{
	struct piece pc[ORR_PIECES];
	struct runs rs = { NULL, 0, 0 };
	int64_t first, last, end;
	uint32_t j;
	int k = 0;

	p->nlog = 0;
	if (span(p, q, q->nodes, &first, &last)) {
		end = last + q->dur;
		for (j = 0; j < q->jobs; j++) {
			k = most > 0 ? orr_one(p, first, end, q->dur, q->nodes,
			    smallest, most, &rs, pc) :
			    tarr_one(p, first, end, q->dur, q->nodes, &rs);
			if (k == 0)
				break;
			grant(p, q, q->nodes, most > 0 ? pc : rs.v,
			    (uint32_t)k, 0);
		}
		if (k == 0)
			undo_to(p, 0);
	}
	free(rs.v);
	return k != 0;
}

int
plan_orr(struct plan *p, const struct sreq *q, int64_t smallest, int most)
{
	return split(p, q, smallest, most);
}

int
plan_tarr(struct plan *p, const struct sreq *q)
{
	return split(p, q, 1, 0);
}

/* --- DRR, and what the library granted ------------------------------------ */

int64_t
plan_reclaim(struct plan *p, uint64_t id, int64_t at)
{
	struct sresv *r = &p->r[id - 1];
	int64_t freed = 0;
	uint32_t kept = 0;

	for (uint32_t i = 0; i < r->npieces; i++) {
		struct piece *x = &p->pc[r->first + i];
		int64_t from = x->start > at ? x->start : at;

		if (from < x->start + x->len) {
			count_add(p, from, x->start + x->len,
			    -(int64_t)r->nodes);
			freed += (x->start + x->len - from) * r->nodes;
			x->len = from - x->start;
		}
		kept += x->len > 0;
	}
	r->npieces = kept;
	return freed;
}

void
plan_record(struct plan *p, uint32_t k, uint32_t nodes, int64_t start,
    int64_t len)
{
	struct sreq q = { k, 0, 0, len, nodes, 1 };
	struct piece x = { start, len };

	p->nlog = 0;
	grant(p, &q, nodes, &x, 1, 0);
}

int
plan_same(const struct plan *x, const struct sresv *a, const struct plan *y,
    const struct sresv *b)
{
	if (a->k != b->k || a->nodes != b->nodes || a->npieces != b->npieces)
		return 0;
	for (uint32_t j = 0; j < a->npieces; j++)
		if (x->pc[a->first + j].start != y->pc[b->first + j].start ||
		    x->pc[a->first + j].len != y->pc[b->first + j].len)
			return 0;
	return 1;
}

void
plan_piece(struct plan *p, int64_t start, int64_t len)
{
	struct sresv *r = &p->r[p->nr - 1];

	p->pc = grown(p->pc, &p->pccap, p->npc, sizeof(*p->pc));
	p->pc[p->npc++] = (struct piece){ start, len };
	r->npieces++;
	count_add(p, start, start + len, r->nodes);
}

static uint64_t
fnv(uint64_t h, const int64_t *v, size_t n)
{
	const unsigned char *b = (const unsigned char *)v;

	for (size_t i = 0; i < n * sizeof(*v); i++)
		h = (h ^ b[i]) * 0x100000001b3ULL;
	return h;
}

uint64_t
plan_hash(const struct plan *p)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (size_t i = 0; i < p->nr; i++) {
		const struct sresv *r = &p->r[i];
		int64_t v[4] = { (int64_t)i + 1, r->k, r->nodes, r->npieces };

		h = fnv(h, v, 4);
		for (uint32_t j = 0; j < r->npieces; j++) {
			const struct piece *x = &p->pc[r->first + j];
			int64_t w[2] = { x->start, x->len };

			h = fnv(h, w, 2);
		}
	}
	return h;
}
