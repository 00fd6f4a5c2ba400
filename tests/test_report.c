/*
 * test_report.c - ar_usage against a brute-force recount from the listed
 * records and demand entries, on random histories (with and without
 * price classes, with moves, cancellations, purges and refusals of every
 * kind), per window of several lengths and per user and class; and
 * ar_forget: reports over the kept range are what they were before.
 * With --mem its stores are memory stores (make unit runs it so: what it
 * tests is arithmetic, not the disk).
 */
#include <stdlib.h>
#include <string.h>

#include "ar.h"
#include "check.h"
#include "helpers.h"

#define NODES 16
#define SLOT 60
#define HORIZON (240 * SLOT)
#define T0 1800000000LL         /* slot aligned */
#define MAXIDS 20000

static char tmproot[] = "/tmp/ar-report-XXXXXX";
static int in_memory;           /* --mem */

/* What the test saw ar_add move, by id. */
static unsigned char moved_ids[MAXIDS];

/* Every record and demand entry, as the library lists them. */
struct history {
	struct ar_resv *r;
	size_t nr, rcap;
	struct ar_demand *d;
	size_t nd, dcap;
};

static int
keep_resv(const struct ar_resv *r, void *arg)
{
	struct history *h = arg;

	if (h->nr == h->rcap) {
		h->rcap = h->rcap ? 2 * h->rcap : 1024;
		if ((h->r = realloc(h->r, h->rcap * sizeof(*h->r))) == NULL)
			abort();
	}
	h->r[h->nr++] = *r;
	return 0;
}

static int
keep_demand(const struct ar_demand *d, void *arg)
{
	struct history *h = arg;

	if (h->nd == h->dcap) {
		h->dcap = h->dcap ? 2 * h->dcap : 1024;
		if ((h->d = realloc(h->d, h->dcap * sizeof(*h->d))) == NULL)
			abort();
	}
	h->d[h->nd++] = *d;
	return 0;
}

static int64_t
asked(int64_t earliest, int64_t at)
{
	if (earliest < at)
		return at;
	return earliest - at > HORIZON ? at + HORIZON : earliest;
}

/* The figures of [from, to) by brute force; label: a user, or a class
 * (as text), or NULL for all. */
static void
recount(const struct history *h, int64_t from, int64_t to, int by,
    const char *label, struct ar_usage *u)
{
	char buf[16];

	memset(u, 0, sizeof(*u));
	u->capacity = (uint64_t)NODES * (uint64_t)((to - from) / SLOT);
	for (size_t i = 0; i < h->nr; i++) {
		const struct ar_resv *r = &h->r[i];
		int64_t held = r->end, a, wait;

		snprintf(buf, sizeof(buf), "%u", r->cls);
		if (label != NULL && strcmp(label, by == AR_BY_USER ? r->user :
		    buf) != 0)
			continue;
		if (r->state == AR_CANCELLED) {
			held = r->changed - r->changed % SLOT;
			if (held > r->end)
				held = r->end;
		}
		for (int64_t s = r->start; s < held; s += SLOT)
			if (s >= from && s < to)
				u->reserved += r->nodes * r->jobs;
		a = asked(r->earliest, r->created);
		if (a < from || a >= to)
			continue;
		u->granted++;
		wait = r->start - (r->earliest > r->created ? r->earliest :
		    r->created);
		u->wait_sum += wait;
		if (wait > u->wait_max)
			u->wait_max = wait;
		if (r->state != AR_CANCELLED) {
			u->moved += moved_ids[r->id];
			u->revenue += r->price;
			if (r->cls)
				u->class_revenue[r->cls - 1] += r->price;
		}
		if (r->cls)
			u->class_granted[r->cls - 1]++;
	}
	for (size_t i = 0; by != AR_BY_USER && i < h->nd; i++) {
		const struct ar_demand *d = &h->d[i];
		int64_t a = asked(d->earliest, d->at);

		snprintf(buf, sizeof(buf), "%u", d->cls);
		if ((label != NULL && strcmp(label, buf) != 0) ||
		    a < from || a >= to || d->granted >= d->jobs)
			continue;
		u->refused += d->jobs - d->granted;
		u->refused_by[d->reason] += d->jobs - d->granted;
		if (d->cls)
			u->class_refused[d->cls - 1] += d->jobs - d->granted;
	}
}

struct compare {
	const struct history *h;
	int by;
	int64_t window;
	int64_t kept;           /* windows from here must be known */
	int n, bad;
};

static int
same(const struct ar_usage *got, const struct ar_usage *want)
{
	return got->capacity == want->capacity &&
	    got->reserved == want->reserved &&
	    got->granted == want->granted &&
	    (!got->demand_known || (got->refused == want->refused &&
	    memcmp(got->refused_by, want->refused_by,
	    sizeof(want->refused_by)) == 0 &&
	    memcmp(got->class_refused, want->class_refused,
	    sizeof(want->class_refused)) == 0)) &&
	    got->wait_sum == want->wait_sum &&
	    got->wait_max == want->wait_max && got->moved == want->moved &&
	    got->revenue == want->revenue &&
	    memcmp(got->class_granted, want->class_granted,
	    sizeof(want->class_granted)) == 0 &&
	    memcmp(got->class_revenue, want->class_revenue,
	    sizeof(want->class_revenue)) == 0;
}

static int
compare_one(const struct ar_usage *u, void *arg)
{
	struct compare *c = arg;
	struct ar_usage want;

	c->n++;
	if (u->from < c->kept)
		return 0;
	recount(c->h, u->from, u->to, c->by, u->total ? NULL : u->label,
	    &want);
	if (!u->known || !same(u, &want) ||
	    (c->by != AR_BY_USER && !u->demand_known)) {
		if (c->bad++ < 3)
			printf("  usage by %d from %lld to %lld (%s): reserved "
			    "%llu/%llu granted %llu/%llu refused %llu/%llu "
			    "wait %lld/%lld moved %llu/%llu known %d/%d\n",
			    c->by, (long long)u->from, (long long)u->to,
			    u->label ? u->label : "window",
			    (unsigned long long)u->reserved,
			    (unsigned long long)want.reserved,
			    (unsigned long long)u->granted,
			    (unsigned long long)want.granted,
			    (unsigned long long)u->refused,
			    (unsigned long long)want.refused,
			    (long long)u->wait_sum, (long long)want.wait_sum,
			    (unsigned long long)u->moved,
			    (unsigned long long)want.moved, u->known,
			    u->demand_known);
	}
	return 0;
}

/* Count the windows told as known, records or refusals. */
static int
unknown(const struct ar_usage *u, void *arg)
{
	*(uint64_t *)arg += u->known || u->demand_known;
	return 0;
}

/* Reports over random ranges and windows agree with the recount of h,
 * from kept on. */
static void
check_reports(ar_store *s, int64_t now, const struct history *h,
    int64_t kept, const char *what)
{
	static const int64_t windows[] = { SLOT, 7 * SLOT, 12 * SLOT,
	    100 * SLOT };
	ar_txn *t;

	OK(ar_txn_begin(s, 0, now, &t));
	for (int k = 0; k < 12; k++) {
		int64_t from = T0 - 50 * SLOT + (int64_t)rnd(3000) * SLOT +
		    (int64_t)rnd(SLOT);
		int64_t to = from + 1 + (int64_t)rnd(1000) * SLOT;
		struct compare c = { h, k % 3 == 0 ? AR_BY_WINDOW :
		    k % 3 == 1 ? AR_BY_USER : AR_BY_CLASS,
		    windows[k % 4], kept, 0, 0 };

		if (from < kept) {
			to += kept - from;
			from = kept;
		}
		OK(ar_usage(t, from, to, c.window, c.by, compare_one, &c));
		CHECK(c.n > 0 && c.bad == 0, "%s: %d of %d figures differ", what,
		    c.bad, c.n);
	}
	ar_txn_abort(t);
}

static void
list(ar_store *s, int64_t now, struct history *h)
{
	ar_txn *t;

	h->nr = h->nd = 0;
	OK(ar_txn_begin(s, 0, now, &t));
	OK(ar_list(t, 0, keep_resv, h));
	OK(ar_demand(t, 0, keep_demand, h));
	ar_txn_abort(t);
}

/* A random history of steps, the clock moving on at each. */
static int64_t
play(ar_store *s, int64_t now, int steps)
{
	static const char *users[] = { "ann", "bob", "cy", "" };
	ar_txn *t;

	for (int i = 0; i < steps; i++) {
		struct ar_request rq;
		struct ar_answer ans;
		const struct ar_placed *g, *m;
		size_t ng, nm;
		int kind = (int)rnd(100);

		now += 1 + (int64_t)rnd(4 * SLOT);
		OK(ar_txn_begin(s, AR_WRITE, now, &t));
		memset(&rq, 0, sizeof(rq));
		rq.earliest = now + (int64_t)rnd(HORIZON / 2) - SLOT;
		rq.duration = 1 + (int64_t)rnd(40 * SLOT);
		rq.latest = rq.earliest + (kind < 40 ? (int64_t)rnd(30 * SLOT) : 0);
		rq.nodes = 1 + (uint32_t)rnd(6);
		rq.jobs = 1 + (uint32_t)(rnd(4) == 0 ? rnd(3) : 0);
		rq.user = users[rnd(4)];
		rq.flags = (rnd(3) == 0 ? AR_NOMOVE : 0) |
		    (rnd(2) ? AR_LATER : 0) | (rnd(8) == 0 ? AR_PARTIAL : 0);
		if (kind >= 90 && kind < 93)
			rq.latest = rq.earliest = now - 10 * SLOT;      /* past */
		else if (kind >= 93 && kind < 96)
			rq.nodes = NODES + 1;                           /* capacity */
		else if (kind >= 96)
			rq.earliest = rq.latest = now + HORIZON +
			    (int64_t)rnd(3 * HORIZON);                  /* horizon */
		if (kind < 80 || kind >= 90) {
			OK(ar_add(t, &rq, &ans));
			ar_added(t, &g, &ng, &m, &nm);
			for (size_t j = 0; j < nm; j++)
				moved_ids[m[j].id] = 1;
		} else if (kind < 87) {
			struct ar_info info;
			struct ar_resv r;
			int rc;

			OK(ar_info(t, &info));
			rc = ar_cancel(t, 1 + rnd(info.next_id), 0, &r);
			CHECK(rc == 0 || rc == AR_ENOTFOUND || rc == AR_EDONE,
			    "cancel: %s", ar_strerror(rc));
		} else
			OK(ar_purge(t, NULL, NULL));
		OK(ar_txn_commit(t));
	}
	return now;
}

static void
run(int classes)
{
	char dir[64];
	struct ar_config cfg;
	struct history h = { NULL, 0, 0, NULL, 0, 0 };
	ar_store *s;
	ar_txn *t;
	int64_t now = T0, cut;
	uint64_t nrec, nent;

	snprintf(dir, sizeof(dir), "%s%s%s", in_memory ? "mem:report-" :
	    tmproot, in_memory ? "" : "/", classes ? "c" : "n");
	memset(moved_ids, 0, sizeof(moved_ids));
	ar_config_default(&cfg);
	cfg.flags = AR_SIMULATED;
	cfg.nodes = NODES;
	cfg.slot = SLOT;
	cfg.horizon = HORIZON;
	OK(ar_create(dir, &cfg, now));
	OK(ar_open(dir, 0, &s));
	if (classes) {
		struct ar_pricing p;
		const char *field;
		size_t bad;

		memset(&p, 0, sizeof(p));
		p.n = 2;
		p.retention = 1000 * 86400;
		snprintf(p.c[0].name, sizeof(p.c[0].name), "late");
		p.c[0].price = 30;
		p.c[0].ahead_min = 0;
		p.c[0].ahead_max = 3600;
		p.c[0].limit = NODES;
		snprintf(p.c[1].name, sizeof(p.c[1].name), "early");
		p.c[1].price = 10;
		p.c[1].ahead_min = 3600;
		p.c[1].ahead_max = -1;
		p.c[1].limit = NODES / 2;
		OK(ar_txn_begin(s, AR_WRITE, now, &t));
		OK(ar_set_pricing(t, &p, &bad, &field));
		OK(ar_txn_commit(t));
	}
	now = play(s, now, 1500);
	list(s, now, &h);
	CHECK(h.nr > 100 && h.nd > 20, "%zu records, %zu entries",
	    h.nr, h.nd);
	check_reports(s, now, &h, INT64_MIN, classes ? "classes" : "plain");

	/* Forget what ended before a cut: the reports from it on stay. */
	cut = now - 4 * HORIZON;
	cut -= cut % SLOT;
	OK(ar_txn_begin(s, AR_WRITE, now, &t));
	OK(ar_purge(t, NULL, NULL));
	OK(ar_forget(t, cut, &nrec, &nent));
	OK(ar_txn_commit(t));
	CHECK(nrec > 0 && nent > 0, "forgot %llu records, %llu entries",
	    (unsigned long long)nrec, (unsigned long long)nent);
	{
		struct history after = { NULL, 0, 0, NULL, 0, 0 };
		uint64_t bad;

		/* Refusals are known from a horizon after the first request
		 * the log still holds, records from that request on. */
		list(s, now, &after);
		CHECK(after.nd > 0 && after.d[0].at >= cut, "first entry");
		check_reports(s, now, &h, after.d[0].at + HORIZON,
		    "after forgetting");
		OK(ar_txn_begin(s, 0, now, &t));
		bad = 0;
		OK(ar_usage(t, cut - HORIZON, cut, HORIZON, AR_BY_WINDOW,
		    unknown, &bad));
		CHECK(bad == 0, "%llu windows before the cut told as known",
		    (unsigned long long)bad);
		ar_txn_abort(t);
		/* The log's first entry, of no request, went too. */
		CHECK(after.nr + nrec == h.nr && after.nd + nent == h.nd + 1,
		    "%zu + %llu records", after.nr, (unsigned long long)nrec);
		OK(ar_txn_begin(s, 0, now, &t));
		OK(ar_check(t, NULL, NULL, &bad));
		CHECK(bad == 0, "%llu violations", (unsigned long long)bad);
		ar_txn_abort(t);
		free(after.r);
		free(after.d);
	}
	ar_close(s);
	rm_store(dir);
	free(h.r);
	free(h.d);
}

int
main(int argc, char **argv)
{
	in_memory = argc == 2 && strcmp(argv[1], "--mem") == 0;
	if (mkdtemp(tmproot) == NULL)
		return 1;
	rng = 20261122;
	run(0);
	run(1);
	rmdir(tmproot);
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}
