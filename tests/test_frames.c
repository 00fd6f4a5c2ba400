/*
 * test_frames.c - the free time frames (ar_frames), a placement's hosts
 * (ar_place, first, best and worst fit) and ar_suggest's k options,
 * against a brute force: on random plans, the hosts free in each slot
 * from the mapping ar_map tells, the frames recomputed naively from
 * them, the fits done on bit masks, and the options as the fitting
 * starts that begin a run or where the nodes reserved change.
 * Seeded; never the clock.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ar.h"
#include "check.h"
#include "helpers.h"

#define SUITE "frames"
#include "suite.h"

#define SLOT 300               /* suite.h's stores: 5-minute slots, */
#define SLOTS 288               /* ... a day's horizon */
#define MAXF (2 * (SLOTS + 2))  /* frames over the horizon, at most (of
				   two partitions) */

/* The plan as ar_map maps it: hosts busy in each slot from the clock's,
 * and nodes reserved there. */
struct brute {
	int64_t now;            /* the clock's slot */
	uint64_t busy[SLOTS];
	uint32_t count[SLOTS];
	uint32_t nodes;
};

static int
brute_one(const struct ar_mapped *m, void *arg)
{
	struct brute *b = arg;
	int64_t s = m->r.start / SLOT, e = m->r.end / SLOT;
	uint64_t bits = 0;

	for (size_t i = 0; i < m->nhosts; i++)
		bits |= UINT64_C(1) << m->hosts[i];
	for (int64_t i = s < b->now ? b->now : s; i < e; i++)
		if (i - b->now < SLOTS) {
			CHECK((b->busy[i - b->now] & bits) == 0, "reservation %"
			    PRIu64 " shares a host", m->r.id);
			b->busy[i - b->now] |= bits;
			b->count[i - b->now] += m->r.nodes;
		}
	return 0;
}

static void
brute_load(ar_txn *t, struct brute *b, uint32_t nodes)
{
	int64_t now = ar_txn_now(t);

	memset(b, 0, sizeof(*b));
	b->now = now / SLOT;
	b->nodes = nodes;
	OK(ar_map(t, 0, now, now + SLOTS * SLOT, NULL, 0, brute_one, b));
}

static uint64_t
all_hosts(uint32_t nodes)
{
	return nodes == 64 ? UINT64_MAX : (UINT64_C(1) << nodes) - 1;
}

/* A frame, as told or as the brute force finds it. */
struct frame {
	int64_t start, end;
	uint64_t hosts;
	uint32_t partition;
};

struct told {
	struct frame f[MAXF];
	size_t n;
	int bad;
};

static int
told_one(const struct ar_frame *fr, void *arg)
{
	struct told *tl = arg;
	uint64_t bits = 0;

	for (uint32_t i = 0; i < fr->free; i++) {
		if (fr->hosts[i] >= 64 || (i > 0 && fr->hosts[i] <=
		    fr->hosts[i - 1]))
			tl->bad = 1;
		else
			bits |= UINT64_C(1) << fr->hosts[i];
	}
	if (tl->n == MAXF) {
		tl->bad = 1;
		return 0;
	}
	tl->f[tl->n++] = (struct frame){ fr->start, fr->end, bits,
	    fr->partition };
	return 0;
}

/* The frames of [from, to) of the hosts of mask, partition part:
 * slot by slot, a frame ending where the free hosts change, none where
 * none is free. */
static size_t
brute_frames(const struct brute *b, int64_t from, int64_t to,
    uint64_t mask, uint32_t part, struct frame *f)
{
	int64_t lo = from / SLOT > b->now ? from / SLOT : b->now;
	int64_t hi = (to + SLOT - 1) / SLOT;
	size_t n = 0, m = 0;

	if (hi > b->now + SLOTS)
		hi = b->now + SLOTS;
	for (int64_t s = lo; s < hi; s++) {
		uint64_t free_ = mask & ~b->busy[s - b->now];

		if (n > 0 && f[n - 1].end == s && f[n - 1].hosts == free_)
			f[n - 1].end = s + 1;
		else
			f[n++] = (struct frame){ s, s + 1, free_, part };
	}
	/* To times, cut at from and to; the empty ones dropped. */
	for (size_t i = 0; i < n; i++) {
		if (f[i].hosts == 0)
			continue;
		f[m] = f[i];
		f[m].start = f[i].start * SLOT < from ? from : f[i].start * SLOT;
		f[m].end = f[i].end * SLOT > to ? to : f[i].end * SLOT;
		m++;
	}
	return m;
}

/* The frames ar_frames tells against the brute force's: in a store of
 * partitions, those of each partition's hosts (parts[p]), one partition
 * after the other. */
static void
check_frames(ar_txn *t, const struct brute *b, int64_t from, int64_t to,
    const uint64_t *parts, uint32_t nparts)
{
	static struct told tl;
	static struct frame want[MAXF];
	size_t n = 0;

	memset(&tl, 0, sizeof(tl));
	OK(ar_frames(t, from, to, told_one, &tl));
	if (nparts == 0)
		n = brute_frames(b, from, to, all_hosts(b->nodes), 0, want);
	for (uint32_t p = 0; p < nparts; p++)
		n += brute_frames(b, from, to, parts[p], p, want + n);
	CHECK(!tl.bad, "ar_frames told hosts out of order");
	CHECK(tl.n == n, "ar_frames [%" PRId64 ", %" PRId64 "): %zu frames, "
	    "the brute force %zu", from, to, tl.n, n);
	for (size_t i = 0; i < n && i < tl.n; i++)
		CHECK(tl.f[i].start == want[i].start &&
		    tl.f[i].end == want[i].end &&
		    tl.f[i].hosts == want[i].hosts &&
		    tl.f[i].partition == want[i].partition, "frame %zu: [%" PRId64
		    ", %" PRId64 ") %#" PRIx64 ", the brute force [%" PRId64
		    ", %" PRId64 ") %#" PRIx64, i, tl.f[i].start, tl.f[i].end,
		    tl.f[i].hosts, want[i].start, want[i].end, want[i].hosts);
}

/* The runs of mask, lowest first: first host and length. */
static size_t
runs_of(uint64_t mask, uint32_t *first, uint32_t *len)
{
	size_t n = 0;

	for (uint32_t i = 0; i < 64; i++)
		if (mask & (UINT64_C(1) << i)) {
			if (n > 0 && first[n - 1] + len[n - 1] == i)
				len[n - 1]++;
			else {
				first[n] = i;
				len[n++] = 1;
			}
		}
	return n;
}

/* Bits [first, first + k). */
static uint64_t
span_bits(uint32_t first, uint32_t k)
{
	return (k == 64 ? UINT64_MAX : (UINT64_C(1) << k) - 1) << first;
}

/*
 * ar_place over slots [s, e) of nodes hosts by fit, against the hosts
 * free throughout: too few, ENOSPC; first fit the lowest; best fit,
 * where one run holds them, the smallest such run (the lowest of
 * equals) from its low end; worst fit, where the largest run holds
 * them, the lowest largest run from its low end.
 */
static void
check_place(ar_txn *t, const struct brute *b, int64_t s, int64_t e,
    uint32_t nodes, enum ar_fit fit)
{
	uint32_t hosts[64], first[64], len[64];
	uint64_t free_ = all_hosts(b->nodes), got = 0, want = 0;
	size_t nr, pick = 64;
	int rc;

	for (int64_t i = s; i < e; i++)
		free_ &= ~b->busy[i - b->now];
	rc = ar_place(t, s * SLOT, e * SLOT, nodes, 0, fit, hosts);
	if (popcount(free_) < (int)nodes) {
		CHECK(rc == ENOSPC, "ar_place: %s, %d free for %" PRIu32,
		    ar_strerror(rc), popcount(free_), nodes);
		return;
	}
	CHECK(rc == 0, "ar_place: %s", ar_strerror(rc));
	if (rc != 0)
		return;
	for (uint32_t i = 0; i < nodes; i++) {
		CHECK(hosts[i] < 64 && (i == 0 || hosts[i] > hosts[i - 1]),
		    "ar_place: hosts out of order");
		if (hosts[i] < 64)
			got |= UINT64_C(1) << hosts[i];
	}
	CHECK((got & ~free_) == 0, "ar_place took a host not free throughout");
	nr = runs_of(free_, first, len);
	if (fit == AR_FIT_FIRST) {
		for (size_t i = 0, k = nodes; i < nr && k > 0; i++) {
			uint32_t c = len[i] < k ? len[i] : (uint32_t)k;

			want |= span_bits(first[i], c);
			k -= c;
		}
		CHECK(got == want, "first fit %#" PRIx64 ", not %#" PRIx64,
		    got, want);
		return;
	}
	for (size_t i = 0; i < nr; i++)
		if (fit == AR_FIT_BEST ? len[i] >= nodes && (pick == 64 ||
		    len[i] < len[pick]) : pick == 64 || len[i] > len[pick])
			pick = i;
	if (pick == 64 || len[pick] < nodes)
		return;
	want = span_bits(first[pick], nodes);
	CHECK(got == want, "%s fit %#" PRIx64 ", not %#" PRIx64,
	    fit == AR_FIT_BEST ? "best" : "worst", got, want);
}

/*
 * ar_suggest's k options for nodes over len slots from slot first,
 * looking limit slots on, against the brute force: the fitting starts
 * that begin a run of them, and if fewer than k, the earliest ones
 * where the nodes reserved change, all in time order.  Plain plans
 * only: with named hosts in them, a start the counts allow may not map.
 */
static void
check_options(ar_txn *t, const struct brute *b, int64_t first, int64_t len,
    uint32_t nodes, int64_t limit, size_t k)
{
	struct ar_request rq = request(first * SLOT, len * SLOT, nodes);
	struct ar_answer alts[16];
	int64_t want[16], runs[16], extra[16], hi = first + limit;
	size_t n, nruns = 0, nextra = 0, nwant = 0;

	if (hi > b->now + SLOTS - len)
		hi = b->now + SLOTS - len;
	for (int64_t s = first; s <= hi; s++) {
		int fits = 1, fits_before = 1;

		for (int64_t i = s; i < s + len; i++)
			fits &= b->count[i - b->now] + nodes <= b->nodes;
		if (!fits)
			continue;
		if (s > first)
			for (int64_t i = s - 1; i < s - 1 + len; i++)
				fits_before &= b->count[i - b->now] + nodes <=
				    b->nodes;
		if (s == first || !fits_before) {
			if (nruns < k)
				runs[nruns++] = s;
		} else if (b->count[s - b->now] != b->count[s - 1 - b->now] &&
		    nextra < k)
			extra[nextra++] = s;
	}
	/* The runs first; then the extras up to k, but only those before
	 * the runs' last, or after it, as the library walks the runs. */
	for (size_t i = 0; i < nruns; i++)
		want[nwant++] = runs[i];
	for (size_t i = 0; i < nextra && nwant < k && nruns < k; i++)
		want[nwant++] = extra[i];
	for (size_t i = 1; i < nwant; i++)
		for (size_t j = i; j > 0 && want[j] < want[j - 1]; j--) {
			int64_t x = want[j];

			want[j] = want[j - 1];
			want[j - 1] = x;
		}
	OK(ar_suggest(t, &rq, limit * SLOT, alts, k, &n));
	if (nwant == 0) {
		CHECK(n == 0, "ar_suggest: %zu options, the brute force none",
		    n);
		return;
	}
	CHECK(n == nwant, "ar_suggest -k %zu from slot %" PRId64 ": %zu "
	    "options, the brute force %zu", k, first, n, nwant);
	for (size_t i = 0; i < n && i < nwant; i++)
		CHECK(alts[i].status == AR_SUGGESTED &&
		    alts[i].start == want[i] * SLOT, "option %zu at %" PRId64
		    ", the brute force %" PRId64, i, alts[i].start / SLOT,
		    want[i]);
}

/* Each host of nodes named with chance 1 in spread (at least one):
 * scattered hosts, which cut the free ones into runs. */
static uint32_t
scattered_hosts(uint32_t nodes, uint32_t spread, uint32_t *h)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < nodes; i++)
		if (rnd(spread) == 0)
			h[n++] = i;
	if (n == 0)
		h[n++] = (uint32_t)rnd(nodes);
	return n;
}

/*
 * A store of two partitions, b's hosts sorting first though a is the
 * default: hosts 0-4 are b's, 5-11 a's (two pools, features x on
 * 9-11); a request asks for b or for the default.
 */
static const char two_partitions[] =
    "hosts=h[01-05] partition=b\n"
    "hosts=h[06-09] partition=a\n"
    "hosts=h[10-12] partition=a features=x\n"
    "partition=a default=yes\n";
static const uint64_t two_masks[] = { 0xfe0, 0x1f };

/* Random plans of nodes hosts (named hosts among them if named; of
 * two_partitions if parted), the clock running on; after each step, in
 * a read transaction, every answer against the brute force. */
static void
random_run(uint32_t nodes, uint64_t seed, int steps, int named, int parted)
{
	ar_store *s = store_of("random", parted ? 0 : nodes, NULL,
	    parted ? two_partitions : NULL);
	static struct brute b;
	uint32_t hosts_none[1];
	int64_t now = T0;
	ar_txn *t;

	rng = seed;
	for (int step = 0; step < steps; step++) {
		OK(ar_txn_begin(s, AR_WRITE, now, &t));
		for (int i = 0, n = 1 + (int)rnd(4); i < n; i++) {
			struct ar_request rq;
			uint32_t hosts[64];
			struct ar_answer a;
			struct ar_info info;
			struct ar_resv r;
			int what = (int)rnd(10), rc;

			/* Cancel one of those there are, if it is live. */
			if (what >= 8) {
				OK(ar_info(t, &info));
				rc = ar_cancel(t, 1 + rnd(info.next_id), 0, &r);
				CHECK(rc == 0 || rc == AR_ENOTFOUND ||
				    rc == AR_EDONE, "ar_cancel: %s",
				    ar_strerror(rc));
				continue;
			}
			rq = request(now + SLOT * (int64_t)rnd(90), SLOT, 1);
			rq.duration *= 1 + (int64_t)rnd(30);
			rq.nodes += (uint32_t)rnd(nodes / 2);
			if (parted && what >= 5)
				rq.partition = "b";
			if (named && what >= 6) {
				rq.nhosts = scattered_hosts(nodes,
				    2 + (uint32_t)rnd(nodes), hosts);
				rq.hosts = hosts;
				rq.nodes = rq.nhosts;
			}
			OK(ar_add(t, &rq, &a));
		}
		OK(ar_txn_commit(t));
		now += SLOT * (int64_t)rnd(4);
		OK(ar_txn_begin(s, 0, now, &t));
		brute_load(t, &b, nodes);
		check_frames(t, &b, now, now + SLOTS * SLOT, two_masks,
		    parted ? 2 : 0);
		for (int i = 0; i < 3; i++) {
			int64_t from = now - 300 + (int64_t)rnd(SLOTS * SLOT);
			int64_t to = from + 1 + (int64_t)rnd(SLOTS * SLOT);

			check_frames(t, &b, from, to, two_masks,
			    parted ? 2 : 0);
		}
		/* The draws in order, not as a call's arguments, whose
		 * order of evaluation the compiler picks. */
		/* In a store of pools, a placement takes its pool's hosts:
		 * a's two (the features x its second), then b's. */
		for (uint32_t k = 0; k < 3 && parted; k++) {
			static const uint64_t pool_mask[] = { 0x1e0, 0xe00,
			    0x1f };
			int64_t st = b.now + (int64_t)rnd(SLOTS - 40);
			uint32_t host;
			int rc;

			rc = ar_place(t, st * SLOT, (st + 1) * SLOT, 1, k,
			    AR_FIT_FIRST, &host);
			CHECK(rc == ENOSPC || (rc == 0 && host < 64 &&
			    (pool_mask[k] >> host & 1)), "ar_place in pool %"
			    PRIu32 ": %s, host %" PRIu32, k, ar_strerror(rc),
			    host);
		}
		CHECK(!parted || ar_place(t, now, now + SLOT, 1, 3,
		    AR_FIT_FIRST, hosts_none) == EINVAL,
		    "ar_place in a pool the store does not have");
		/* Placements and options in the whole cluster's hosts and
		 * counts: a store of one partition. */
		for (int i = 0; i < 6 && !parted; i++) {
			int64_t st = b.now + (int64_t)rnd(SLOTS - 40);
			int64_t len = 1 + (int64_t)rnd(30);
			uint32_t want = 1 + (uint32_t)rnd(nodes);

			check_place(t, &b, st, st + len, want,
			    (enum ar_fit)rnd(3));
		}
		for (int i = 0; i < 3 && !named && !parted; i++) {
			int64_t first = b.now + (int64_t)rnd(60);
			int64_t len = 1 + (int64_t)rnd(30);
			uint32_t want = 1 + (uint32_t)rnd(nodes);
			int64_t limit = 1 + (int64_t)rnd(90);

			check_options(t, &b, first, len, want, limit,
			    1 + rnd(8));
		}
		ar_txn_abort(t);
	}
	done(s, "random");
}

/* The frames of an empty store: one, every host, to the horizon; and
 * bad arguments. */
static void
test_empty(void)
{
	ar_store *s = store("empty", 8, NULL);
	struct ar_request rq = request(T0 + HOUR, HOUR, 3);
	struct ar_answer a;
	static struct told tl;
	uint32_t hosts[8];
	ar_txn *t;

	OK(ar_txn_begin(s, AR_WRITE, T0, &t));
	memset(&tl, 0, sizeof(tl));
	OK(ar_frames(t, T0, T0 + 86400, told_one, &tl));
	CHECK(tl.n == 1 && tl.f[0].start == T0 && tl.f[0].end == T0 + 86400 &&
	    tl.f[0].hosts == 0xff, "an empty store: %zu frames", tl.n);
	memset(&tl, 0, sizeof(tl));
	OK(ar_frames(t, T0 - 2 * 86400, T0 - 86400, told_one, &tl));
	CHECK(tl.n == 0, "the past: %zu frames", tl.n);
	CHECK(ar_frames(t, T0 + 10, T0, told_one, &tl) == EINVAL,
	    "ar_frames of a range backwards");
	CHECK(ar_place(t, T0, T0 + HOUR, 0, 0, AR_FIT_BEST, hosts) == EINVAL &&
	    ar_place(t, T0, T0 + HOUR, 9, 0, AR_FIT_BEST, hosts) == EINVAL &&
	    ar_place(t, T0 + HOUR, T0, 1, 0, AR_FIT_BEST, hosts) == EINVAL &&
	    ar_place(t, T0, T0 + HOUR, 1, 0, (enum ar_fit)7, hosts) == EINVAL,
	    "ar_place of bad arguments");
	OK(ar_add(t, &rq, &a));
	OK(ar_place(t, T0 + HOUR, T0 + 2 * HOUR, 5, 0, AR_FIT_FIRST, hosts));
	CHECK(hosts[0] == 3 && hosts[4] == 7, "first fit beside 3 hosts "
	    "taken: from host %" PRIu32, hosts[0]);
	CHECK(ar_place(t, T0 + HOUR, T0 + 2 * HOUR, 6, 0, AR_FIT_FIRST, hosts) ==
	    ENOSPC, "ar_place of more than free");
	OK(ar_txn_commit(t));
	done(s, "empty");
}

static void
test_random(void)
{
	random_run(8, 20261121, 150, 0, 0);
	random_run(16, 20261122, 150, 1, 0);
	random_run(64, 20261123, 100, 1, 0);
	random_run(64, 20261124, 100, 0, 0);
	random_run(12, 20261126, 150, 0, 1);
}

int
main(void)
{
	if (suite_begin() != 0)
		return 1;
	test_empty();
	test_random();
	return suite_end();
}
