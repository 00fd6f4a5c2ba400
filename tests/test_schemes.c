/*
 * test_schemes.c - the schemes of make compare (tests/bench/plan.c)
 * against the brute-force answers of tests/oracle.c: ORR's and TARR's
 * splits and RSPB's levels on random small plans, a copy at a time and
 * all copies or none; then the cases that show each reading of the seed
 * (tests/bench/schemes.h), FCFS-EDS's move, and DRR's reclaim; and the
 * library (ar_add on a store in memory) against the schemes in memory,
 * parametric requests (several copies) split and molded.  Seeded: the
 * same cases on every run.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ar.h"
#include "bench/schemes.h"
#include "check.h"
#include "helpers.h"
#include "oracle.h"

#define SLOT 300
#define SLOTS 40                /* a plan's slots */
#define CASES 10000             /* random cases of each kind */

/* A plan of cap nodes whose slots hold random counts (nothing that
 * could move), a quarter, half or three quarters of them empty; or,
 * one time in four, each slot empty or full, so that free runs are
 * short and requests split.  The clock at 0 and a horizon past its
 * end. */
static void
random_plan(struct plan *p, uint32_t cap)
{
	uint64_t empty = rnd(4);

	plan_init(p, cap, SLOT, SLOTS, 2 * SLOTS);
	for (int64_t t = 0; t < SLOTS; t++)
		p->used[t] = empty == 0 ? (uint32_t)rnd(2) * cap :
		    rnd(4) < empty ? 0 : (uint32_t)rnd(cap + 1);
}

/* Do the pieces of the reservations from index from on, copy c's being
 * got[c * most ..], say what the oracle says? */
static int
same_pieces(const struct plan *p, size_t from, uint32_t copies,
    const struct oracle_piece *got, const int *ngot, int most)
{
	if (p->nr - from != copies)
		return 0;
	for (uint32_t c = 0; c < copies; c++) {
		const struct sresv *r = &p->r[from + c];

		if ((int)r->npieces != ngot[c])
			return 0;
		for (uint32_t i = 0; i < r->npieces; i++) {
			const struct piece *a = &p->pc[r->first + i];
			const struct oracle_piece *b = &got[c * most + i];

			if (a->start != b->start || a->len != b->len)
				return 0;
		}
	}
	return 1;
}

/* The request of a random case: s in [0, 4], a window of up to 3 or
 * up to 11 starts, up to 6 slots, so that [s, l + d) stays within the
 * oracle's span. */
static struct sreq
random_request(uint32_t cap, uint32_t copies)
{
	struct sreq q;

	q.k = 0;
	q.earliest = (int64_t)rnd(5);
	q.latest = q.earliest + (int64_t)rnd(rnd(2) ? 3 : 11);
	q.dur = 1 + (int64_t)rnd(6);
	q.nodes = 1 + (uint32_t)rnd(cap);
	q.jobs = copies;
	return q;
}

/* ORR (order ORACLE_FEWEST) or TARR on random plans. */
static void
test_split_random(enum oracle_order order)
{
	struct oracle_piece want[3 * ORACLE_SPAN_MAX];
	int nwant[3], mismatches = 0, granted = 0, split = 0;
	const char *name = order == ORACLE_FEWEST ? "ORR" : "TARR";

	for (int i = 0; i < CASES; i++) {
		uint32_t cap = 1 + (uint32_t)rnd(4), copies = 1 +
		    (uint32_t)rnd(3);
		struct sreq q = random_request(cap, copies);
		int64_t smallest = order == ORACLE_FEWEST ? 1 +
		    (int64_t)rnd(2) : 1;
		int most = order == ORACLE_FEWEST ? 1 + (int)rnd(ORR_PIECES) :
		    ORACLE_SPAN_MAX;
		uint32_t used[SLOTS];
		struct plan p;
		size_t from;
		int got, want_rc;

		random_plan(&p, cap);
		memcpy(used, p.used, sizeof(used));
		from = p.nr;
		got = order == ORACLE_FEWEST ?
		    plan_orr(&p, &q, smallest, most) : plan_tarr(&p, &q);
		want_rc = oracle_split(used, cap, q.earliest, q.latest + q.dur,
		    q.dur, q.nodes, copies, order, smallest, most, want, nwant);
		if (got != want_rc || (got == 1 && (!same_pieces(&p, from,
		    copies, want, nwant, most) || memcmp(used, p.used,
		    sizeof(used)) != 0))) {
			if (mismatches++ < 5)
				fprintf(stderr, "%s case %d: cap %" PRIu32
				    " s %" PRId64 " l %" PRId64 " d %" PRId64
				    " nodes %" PRIu32 " copies %" PRIu32
				    " smallest %" PRId64 " most %d: %s, the "
				    "oracle %s\n", name, i, cap, q.earliest,
				    q.latest, q.dur, q.nodes, copies, smallest,
				    most, got ? "granted" : "refused",
				    want_rc ? "granted" : "refused");
		}
		granted += want_rc == 1;
		split += want_rc == 1 && nwant[0] > 1;
		plan_free(&p);
	}
	CHECK(mismatches == 0, "%s: %d of %d random cases differ from the "
	    "oracle", name, mismatches, CASES);
	/* The cases reach what they are for: grants, refusals, pieces. */
	CHECK(granted > CASES / 10 && granted < CASES * 9 / 10 &&
	    split > CASES / 40, "%s: %d granted, %d split: the random cases "
	    "miss", name, granted, split);
}

/* RSPB's levels (and a rigid request, one level of one start) on random
 * plans. */
static void
test_mold_random(int rigid)
{
	int mismatches = 0, lowered = 0, granted = 0;
	const char *name = rigid ? "rigid" : "RSPB";

	for (int i = 0; i < CASES; i++) {
		uint32_t cap = 1 + (uint32_t)rnd(4);
		struct sreq q = random_request(cap, 1 + (uint32_t)rnd(3));
		struct oracle_level ol[LEVELS_MAX];
		struct level lv[LEVELS_MAX];
		uint32_t used[SLOTS];
		int64_t starts[8];
		size_t nlv = rigid ? 1 : 1 + rnd(LEVELS_MAX), chosen = 0;
		struct plan p;
		size_t from;
		int got, want;

		if (rigid)
			q.latest = q.earliest;
		for (size_t j = 0; j < nlv; j++) {
			lv[j].nodes = j == 0 ? q.nodes : 1 + (uint32_t)rnd(cap);
			lv[j].copies = j == 0 ? q.jobs : 1 + (uint32_t)rnd(3);
			lv[j].benefit = 1 + (int)rnd(3);   /* ties too */
			ol[j] = (struct oracle_level){ lv[j].nodes,
			    lv[j].copies, lv[j].benefit };
		}
		random_plan(&p, cap);
		memcpy(used, p.used, sizeof(used));
		from = p.nr;
		got = rigid ? plan_rigid(&p, &q) :
		    plan_mold(&p, &q, lv, nlv, &chosen);
		want = oracle_mold(used, cap, q.earliest, q.latest, q.dur, ol,
		    (int)nlv, starts);
		if ((got == 1) != (want >= 0) || (got == 1 &&
		    ((size_t)want != chosen || memcmp(used, p.used,
		    sizeof(used)) != 0 || p.nr - from != lv[want].copies ||
		    p.pc[p.r[from].first].start != starts[0]))) {
			if (mismatches++ < 5)
				fprintf(stderr, "%s case %d: level %zu (%s), the "
				    "oracle %d\n", name, i, chosen,
				    got ? "granted" : "refused", want);
		}
		granted += want >= 0;
		lowered += want > 0;
		plan_free(&p);
	}
	CHECK(mismatches == 0, "%s: %d of %d random cases differ from the "
	    "oracle", name, mismatches, CASES);
	CHECK(granted > CASES / 10 && granted < CASES * 9 / 10 &&
	    (rigid || lowered > CASES / 20), "%s: %d granted, %d at a level "
	    "not the first: the random cases miss", name, granted, lowered);
}

/* A plan of one node busy in the slots busy[] lists (ending at -1). */
static void
one_node(struct plan *p, const int64_t *busy)
{
	plan_init(p, 1, SLOT, SLOTS, 2 * SLOTS);
	for (; *busy >= 0; busy++)
		p->used[*busy] = 1;
}

/* The pieces of reservation index i as "start+len start+len". */
static const char *
pieces(const struct plan *p, size_t i, char *buf, size_t size)
{
	size_t at = 0;

	buf[0] = '\0';
	for (uint32_t j = 0; j < p->r[i].npieces && at < size; j++) {
		const struct piece *x = &p->pc[p->r[i].first + j];

		at += (size_t)snprintf(buf + at, size - at, "%s%" PRId64 "+%"
		    PRId64, j ? " " : "", x->start, x->len);
	}
	return buf;
}

#define PIECES(p, i) pieces((p), (i), (char[256]){ 0 }, 256)

/*
 * One node, busy in slots 2 and 5; 4 slots wanted in [0, 10).  TARR
 * takes the earliest slots, 0-1 and 3-4; ORR one piece, 6-9, though it
 * starts later.  With slot 8 busy too, there is no one piece: ORR takes
 * two, the pair that ends first (0-1 and 3-4, ending at 5, not 3-4 and
 * 6-7, ending at 8).  With pieces of 3 slots at least, none will do:
 * refused.  7 slots wanted in [0, 11) take 4 pieces: refused with at
 * most 3, and with 4 the earliest slots, the last piece cut short.
 */
static void
test_split_readings(void)
{
	static const int64_t b25[] = { 2, 5, -1 }, b258[] = { 2, 5, 8, -1 };
	struct sreq q = { 0, 0, 6, 4, 1, 1 };
	struct plan p;

	one_node(&p, b25);
	CHECK(plan_tarr(&p, &q) == 1 && p.nr == 1 &&
	    strcmp(PIECES(&p, 0), "0+2 3+2") == 0,
	    "TARR: pieces %s, not the earliest slots 0+2 3+2", PIECES(&p, 0));
	plan_free(&p);

	one_node(&p, b25);
	CHECK(plan_orr(&p, &q, 1, ORR_PIECES) == 1 && p.nr == 1 &&
	    strcmp(PIECES(&p, 0), "6+4") == 0,
	    "ORR: pieces %s, not the one piece 6+4", PIECES(&p, 0));
	plan_free(&p);

	one_node(&p, b258);
	CHECK(plan_orr(&p, &q, 1, ORR_PIECES) == 1 && p.nr == 1 &&
	    strcmp(PIECES(&p, 0), "0+2 3+2") == 0,
	    "ORR: pieces %s, not two ending first, 0+2 3+2", PIECES(&p, 0));
	plan_free(&p);

	one_node(&p, b258);
	CHECK(plan_orr(&p, &q, 3, ORR_PIECES) == 0 && p.nr == 0 &&
	    p.used[6] == 0, "ORR: granted with pieces of 3 slots at least");
	plan_free(&p);

	q.latest = 4;
	q.dur = 7;
	one_node(&p, b258);
	CHECK(plan_orr(&p, &q, 1, 3) == 0 && p.nr == 0,
	    "ORR: granted in more than 3 pieces");
	CHECK(plan_orr(&p, &q, 1, 4) == 1 && p.nr == 1 &&
	    strcmp(PIECES(&p, 0), "0+2 3+2 6+2 9+1") == 0,
	    "ORR: pieces %s in 4, not 0+2 3+2 6+2 9+1", PIECES(&p, 0));
	plan_free(&p);
}

/*
 * Two nodes, one busy in slots 0-3: a request for 2 nodes (benefit 10)
 * or 1 (benefit 6) for 2 slots from slot 0, starting by 5, gets 2 nodes
 * at 4, not 1 node at 0; starting by 1, 1 node at 0.  Of two levels of
 * one benefit, the one that starts first: 1 node at 0.
 */
static void
test_mold_readings(void)
{
	struct level lv[2] = { { 2, 1, 10 }, { 1, 1, 6 } };
	struct sreq q = { 0, 0, 5, 2, 2, 1 };
	struct plan p;
	size_t chosen;

	plan_init(&p, 2, SLOT, SLOTS, 2 * SLOTS);
	for (int64_t t = 0; t < 4; t++)
		p.used[t] = 1;
	CHECK(plan_mold(&p, &q, lv, 2, &chosen) == 1 && chosen == 0 &&
	    p.pc[p.r[0].first].start == 4, "RSPB: level %zu at %" PRId64
	    ", not 2 nodes at 4", chosen, p.pc[p.r[0].first].start);
	q.latest = 1;
	CHECK(plan_mold(&p, &q, lv, 2, &chosen) == 1 && chosen == 1 &&
	    p.pc[p.r[1].first].start == 0 && p.used[0] == 2,
	    "RSPB: level %zu, not 1 node at 0", chosen);
	plan_free(&p);

	plan_init(&p, 2, SLOT, SLOTS, 2 * SLOTS);
	for (int64_t t = 0; t < 4; t++)
		p.used[t] = 1;
	lv[1].benefit = 10;
	q.latest = 5;
	CHECK(plan_mold(&p, &q, lv, 2, &chosen) == 1 && chosen == 1 &&
	    p.pc[p.r[0].first].start == 0, "RSPB: level %zu of equal "
	    "benefit, not the one starting first", chosen);
	plan_free(&p);
}

/*
 * FCFS-EDS, the clock at 0: on one node, a reservation of 2 slots that
 * may start from 1 to 6 is granted at 1; a rigid request for slots 1-2
 * then moves it to 3, the nearest later start where it fits.  Rigid,
 * that request is refused.  A rigid reservation in the way is never
 * moved; nor is a flexible one past its window (1 to 2), nor one that
 * has started.  On two nodes, two flexible ones at 1 both make way for
 * a rigid one of one node at 1, and go back in the order granted: the
 * first to where it was, the second to 3.
 */
static void
test_eds(void)
{
	struct sreq flex = { 0, 1, 6, 2, 1, 1 }, fixed = { 1, 1, 1, 2, 1, 1 };
	struct plan p;

	plan_init(&p, 1, SLOT, SLOTS, 2 * SLOTS);
	CHECK(plan_eds(&p, &flex) == 1 && p.pc[p.r[0].first].start == 1,
	    "EDS: the flexible one not at 1");
	CHECK(plan_rigid(&p, &fixed) == 0, "rigid: granted over another");
	CHECK(plan_eds(&p, &fixed) == 1 && p.nr == 2 &&
	    p.pc[p.r[0].first].start == 3 && p.pc[p.r[1].first].start == 1 &&
	    p.used[1] == 1 && p.used[3] == 1 && p.used[5] == 0,
	    "EDS: the flexible one at %" PRId64 ", not moved to 3",
	    p.pc[p.r[0].first].start);
	fixed.k = 2;
	CHECK(plan_eds(&p, &fixed) == 0 && p.nr == 2,
	    "EDS: a rigid reservation moved");
	plan_free(&p);

	flex.latest = 2;
	plan_init(&p, 1, SLOT, SLOTS, 2 * SLOTS);
	CHECK(plan_eds(&p, &flex) == 1 && plan_eds(&p, &fixed) == 0 &&
	    p.pc[p.r[0].first].start == 1, "EDS: moved past its window");
	plan_free(&p);

	flex.latest = 6;
	plan_init(&p, 1, SLOT, SLOTS, 2 * SLOTS);
	CHECK(plan_eds(&p, &flex) == 1, "EDS: the flexible one refused");
	p.now = 1;
	CHECK(plan_eds(&p, &fixed) == 0 && p.pc[p.r[0].first].start == 1,
	    "EDS: a reservation that has started moved");
	plan_free(&p);

	plan_init(&p, 2, SLOT, SLOTS, 2 * SLOTS);
	CHECK(plan_eds(&p, &flex) == 1 && plan_eds(&p, &flex) == 1 &&
	    plan_eds(&p, &fixed) == 1 && p.pc[p.r[0].first].start == 1 &&
	    p.pc[p.r[1].first].start == 3 && p.pc[p.r[2].first].start == 1,
	    "EDS: the movers at %" PRId64 " and %" PRId64 ", not 1 and 3",
	    p.pc[p.r[0].first].start, p.pc[p.r[1].first].start);
	plan_free(&p);
}

/*
 * DRR: a reservation of 3 pieces, reclaimed at slot 4, keeps what was
 * before 4 and frees the rest, its last piece too, which it loses.  The clock and the
 * horizon bound a request: one whose window has passed, or that cannot
 * end within the horizon, is refused; one whose earliest start has
 * passed starts at the clock.
 */
static void
test_reclaim_and_bounds(void)
{
	static const int64_t busy[] = { 2, 5, -1 };
	struct sreq q = { 0, 0, 4, 6, 1, 1 };
	struct plan p;
	int64_t freed;

	one_node(&p, busy);
	CHECK(plan_tarr(&p, &q) == 1 && strcmp(PIECES(&p, 0),
	    "0+2 3+2 6+2") == 0, "TARR: pieces %s", PIECES(&p, 0));
	freed = plan_reclaim(&p, 1, 4);
	CHECK(freed == 3 && strcmp(PIECES(&p, 0), "0+2 3+1") == 0 &&
	    p.used[3] == 1 && p.used[4] == 0 && p.used[6] == 0 &&
	    p.used[7] == 0, "reclaim: %" PRId64 " freed, pieces %s", freed,
	    PIECES(&p, 0));
	plan_free(&p);

	plan_init(&p, 1, SLOT, SLOTS, 10);
	p.now = 5;
	q = (struct sreq){ 0, 0, 4, 2, 1, 1 };
	CHECK(plan_rigid(&p, &q) == 0 && plan_orr(&p, &q, 1, 4) == 0,
	    "a request whose window has passed granted");
	q.latest = 6;
	CHECK(plan_eds(&p, &q) == 1 && p.pc[p.r[0].first].start == 5,
	    "a request whose earliest start passed not at the clock");
	q = (struct sreq){ 1, 6, 20, 10, 1, 1 };
	CHECK(plan_orr(&p, &q, 1, 4) == 0 && plan_tarr(&p, &q) == 0,
	    "a request ending past the horizon granted");
	q.dur = 8;
	CHECK(plan_tarr(&p, &q) == 1 && p.pc[p.r[1].first].start == 7 &&
	    p.pc[p.r[1].first].len == 8,
	    "a request that ends at the horizon refused");
	plan_free(&p);
}

/* --- the library against the memory ------------------------------------ */

#define LIB_CASES 1500          /* random cases of each kind */
#define T0 ((int64_t)1795219200)        /* slot 0: 2026-11-21T00:00:00Z */

/* The stores of 1 to 4 nodes the library cases run on, in memory. */
static ar_store *lib_stores[5];

static ar_store *
lib_store(uint32_t cap)
{
	struct ar_config cfg;
	char where[32];

	if (lib_stores[cap] != NULL)
		return lib_stores[cap];
	snprintf(where, sizeof(where), "mem:schemes%" PRIu32, cap);
	ar_config_default(&cfg);
	cfg.flags = AR_SIMULATED;
	cfg.nodes = cap;
	cfg.slot = SLOT;
	cfg.horizon = 2 * SLOTS * SLOT;
	OK(ar_create(where, &cfg, T0));
	OK(ar_open(where, 0, &lib_stores[cap]));
	return lib_stores[cap];
}

static void
lib_stores_close(void)
{
	char where[32];

	for (uint32_t cap = 1; cap <= 4; cap++)
		if (lib_stores[cap] != NULL) {
			ar_close(lib_stores[cap]);
			snprintf(where, sizeof(where), "mem:schemes%" PRIu32,
			    cap);
			mem_remove(where);
		}
}

/* Book p's counts in t: a reservation of one slot for each busy slot,
 * of its count, rigid; how many. */
static uint64_t
lib_fill(ar_txn *t, const struct plan *p)
{
	struct ar_request rq;
	struct ar_answer ans;
	uint64_t n = 0;

	for (int64_t s = 0; s < SLOTS; s++) {
		if (p->used[s] == 0)
			continue;
		memset(&rq, 0, sizeof(rq));
		rq.earliest = rq.latest = T0 + s * SLOT;
		rq.duration = SLOT;
		rq.nodes = p->used[s];
		rq.jobs = 1;
		rq.flags = AR_NOMOVE;
		OK(ar_add(t, &rq, &ans));
		CHECK(ans.status == AR_GRANTED, "fill: slot %" PRId64
		    " refused", s);
		n++;
	}
	return n;
}

/* The library's reservations after the fill, as the memory's: a piece
 * after the first of a split copy a piece of the copy before. */
struct lib_read {
	struct plan *p;         /* into which */
	uint64_t after;         /* the fill's last id */
	int bad;
};

static int
lib_read_one(const struct ar_resv *r, void *arg)
{
	struct lib_read *lr = arg;
	int64_t start = (r->start - T0) / SLOT, len = (r->end - r->start) /
	    SLOT;

	if (r->id <= lr->after)
		return 0;
	if (r->pieces != 0 && r->occurrence > 1) {
		if (lr->p->nr == 0)
			lr->bad = 1;
		else
			plan_piece(lr->p, start, len);
		return 0;
	}
	plan_record(lr->p, 0, r->nodes, start, len);
	return 0;
}

/* Admit rq through ar_add on a store holding p's counts, the clock at
 * slot 0; read what it granted into got (made here): 1 if granted. */
static int
lib_admit(const struct plan *p, const struct ar_request *rq,
    struct plan *got)
{
	struct lib_read lr = { got, 0, 0 };
	struct ar_answer ans;
	ar_txn *t;
	int rc;

	OK(ar_txn_begin(lib_store(p->cap), AR_WRITE, T0, &t));
	lr.after = lib_fill(t, p);
	rc = ar_add(t, rq, &ans);
	CHECK(rc == 0, "ar_add: %s", ar_strerror(rc));
	plan_init(got, p->cap, SLOT, SLOTS, 2 * SLOTS);
	OK(ar_list(t, 0, lib_read_one, &lr));
	CHECK(!lr.bad, "a later piece with no copy before it");
	ar_txn_abort(t);
	return rc == 0 && ans.status == AR_GRANTED;
}

/* Do the reservations of x from index from on, and y's, have the same
 * nodes and pieces? */
static int
same_plan(const struct plan *x, size_t from, const struct plan *y)
{
	if (x->nr - from != y->nr)
		return 0;
	for (size_t i = 0; i < y->nr; i++)
		if (!plan_same(x, &x->r[from + i], y, &y->r[i]))
			return 0;
	return 1;
}

/* A random request as the library is asked it, AR_NOMOVE. */
static struct ar_request
lib_request(const struct sreq *q)
{
	struct ar_request rq;

	memset(&rq, 0, sizeof(rq));
	rq.earliest = T0 + q->earliest * SLOT;
	rq.latest = T0 + q->latest * SLOT;
	rq.duration = q->dur * SLOT;
	rq.nodes = q->nodes;
	rq.jobs = q->jobs;
	rq.flags = AR_NOMOVE;
	return rq;
}

/* ORR and TARR with several copies: each copy split as it would be
 * alone, in order, against the plan with the copies before it; all or
 * none; the library as the memory. */
static void
test_lib_split(unsigned split)
{
	const char *name = split == AR_SPLIT_ORR ? "ORR" : "TARR";
	int mismatches = 0, granted = 0, several = 0;

	for (int i = 0; i < LIB_CASES; i++) {
		uint32_t cap = 1 + (uint32_t)rnd(4), copies = 1 +
		    (uint32_t)rnd(3);
		struct sreq q = random_request(cap, copies);
		int64_t smallest = split == AR_SPLIT_ORR ? 1 +
		    (int64_t)rnd(2) : 0;
		struct ar_request rq = lib_request(&q);
		struct plan p, lib;
		size_t from;
		int mem, got;

		random_plan(&p, cap);
		rq.split = split;
		if (smallest > q.dur)
			smallest = q.dur;
		rq.smallest = split == AR_SPLIT_ORR ? smallest * SLOT : 0;
		got = lib_admit(&p, &rq, &lib);
		from = p.nr;
		mem = split == AR_SPLIT_ORR ? plan_orr(&p, &q, smallest,
		    ORR_PIECES) : plan_tarr(&p, &q);
		if (got != mem || (got && !same_plan(&p, from, &lib))) {
			if (mismatches++ < 5)
				fprintf(stderr, "library %s case %d: cap %"
				    PRIu32 " s %" PRId64 " l %" PRId64 " d %"
				    PRId64 " nodes %" PRIu32 " copies %" PRIu32
				    ": the library %s, the memory %s\n", name,
				    i, cap, q.earliest, q.latest, q.dur,
				    q.nodes, copies, got ? "granted" :
				    "refused", mem ? "granted" : "refused");
		}
		granted += mem;
		several += mem && copies > 1 && p.nr - from > 1 &&
		    p.r[from].npieces + p.r[from + 1].npieces > 2;
		plan_free(&p);
		plan_free(&lib);
	}
	CHECK(mismatches == 0, "library %s: %d of %d random cases differ "
	    "from the memory", name, mismatches, LIB_CASES);
	CHECK(granted > LIB_CASES / 10 && several > LIB_CASES / 100,
	    "library %s: %d granted, %d of several copies in pieces: the "
	    "random cases miss", name, granted, several);
}

/* RSPB's levels, on nodes or on copies: the library as the memory. */
static void
test_lib_mold(void)
{
	int mismatches = 0, lowered = 0, copies_lowered = 0;

	for (int i = 0; i < LIB_CASES; i++) {
		uint32_t cap = 1 + (uint32_t)rnd(4), copies = 1 +
		    (uint32_t)rnd(4);
		struct sreq q = random_request(cap, copies);
		struct ar_request rq = lib_request(&q);
		struct ar_level alv[LEVELS_MAX];
		struct level lv[LEVELS_MAX];
		struct plan p, lib;
		size_t from, nlv, chosen = 0;
		int mem, got;

		random_plan(&p, cap);
		nlv = plan_levels(&q, lv);
		for (size_t l = 0; l < nlv; l++)
			alv[l] = (struct ar_level){ lv[l].nodes,
			    (uint32_t)lv[l].benefit, copies > 1 ?
			    lv[l].copies : 0 };
		rq.levels = alv;
		rq.nlevels = (uint32_t)nlv;
		got = lib_admit(&p, &rq, &lib);
		from = p.nr;
		mem = plan_mold(&p, &q, lv, nlv, &chosen);
		if (got != mem || (got && !same_plan(&p, from, &lib))) {
			if (mismatches++ < 5)
				fprintf(stderr, "library RSPB case %d: cap %"
				    PRIu32 " s %" PRId64 " l %" PRId64 " d %"
				    PRId64 " nodes %" PRIu32 " copies %" PRIu32
				    ": the library %s (%zu), the memory %s "
				    "level %zu (%zu)\n", i, cap, q.earliest,
				    q.latest, q.dur, q.nodes, copies, got ?
				    "granted" : "refused", lib.nr, mem ?
				    "granted" : "refused", chosen, p.nr - from);
		}
		lowered += mem && chosen > 0;
		copies_lowered += mem && chosen > 0 && copies > 1;
		plan_free(&p);
		plan_free(&lib);
	}
	CHECK(mismatches == 0, "library RSPB: %d of %d random cases differ "
	    "from the memory", mismatches, LIB_CASES);
	CHECK(copies_lowered > LIB_CASES / 100 && lowered > copies_lowered,
	    "library RSPB: %d lowered, %d of them copies: the random cases "
	    "miss", lowered, copies_lowered);
}

int
main(void)
{
	test_split_random(ORACLE_FEWEST);
	test_split_random(ORACLE_EARLIEST);
	test_mold_random(0);
	test_mold_random(1);
	test_split_readings();
	test_mold_readings();
	test_eds();
	test_reclaim_and_bounds();
	test_lib_split(AR_SPLIT_ORR);
	test_lib_split(AR_SPLIT_TARR);
	test_lib_mold();
	lib_stores_close();
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}
