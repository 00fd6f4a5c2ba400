/*
 * test_pools.c - partitions, features and borrowing (issue 23): on
 * random host descriptions and random requests, ar_add's grant against
 * a brute force that tries every eligible pool and every start, counting
 * each pool's hosts in use per slot; then every mapping ar_map gives
 * lies inside the reservation's pool and shares no host, and ar_check
 * finds nothing.  And the descriptions ar_create refuses.  Seeded; never
 * the clock.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ar.h"
#include "check.h"
#include "helpers.h"
#include "internal.h"           /* track_built: the fast path is there */
#include "pools.h"

#define SUITE "pools"
#include "suite.h"

#define SLOT 300
#define SLOTS 288               /* a day's horizon */
#define PLANNED_MAX 48          /* requests a named round makes */

/* A request from slot first to last, len slots long, of a partition
 * (-1: none) and features, moving nothing. */
static struct ar_request
pool_request(int64_t first, int64_t len, int64_t last, uint32_t nodes,
    int part, const char *feat)
{
	struct ar_request rq = request(T0 + first * SLOT, len * SLOT, nodes);

	rq.latest = T0 + last * SLOT;
	rq.flags = AR_NOMOVE;
	rq.partition = part < 0 ? NULL : pools_part_name[part];
	rq.features = feat;
	return rq;
}

/* A store of a random description, sp, under name. */
static ar_store *
round_store(struct spec *sp, const char *name)
{
	spec_make(sp, pick_rnd, NULL);
	return store_of(name, 0, NULL, sp->text);
}

/* ar_map: every reservation on as many hosts as its nodes, of its
 * pool, none sharing a host; and if the brute force's plan is known, it
 * is that plan, a named one on exactly the hosts it named. */
struct mapcheck {
	const uint64_t *pool_bits;
	const struct planned *plan;     /* NULL: not known */
	size_t n;
	uint64_t busy[SLOTS];
	size_t seen;
};

static int
map_one(const struct ar_mapped *m, void *arg)
{
	struct mapcheck *nc = arg;
	uint64_t bits = 0;
	size_t i;

	for (size_t h = 0; h < m->nhosts; h++)
		bits |= UINT64_C(1) << m->hosts[h];
	nc->seen++;
	CHECK(m->nhosts == m->r.nodes && (bits & ~nc->pool_bits[m->r.pool])
	    == 0, "reservation %" PRIu64 " mapped on %zu hosts, or off its "
	    "pool %" PRIu32, m->r.id, m->nhosts, m->r.pool);
	for (i = 0; nc->plan != NULL && i < nc->n &&
	    nc->plan[i].id != m->r.id; i++)
		;
	CHECK(nc->plan == NULL || i < nc->n, "reservation %" PRIu64
	    " is not in the plan", m->r.id);
	CHECK(nc->plan == NULL || i == nc->n || (m->r.pool ==
	    nc->plan[i].pool && (nc->plan[i].named == 0 ||
	    nc->plan[i].named == bits)), "reservation %" PRIu64 " is not in "
	    "its pool, or not on the hosts it named", m->r.id);
	for (int64_t s = (m->r.start - T0) / SLOT; s < (m->r.end - T0) / SLOT;
	    s++) {
		CHECK((nc->busy[s] & bits) == 0, "reservation %" PRIu64
		    " shares a host at slot %" PRId64, m->r.id, s);
		nc->busy[s] |= bits;
	}
	return 0;
}

static void
test_random_round(int round)
{
	static uint32_t used[POOLS_MAX][SLOTS];
	static struct mapcheck mc;
	uint64_t pool_bits[POOLS_MAX];
	struct spec sp;
	const struct ar_partition *parts;
	const struct ar_pool *pools;
	char feat[8];
	size_t np, nk;
	ar_store *s = round_store(&sp, "random");
	ar_txn *t;

	memset(used, 0, sizeof(used));
	OK(ar_txn_begin(s, AR_WRITE, T0, &t));
	OK(ar_layout(t, &parts, &np, &pools, &nk));
	CHECK(np == POOLS_PARTS &&
	    strcmp(parts[0].name, pools_part_name[sp.deflt]) == 0,
	    "round %d: the default partition is not first", round);
	for (int i = 0; i < 40; i++) {
		struct ar_request rq;
		struct ar_answer a;
		struct ar_resv r;
		uint32_t el[POOLS_MAX], best = UINT32_MAX;
		int64_t first = (int64_t)rnd(60), len = 1 + (int64_t)rnd(6);
		int64_t last = first + (int64_t)rnd(20), bs;
		int part = rnd(4) == 0 ? -1 : (int)rnd(POOLS_PARTS);
		size_t ne;

		snprintf(feat, sizeof(feat), "%s", pools_feature_set[rnd(3)]);
		rq = pool_request(first, len, last, 1 + (uint32_t)rnd(5),
		    part, feat);
		ne = eligible(&sp, parts, np, pools, nk, part, feat, el);
		bs = brute_pool(&used[0][0], SLOTS, pools, el, ne, rq.nodes,
		    first, last, len, &best);
		/* A feature no host has is bad input. */
		if (!known(pools, nk, feat)) {
			CHECK(ar_add(t, &rq, &a) == EINVAL, "round %d request "
			    "%d: features %s, which no host has", round, i,
			    feat);
			continue;
		}
		OK(ar_add(t, &rq, &a));
		CHECK((a.status == AR_GRANTED) == (bs != -1), "round %d "
		    "request %d: %s, the brute force %s", round, i,
		    ar_status_name(a.status), bs != -1 ? "grants" : "refuses");
		if (a.status != AR_GRANTED || bs == -1)
			continue;
		OK(ar_get(t, a.id, &r));
		CHECK(a.start == T0 + bs * SLOT && r.pool == best, "round %d "
		    "request %d: slot %" PRId64 " pool %" PRIu32 ", the brute "
		    "force slot %" PRId64 " pool %" PRIu32, round, i,
		    (a.start - T0) / SLOT, r.pool, bs, best);
		for (int64_t x = (r.start - T0) / SLOT; x < (r.end - T0) / SLOT;
		    x++)
			used[r.pool][x] += r.nodes;
	}
	CHECK(violations(t) == 0, "round %d: violations", round);
	OK(ar_txn_commit(t));
	/* Every reservation mapped inside its pool. */
	OK(ar_txn_begin(s, 0, T0, &t));
	OK(ar_layout(t, &parts, &np, &pools, &nk));
	OK(pool_host_bits(t, pools, nk, pool_bits));
	memset(&mc, 0, sizeof(mc));
	mc.pool_bits = pool_bits;
	OK(ar_map(t, 0, T0, T0 + 86400, NULL, 0, map_one, &mc));
	ar_txn_abort(t);
	done(s, "random");
}

/*
 * Booking limits per partition (format 10): three price classes by
 * book-ahead, store-wide limits, and random partitions with limits of
 * their own; random requests of each class, and cancels.  The brute
 * force counts, slot by slot, each pool's nodes, each class's (and
 * cheaper) nodes in the whole store and in each partition, the one a
 * reservation's pool is of (borrowed ones count in the lender's), and
 * grants the first start in the first pool where the nodes fit and
 * every class from 2 to the request's stays within its partition's
 * limit if the partition has limits, else the store's.  Midway the
 * policies change, the store's counts kept.
 */
#define LCLASSES 3

struct limits_model {
	uint32_t used[POOLS_MAX][SLOTS];
	uint32_t store_cls[LCLASSES + 1][SLOTS];        /* [i]: classes >= i */
	uint32_t part_cls[POOLS_PARTS][LCLASSES + 1][SLOTS];
	uint32_t store_lim[LCLASSES];
	struct ar_part_policy pol[POOLS_PARTS];
};

/* The class of a request starting at slot first, the store clock T0:
 * ahead under 2h class 1, under 6h class 2, else 3. */
static uint32_t
class_at(int64_t first)
{
	return first * SLOT < 2 * HOUR ? 1 : first * SLOT < 6 * HOUR ? 2 : 3;
}

/* Do need nodes of class cls fit in pool k at slots [s, s + len)? */
static int
limits_fit(const struct limits_model *lm, const struct ar_pool *pools,
    uint32_t k, uint32_t cls, int64_t s, int64_t len, uint32_t need)
{
	uint32_t p = pools[k].partition;

	for (int64_t x = s; x < s + len; x++) {
		if (lm->used[k][x] + need > pools[k].count)
			return 0;
		for (uint32_t i = 2; i <= cls; i++)
			if (lm->pol[p].n > 0 ? lm->part_cls[p][i][x] + need >
			    lm->pol[p].limit[i - 1] : lm->store_cls[i][x] +
			    need > lm->store_lim[i - 1])
				return 0;
	}
	return 1;
}

/* Count (sign 1) or uncount (-1) reservation r in the model. */
static void
limits_count(struct limits_model *lm, const struct ar_pool *pools,
    const struct ar_resv *r, int sign)
{
	uint32_t p = pools[r->pool].partition;

	for (int64_t x = (r->start - T0) / SLOT; x < (r->end - T0) / SLOT;
	    x++) {
		lm->used[r->pool][x] += (uint32_t)(sign * (int)r->nodes);
		for (uint32_t i = 2; i <= r->cls; i++) {
			lm->store_cls[i][x] += (uint32_t)(sign * (int)r->nodes);
			lm->part_cls[p][i][x] += (uint32_t)(sign *
			    (int)r->nodes);
		}
	}
}

/* A random policy for partition p of hosts hosts: limits two times in
 * three, a grace one time in three. */
static void
limits_policy(struct ar_part_policy *pol, uint64_t hosts)
{
	memset(pol, 0, sizeof(*pol));
	if (rnd(3) != 0) {
		pol->n = LCLASSES;
		pol->limit[0] = (uint32_t)hosts;
		pol->limit[1] = (uint32_t)rnd(hosts + 1);
		pol->limit[2] = (uint32_t)rnd(pol->limit[1] + 1);
	}
	if (rnd(3) == 0)
		pol->grace = 600 * (1 + (int64_t)rnd(3));
}

static void
limits_set(ar_txn *t, struct limits_model *lm,
    const struct ar_partition *parts, size_t np, int round)
{
	size_t bad;
	const char *field;

	for (uint32_t p = 0; p < np; p++) {
		struct ar_part_policy got;

		limits_policy(&lm->pol[p], parts[p].hosts);
		CHECK(ar_set_partition_policy(t, p, &lm->pol[p], &bad,
		    &field) == 0, "round %d: partition %s's policy refused",
		    round, parts[p].name);
		OK(ar_partition_policy(t, p, &got));
		CHECK(memcmp(&got, &lm->pol[p], sizeof(got)) == 0,
		    "round %d: partition %s's policy is not what was set",
		    round, parts[p].name);
	}
}

static struct {
	uint64_t granted, refused, booking;
} limits_tally;

/* The classes of a round, in write transaction t: three by book-ahead
 * (class_at), the store's limits random (nested) if tight, else every
 * node; then each partition's random policy.  The model's, too. */
static void
limits_begin(ar_txn *t, struct limits_model *lm, int tight, int round)
{
	const struct ar_partition *parts;
	const struct ar_pool *pools;
	struct ar_pricing pr;
	size_t np, nk, bad;
	const char *field;
	uint32_t nodes = 0;

	memset(lm, 0, sizeof(*lm));
	OK(ar_layout(t, &parts, &np, &pools, &nk));
	for (size_t k = 0; k < nk; k++)
		nodes += pools[k].count;
	memset(&pr, 0, sizeof(pr));
	pr.n = LCLASSES;
	pr.retention = 86400;
	for (int i = 0; i < LCLASSES; i++) {
		pr.c[i].price = 30 - 10 * i;
		pr.c[i].ahead_min = i == 0 ? 0 : i == 1 ? 2 * HOUR : 6 * HOUR;
		pr.c[i].ahead_max = i == 0 ? 2 * HOUR : i == 1 ? 6 * HOUR : -1;
	}
	pr.c[0].limit = lm->store_lim[0] = nodes;
	pr.c[1].limit = lm->store_lim[1] = tight ? (uint32_t)rnd(nodes + 1) :
	    nodes;
	pr.c[2].limit = lm->store_lim[2] = tight ?
	    (uint32_t)rnd(pr.c[1].limit + 1) : nodes;
	OK(ar_set_pricing(t, &pr, &bad, &field));
	limits_set(t, lm, parts, np, round);
}

static void
test_limits_round(int round)
{
	static struct limits_model lm;
	static uint64_t ids[64];
	struct spec sp;
	const struct ar_partition *parts;
	const struct ar_pool *pools;
	size_t np, nk, nids = 0;
	ar_store *s = round_store(&sp, "limits");
	ar_txn *t;

	OK(ar_txn_begin(s, AR_WRITE, T0, &t));
	limits_begin(t, &lm, 1, round);
	OK(ar_layout(t, &parts, &np, &pools, &nk));
	for (int i = 0; i < 60; i++) {
		struct ar_request rq;
		struct ar_answer a;
		struct ar_resv r;
		uint32_t el[POOLS_MAX], best = UINT32_MAX, cls;
		int64_t first = (int64_t)rnd(150), len = 1 + (int64_t)rnd(12);
		int64_t last = first + (int64_t)rnd(10), bs = -1;
		int part = rnd(4) == 0 ? -1 : (int)rnd(POOLS_PARTS);
		size_t ne;

		/* Midway, in a transaction of its own, new policies. */
		if (i == 30) {
			CHECK(violations(t) == 0, "round %d: violations",
			    round);
			OK(ar_txn_commit(t));
			OK(ar_txn_begin(s, AR_WRITE, T0, &t));
			OK(ar_layout(t, &parts, &np, &pools, &nk));
			limits_set(t, &lm, parts, np, round);
			CHECK(violations(t) == 0, "round %d: violations after "
			    "new policies", round);
		}
		if (nids > 0 && rnd(6) == 0) {
			size_t k = rnd(nids);

			OK(ar_cancel(t, ids[k], 0, &r));
			limits_count(&lm, pools, &r, -1);
			ids[k] = ids[--nids];
			continue;
		}
		rq = pool_request(first, len, last, 1 + (uint32_t)rnd(4),
		    part, "");
		cls = class_at(first);
		ne = eligible(&sp, parts, np, pools, nk, part, "", el);
		for (size_t k = 0; k < ne; k++)
			for (int64_t x = first; x <= last && (bs == -1 ||
			    x < bs); x++)
				if (limits_fit(&lm, pools, el[k], cls, x, len,
				    rq.nodes)) {
					bs = x;
					best = el[k];
					break;
				}
		OK(ar_add(t, &rq, &a));
		CHECK((a.status == AR_GRANTED) == (bs != -1), "round %d "
		    "request %d (class %" PRIu32 "): %s, the brute force %s",
		    round, i, cls, ar_status_name(a.status), bs != -1 ?
		    "grants" : "refuses");
		if (a.status != AR_GRANTED) {
			limits_tally.refused++;
			limits_tally.booking += a.reason == AR_R_BOOKING;
			continue;
		}
		limits_tally.granted++;
		if (bs == -1)
			continue;
		OK(ar_get(t, a.id, &r));
		CHECK(a.start == T0 + bs * SLOT && r.pool == best &&
		    r.cls == cls, "round %d request %d: slot %" PRId64 " pool %"
		    PRIu32 " class %" PRIu32 ", the brute force slot %" PRId64
		    " pool %" PRIu32 " class %" PRIu32, round, i,
		    (a.start - T0) / SLOT, r.pool, r.cls, bs, best, cls);
		limits_count(&lm, pools, &r, 1);
		ids[nids++] = r.id;
	}
	CHECK(violations(t) == 0, "round %d: violations", round);
	OK(ar_txn_commit(t));
	done(s, "limits");
}

/*
 * The same limits with moves: requests with windows that may move
 * others (some copies several), and cancels, the policies set before
 * any booking.  Whatever ar_add moves to make room, every partition
 * with limits stays within them at every slot, counted from the
 * records; and ar_check agrees with the rings.
 */
static void
test_limits_moves_round(int round)
{
	static struct limits_model lm;
	static uint64_t ids[80];
	struct spec sp;
	const struct ar_partition *parts;
	const struct ar_pool *pools;
	size_t np, nk, nids = 0;
	ar_store *s = round_store(&sp, "limits_moves");
	ar_txn *t;

	OK(ar_txn_begin(s, AR_WRITE, T0, &t));
	limits_begin(t, &lm, 0, round);
	OK(ar_layout(t, &parts, &np, &pools, &nk));
	for (int i = 0; i < 80; i++) {
		struct ar_request rq;
		struct ar_answer a;
		struct ar_resv r;
		/* One declarator after another: the same draws in the same
		 * order whatever the compiler (arguments have none). */
		int64_t first = (int64_t)rnd(150), len = 1 + (int64_t)rnd(12);
		int64_t last = first + (int64_t)rnd(30);
		uint32_t nodes = 1 + (uint32_t)rnd(3);
		int part = rnd(4) == 0 ? -1 : (int)rnd(POOLS_PARTS);

		if (nids > 0 && rnd(8) == 0) {
			size_t k = rnd(nids);

			OK(ar_cancel(t, ids[k], 0, &r));
			ids[k] = ids[--nids];
			continue;
		}
		rq = pool_request(first, len, last, nodes, part, "");
		rq.flags = rnd(2) ? 0 : AR_LATER;
		rq.jobs = 1 + (uint32_t)rnd(2);
		OK(ar_add(t, &rq, &a));
		if (a.status == AR_GRANTED)
			ids[nids++] = a.id;
	}
	/* The records, counted per partition and class, slot by slot. */
	memset(lm.part_cls, 0, sizeof(lm.part_cls));
	for (uint64_t id = 1; ; id++) {
		struct ar_resv r;
		int rc = ar_get(t, id, &r);

		if (rc == AR_ENOTFOUND)
			break;
		OK(rc);
		if (r.state == AR_GRANTED)
			limits_count(&lm, pools, &r, 1);
	}
	for (uint32_t p = 0; p < np; p++)
		for (uint32_t c = 2; c <= lm.pol[p].n; c++)
			for (int64_t x = 0; x < SLOTS; x++)
				CHECK(lm.part_cls[p][c][x] <= lm.pol[p].limit[c - 1],
				    "round %d: partition %s, class %" PRIu32
				    " and cheaper hold %" PRIu32 " nodes at slot %"
				    PRId64 ", over its limit %" PRIu32, round,
				    parts[p].name, c, lm.part_cls[p][c][x], x,
				    lm.pol[p].limit[c - 1]);
	CHECK(violations(t) == 0, "round %d: violations", round);
	OK(ar_txn_commit(t));
	done(s, "limits_moves");
}

/*
 * Named hosts in a store of several pools.  The brute force knows every
 * reservation's pool, interval, size and named hosts, and decides
 * whether a pool's part of the plan maps by trying every arrangement of
 * its plain reservations, by start, on the pool's hosts around the
 * named ones (pools have at most 4 hosts): tests/pools.h.
 */

/* Counts over all rounds, for the line the suite prints. */
static struct {
	uint64_t named, granted_named, plain, bad_input, undecided, cautious;
	uint64_t maint, won, displaced;
} named_tally;

/*
 * Maintenance that wins (flags=maint, AR_FORCE) asked as c at its one
 * start, answered a: granted, what it displaced was of its pool, named
 * no hosts and leaves the plan, and the pool maps with the maintenance
 * on its hosts (as far as the brute force decides); refused, a named
 * reservation of the plan holds one of its hosts then.  The plan and
 * the counts follow; the new length of the plan.
 */
static size_t
maint_answered(ar_txn *t, int round, int i, uint32_t used[][SLOTS],
    uint32_t cap, struct planned *plan, size_t n, const struct planned *c,
    uint64_t pool_bits, const struct ar_answer *a)
{
	const uint64_t *ids;
	size_t nd, kept = 0, k;

	if (a->status != AR_GRANTED) {
		for (k = 0; k < n && plan[k].id != a->conflict; k++)
			;
		CHECK(a->reason == AR_R_HOSTS && k < n && (plan[k].named &
		    c->named) != 0 && plan[k].s < c->e && c->s < plan[k].e,
		    "round %d request %d: maintenance refused (%s), no named "
		    "reservation on its hosts", round, i,
		    ar_reason_name(a->reason));
		return n;
	}
	named_tally.won++;
	ar_displaced(t, &ids, &nd);
	for (size_t d = 0; d < nd; d++) {
		struct ar_resv r;

		for (k = 0; k < n && plan[k].id != ids[d]; k++)
			;
		OK(ar_get(t, ids[d], &r));
		CHECK(k < n && plan[k].pool == c->pool && plan[k].named == 0 &&
		    r.state == AR_CANCELLED, "round %d request %d: displaced "
		    "%" PRIu64 " is not a plain reservation of the pool, "
		    "cancelled", round, i, ids[d]);
		if (k == n)
			continue;
		for (int64_t x = plan[k].s; x < plan[k].e; x++)
			used[plan[k].pool][x] -= plan[k].nodes;
		plan[k].id = 0;
		named_tally.displaced++;
	}
	for (k = 0; k < n; k++)
		if (plan[k].id != 0)
			plan[kept++] = plan[k];
	for (int64_t x = c->s; x < c->e; x++)
		CHECK(used[c->pool][x] + c->nodes <= cap, "round %d request "
		    "%d: the maintenance over its pool's hosts at slot %"
		    PRId64, round, i, x);
	CHECK(maps_with(plan, kept, c, c->pool, pool_bits) != 0, "round %d "
	    "request %d: the maintenance granted where its pool does not "
	    "map", round, i);
	return kept;
}

static void
test_named_round(int round)
{
	static uint32_t used[POOLS_MAX][SLOTS];
	static struct planned plan[PLANNED_MAX];
	static struct mapcheck nc;
	uint64_t pool_bits[POOLS_MAX];
	struct spec sp;
	const struct ar_partition *parts;
	const struct ar_pool *pools;
	char feat[8];
	size_t np, nk, n = 0;
	ar_store *s = round_store(&sp, "named");
	ar_txn *t;
	int built, pinned = 0;

	memset(used, 0, sizeof(used));
	OK(ar_txn_begin(s, AR_WRITE, T0, &t));
	OK(ar_layout(t, &parts, &np, &pools, &nk));
	OK(pool_host_bits(t, pools, nk, pool_bits));
	for (int i = 0; i < PLANNED_MAX; i++) {
		struct ar_request rq;
		struct ar_answer a;
		struct planned c = { 0 };
		uint32_t hosts[64], k = (uint32_t)rnd(nk), el[POOLS_MAX];
		/* From slot 1: none starts at the clock, whose hosts then
		 * stay as they are (map.c). */
		int64_t first = 1 + (int64_t)rnd(60), len = 1 + (int64_t)rnd(6);
		int64_t last = first + (int64_t)rnd(20), bs = -1;
		int part = rnd(4) == 0 ? -1 : (int)rnd(POOLS_PARTS), bad = 0;
		size_t ne;

		snprintf(feat, sizeof(feat), "%s", pools_feature_set[rnd(3)]);
		rq = pool_request(first, len, last, 1 + (uint32_t)rnd(4),
		    part, feat);
		if (!known(pools, nk, feat))
			continue;
		c.s = first;
		c.e = first + len;
		if (rnd(2) == 0) {
			/* Named: hosts of pool k, or now and then of two
			 * pools; a partition or features it may not have. */
			for (uint32_t h = 0; h < 64; h++)
				if ((pool_bits[k] >> h & 1) && rnd(2))
					c.named |= UINT64_C(1) << h;
			if (c.named == 0)
				c.named = pool_bits[k] & -pool_bits[k];
			/* Mostly a partition and features that agree. */
			if (rnd(4) != 0) {
				part = rnd(2) ? -1 : part_index_of(
				    parts[pools[k].partition].name);
				snprintf(feat, sizeof(feat), "%s", rnd(2) ?
				    pools[k].features : "");
			}
			rq.partition = part < 0 ? NULL : pools_part_name[part];
			if (rnd(8) == 0 && nk > 1) {
				uint32_t o = (k + 1 + (uint32_t)rnd(nk - 1)) %
				    (uint32_t)nk;

				c.named |= pool_bits[o] & -pool_bits[o];
				bad = 1;
			}
			bad |= name_hosts(&rq, hosts, c.named, parts, np,
			    pools, k, part, feat);
			/* Now and then maintenance that wins, at one start. */
			if (!bad && rnd(4) == 0) {
				rq.resv_flags = AR_RESV_MAINT;
				rq.flags |= AR_FORCE;
				rq.latest = rq.earliest;
				last = first;
			}
			if (bad) {
				CHECK(ar_add(t, &rq, &a) == EINVAL, "round %d "
				    "request %d: named hosts outside the "
				    "request's pool taken", round, i);
				named_tally.bad_input++;
				continue;
			}
			c.pool = k;
			named_tally.named++;
		} else {
			/* Plain: the pool the rings choose (the earliest
			 * start by count, as test_random_round finds it),
			 * then the first start there that maps. */
			ne = eligible(&sp, parts, np, pools, nk, part, feat,
			    el);
			bs = brute_pool(&used[0][0], SLOTS, pools, el, ne,
			    rq.nodes, first, last, len, &c.pool);
			named_tally.plain++;
		}
		c.nodes = rq.nodes;
		if (c.named != 0 || bs != -1)
			bs = brute_mapped(&used[0][0], SLOTS,
			    pools[c.pool].count, plan, n, c,
			    pool_bits[c.pool], c.named != 0 ? first : bs,
			    last);
		OK(ar_add(t, &rq, &a));
		if (rq.resv_flags & AR_RESV_MAINT) {
			named_tally.maint++;
			c.id = a.id;
			n = maint_answered(t, round, i, used,
			    pools[c.pool].count, plan, n, &c, pool_bits[c.pool],
			    &a);
			if (a.status == AR_GRANTED) {
				pinned = 1;
				plan[n++] = c;
				for (int64_t x = c.s; x < c.e; x++)
					used[c.pool][x] += c.nodes;
			}
			CHECK(violations(t) == 0, "round %d request %d: "
			    "violations", round, i);
			continue;
		}
		if (bs == -2)
			named_tally.undecided++;
		else if (a.status == AR_GRANTED ? bs < 0 ||
		    a.start != T0 + bs * SLOT : bs >= 0) {
			/* Only the sweep's known caution (cmd/ar-add.1,
			 * PARTITIONS): later, or refused for the hosts,
			 * where an arrangement the greedy sweep does not
			 * find holds it. */
			CHECK(bs >= 0 && (a.status == AR_GRANTED ? a.start >
			    T0 + bs * SLOT : a.reason == AR_R_HOSTS),
			    "round %d request %d (%s, pool %" PRIu32 "): %s "
			    "at slot %" PRId64 ", the brute force %s %" PRId64,
			    round, i, c.named ? "named" : "plain", c.pool,
			    ar_status_name(a.status), (a.start - T0) / SLOT,
			    bs >= 0 ? "grants at" : "refuses", bs);
			named_tally.cautious++;
		}
		if (a.status != AR_GRANTED)
			continue;
		/* What it grants, the brute force finds room for. */
		c.s = (a.start - T0) / SLOT;
		c.e = c.s + len;
		CHECK(bs != -1 && brute_mapped(&used[0][0], SLOTS,
		    pools[c.pool].count, plan, n, c, pool_bits[c.pool], c.s,
		    c.s) == c.s, "round %d "
		    "request %d: granted at slot %" PRId64 " where the plan "
		    "does not map", round, i, c.s);
		CHECK(a.pool == c.pool, "round %d request %d: pool %" PRIu32
		    ", the brute force's %" PRIu32, round, i, a.pool, c.pool);
		named_tally.granted_named += c.named != 0;
		c.id = a.id;
		plan[n++] = c;
		for (int64_t x = c.s; x < c.e; x++)
			used[c.pool][x] += c.nodes;
		pinned |= c.named != 0;
	}
	CHECK(violations(t) == 0, "round %d: violations", round);
	/* Named hosts in the plan: tracked in their pools, so that a plain
	 * request is admitted without mapping the plan. */
	OK(track_built(t, &built));
	CHECK(built || !pinned, "round %d: named hosts in a store of %zu "
	    "pools, not tracked", round, nk);
	OK(ar_txn_commit(t));
	/* Every reservation on hosts of its pool, the named on theirs. */
	OK(ar_txn_begin(s, 0, T0, &t));
	memset(&nc, 0, sizeof(nc));
	nc.pool_bits = pool_bits;
	nc.plan = plan;
	nc.n = n;
	OK(ar_map(t, 0, T0, T0 + 86400, NULL, 0, map_one, &nc));
	CHECK(nc.seen == n, "round %d: ar_map told %zu of %zu", round,
	    nc.seen, n);
	ar_txn_abort(t);
	done(s, "named");
}

/*
 * Tracked hosts in pool 1 of two (test_map's test_tracked, there): the
 * maintenance names two hosts of partition b; a plain request of b that
 * the pool's counts allow with them idle is granted on a tracked host's
 * free time, held explicitly, while partition a's hosts stay all a's;
 * maintenance that wins over a plain reservation of b moves it, or
 * displaces it, and the tracking stays right (ar_check) throughout.
 */
static void
test_tracked_pool(void)
{
	static const char layout[] = "hosts=a[1-4] partition=a\n"
	    "hosts=b[1-8] partition=b\npartition=a default=yes\n";
	const struct ar_partition *parts;
	const struct ar_pool *pools;
	uint64_t bits[2];
	uint32_t b[64], named[2];
	struct ar_request rq = request(T0 + 1800, 1800, 2);
	struct hostset ex = { 0 };
	struct ar_answer a;
	struct ar_resv r;
	const uint64_t *ids;
	size_t np, nk, nd;
	ar_store *s = store_of("tracked", 0, NULL, layout);
	ar_txn *t;
	int built;

	OK(ar_txn_begin(s, AR_WRITE, T0, &t));
	OK(ar_layout(t, &parts, &np, &pools, &nk));
	CHECK(nk == 2 && strcmp(parts[pools[1].partition].name, "b") == 0,
	    "pool 1 is not partition b's");
	OK(pool_host_bits(t, pools, nk, bits));
	CHECK(bits_hosts(bits[1], b) == 8, "pool 1 has not b's 8 hosts");
	named[0] = b[2];
	named[1] = b[3];
	rq.hosts = named;
	rq.nhosts = 2;
	rq.flags = AR_NOMOVE;
	rq.resv_flags = AR_RESV_MAINT;
	OK(ar_add(t, &rq, &a));
	CHECK(a.status == AR_GRANTED && a.pool == 1, "the maintenance: %d "
	    "pool %" PRIu32, a.status, a.pool);
	OK(track_built(t, &built));
	CHECK(built, "the named hosts of pool 1 are not tracked");
	rq.hosts = NULL;
	rq.nhosts = 0;
	rq.resv_flags = 0;
	rq.partition = "b";
	rq.nodes = 6;           /* beside the maintenance: the rest of b */
	OK(ar_add(t, &rq, &a));
	CHECK(a.status == AR_GRANTED && a.pool == 1, "6 beside the "
	    "maintenance: %d", a.status);
	rq.nodes = 1;
	OK(ar_add(t, &rq, &a));
	CHECK(a.status == AR_REFUSED, "a ninth host of b granted");
	rq.partition = NULL;
	rq.nodes = 4;           /* a's hosts are all a's */
	OK(ar_add(t, &rq, &a));
	CHECK(a.status == AR_GRANTED && a.pool == 0, "4 of a: %d",
	    a.status);
	/* Before the maintenance: 6 fit b's untracked hosts, 7 only on a
	 * tracked host's free time. */
	rq.partition = "b";
	rq.earliest = rq.latest = T0 + 600;
	rq.duration = 600;
	rq.nodes = 6;
	OK(ar_add(t, &rq, &a));
	CHECK(a.status == AR_GRANTED, "6 of b: %d", a.status);
	rq.earliest = rq.latest = T0 + 1200;
	rq.nodes = 7;
	OK(ar_add(t, &rq, &a));
	CHECK(a.status == AR_GRANTED, "7 on a tracked host: %d", a.status);
	OK(track_explicit(t, a.id, (T0 + 1200) / SLOT, (T0 + 1800) / SLOT,
	    &ex));
	CHECK(hostset_count(&ex) >= 1, "7 hold no tracked host explicitly");
	CHECK(violations(t) == 0, "violations with pool 1's tracked hosts");
	/* It goes: its explicit uses with it, pool 1's hosts idle there. */
	OK(ar_cancel(t, a.id, 0, &r));
	CHECK(violations(t) == 0, "violations after a cancel in pool 1");
	/* Maintenance that wins, on b's first two hosts over the 6 of b:
	 * they move to the hosts left, or it displaces them. */
	named[0] = b[0];
	named[1] = b[1];
	rq.hosts = named;
	rq.nhosts = 2;
	rq.nodes = 2;
	rq.partition = NULL;
	rq.resv_flags = AR_RESV_MAINT;
	rq.flags = AR_NOMOVE | AR_FORCE;
	rq.earliest = rq.latest = T0 + 600;
	OK(ar_add(t, &rq, &a));
	ar_displaced(t, &ids, &nd);
	CHECK(a.status == AR_GRANTED && nd == 0, "the maintenance that "
	    "wins: %d, %zu displaced", a.status, nd);
	CHECK(violations(t) == 0, "violations after the maintenance won");
	OK(track_built(t, &built));
	CHECK(built, "the tracking is gone after the maintenance won");
	hostset_free(&ex);
	OK(ar_txn_commit(t));
	done(s, "tracked");
}

/*
 * Tracked hosts of two pools whose order is not their hosts' order: a
 * maintenance of each names a host far on, so one of pool 0 (its hosts
 * listed after pool 1's) and one of pool 1 are tracked; a plain
 * reservation R takes all of pool 1 before its maintenance and holds its
 * tracked host explicitly.  Maintenance forced onto another host of pool
 * 1 while R runs must displace R: the pool has no host for both.  With
 * the tracked hosts swept in pool order, pool 1's tracked host stayed
 * among those R may take, the sweep mapped R on three hosts and the
 * grant overflowed pool 1's ring (the store is corrupt).
 */
static void
test_tracked_order(void)
{
	/* The default's pool is pool 0: b's, on hosts after a's. */
	static const char layout[] = "hosts=a[1-4] partition=a\n"
	    "hosts=b[1-4] partition=b\npartition=b default=yes\n";
	const struct ar_partition *parts;
	const struct ar_pool *pools;
	uint64_t bits[2];
	uint32_t h0[64], h1[64], n0, n1, named;
	struct ar_request rq = request(T0 + 40 * SLOT, SLOT, 1);
	struct ar_answer a;
	const uint64_t *ids;
	uint64_t rid;
	size_t np, nk, nd;
	ar_store *s = store_of("order", 0, NULL, layout);
	ar_txn *t;
	int built;

	OK(ar_txn_begin(s, AR_WRITE, T0, &t));
	OK(ar_layout(t, &parts, &np, &pools, &nk));
	OK(pool_host_bits(t, pools, nk, bits));
	n0 = bits_hosts(bits[0], h0);
	n1 = bits_hosts(bits[1], h1);
	CHECK(nk == 2 && n0 == 4 && n1 == 4 && h0[0] > h1[3], "pool 0's "
	    "hosts are not all after pool 1's");
	rq.resv_flags = AR_RESV_MAINT;
	rq.flags = AR_NOMOVE;
	rq.hosts = &named;
	rq.nhosts = 1;
	named = h0[1];
	OK(ar_add(t, &rq, &a));
	CHECK(a.status == AR_GRANTED && a.pool == 0, "pool 0's maintenance: "
	    "%d", a.status);
	rq.earliest = rq.latest = T0 + 30 * SLOT;
	named = h1[1];
	OK(ar_add(t, &rq, &a));
	CHECK(a.status == AR_GRANTED && a.pool == 1, "pool 1's maintenance: "
	    "%d", a.status);
	OK(track_built(t, &built));
	CHECK(built, "the named hosts are not tracked");
	/* R: all of pool 1, slots 10 to 15, on its tracked host too. */
	rq = request(T0 + 10 * SLOT, 5 * SLOT, 4);
	rq.partition = parts[pools[1].partition].name;
	OK(ar_add(t, &rq, &a));
	CHECK(a.status == AR_GRANTED && a.pool == 1, "R: %d", a.status);
	rid = a.id;
	OK(track_built(t, &built));
	CHECK(built && violations(t) == 0, "R: not tracked, or violations");
	/* Maintenance on another host of pool 1, slots 14 to 16, forced. */
	rq = request(T0 + 14 * SLOT, 2 * SLOT, 1);
	rq.resv_flags = AR_RESV_MAINT;
	rq.flags = AR_NOMOVE | AR_FORCE;
	rq.hosts = &named;
	rq.nhosts = 1;
	named = h1[0];
	CHECK(ar_add(t, &rq, &a) == 0, "the forced maintenance: the store "
	    "is corrupt");
	ar_displaced(t, &ids, &nd);
	CHECK(a.status == AR_GRANTED && nd == 1 && ids[0] == rid, "the "
	    "forced maintenance: %d, %zu displaced, not R", a.status, nd);
	CHECK(violations(t) == 0, "violations after the maintenance won");
	OK(ar_txn_commit(t));
	done(s, "order");
}

/*
 * Maintenance that wins displaces only what it overlaps (fuzz_model's
 * maint-displace-outside).  Partition b of three hosts: R, one node over
 * slots 47 to 51, mapped on b1; L, two nodes over 50 to 55, on b2 and b3;
 * a pin on b1 from 51 keeps b1 from L.  Maintenance forced onto b1 over
 * 47 to 50 moves R onto b2 or b3, where L then finds too few hosts: R,
 * which it overlaps, cannot be kept, and is displaced; L, which starts
 * when it ends, keeps its hosts.  The sweep displaced L, the first to
 * find no hosts.
 */
static void
test_maint_outside(void)
{
	static const char layout[] = "hosts=a[1-2] partition=a\n"
	    "hosts=b[1-3] partition=b\npartition=a default=yes\n";
	const struct ar_partition *parts;
	const struct ar_pool *pools;
	uint64_t bits[2], rid, lid;
	uint32_t b[64];
	struct ar_request rq;
	struct ar_answer a;
	struct ar_resv r;
	const uint64_t *ids;
	size_t np, nk, nd;
	ar_store *s = store_of("outside", 0, NULL, layout);
	ar_txn *t;

	OK(ar_txn_begin(s, AR_WRITE, T0, &t));
	OK(ar_layout(t, &parts, &np, &pools, &nk));
	OK(pool_host_bits(t, pools, nk, bits));
	CHECK(nk == 2 && strcmp(parts[pools[1].partition].name, "b") == 0 &&
	    bits_hosts(bits[1], b) == 3, "pool 1 is not b's 3 hosts");
	rq = pool_request(47, 4, 47, 1, -1, NULL);
	rq.partition = "b";
	OK(ar_add(t, &rq, &a));
	CHECK(a.status == AR_GRANTED && a.pool == 1, "R: %d", a.status);
	rid = a.id;
	rq = pool_request(50, 5, 50, 2, -1, NULL);
	rq.partition = "b";
	OK(ar_add(t, &rq, &a));
	CHECK(a.status == AR_GRANTED && a.pool == 1, "L: %d", a.status);
	lid = a.id;
	rq = pool_request(51, 5, 51, 1, -1, NULL);
	rq.hosts = &b[0];
	rq.nhosts = 1;
	OK(ar_add(t, &rq, &a));
	CHECK(a.status == AR_GRANTED, "the pin on b1: %d", a.status);
	CHECK(violations(t) == 0, "violations before the maintenance");
	rq = pool_request(47, 3, 47, 1, -1, NULL);
	rq.hosts = &b[0];
	rq.nhosts = 1;
	rq.resv_flags = AR_RESV_MAINT;
	rq.flags = AR_NOMOVE | AR_FORCE;
	OK(ar_add(t, &rq, &a));
	ar_displaced(t, &ids, &nd);
	CHECK(a.status == AR_GRANTED && nd == 1 && ids[0] == rid, "the "
	    "forced maintenance: %d, %zu displaced (%" PRIu64 "), not R "
	    "(%" PRIu64 ")", a.status, nd, nd > 0 ? ids[0] : 0, rid);
	OK(ar_get(t, lid, &r));
	CHECK(r.state == AR_GRANTED, "L, after the maintenance: state %d",
	    r.state);
	CHECK(violations(t) == 0, "violations after the maintenance won");
	OK(ar_txn_commit(t));
	done(s, "outside");
}

/* Descriptions refused, each with the line and the field named. */
static void
test_refused(void)
{
	static const struct {
		const char *text, *err;
	} bad[] = {
		{ "hosts=a[1-2]\nhosts=a2\n",
		  "line 2: field 'hosts': duplicate host 'a2' (every host on "
		  "one line only)" },
		{ "hosts=a[1-2] partition=x default=yes\nhosts=b1 "
		  "partition=y default=yes\n",
		  "line 2: field 'default': a second default partition" },
		{ "hosts=a1 partition=x borrow=z\n",
		  "line 1: field 'borrow': unknown partition 'z'" },
		{ "hosts=a1 partition=x borrow=x\n",
		  "line 1: field 'borrow': a partition borrows from others, "
		  "not 'x'" },
		{ "hosts=a1\npartition=y\n",
		  "line 2: field 'partition': partition y has no hosts" },
		{ "hosts=a1 colour=red\n",
		  "line 1: field 'colour': unknown (hosts, partition, "
		  "features, default, borrow)" },
		{ "features=a\n",
		  "line 1: field 'hosts': missing (a line gives hosts, or a "
		  "partition's policy)" },
		{ "# nothing\n", "no hosts" },
	};
	char err[AR_ERRMAX];
	uint32_t nodes;

	CHECK(ar_layout_check("hosts=a[1-3] partition=x\nhosts=b[1-2] "
	    "partition=y borrow=x\n", &nodes, err) == 0 && nodes == 5,
	    "a description of 5 hosts");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK(ar_layout_check(bad[i].text, &nodes, err) == EINVAL &&
		    strcmp(err, bad[i].err) == 0, "description %zu: '%s'", i,
		    err);
	}
}

/* A store without a description: one pool, partition "default". */
static void
test_plain(void)
{
	const struct ar_partition *parts;
	const struct ar_pool *pools;
	size_t np, nk;
	ar_store *s = store("plain", 4, NULL);
	ar_txn *t;

	OK(ar_txn_begin(s, 0, T0, &t));
	OK(ar_layout(t, &parts, &np, &pools, &nk));
	CHECK(np == 1 && nk == 1 && strcmp(parts[0].name, "default") == 0 &&
	    pools[0].count == 4 && strcmp(pools[0].hosts, "node[1-4]") == 0,
	    "a plain store's layout");
	ar_txn_abort(t);
	done(s, "plain");
}

/* test_pools --mem runs on memory stores, test_pools --pg URI on stores
 * in that PostgreSQL database (fewer rounds: a round trip a call). */
int
main(int argc, char **argv)
{
	int rounds = 60;

	if (suite_begin() != 0)
		return 1;
	if (argc == 3 && strcmp(argv[1], "--pg") == 0) {
		pg_uri = argv[2];
		rounds = 15;
	} else
		suite_memory(argc, argv);
	test_refused();
	test_plain();
	test_tracked_pool();
	test_tracked_order();
	test_maint_outside();
	for (int round = 0; round < rounds; round++)
		test_random_round(round);
	for (int round = 0; round < rounds; round++)
		test_named_round(round);
	for (int round = 0; round < rounds; round++)
		test_limits_round(round);
	for (int round = 0; round < rounds; round++)
		test_limits_moves_round(round);
	printf("pools, limits per partition: %" PRIu64 " granted, %" PRIu64
	    " refused (%" PRIu64 " for a booking limit)\n",
	    limits_tally.granted, limits_tally.refused, limits_tally.booking);
	/* About 26 grants and 14 refusals for a limit a round. */
	CHECK(limits_tally.booking > 5 * (uint64_t)rounds &&
	    limits_tally.granted > 10 * (uint64_t)rounds,
	    "limits per partition too tame");
	printf("pools, named hosts: %" PRIu64 " named requests (%" PRIu64
	    " granted), %" PRIu64 " plain, %" PRIu64 " bad input; %" PRIu64
	    " later or refused where an arrangement holds them, %" PRIu64
	    " undecided by the brute force; %" PRIu64 " maintenance (%"
	    PRIu64 " won, %" PRIu64 " displaced)\n", named_tally.named,
	    named_tally.granted_named, named_tally.plain,
	    named_tally.bad_input, named_tally.cautious,
	    named_tally.undecided, named_tally.maint, named_tally.won,
	    named_tally.displaced);
	CHECK(named_tally.granted_named > 100 && named_tally.bad_input > 20 &&
	    named_tally.won > 20 && named_tally.displaced > 0,
	    "named hosts too tame");
	/* The sweep's caution stays rare: at most one request in 100. */
	CHECK(named_tally.cautious * 100 <= named_tally.named +
	    named_tally.plain, "%" PRIu64 " requests later or refused where "
	    "an arrangement holds them", named_tally.cautious);
	return suite_end();
}
