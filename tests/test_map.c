/*
 * test_map.c - the guarantee of the mapping onto hosts, checked by brute
 * force: random plans driven through the library (adds with windows
 * and moves, requests that name their hosts, cancels, purges as the
 * clock runs; the export ledger and ar_map by id on the way), the thesis's
 * Table 3.4 plan with user 11, the host set operations against bit
 * masks, and ar_check catching a mapping that was tampered with.
 * Seeded; never the clock.
 */
#include <errno.h>
#include <inttypes.h>
#include <lmdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ar.h"
#include "check.h"
#include "helpers.h"
#include "internal.h"           /* the stored mapping, to tamper with it */

#define SUITE "map"
#include "suite.h"

#define MAXID 4096              /* reservations a run may grant */
#define SPAN 512                /* slots from the clock the brute force
				   covers: more than any horizon here */

/*
 * What the test knows of each reservation, by id: the hosts it named
 * (a bit per host: these stores have at most 64), and the hosts ar_map
 * told last, with the clock and interval then.
 */
struct known {
	uint64_t named;
	uint64_t told;
	int64_t told_at;        /* clock of that ar_map; -1: never told */
	int64_t start, end;
};

struct guard {
	ar_txn *t;
	int64_t now, slot;
	uint32_t nodes;
	struct known *k;
	uint64_t occupied[SPAN];        /* hosts per slot from the clock's */
	uint64_t told, live;            /* reservations told, in the plan */
	int second;             /* the second ar_map: nothing may change */
	uint64_t maps, kept;    /* ar_map calls; started ones checked */
	uint64_t ids[MAXID];    /* the plan, as the last ar_map told it */
	size_t nids;
	uint64_t exports, deletes, asked;       /* the ledger's; ids asked */
};

/* Hosts as bits, checking they increase and are the store's. */
static uint64_t
host_bits(const struct guard *g, const uint32_t *h, size_t n, int *ok)
{
	uint64_t bits = 0;

	*ok = 1;
	for (size_t i = 0; i < n; i++) {
		if (h[i] >= g->nodes || (i > 0 && h[i] <= h[i - 1]))
			*ok = 0;
		else
			bits |= UINT64_C(1) << h[i];
	}
	return bits;
}

/* One reservation as ar_map tells it, against the brute force. */
static int
guard_one(const struct ar_mapped *m, void *arg)
{
	struct guard *g = arg;
	const struct ar_resv *r = &m->r;
	struct known *k = &g->k[r->id];
	int64_t s = r->start / g->slot, e = r->end / g->slot;
	int64_t now = g->now / g->slot;
	uint64_t bits;
	int ok;

	g->told++;
	if (!g->second && g->nids < MAXID)
		g->ids[g->nids++] = r->id;
	CHECK(r->state == AR_GRANTED && r->end > g->now && r->id < MAXID,
	    "ar_map told reservation %" PRIu64 " in state %d", r->id, r->state);
	if (r->state != AR_GRANTED || r->id >= MAXID)
		return 0;
	bits = host_bits(g, m->hosts, m->nhosts, &ok);
	CHECK(ok && m->nhosts == r->nodes && popcount(bits) == (int)r->nodes,
	    "reservation %" PRIu64 " of %" PRIu32 " nodes mapped onto %zu "
	    "hosts", r->id, r->nodes, m->nhosts);
	CHECK(m->status != AR_MAP_UNMAPPED && m->status != AR_MAP_NOTFOUND,
	    "reservation %" PRIu64 " of the plan not mapped", r->id);
	for (int64_t i = s < now ? now : s; i < e; i++) {
		CHECK(i - now < SPAN && (g->occupied[i - now] & bits) == 0,
		    "reservation %" PRIu64 " shares a host in slot %" PRId64,
		    r->id, i);
		if (i - now < SPAN)
			g->occupied[i - now] |= bits;
	}
	if (r->named)
		CHECK(bits == k->named, "named reservation %" PRIu64 " mapped "
		    "off its hosts", r->id);
	/* Started when last told: it keeps those hosts. */
	if (k->told_at >= 0 && k->told_at >= k->start) {
		g->kept++;
		CHECK(k->start == r->start && k->end == r->end &&
		    bits == k->told, "reservation %" PRIu64 " changed hosts "
		    "after it started", r->id);
	}
	CHECK(m->status == (k->told_at < 0 ? AR_MAP_NEW : bits == k->told ?
	    AR_MAP_KEPT : AR_MAP_REMAPPED), "reservation %" PRIu64 " told "
	    "with status %d", r->id, m->status);
	if (m->status == AR_MAP_REMAPPED)
		CHECK(host_bits(g, m->old, m->nold, &ok) == k->told && ok,
		    "reservation %" PRIu64 " remapped from other hosts than "
		    "told", r->id);
	if (g->second)
		CHECK(bits == k->told && m->status == AR_MAP_KEPT,
		    "reservation %" PRIu64 " not kept by a second ar_map "
		    "(status %d)", r->id, m->status);
	k->told = bits;
	k->told_at = g->now;
	k->start = r->start;
	k->end = r->end;
	return 0;
}

static int
count_live(const struct ar_resv *r, void *arg)
{
	struct guard *g = arg;

	g->live += r->end > g->now;
	return 0;
}

/*
 * Map the plan in write transaction t and check the guarantee: every
 * reservation of the plan told, with exactly its nodes hosts, none
 * serving two at once, named ones on their hosts, started ones on
 * theirs; a second ar_map tells the same, all kept; ar_check agrees.
 */
static void
guard_map(struct guard *g, ar_txn *t, unsigned flags)
{
	int64_t to;
	uint64_t bad;
	int rc;

	g->t = t;
	g->now = ar_txn_now(t);
	to = g->now + SPAN * g->slot;
	g->nids = 0;
	for (g->second = 0; g->second < 2; g->second++) {
		memset(g->occupied, 0, sizeof(g->occupied));
		g->told = g->live = 0;
		rc = ar_map(t, g->second ? 0 : flags, g->now, to, NULL, 0,
		    guard_one, g);
		CHECK(rc == 0, "ar_map: %s", ar_strerror(rc));
		OK(ar_list(t, AR_LIVE, count_live, g));
		CHECK(g->told == g->live, "ar_map told %" PRIu64 " of %" PRIu64
		    " reservations", g->told, g->live);
	}
	g->maps++;
	OK(ar_check(t, say_violation, NULL, &bad));
	CHECK(bad == 0, "%" PRIu64 " violations", bad);
}

/*
 * Right after guard_map: the export ledger takes the plan as told, then
 * says each is acknowledged; taken again without the first, that one
 * is not, and the others still are.
 */
static void
guard_export_all(struct guard *g, ar_txn *t)
{
	static struct ar_acked a[MAXID];
	static uint32_t hosts[MAXID][64];
	size_t n = 0;
	int yes;

	for (size_t i = 0; i < g->nids; i++) {
		struct known *k = &g->k[g->ids[i]];
		size_t h = 0;

		for (uint32_t b = 0; b < 64; b++)
			if (k->told & (UINT64_C(1) << b))
				hosts[n][h++] = b;
		a[n] = (struct ar_acked){ g->ids[i], k->start, k->end,
		    hosts[n], h };
		n++;
	}
	OK(ar_export_record(t, a, n));
	for (size_t i = 0; i < n; i++) {
		OK(ar_export_acked(t, a[i].id, &yes));
		CHECK(yes, "reservation %" PRIu64 " not in the ledger", a[i].id);
	}
	g->exports += n;
	if (n == 0)
		return;
	OK(ar_export_record(t, a + 1, n - 1));
	OK(ar_export_acked(t, a[0].id, &yes));
	CHECK(!yes, "reservation %" PRIu64 " left in the ledger", a[0].id);
	for (size_t i = 1; i < n; i++) {
		OK(ar_export_acked(t, a[i].id, &yes));
		CHECK(yes, "reservation %" PRIu64 " dropped from the ledger",
		    a[i].id);
	}
	g->deletes++;
}

/* A reservation asked for by id, in a read transaction right after
 * guard_map's was committed. */
static int
guard_asked(const struct ar_mapped *m, void *arg)
{
	struct guard *g = arg;
	const struct ar_resv *r = &m->r;
	struct known *k = &g->k[r->id < MAXID ? r->id : 0];
	uint64_t bits;
	int ok;

	g->asked++;
	bits = host_bits(g, m->hosts, m->nhosts, &ok);
	if (m->status == AR_MAP_NOTFOUND)
		return 0;
	CHECK(ok && (m->nhosts == 0 || m->nhosts == r->nodes),
	    "reservation %" PRIu64 " asked: %zu hosts", r->id, m->nhosts);
	if (r->state == AR_GRANTED)
		CHECK(m->status == AR_MAP_KEPT && bits == k->told,
		    "live reservation %" PRIu64 " asked: status %d", r->id,
		    m->status);
	else if (r->state == AR_CANCELLED)
		CHECK(m->status == AR_MAP_UNMAPPED && m->nhosts == 0,
		    "cancelled reservation %" PRIu64 " asked: status %d",
		    r->id, m->status);
	else if (k->told_at >= k->start && k->told_at >= 0)
		CHECK(m->status == AR_MAP_KEPT && bits == k->told,
		    "finished reservation %" PRIu64 " asked: status %d",
		    r->id, m->status);
	return 0;
}

/* Ask ar_map for some ids, ended, cancelled, live or never granted. */
static void
guard_ids(struct guard *g, ar_store *s, int64_t now)
{
	struct ar_info info;
	uint64_t ids[8];
	ar_txn *t;

	OK(ar_txn_begin(s, 0, now, &t));
	OK(ar_info(t, &info));
	for (int i = 0; i < 8; i++)
		ids[i] = rnd(info.next_id + 2);
	g->t = t;
	g->now = ar_txn_now(t);
	OK(ar_map(t, 0, now, now + 60, ids, 8, guard_asked, g));
	ar_txn_abort(t);
}

/* Some hosts of nodes: a run, or any of them; at least one. */
static uint32_t
pick_hosts(uint32_t nodes, uint32_t *h)
{
	uint32_t n = 0, len = 1 + (uint32_t)rnd(4), first;

	if (rnd(2) == 0) {
		first = (uint32_t)rnd(nodes - len + 1);
		for (uint32_t i = 0; i < len; i++)
			h[n++] = first + i;
		return n;
	}
	for (uint32_t i = 0; i < nodes && n < len; i++)
		if (rnd(nodes) < len)
			h[n++] = i;
	if (n == 0)
		h[n++] = (uint32_t)rnd(nodes);
	return n;
}

static int
collect_live(const struct ar_resv *r, void *arg)
{
	uint64_t *ids = arg;

	if (ids[0] < 63)
		ids[++ids[0]] = r->id;
	return 0;
}

/* A guard for a store of cfg, its table of what was told empty. */
static struct guard *
guard_new(const struct ar_config *cfg)
{
	struct guard *g = calloc(1, sizeof(*g));
	struct known *k = calloc(MAXID, sizeof(*k));

	if (g == NULL || k == NULL) {
		CHECK(0, "out of memory");
		free(g);
		free(k);
		return NULL;
	}
	for (int i = 0; i < MAXID; i++)
		k[i].told_at = -1;
	g->k = k;
	g->slot = cfg->slot;
	g->nodes = cfg->nodes;
	return g;
}

/*
 * Issue 23's bound, request by request: a plain request that today's
 * whole-plan check would find room for on this very plan (the tracking
 * dropped, in a savepoint undone after: admission then sweeps as a
 * store before tracked hosts did) ar finds room for too, at that start
 * or earlier, since its tracked count and the hosts a request may hold
 * only grant, and where they refuse it sweeps as before.  Fills found
 * with ar's answer; counts in *swept the requests today's check would
 * grant and in *sooner those ar answers earlier or only it grants.
 */
static void
as_the_sweep(ar_txn *t, const struct ar_request *rq, struct ar_answer *found,
    uint64_t *swept, uint64_t *sooner)
{
	struct savepoint sv;
	struct ar_answer sw;

	OK(txn_save(t, &sv));
	OK(track_reset(t));
	OK(ar_search(t, rq, &sw));
	txn_undo(t, &sv);
	OK(ar_search(t, rq, found));
	*swept += sw.status == AR_AVAILABLE;
	*sooner += found->status == AR_AVAILABLE && (sw.status !=
	    AR_AVAILABLE || found->start < sw.start);
	CHECK(sw.status != AR_AVAILABLE || (found->status == AR_AVAILABLE &&
	    found->start <= sw.start), "today's sweep finds %" PRId64
	    ", ar %d at %" PRId64, sw.start, found->status, found->start);
}

/*
 * Random plans on a store of nodes hosts: each step a few requests,
 * some naming hosts, some with windows that let others move (FCFS-EDS
 * or FCFS-LRH), some cancels, now and then a purge, the clock running
 * on; after each step the plan is mapped and checked (guard_map).
 */
static void
random_run(uint32_t nodes, uint64_t seed, int steps)
{
	struct ar_config cfg = { nodes, 60, 240 * 60, 1 << 28, -1, NULL,
	    AR_SIMULATED, NULL };
	struct guard *g = guard_new(&cfg);
	uint64_t refused = 0, named = 0, moved = 0, granted = 0, bad;
	uint64_t swept = 0, sooner = 0;
	int64_t now = T0;
	const char *dir = store_path("random");
	ar_store *s;
	ar_txn *t;

	if (g == NULL)
		return;
	rng = seed;
	OK(ar_create(dir, &cfg, now));
	OK(ar_open(dir, 0, &s));
	for (int step = 0; step < steps; step++) {
		OK(ar_txn_begin(s, AR_WRITE, now, &t));
		for (int i = 0, n = 1 + (int)rnd(4); i < n; i++) {
			struct ar_request rq = { 0 };
			uint32_t hosts[64];
			uint64_t ids[64] = { 0 };
			const struct ar_placed *gr, *mv;
			struct ar_answer a, found;
			struct ar_resv r;
			size_t ng, nm;
			int what = (int)rnd(10);

			if (what >= 8) {
				OK(ar_list(t, AR_LIVE, collect_live, ids));
				if (ids[0] > 0)
					OK(ar_cancel(t, ids[1 + rnd(ids[0])], 0,
					    &r));
				continue;
			}
			rq.earliest = now + 60 * (int64_t)rnd(60);
			rq.latest = rq.earliest + (rnd(3) == 0 ? 0 :
			    60 * (int64_t)rnd(30));
			rq.duration = 60 * (1 + (int64_t)rnd(20));
			rq.owner = 1000;
			rq.jobs = 1;
			rq.flags = rnd(3) == 0 ? AR_NOMOVE : rnd(2) ? AR_LATER : 0;
			if (what >= 6) {
				rq.nhosts = pick_hosts(nodes, hosts);
				rq.hosts = hosts;
				rq.nodes = rq.nhosts;
			} else {
				rq.nodes = 1 + (uint32_t)rnd(nodes / 2);
				rq.jobs = 1 + (uint32_t)rnd(3);
			}
			/* A search for named hosts answers as the add will;
			 * for others, what it finds the add grants, there or
			 * earlier (moving flexible ones may make room). */
			if (rq.nhosts == 0 && rq.jobs == 1)
				as_the_sweep(t, &rq, &found, &swept, &sooner);
			else
				OK(ar_search(t, &rq, &found));
			OK(ar_add(t, &rq, &a));
			if (rq.nhosts == 0 && rq.jobs == 1)
				CHECK(found.status != AR_AVAILABLE ||
				    (a.status == AR_GRANTED &&
				    a.start <= found.start),
				    "search found %" PRId64 ", add %d reason %d",
				    found.start, a.status, a.reason);
			if (rq.nhosts > 0)
				CHECK(found.status == (a.status == AR_GRANTED ?
				    AR_AVAILABLE : AR_UNAVAILABLE) &&
				    found.reason == a.reason &&
				    (a.status != AR_GRANTED ||
				    found.start == a.start),
				    "search %d reason %d, add %d reason %d",
				    found.status, found.reason, a.status, a.reason);
			ar_added(t, &gr, &ng, &mv, &nm);
			granted += ng;
			moved += nm;
			if (a.status == AR_REFUSED && a.reason == AR_R_HOSTS)
				refused++;
			for (size_t j = 0; j < ng && gr[j].id < MAXID; j++)
				for (uint32_t h = 0; h < rq.nhosts; h++)
					g->k[gr[j].id].named |=
					    UINT64_C(1) << hosts[h];
			named += rq.nhosts > 0 && ng > 0;
		}
		if (rnd(8) == 0)
			OK(ar_purge(t, NULL, NULL));
		/* What admissions kept of the mapping, before ar_map. */
		OK(ar_check(t, say_violation, NULL, &bad));
		CHECK(bad == 0, "%" PRIu64 " violations before ar_map", bad);
		if (rnd(3) == 0) {
			OK(ar_txn_commit(t));
			now += 60 * (int64_t)rnd(4);
			continue;
		}
		guard_map(g, t, rnd(5) == 0 ? AR_MAP_FIRST_FIT : 0);
		if (rnd(4) == 0)
			guard_export_all(g, t);
		OK(ar_txn_commit(t));
		if (rnd(4) == 0)
			guard_ids(g, s, now);
		now += 60 * (int64_t)rnd(4);
	}
	printf("map (%" PRIu32 " hosts): %d steps, %" PRIu64 " copies granted "
	    "(%" PRIu64 " naming hosts), %" PRIu64 " moves, %" PRIu64
	    " refused for hosts, %" PRIu64 " started ones kept their hosts; "
	    "%" PRIu64 " in the ledger, %" PRIu64 " taken out, %" PRIu64
	    " asked by id; today's sweep would grant %" PRIu64 " plain "
	    "requests, ar grants %" PRIu64 " sooner or only it\n", nodes,
	    steps, granted, named, moved, refused, g->kept, g->exports,
	    g->deletes, g->asked, swept, sooner);
	CHECK(named > 20 && moved > 20 && refused > 0 && g->kept > 100 &&
	    swept > 50, "random plans too tame: %" PRIu64 " named, %" PRIu64
	    " moves, %" PRIu64 " refused for hosts, %" PRIu64 " started kept, %"
	    PRIu64 " the sweep grants", named, moved, refused, g->kept, swept);
	ar_close(s);
	rm_store(dir);
	free(g->k);
	free(g);
}

static void
test_random(void)
{
	random_run(8, 20261122, 1000);
	random_run(24, 777, 500);
}

/*
 * ar_longest and ar_furthest while the plan holds reservations that
 * named their hosts: each answer must be one admission takes, and a
 * slot more one it refuses (unless the horizon or a bound stopped it).
 * ar_longest's shape is asked of ar_search, which maps the plan as
 * ar_longest does; ar_furthest's end is given to ar_modify in a write
 * transaction that is then abandoned.
 */
static void
longest_run(uint32_t nodes, uint64_t seed, int steps)
{
	struct ar_config cfg = { nodes, 60, 240 * 60, 1 << 28, -1, NULL,
	    AR_SIMULATED, NULL };
	uint64_t asked = 0, mapped_short = 0, extended = 0, moved = 0;
	unsigned flags;
	int64_t now = T0, hend;
	const char *dir = store_path("longest");
	ar_store *s;
	ar_txn *t;

	rng = seed;
	OK(ar_create(dir, &cfg, now));
	OK(ar_open(dir, 0, &s));
	for (int step = 0; step < steps; step++) {
		struct ar_request rq = { 0 }, plain;
		struct ar_answer a, b;
		struct ar_resv r;
		uint32_t hosts[64];
		uint64_t ids[64] = { 0 }, id;

		OK(ar_txn_begin(s, AR_WRITE, now, &t));
		rq.earliest = rq.latest = now + 60 * (int64_t)rnd(120);
		if (rnd(3) == 0)
			rq.latest += 60 * (int64_t)rnd(60);
		rq.duration = 60 * (1 + (int64_t)rnd(40));
		rq.jobs = 1;
		if (rnd(3) == 0) {
			rq.nhosts = pick_hosts(nodes, hosts);
			rq.hosts = hosts;
			rq.nodes = rq.nhosts;
		} else
			rq.nodes = 1 + (uint32_t)rnd(nodes / 2);
		OK(ar_add(t, &rq, &a));
		if (rnd(6) == 0) {
			OK(ar_list(t, AR_LIVE, collect_live, ids));
			if (ids[0] > 0)
				OK(ar_cancel(t, ids[1 + rnd(ids[0])], 0, &r));
		}
		OK(ar_txn_commit(t));
		now += 60 * (int64_t)rnd(3);
		hend = (now / 60) * 60 + 240 * 60;

		/* The longest job from a start, on hosts or not. */
		OK(ar_txn_begin(s, 0, now, &t));
		rq.earliest = rq.latest = now + 60 * (int64_t)rnd(60);
		rq.duration = rnd(2) ? 0 : 60 * (1 + (int64_t)rnd(120));
		if (rq.nhosts == 0)
			rq.nodes = 1 + (uint32_t)rnd(nodes);
		OK(ar_longest(t, &rq, &a));
		asked++;
		if (a.status == AR_SUGGESTED) {
			plain = rq;
			plain.earliest = plain.latest = a.start;
			plain.duration = a.end - a.start;
			OK(ar_search(t, &plain, &b));
			CHECK(b.status == AR_AVAILABLE && b.start == a.start,
			    "longest %" PRId64 "..%" PRId64 ": ar_search says %d "
			    "reason %d", a.start, a.end, b.status, b.reason);
			plain.duration += 60;
			if (a.end < hend && (rq.duration == 0 ||
			    plain.duration <= rq.duration)) {
				OK(ar_search(t, &plain, &b));
				CHECK(b.status == AR_UNAVAILABLE,
				    "longest %" PRId64 "..%" PRId64 ": a slot more"
				    " fits too", a.start, a.end);
				mapped_short += b.reason == AR_R_HOSTS;
			}
		}
		ids[0] = 0;
		OK(ar_list(t, AR_LIVE, collect_live, ids));
		ar_txn_abort(t);
		if (ids[0] == 0)
			continue;

		/* How far one grows; ar_modify grants it, not a slot more. */
		OK(ar_txn_begin(s, AR_WRITE, now, &t));
		id = ids[1 + rnd(ids[0])];
		OK(ar_get(t, id, &r));
		flags = rnd(2) ? AR_WINDOW : 0;
		OK(ar_furthest(t, id, flags, &a));
		if (a.status == AR_SUGGESTED) {
			/* As ar-add --modify takes the record: end=, or
			 * duration= in the window. */
			plain = (struct ar_request){ .earliest = r.earliest,
			    .latest = r.latest, .duration = a.end -
			    (flags ? a.start : r.start), .nodes = r.nodes,
			    .jobs = 1, .flags = AR_NOMOVE };
			/*
			 * A slot more, asked of the plan ar_furthest answered
			 * for (in a window it may fit elsewhere).  Not after
			 * the extension: on hosts the plan is then mapped from
			 * other hosts, and a greedy mapping may then hold what
			 * it could not before (map.c).
			 */
			if (a.end < hend && !flags) {
				plain.duration += 60;
				/* At its start; its window may hold others. */
				OK(ar_modify(t, id, 0, &plain, &b));
				CHECK(b.status == AR_REFUSED || b.start != a.start,
				    "furthest %" PRIu64 " to %" PRId64 ": a slot "
				    "more is granted there", id, a.end);
				plain.duration -= 60;
				ar_txn_abort(t);
				OK(ar_txn_begin(s, AR_WRITE, now, &t));
			}
			OK(ar_modify(t, id, 0, &plain, &b));
			CHECK(b.status == AR_GRANTED && b.start == a.start &&
			    b.end == a.end, "furthest %" PRIu64 " to %" PRId64
			    "..%" PRId64 ": modify %d reason %d at %" PRId64,
			    id, a.start, a.end, b.status, b.reason, b.start);
			extended++;
			moved += a.start != r.start && r.start > now;
		}
		ar_txn_abort(t);
	}
	printf("longest with pins (%" PRIu32 " hosts): %" PRIu64 " longest "
	    "jobs asked, %" PRIu64 " ended by the hosts, %" PRIu64
	    " extensions granted (%" PRIu64 " at another start)\n", nodes,
	    asked, mapped_short, extended, moved);
	CHECK(mapped_short > 0 && extended > 20 && moved > 0, "too tame: %"
	    PRIu64 " ended by the hosts, %" PRIu64 " extended, %" PRIu64
	    " moved", mapped_short, extended, moved);
	ar_close(s);
	rm_store(dir);
}

static void
test_longest(void)
{
	longest_run(8, 20261126, 400);
}

/* A request of the thesis's tables, in 5-minute slots from T0. */
static struct ar_request
thesis(int64_t es, int64_t ls, int64_t te, uint32_t jobs)
{
	struct ar_request rq = { T0 + 300 * es, T0 + 300 * ls, 300 * te, 1,
	    jobs, 1000, NULL, NULL, AR_LATER, NULL, NULL, 0, 0, 0, NULL, NULL,
	    0, 0, 0, NULL, NULL };

	return rq;
}

/*
 * Umar's thesis, Table 3.4 (tests/e2e/70-table34.sh), with user 4's
 * window as the table gives it (slots 15 to 16), then user 11 (3 slots
 * from 12 to 14, 3 copies), admitted by FCFS-EDS: user 4 moves to 16
 * (Figure 3.8).  The plan is mapped as the clock runs from slot 10 to
 * 18 (Figure 3.13 is the thesis's mapping at 18), each time checked.
 */
static void
test_table34(void)
{
	static const int64_t users[10][4] = {
		{ 11, 11, 1, 2 }, { 11, 11, 3, 1 }, { 12, 12, 3, 1 },
		{ 15, 16, 1, 1 }, { 15, 15, 1, 2 }, { 11, 11, 2, 1 },
		{ 13, 13, 1, 1 }, { 16, 16, 2, 1 }, { 11, 11, 2, 1 },
		{ 15, 15, 3, 1 },
	};
	struct ar_config cfg = { 5, 300, 86400, 1 << 26, -1, "cn[0-4]",
	    AR_SIMULATED, NULL };
	struct guard *g = guard_new(&cfg);
	const struct ar_placed *gr, *mv;
	struct ar_request rq;
	struct ar_answer a;
	size_t ng, nm;
	const char *dir = store_path("table34");
	ar_store *s;
	ar_txn *t;

	if (g == NULL)
		return;
	OK(ar_create(dir, &cfg, T0));
	OK(ar_open(dir, 0, &s));
	OK(ar_txn_begin(s, AR_WRITE, T0, &t));
	for (int i = 0; i < 10; i++) {
		rq = thesis(users[i][0], users[i][1], users[i][2],
		    (uint32_t)users[i][3]);
		OK(ar_add(t, &rq, &a));
		CHECK(a.status == AR_GRANTED, "user %d refused", i + 1);
	}
	rq = thesis(12, 14, 3, 3);
	OK(ar_add(t, &rq, &a));
	ar_added(t, &gr, &ng, &mv, &nm);
	CHECK(a.status == AR_GRANTED && ng == 3 && nm == 1 &&
	    mv[0].start == T0 + 300 * 16, "user 11: %zu copies, %zu moves",
	    ng, nm);
	guard_map(g, t, 0);
	OK(ar_txn_commit(t));
	for (int64_t slot = 10; slot <= 18; slot++) {
		OK(ar_txn_begin(s, AR_WRITE, T0 + 300 * slot + 150, &t));
		guard_map(g, t, 0);
		OK(ar_txn_commit(t));
	}
	CHECK(g->kept >= 10, "table 3.4: %" PRIu64 " started ones checked",
	    g->kept);
	ar_close(s);
	rm_store(dir);
	free(g->k);
	free(g);
}

/* A set of hosts below 64 as runs. */
static int
to_set(uint64_t bits, struct hostset *s)
{
	int rc = 0;

	s->n = 0;
	for (uint32_t h = 0; h < 64 && rc == 0; h++)
		if (bits >> h & 1)
			rc = hostset_append(s, h, 1);
	return rc;
}

/* The hosts of s as bits; -1 (all) if s is not normal or beyond 64. */
static uint64_t
to_bits(const struct hostset *s)
{
	uint64_t bits = 0;

	for (size_t i = 0; i < s->n; i++) {
		if (s->r[i].count == 0 || (uint64_t)s->r[i].first +
		    s->r[i].count > 64 || (i > 0 && s->r[i].first <=
		    s->r[i - 1].first + s->r[i - 1].count))
			return UINT64_MAX;
		for (uint32_t h = 0; h < s->r[i].count; h++)
			bits |= UINT64_C(1) << (s->r[i].first + h);
	}
	return bits;
}

/* Runs of consecutive hosts in bits. */
static int
fragments(uint64_t bits)
{
	return popcount(bits & ~(bits << 1));
}

/* A random set below 63 hosts, in runs of various lengths. */
static uint64_t
random_bits(void)
{
	uint64_t bits = 0;

	for (int h = (int)rnd(4); h < 63; h += 1 + (int)rnd(6))
		for (int n = (int)rnd(8); n > 0 && h < 63; n--, h++)
			bits |= UINT64_C(1) << h;
	return bits;
}

/*
 * The host sets map.c computes with, against bit masks: union,
 * difference, subset, the first common host, and choosing k hosts,
 * first fit (the lowest) or best fit (no more runs than the fewest
 * runs of avail that hold k would make, and never more than the
 * fewest any choice has when one run holds them all).
 */
static void
test_hostsets(void)
{
	struct hostset a = { 0 }, b = { 0 }, out = { 0 };
	int bad = 0;

	rng = 4242;
	for (int i = 0; i < 20000 && bad < 10; i++) {
		uint64_t x = random_bits(), y = rnd(4) == 0 ? x & random_bits() :
		    random_bits(), got, low = 0;
		int64_t common = (x & y) ? __builtin_ctzll(x & y) : -1;
		uint64_t k = 1 + rnd(popcount(x) + 2);
		int rc, one_run = 0;

		if (to_set(x, &a) != 0 || to_set(y, &b) != 0)
			break;
		bad += hostset_union(&out, &a, &b) != 0 || to_bits(&out) != (x | y);
		bad += hostset_minus(&out, &a, &b) != 0 || to_bits(&out) != (x & ~y);
		bad += hostset_subset(&b, &a) != ((y & ~x) == 0);
		bad += hostset_common(&a, &b) != common;
		bad += hostset_equal(&a, &b) != (x == y);
		bad += hostset_count(&a) != (uint64_t)popcount(x);
		rc = hostset_choose(&out, &a, k, 1);
		for (uint64_t n = 0, rest = x; n < k && rest != 0; n++) {
			low |= rest & -rest;
			rest &= rest - 1;
		}
		if (k > (uint64_t)popcount(x)) {
			bad += rc != ENOSPC;
			continue;
		}
		bad += rc != 0 || to_bits(&out) != low;
		rc = hostset_choose(&out, &a, k, 0);
		got = to_bits(&out);
		for (size_t r = 0; r < a.n; r++)
			one_run |= a.r[r].count >= k;
		bad += rc != 0 || got == UINT64_MAX || (got & ~x) != 0 ||
		    (uint64_t)popcount(got) != k ||
		    (one_run && fragments(got) != 1);
		if (bad > 0 && bad < 10)
			fprintf(stderr, "host sets %" PRIx64 " %" PRIx64 " k %"
			    PRIu64 ": best fit %" PRIx64 "\n", x, y, k, got);
	}
	CHECK(bad == 0, "%d host set operations wrong", bad);
	hostset_free(&a);
	hostset_free(&b);
	hostset_free(&out);
}

/* The violations ar_check tells, one line each. */
struct told {
	char text[4096];
	uint64_t n;
};

static void
tell_violation(const char *msg, void *arg)
{
	struct told *v = arg;
	size_t len = strlen(v->text);

	v->n++;
	snprintf(v->text + len, sizeof(v->text) - len, "%s\n", msg);
}

/* ar_check in t: 0 if it found nothing, else whether one violation it
 * told has want in it (then 1, else -1). */
static int
check_says(ar_txn *t, const char *want)
{
	struct told v = { "", 0 };
	uint64_t bad;

	OK(ar_check(t, tell_violation, &v, &bad));
	if (bad == 0)
		return 0;
	return strstr(v.text, want) != NULL ? 1 : (fputs(v.text, stderr), -1);
}

static int
ignore(const struct ar_mapped *m, void *arg)
{
	(void)m;
	(void)arg;
	return 0;
}

/* Nothing to map: ar_map, ar_export and ar_check on an empty store,
 * every reservation ended, or only cancelled ones. */
static void
test_empty(void)
{
	struct ar_config cfg = { 4, 60, 240 * 60, 1 << 26, -1, NULL,
	    AR_SIMULATED, NULL };
	struct ar_request rq = { T0 + 60, T0 + 60, 60, 1, 1, 1000, NULL,
	    NULL, 0, NULL, NULL, 0, 0, 0, NULL, NULL, 0, 0, 0, NULL, NULL };
	uint64_t ids[] = { 1, 2 }, bad;
	struct ar_answer a;
	struct ar_resv r;
	const char *dir = store_path("empty");
	ar_store *s;
	ar_txn *t;

	OK(ar_create(dir, &cfg, T0));
	OK(ar_open(dir, 0, &s));
	for (int round = 0; round < 3; round++) {
		OK(ar_txn_begin(s, AR_WRITE, T0 + 600 * round, &t));
		if (round == 0) {
			OK(ar_map(t, 0, T0, T0 + 3600, NULL, 0, ignore, NULL));
			OK(ar_map(t, 0, T0, T0 + 3600, ids, 2, ignore, NULL));
			OK(ar_export_record(t, NULL, 0));
			OK(ar_add(t, &rq, &a));
			OK(ar_add(t, &rq, &a));
			OK(ar_cancel(t, 2, 0, &r));
		} else {
			OK(ar_map(t, 0, T0, T0 + 3600, NULL, 0, ignore, NULL));
			OK(ar_map(t, 0, T0, T0 + 3600, ids, 2, ignore, NULL));
			OK(ar_export_record(t, NULL, 0));
		}
		OK(ar_check(t, say_violation, NULL, &bad));
		CHECK(bad == 0, "%" PRIu64 " violations, round %d", bad, round);
		OK(ar_txn_commit(t));
	}
	ar_close(s);
	rm_store(dir);
}

/* The check of t: no violations. */
static void
check_clean(ar_txn *t, const char *when)
{
	uint64_t bad;

	OK(ar_check(t, say_violation, NULL, &bad));
	CHECK(bad == 0, "%" PRIu64 " violations %s", bad, when);
}

/*
 * Tracked hosts (format 8): maintenance names hosts 2 and 3; a plain
 * request the counts allow with them idle is granted without a sweep,
 * one they refuse is granted by the sweep on a tracked host's free time,
 * which it then holds explicitly; one the hosts cannot hold is refused.
 * A format 7 store with the pin upgrades to 8 and tracks them again.
 */
static void
test_tracked(void)
{
	struct ar_config cfg = { 8, 60, 240 * 60, 1 << 26, -1, NULL,
	    AR_SIMULATED, NULL };
	static const uint32_t h23[] = { 2, 3 };
	struct ar_request rq = { .earliest = T0 + 1800, .latest = T0 + 1800,
	    .duration = 1800, .nodes = 2, .jobs = 1, .owner = 1000 };
	struct hostset ex = { 0 };
	struct ar_answer a;
	const char *dir = store_path("tracked");
	ar_store *s;
	ar_txn *t;
	int built, from;

	OK(ar_create(dir, &cfg, T0));
	OK(ar_open(dir, 0, &s));
	OK(ar_txn_begin(s, AR_WRITE, T0, &t));
	rq.hosts = h23;
	rq.nhosts = 2;
	rq.flags = AR_NOMOVE;
	OK(ar_add(t, &rq, &a));
	CHECK(a.status == AR_GRANTED, "the maintenance: %d", a.status);
	OK(track_built(t, &built));
	CHECK(built, "the named hosts are not tracked");
	rq.hosts = NULL;
	rq.nhosts = 0;
	rq.nodes = 6;           /* beside the maintenance: the rest */
	OK(ar_add(t, &rq, &a));
	CHECK(a.status == AR_GRANTED, "6 beside the maintenance: %d",
	    a.status);
	rq.nodes = 1;
	OK(ar_add(t, &rq, &a));
	CHECK(a.status == AR_REFUSED, "a ninth node granted");
	/* Before the maintenance, hosts 2 and 3 are idle but tracked: 6
	 * nodes fit the pool, 7 only on a tracked host, 8 not before its
	 * start (the sweep keeps them off it). */
	rq.earliest = rq.latest = T0 + 600;
	rq.duration = 600;
	rq.nodes = 6;
	OK(ar_add(t, &rq, &a));
	CHECK(a.status == AR_GRANTED, "6 in the pool: %d", a.status);
	rq.earliest = rq.latest = T0 + 1200;
	rq.nodes = 7;
	OK(ar_add(t, &rq, &a));
	CHECK(a.status == AR_GRANTED, "7 on a tracked host: %d", a.status);
	OK(track_explicit(t, a.id, (T0 + 1200) / 60, (T0 + 1800) / 60, &ex));
	CHECK(hostset_count(&ex) >= 1, "7 hold no tracked host explicitly");
	/* The last host, up to the maintenance: the tracked hosts are all
	 * held then, none idle. */
	rq.earliest = rq.latest = T0 + 1500;
	rq.duration = 300;
	rq.nodes = 1;
	OK(ar_add(t, &rq, &a));
	CHECK(a.status == AR_GRANTED, "1 more from T0+1500: %d", a.status);
	check_clean(t, "with the tracked hosts");
	OK(ar_map(t, 0, T0, T0 + 7200, NULL, 0, ignore, NULL));
	check_clean(t, "after ar_map");
	/* Made format 7, as a store was before: no tracking. */
	OK(track_reset(t));
	t->m.format = 7;
	t->meta_dirty = 1;
	OK(ar_txn_commit(t));
	ar_close(s);
	CHECK(ar_open(dir, 0, &s) == AR_EUPGRADE, "format 7 opens");
	OK(ar_upgrade(dir, AR_SIMULATED, 0, &from));
	CHECK(from == 7, "upgraded from %d", from);
	OK(ar_open(dir, 0, &s));
	OK(ar_txn_begin(s, AR_WRITE, T0, &t));
	OK(track_built(t, &built));
	CHECK(built, "the upgrade did not track the named hosts");
	check_clean(t, "after the upgrade");
	rq.earliest = rq.latest = T0 + 600;
	rq.nodes = 1;
	OK(ar_add(t, &rq, &a));
	CHECK(a.status == AR_GRANTED, "1 after the upgrade: %d", a.status);
	check_clean(t, "after the upgrade and a grant");
	OK(ar_txn_commit(t));
	ar_close(s);
	hostset_free(&ex);
	rm_store(dir);
}

/* Reservation 1 as mapped goes into the export ledger. */
static int
acked_one(const struct ar_mapped *m, void *arg)
{
	struct ar_acked a = { m->r.id, m->r.start, m->r.end, m->hosts,
	    m->nhosts };

	return m->r.id == 1 ? ar_export_record(arg, &a, 1) : 0;
}

/* In a write transaction: put v under key in dbi. */
static int
poke(ar_txn *t, enum kv_table dbi, const void *key, size_t klen, const void *val,
    size_t vlen)
{
	struct kv_val k = { klen, (void *)key }, v = { vlen, (void *)val };

	return kv_put(t->txn, dbi, &k, &v, 0);
}

/*
 * ar_check catches a tampered mapping.  A store with two plain
 * reservations of 2 nodes at the same time (1, 2), two that named their
 * hosts (3 on hosts 0-1, 4 on 2-3, both later), mapped; then each
 * change is made in a write transaction, checked and undone.
 */
static void
test_tampered(void)
{
	struct ar_config cfg = { 6, 60, 240 * 60, 1 << 26, -1, "cn[1-6]",
	    AR_SIMULATED, NULL };
	static const uint32_t h01[] = { 0, 1 }, h23[] = { 2, 3 };
	unsigned char key1[8], key2[8], pin3[16], pin4[16], v1[256];
	struct kv_val k = { 8, key2 }, v;
	struct disk_map d;
	struct ar_request rq = { T0 + 600, T0 + 600, 600, 2, 1, 1000, NULL,
	    NULL, 0, NULL, NULL, 0, 0, 0, NULL, NULL, 0, 0, 0, NULL, NULL };
	struct ar_answer a;
	size_t len;
	const char *dir = store_path("tampered");
	ar_store *s;
	ar_txn *t;

	OK(ar_create(dir, &cfg, T0));
	OK(ar_open(dir, 0, &s));
	OK(ar_txn_begin(s, AR_WRITE, T0, &t));
	OK(ar_add(t, &rq, &a));
	OK(ar_add(t, &rq, &a));
	rq.earliest = rq.latest = T0 + 1800;
	rq.hosts = h01;
	rq.nhosts = 2;
	OK(ar_add(t, &rq, &a));
	CHECK(a.status == AR_GRANTED && a.id == 3, "named 3");
	rq.hosts = h23;
	OK(ar_add(t, &rq, &a));
	CHECK(a.status == AR_GRANTED && a.id == 4, "named 4");
	OK(ar_map(t, 0, T0, T0 + 3600, NULL, 0, acked_one, t));
	CHECK(check_says(t, "") == 0, "the untouched store has violations");
	OK(ar_txn_commit(t));
	key_u64(key1, 1);
	key_u64(key2, 2);
	pin_key(pin3, (T0 + 2400) / 60, 3);
	pin_key(pin4, (T0 + 2400) / 60, 4);

	/* 1 mapped onto 2's hosts. */
	OK(ar_txn_begin(s, AR_WRITE, T0, &t));
	OK(kv_get(t->txn, KV_MAP, &k, &v));
	len = v.size < sizeof(v1) ? v.size : sizeof(v1);
	memcpy(v1, v.data, len);
	OK(poke(t, KV_MAP, key1, 8, v1, len));
	CHECK(check_says(t, "mapped reservations 1 and 2 both hold host cn")
	    == 1, "an overlap in the kept mapping not told");
	ar_txn_abort(t);

	/* The same once they started: then the plan does not map. */
	OK(ar_txn_begin(s, AR_WRITE, T0 + 660, &t));
	OK(poke(t, KV_MAP, key1, 8, v1, len));
	CHECK(check_says(t, "the plan does not map: reservation") == 1,
	    "a started overlap not told");
	ar_txn_abort(t);

	/* A malformed entry: its header alone. */
	OK(ar_txn_begin(s, AR_WRITE, T0, &t));
	OK(poke(t, KV_MAP, key1, 8, v1, sizeof(struct disk_map)));
	CHECK(check_says(t, "map entry of reservation 1 is malformed") == 1,
	    "a malformed map entry not told");
	ar_txn_abort(t);

	/* A named reservation without its pin. */
	OK(ar_txn_begin(s, AR_WRITE, T0, &t));
	k = (struct kv_val){ 16, pin4 };
	OK(kv_del(t->txn, KV_PINS, &k, NULL));
	CHECK(check_says(t, "reservation 4 named its hosts but has no pin") ==
	    1, "a lost pin not told");
	CHECK(check_says(t, "the counters say 2 pins, there are 1") == 1,
	    "a pin count that is wrong not told");
	ar_txn_abort(t);

	/* 4 pinned on 3's hosts: the pins clash, 4's map entry is not its
	 * pin, the plan does not map. */
	OK(ar_txn_begin(s, AR_WRITE, T0, &t));
	k = (struct kv_val){ 16, pin3 };
	OK(kv_get(t->txn, KV_PINS, &k, &v));
	len = v.size < sizeof(v1) ? v.size : sizeof(v1);
	memcpy(v1, v.data, len);
	OK(poke(t, KV_PINS, pin4, 16, v1, len));
	CHECK(check_says(t, "pinned reservations 3 and 4 both hold host cn1")
	    == 1, "clashing pins not told");
	CHECK(check_says(t, "reservation 4's map entry is not its pin") == 1,
	    "a map entry off its pin not told");
	CHECK(check_says(t, "the plan does not map: reservation 4 finds no "
	    "hosts, 3 is in the way") == 1, "an unmappable plan not told");
	ar_txn_abort(t);

	/* A pin for a reservation that named nothing. */
	OK(ar_txn_begin(s, AR_WRITE, T0, &t));
	pin_key(pin3, (T0 + 1200) / 60, 1);
	OK(poke(t, KV_PINS, pin3, 16, v1, len));
	CHECK(check_says(t, "pin of reservation 1 does not match its record")
	    == 1, "a stray pin not told");
	ar_txn_abort(t);

	/* Host names that are not the nodes. */
	OK(ar_txn_begin(s, AR_WRITE, T0, &t));
	OK(poke(t, KV_META, "hosts", 5, "cn[1-5]", 8));
	CHECK(check_says(t, "the store's host list names 5 hosts, it has 6 "
	    "nodes") == 1, "a short host list not told");
	ar_txn_abort(t);

	/* An export entry of another reservation's size. */
	OK(ar_txn_begin(s, AR_WRITE, T0, &t));
	k = (struct kv_val){ 8, key1 };
	OK(kv_get(t->txn, KV_EXPORTED, &k, &v));
	len = v.size < sizeof(v1) ? v.size : sizeof(v1);
	memcpy(v1, v.data, len);
	memcpy(&d, v1, sizeof(d));
	d.nodes = 3;
	memcpy(v1, &d, sizeof(d));
	OK(poke(t, KV_EXPORTED, key1, 8, v1, len));
	CHECK(check_says(t, "export entry of reservation 1 is malformed") == 1,
	    "a malformed export entry not told");
	ar_txn_abort(t);
	ar_close(s);
	rm_store(dir);
}

int
main(void)
{
	if (suite_begin() != 0)
		return 1;
	test_hostsets();
	test_empty();
	test_tracked();
	test_tampered();
	test_table34();
	test_random();
	test_longest();
	return suite_end();
}
