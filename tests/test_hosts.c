/*
 * test_hosts.c - the host study's prototypes (tests/bench/hosts.h) grant
 * exactly: driven by random requests, plain, naming hosts and on a
 * partitioned cluster, with the clock moving, every design's plan is
 * checked after every grant and every move of the clock (each
 * reservation on as many hosts as it asked, of those it may have, none
 * held twice at once, none lost, a started one where it started); what
 * search and suggest say fits is granted by add; maintenance that wins
 * keeps the rest of the plan exact and tells what it displaced; and the
 * pieces underneath: choosing hosts by fit, the brute force on known
 * plans, free time frames and scheduling options.  Seeded; never the
 * clock.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "helpers.h"
#include "hosts.h"

#define SLOTS 200               /* the horizon of the random plans */

static const struct hdesign *const all[] = {
	&sweep_design, &pools_design, &pools_holes_design, &profile_design,
	&bitmap_design
};
#define NALL (sizeof(all) / sizeof(all[0]))

/* A cluster of 16 hosts: one partition, or three with features. */
static void
cluster16(struct cluster *c, int parts)
{
	cluster_plain(c, 16);
	if (!parts)
		return;
	c->nparts = 3;
	for (uint32_t h = 8; h < 12; h++)
		c->part[h] = 1;
	for (uint32_t h = 12; h < 16; h++) {
		c->part[h] = 2;
		c->feat[h] = h < 14 ? 1 : 1 | 2;
	}
	c->norder[0] = 3;
	c->order[0][1] = 1;
	c->order[0][2] = 2;
	c->norder[1] = 2;
	c->order[1][0] = 1;
	c->order[1][1] = 0;
	c->norder[2] = 1;
	c->order[2][0] = 2;
	cluster_finish(c);
}

static void
random_request(int kind, int64_t now, struct hreq *q)
{
	memset(q, 0, sizeof(*q));
	q->s = now + (int64_t)rnd(120);
	q->len = 1 + (int64_t)rnd(rnd(4) == 0 ? 60 : 12);
	q->n = 1 + (uint32_t)rnd(rnd(5) == 0 ? 16 : 4);
	if (kind == BR_PINS && rnd(8) == 0) {
		uint32_t first = (uint32_t)rnd(14);

		q->n = 1 + (uint32_t)rnd(3);
		q->named = (((hmask)1 << q->n) - 1) << first;
	}
	if (kind == BR_PARTS) {
		q->part = (uint8_t)rnd(3);
		if (q->part == 2) {
			q->n = 1 + (uint32_t)rnd(3);
			q->feat = rnd(3) == 0 ? 1 | 2 : 1;
			if (q->feat & 2)
				q->n = 1 + (uint32_t)rnd(2);
		} else if (q->part == 1 && q->n > 12)
			q->n = 12;
	}
}

struct drive {
	struct hd d;
	struct ledger l;
	uint64_t next;
	uint64_t granted, searched_fit, suggested;
	int ok;                 /* no error, and what fits is granted */
};

static int
check_plan(struct drive *x)
{
	uint64_t resv, runs;
	int rc = ledger_check(&x->l, &x->d, x->d.ops != &sweep_design, &resv,
	    &runs);

	CHECK(rc == 0, "%s: plan: error %d", x->d.ops->name, rc);
	return rc;
}

/* Grant q at q->s in x, as the ledger sees it; *granted. */
static int
grant(struct drive *x, const struct hreq *q, int *granted)
{
	int rc = x->d.ops->add(&x->d, q, x->next, granted);

	if (rc != 0)
		return rc;
	if (*granted) {
		x->granted++;
		if ((rc = ledger_grant(&x->l, x->next++, q)) != 0)
			return rc;
		return check_plan(x);
	}
	return 0;
}

/*
 * One random run: requests searched at their start and added if they
 * fit, else suggested within 24 slots and added there.  Today's sweep
 * may refuse at add what it found at search (the request has no id when
 * asked about, and sorts otherwise): only the others must grant it.
 */
static void
drive(const struct hdesign *ops, enum hfit fit, int kind, uint64_t seed)
{
	struct cluster c;
	struct drive x;
	int strict = ops != &sweep_design;

	memset(&x, 0, sizeof(x));
	x.next = 1;
	rng = seed;
	cluster16(&c, kind == BR_PARTS);
	if (hd_make(&x.d, ops, &c, fit, 5000, SLOTS) != 0) {
		CHECK(0, "%s: make", ops->name);
		hd_destroy(&x.d);
		return;
	}
	for (int i = 0; i < 1500; i++) {
		struct hreq q;
		enum fit f;
		int64_t at;
		int g, rc;

		if (i % 25 == 24) {
			x.d.now += (int64_t)rnd(8);
			if ((rc = ops->clock(&x.d)) != 0 ||
			    (rc = check_plan(&x)) != 0)
				break;
		}
		random_request(kind, x.d.now, &q);
		if ((rc = ops->search(&x.d, &q, &f)) != 0)
			break;
		if (f == FIT) {
			x.searched_fit++;
			if ((rc = grant(&x, &q, &g)) != 0)
				break;
			CHECK(g || !strict, "%s %s: search said it fits, add "
			    "refused", ops->name, fit_name[fit]);
			continue;
		}
		if (f != FULL || (rc = ops->suggest(&x.d, &q, q.s + 24,
		    &at)) != 0 || at < 0)
			continue;
		CHECK(at >= q.s && at <= q.s + 24, "%s: suggested %lld "
		    "outside [%lld, +24]", ops->name, (long long)at,
		    (long long)q.s);
		x.suggested++;
		q.s = at;
		if ((rc = grant(&x, &q, &g)) != 0)
			break;
		CHECK(g || !strict, "%s %s: suggest found a start, add "
		    "refused", ops->name, fit_name[fit]);
	}
	CHECK(x.l.violations == 0, "%s %s, kind %d: %llu violations, the "
	    "first: %s", ops->name, fit_name[fit], kind,
	    (unsigned long long)x.l.violations, x.l.first);
	CHECK(x.granted > 200 && x.suggested > 20, "%s %s, kind %d: only "
	    "%llu granted, %llu suggested", ops->name, fit_name[fit], kind,
	    (unsigned long long)x.granted, (unsigned long long)x.suggested);
	hd_destroy(&x.d);
	ledger_free(&x.l);
}

static void
test_exact(void)
{
	for (size_t i = 0; i < NALL; i++)
		for (int fit = 0; fit < NFITS; fit++)
			for (int kind = 0; kind < NBR; kind++)
				for (uint64_t seed = 1; seed <= 3; seed++)
					drive(all[i], (enum hfit)fit, kind,
					    seed * 7919 + (uint64_t)kind);
}

/* --- maintenance that wins -------------------------------------------------- */

struct told {
	struct ledger *l;
	uint64_t n;
};

static int
displaced(uint64_t id, void *arg)
{
	struct told *t = arg;

	ledger_drop(t->l, id);
	t->n++;
	return 0;
}

/*
 * A full plan, then maintenance forced on hosts it holds: the plan stays
 * exact, the maintenance holds its hosts, and whatever is no longer in
 * the plan was told (the ledger's check finds any other loss).
 */
static void
test_force(void)
{
	struct cluster c;
	uint64_t forced = 0, told = 0;

	cluster16(&c, 0);
	for (uint64_t seed = 1; seed <= 20; seed++) {
		struct drive x;
		struct told t;

		memset(&x, 0, sizeof(x));
		x.next = 1;
		rng = seed * 104729;
		if (hd_make(&x.d, &pools_design, &c, (enum hfit)(seed % NFITS),
		    5000, SLOTS) != 0) {
			CHECK(0, "make");
			hd_destroy(&x.d);
			return;
		}
		t.l = &x.l;
		t.n = 0;
		for (int i = 0; i < 400; i++) {
			struct hreq q;
			int g;

			if (i % 50 == 49) {
				x.d.now += (int64_t)rnd(6);
				OK(x.d.ops->clock(&x.d));
				check_plan(&x);
			}
			random_request(i % 3 == 0 ? BR_PINS : BR_PLAIN,
			    x.d.now, &q);
			if (i % 40 == 39) {
				uint32_t first = (uint32_t)rnd(13);

				q.n = 1 + (uint32_t)rnd(4);
				q.named = (((hmask)1 << q.n) - 1) << first;
				q.s = x.d.now + (int64_t)rnd(30);
				q.len = 1 + (int64_t)rnd(40);
				OK(x.d.ops->force(&x.d, &q, x.next, displaced,
				    &t));
				OK(ledger_grant(&x.l, x.next++, &q));
				forced++;
				check_plan(&x);
				continue;
			}
			OK(grant(&x, &q, &g));
		}
		told += t.n;
		CHECK(x.l.violations == 0, "force, seed %llu: %llu "
		    "violations, the first: %s", (unsigned long long)seed,
		    (unsigned long long)x.l.violations, x.l.first);
		hd_destroy(&x.d);
		ledger_free(&x.l);
	}
	CHECK(forced == 200 && told > 0, "forced %llu, displaced %llu: the "
	    "test forced into no full plan", (unsigned long long)forced,
	    (unsigned long long)told);
}

/* --- the pieces --------------------------------------------------------------- */

static void
test_choose(void)
{
	/* Free: hosts 0-1, 4-8, 10. */
	hmask avail = 0x3 | 0x1f0 | 0x400, got;

	CHECK(hchoose(avail, avail, 3, HF_FIRST, &got) && got == 0x13,
	    "first fit of 3: %llx", (unsigned long long)got);
	CHECK(hchoose(avail, avail, 2, HF_BEST, &got) && got == 0x3,
	    "best fit of 2: %llx", (unsigned long long)got);
	CHECK(hchoose(avail, avail, 3, HF_BEST, &got) && got == 0x70,
	    "best fit of 3: %llx", (unsigned long long)got);
	CHECK(hchoose(avail, avail, 1, HF_BEST, &got) && got == 0x400,
	    "best fit of 1: %llx", (unsigned long long)got);
	CHECK(hchoose(avail, avail, 2, HF_WORST, &got) && got == 0x30,
	    "worst fit of 2: %llx", (unsigned long long)got);
	CHECK(hchoose(avail, avail, 7, HF_WORST, &got) && got == 0x1f3,
	    "worst fit of 7: %llx", (unsigned long long)got);
	CHECK(!hchoose(avail, avail, 9, HF_FIRST, &got), "9 of 8 hosts");
	/* Its own partition's first: 8-10 preferred. */
	CHECK(hchoose(avail, 0x700, 3, HF_FIRST, &got) && got == 0x501,
	    "own first: %llx", (unsigned long long)got);
	CHECK(hruns(0x3 | 0x1f0 | 0x400) == 3 && hruns(~(hmask)0) == 1 &&
	    hruns(0) == 0, "runs");
}

static uint64_t
host(int h)
{
	return (hmask)1 << h;
}

/*
 * Known plans: what taking a host out of its pool only while it is
 * pinned gets wrong (counts that fit, no host free throughout), and a
 * request today's sweep refuses though an assignment exists.
 */
static void
test_brute(void)
{
	struct bitem two[] = {
		{ 1, 2, 1, 0, host(0) },        /* maintenance on host 0 */
		{ 3, 4, 1, 0, host(1) },        /* ... on host 1, later */
		{ 0, 5, 1, 0x3, 0 },            /* one node over both */
	};
	struct bitem three[] = {
		{ 10, 20, 1, 0, host(0) },
		{ 30, 40, 1, 0, host(2) },
		{ 0, 25, 1, 0x7, 0 },           /* fits on 2 before its pin */
		{ 1, 36, 1, 0x7, 0 },           /* ... so this one on 1 */
	};
	struct bitem none[] = {
		{ 0, 10, 2, 0x3, 0 },
		{ 5, 15, 1, 0x3, 0 },
	};
	struct cluster c;
	struct hd d;
	struct hreq q;
	enum fit f;
	int g;

	CHECK(feasible(two, 3, 2) == 0, "two pins, one node over both");
	CHECK(feasible(two, 2, 2) == 1, "two pins alone");
	CHECK(feasible(three, 4, 3) == 1, "three hosts, two pins");
	CHECK(feasible(none, 2, 2) == 0, "three nodes on two hosts");
	/* Today's sweep: the first 1-node reservation takes host 1 (best
	 * fit, the low end of the run 1-2, keeping off host 0's pin), and
	 * the second, later, must keep off both pins: it finds none. */
	cluster_plain(&c, 3);
	OK(hd_make(&d, &sweep_design, &c, HF_BEST, 0, 64));
	memset(&q, 0, sizeof(q));
	q.n = 1;
	q.s = 10;
	q.len = 10;
	q.named = host(0);
	OK(d.ops->add(&d, &q, 1, &g));
	q.s = 30;
	q.named = host(2);
	OK(d.ops->add(&d, &q, 2, &g));
	q.named = 0;
	q.s = 0;
	q.len = 25;
	OK(d.ops->add(&d, &q, 3, &g));
	CHECK(g, "sweep: the first plain one");
	q.s = 1;
	q.len = 35;
	OK(d.ops->search(&d, &q, &f));
	CHECK(f == FULL, "sweep: the second plain one is refused, though "
	    "an assignment exists");
	hd_destroy(&d);
	/* Every design refuses the one-node reservation over both pins. */
	cluster_plain(&c, 2);
	for (size_t i = 0; i < NALL; i++) {
		OK(hd_make(&d, all[i], &c, HF_BEST, 0, 64));
		memset(&q, 0, sizeof(q));
		q.n = 1;
		q.len = 1;
		q.s = 1;
		q.named = host(0);
		OK(d.ops->add(&d, &q, 1, &g));
		q.s = 3;
		q.named = host(1);
		OK(d.ops->add(&d, &q, 2, &g));
		q.named = 0;
		q.s = 0;
		q.len = 5;
		OK(d.ops->search(&d, &q, &f));
		CHECK(f == FULL, "%s grants one node over two pins",
		    all[i]->name);
		OK(d.ops->add(&d, &q, 3, &g));
		CHECK(!g, "%s adds one node over two pins", all[i]->name);
		hd_destroy(&d);
	}
}

/* Frames and options on a plan of pools (A) after random requests. */
static void
test_frames(void)
{
	struct cluster c;
	struct occupancy o;
	struct frame fr[512];
	struct option op[8];
	struct drive x;
	size_t nf, no;

	cluster16(&c, 1);
	memset(&x, 0, sizeof(x));
	x.next = 1;
	rng = 4242;
	OK(hd_make(&x.d, &pools_design, &c, HF_BEST, 5000, SLOTS));
	for (int i = 0; i < 60; i++) {
		struct hreq q;
		int g;

		random_request(BR_PARTS, x.d.now, &q);
		OK(grant(&x, &q, &g));
	}
	OK(occupancy_build(&o, &x.d, x.d.now, 120));
	for (uint32_t p = 0; p < c.nparts; p++) {
		int64_t last = -1;

		nf = frames(&o, c.in_part[p], fr, 512);
		CHECK(nf > 0, "partition %u: no frames", p);
		for (size_t i = 0; i < nf; i++) {
			CHECK(fr[i].s >= last && fr[i].e > fr[i].s,
			    "frames overlap or run backwards");
			CHECK((fr[i].hosts & ~c.in_part[p]) == 0,
			    "a frame holds another partition's hosts");
			for (int64_t t = fr[i].s; t < fr[i].e; t++)
				CHECK((o.busy[t - o.from] & fr[i].hosts) == 0,
				    "a frame's host is busy in slot %lld",
				    (long long)t);
			last = fr[i].e;
		}
	}
	{
		struct hreq q = { x.d.now, 12, 3, 0, 0, 0 };

		no = options(&o, &c, &q, x.d.now + 100, HF_BEST, op, 8);
		CHECK(no == 8, "8 options asked, %zu found", no);
		for (size_t i = 0; i < no; i++) {
			CHECK(hcount(op[i].hosts) == 3 &&
			    (op[i].hosts & ~op[i].free) == 0, "option %zu's "
			    "hosts", i);
			CHECK(i == 0 || op[i].s > op[i - 1].s, "options not "
			    "in order of start");
			CHECK(i == 0 || op[i].free != op[i - 1].free,
			    "options %zu and %zu the same placement", i - 1, i);
			for (int64_t t = op[i].s; t < op[i].s + q.len; t++)
				CHECK((o.busy[t - o.from] & op[i].free) == 0,
				    "option %zu: a host busy in slot %lld", i,
				    (long long)t);
		}
	}
	occupancy_free(&o);
	hd_destroy(&x.d);
	ledger_free(&x.l);
}

int
main(void)
{
	test_choose();
	test_brute();
	test_frames();
	test_force();
	test_exact();
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}
