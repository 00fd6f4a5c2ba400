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

#define SUITE "pools"
#include "suite.h"

#define SLOT 300
#define SLOTS 288               /* a day's horizon */
#define PARTS 3
#define MAXPOOLS (PARTS * 3)

static const char *const part_name[PARTS] = { "batch", "gpu", "mem" };
static const char *const feature_set[3] = { "", "a", "a,b" };

/* A random description: each partition one to three pools of 1 to 4
 * hosts, each pool a feature set; a random default, and borrowing. */
struct spec {
	char text[2048];
	int deflt;
	int borrow[PARTS][PARTS];      /* [p][k]: p's k-th lender, or -1 */
};

static void
spec_make(struct spec *sp)
{
	int host = 0, n;
	char *p = sp->text;

	sp->deflt = (int)rnd(PARTS);
	for (int i = 0; i < PARTS; i++) {
		int used = 0;

		n = 1 + (int)rnd(3);
		for (int k = 0; k < n; k++) {
			int f = (int)rnd(3), c = 1 + (int)rnd(4);

			if (used & (1 << f))
				continue;
			used |= 1 << f;
			p += sprintf(p,
			    "hosts=h%s[%02d-%02d] partition=%s%s%s\n",
			    part_name[i], host, host + c - 1, part_name[i],
			    *feature_set[f] ? " features=" : "",
			    feature_set[f]);
			host += c;
		}
	}
	for (int i = 0; i < PARTS; i++) {
		int nb = 0;

		for (int k = 0; k < PARTS; k++)
			sp->borrow[i][k] = -1;
		p += sprintf(p, "partition=%s%s", part_name[i],
		    i == sp->deflt ? " default=yes" : "");
		for (int k = 0; k < PARTS; k++) {
			int j = (i + 1 + k) % PARTS;

			if (j != i && rnd(2)) {
				p += sprintf(p, "%s%s", nb ? "," : " borrow=",
				    part_name[j]);
				sp->borrow[i][nb++] = j;
			}
		}
		p += sprintf(p, "\n");
	}
}

/* Does have (sorted, comma-separated) hold every name of want? */
static int
has_features(const char *have, const char *want)
{
	char h[64];

	snprintf(h, sizeof(h), ",%s,", have);
	while (*want != '\0') {
		char one[16];
		size_t n = strcspn(want, ",");

		snprintf(one, sizeof(one), ",%.*s,", (int)n, want);
		if (strstr(h, one) == NULL)
			return 0;
		want += n + (want[n] == ',');
	}
	return 1;
}

/* Has every feature of want some pool's hosts? */
static int
known(const struct ar_pool *pools, size_t nk, const char *want)
{
	while (*want != '\0') {
		size_t n = strcspn(want, ",");
		char one[16];
		int found = 0;

		snprintf(one, sizeof(one), "%.*s", (int)n, want);
		for (size_t k = 0; k < nk && !found; k++)
			found = has_features(pools[k].features, one);
		if (!found)
			return 0;
		want += n + (want[n] == ',');
	}
	return 1;
}

/* The partition index, in the library's numbering, of a name. */
static int
part_index(const struct ar_partition *parts, size_t np, const char *name)
{
	for (size_t i = 0; i < np; i++)
		if (strcmp(parts[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* The index in part_name of a partition's name. */
static int
part_index_of(const char *name)
{
	for (int i = 0; i < PARTS; i++)
		if (strcmp(part_name[i], name) == 0)
			return i;
	return -1;
}

/* The pools a request may take, in order: its partition's with the
 * features, then its lenders', as the spec lists them. */
static size_t
eligible(const struct spec *sp, const struct ar_partition *parts, size_t np,
    const struct ar_pool *pools, size_t nk, int part, const char *feat,
    uint32_t *out)
{
	size_t n = 0;
	int p = part < 0 ? sp->deflt : part;

	for (int k = -1; k < PARTS && (k < 0 || sp->borrow[p][k] >= 0); k++) {
		int from = part_index(parts, np, part_name[k < 0 ? p :
		    sp->borrow[p][k]]);

		for (size_t i = 0; i < nk; i++)
			if ((int)pools[i].partition == from &&
			    has_features(pools[i].features, feat))
				out[n++] = (uint32_t)i;
	}
	return n;
}

/* The brute force: the first start in [first, last] where need hosts of
 * pool k are free over len slots. */
static int64_t
brute_first(uint32_t used[][SLOTS], uint32_t cap, uint32_t k, int64_t first,
    int64_t last, int64_t len, uint32_t need)
{
	for (int64_t s = first; s <= last; s++) {
		int64_t i;

		for (i = s; i < s + len && used[k][i] + need <= cap; i++)
			;
		if (i == s + len)
			return s;
	}
	return -1;
}

/* A request from slot first to last, len slots long, of a partition
 * (-1: none) and features, moving nothing. */
static struct ar_request
pool_request(int64_t first, int64_t len, int64_t last, uint32_t nodes,
    int part, const char *feat)
{
	struct ar_request rq = request(T0 + first * SLOT, len * SLOT, nodes);

	rq.latest = T0 + last * SLOT;
	rq.flags = AR_NOMOVE;
	rq.partition = part < 0 ? NULL : part_name[part];
	rq.features = feat;
	return rq;
}

/* The brute force's pool for a plain request: of the eligible pools
 * el[0..ne), the one where it fits first by count (the first on a tie),
 * into *best; its start, or -1. */
static int64_t
brute_pool(uint32_t used[][SLOTS], const struct ar_pool *pools,
    const uint32_t *el, size_t ne, uint32_t nodes, int64_t first,
    int64_t last, int64_t len, uint32_t *best)
{
	int64_t bs = -1, x;

	for (size_t k = 0; k < ne; k++) {
		if (pools[el[k]].count < nodes)
			continue;
		x = brute_first(used, pools[el[k]].count, el[k], first, last,
		    len, nodes);
		if (x != -1 && (bs == -1 || x < bs)) {
			bs = x;
			*best = el[k];
		}
	}
	return bs;
}

/* A store of a random description, sp, under name. */
static ar_store *
round_store(struct spec *sp, const char *name)
{
	spec_make(sp);
	return store_of(name, 0, NULL, sp->text);
}

/* Each pool's hosts as bits of their indexes in the store's list. */
static void
pool_host_bits(ar_txn *t, const struct ar_pool *pools, size_t nk,
    uint64_t *bits)
{
	struct ar_hostlist all, h;
	char err[AR_ERRMAX];
	const char *names;
	uint32_t idx[8];

	OK(ar_hosts(t, &names));
	ar_hostlist_init(&all);
	OK(ar_hostlist_parse(names, &all, err));
	for (size_t k = 0; k < nk; k++) {
		bits[k] = 0;
		ar_hostlist_init(&h);
		OK(ar_hostlist_parse(pools[k].hosts, &h, err));
		OK(ar_hostlist_find_all(&all, &h, idx, err));
		for (size_t i = 0; i < h.count; i++)
			bits[k] |= UINT64_C(1) << idx[i];
		ar_hostlist_free(&h);
	}
	ar_hostlist_free(&all);
}

/*
 * Named hosts in a store of several pools: what the brute force knows of
 * each reservation.
 */
struct planned {
	uint32_t pool;
	int64_t s, e;           /* slots */
	uint32_t nodes;
	uint64_t named;         /* the hosts it named, as bits; 0: plain */
	uint64_t id;
};

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
	static uint32_t used[MAXPOOLS][SLOTS];
	static struct mapcheck mc;
	uint64_t pool_bits[MAXPOOLS];
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
	CHECK(np == PARTS && strcmp(parts[0].name, part_name[sp.deflt]) == 0,
	    "round %d: the default partition is not first", round);
	for (int i = 0; i < 40; i++) {
		struct ar_request rq;
		struct ar_answer a;
		struct ar_resv r;
		uint32_t el[MAXPOOLS], best = UINT32_MAX;
		int64_t first = (int64_t)rnd(60), len = 1 + (int64_t)rnd(6);
		int64_t last = first + (int64_t)rnd(20), bs;
		int part = rnd(4) == 0 ? -1 : (int)rnd(PARTS);
		size_t ne;

		snprintf(feat, sizeof(feat), "%s", feature_set[rnd(3)]);
		rq = pool_request(first, len, last, 1 + (uint32_t)rnd(5),
		    part, feat);
		ne = eligible(&sp, parts, np, pools, nk, part, feat, el);
		bs = brute_pool(used, pools, el, ne, rq.nodes, first, last, len,
		    &best);
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
	pool_host_bits(t, pools, nk, pool_bits);
	memset(&mc, 0, sizeof(mc));
	mc.pool_bits = pool_bits;
	OK(ar_map(t, 0, T0, T0 + 86400, NULL, 0, map_one, &mc));
	ar_txn_abort(t);
	done(s, "random");
}

/*
 * Named hosts in a store of several pools.  The brute force knows every
 * reservation's pool, interval, size and named hosts, and decides
 * whether a pool's part of the plan maps by trying every arrangement of
 * its plain reservations, by start, on the pool's hosts around the
 * named ones (pools have at most 4 hosts).
 */
#define PLANNED_MAX 48          /* requests a round makes */
#define ARRANGE_BUDGET 200000   /* arrangements tried before giving up */

struct arranging {
	struct planned p[PLANNED_MAX + 1];
	uint64_t got[PLANNED_MAX + 1];
	size_t n;
	uint64_t pool;
	long budget;
};

/* Hosts for the plain ones from i on: 1 if they all have some, 0 if
 * not, -1 if the budget ran out. */
static int
arrange_from(struct arranging *a, size_t i)
{
	int rc;

	while (i < a->n && a->p[i].named != 0)
		i++;
	if (i == a->n)
		return 1;
	if (--a->budget < 0)
		return -1;
	/* Every subset of the pool's hosts of the size it needs. */
	for (uint64_t sub = a->pool; ; sub = (sub - 1) & a->pool) {
		int clash = popcount(sub) != (int)a->p[i].nodes;

		for (size_t j = 0; j < a->n && !clash; j++)
			clash = j != i && a->p[j].s < a->p[i].e &&
			    a->p[i].s < a->p[j].e && (a->got[j] & sub) != 0;
		if (!clash) {
			a->got[i] = sub;
			if ((rc = arrange_from(a, i + 1)) != 0)
				return rc;
			a->got[i] = 0;
		}
		if (sub == 0)
			return 0;
	}
}

static int
by_start_planned(const void *x, const void *y)
{
	const struct planned *a = x, *b = y;

	return a->s < b->s ? -1 : a->s > b->s;
}

/* Does pool k (its hosts as bits) map with plan[0..n) and c: 1, 0, or
 * -1 undecided? */
static int
maps_with(const struct planned *plan, size_t n, const struct planned *c,
    uint32_t k, uint64_t pool)
{
	static struct arranging a;

	a.n = 0;
	for (size_t i = 0; i <= n; i++) {
		const struct planned *x = i < n ? &plan[i] : c;

		if (x->pool == k)
			a.p[a.n++] = *x;
	}
	qsort(a.p, a.n, sizeof(a.p[0]), by_start_planned);
	/* The named ones hold their hosts; two on one host never map. */
	for (size_t i = 0; i < a.n; i++) {
		a.got[i] = a.p[i].named;
		for (size_t j = 0; j < i; j++)
			if (a.p[j].s < a.p[i].e && a.p[i].s < a.p[j].e &&
			    (a.got[j] & a.got[i]) != 0)
				return 0;
	}
	a.pool = pool;
	a.budget = ARRANGE_BUDGET;
	return arrange_from(&a, 0);
}

/* The first start of c in [first, last] where pool k has the hosts by
 * count and the pool maps with it; -1 if none, -2 if undecided. */
static int64_t
brute_mapped(uint32_t used[][SLOTS], uint32_t cap, const struct planned *plan,
    size_t n, struct planned c, uint64_t pool, int64_t first, int64_t last)
{
	int64_t len = c.e - c.s;

	for (int64_t s = first; s <= last; s++) {
		int64_t i;
		int m;

		for (i = s; i < s + len && used[c.pool][i] + c.nodes <= cap;
		    i++)
			;
		if (i < s + len)
			continue;
		c.s = s;
		c.e = s + len;
		if ((m = maps_with(plan, n, &c, c.pool, pool)) != 0)
			return m < 0 ? -2 : s;
	}
	return -1;
}

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
	static uint32_t used[MAXPOOLS][SLOTS];
	static struct planned plan[PLANNED_MAX];
	static struct mapcheck nc;
	uint64_t pool_bits[MAXPOOLS];
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
	pool_host_bits(t, pools, nk, pool_bits);
	for (int i = 0; i < PLANNED_MAX; i++) {
		struct ar_request rq;
		struct ar_answer a;
		struct planned c = { 0 };
		uint32_t hosts[64], k = (uint32_t)rnd(nk), el[MAXPOOLS];
		/* From slot 1: none starts at the clock, whose hosts then
		 * stay as they are (map.c). */
		int64_t first = 1 + (int64_t)rnd(60), len = 1 + (int64_t)rnd(6);
		int64_t last = first + (int64_t)rnd(20), bs = -1;
		int part = rnd(4) == 0 ? -1 : (int)rnd(PARTS), bad = 0;
		size_t ne;

		snprintf(feat, sizeof(feat), "%s", feature_set[rnd(3)]);
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
			rq.partition = part < 0 ? NULL : part_name[part];
			if (rnd(8) == 0 && nk > 1) {
				uint32_t o = (k + 1 + (uint32_t)rnd(nk - 1)) %
				    (uint32_t)nk;

				c.named |= pool_bits[o] & -pool_bits[o];
				bad = 1;
			}
			if (part >= 0 && part_index(parts, np,
			    part_name[part]) != (int)pools[k].partition)
				bad = 1;
			if (!has_features(pools[k].features, feat))
				bad = 1;
			rq.nhosts = 0;
			for (uint32_t h = 0; h < 64; h++)
				if (c.named >> h & 1)
					hosts[rq.nhosts++] = h;
			rq.hosts = hosts;
			rq.nodes = rq.nhosts;
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
			bs = brute_pool(used, pools, el, ne, rq.nodes, first,
			    last, len, &c.pool);
			named_tally.plain++;
		}
		c.nodes = rq.nodes;
		if (c.named != 0 || bs != -1)
			bs = brute_mapped(used, pools[c.pool].count, plan, n,
			    c, pool_bits[c.pool], c.named != 0 ? first : bs,
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
		CHECK(bs != -1 && brute_mapped(used, pools[c.pool].count, plan,
		    n, c, pool_bits[c.pool], c.s, c.s) == c.s, "round %d "
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
	uint32_t b[8], nb = 0, named[2];
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
	pool_host_bits(t, pools, nk, bits);
	for (uint32_t h = 0; h < 64; h++)
		if (bits[1] >> h & 1)
			b[nb++] = h;
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
	for (int round = 0; round < rounds; round++)
		test_random_round(round);
	for (int round = 0; round < rounds; round++)
		test_named_round(round);
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
