/*
 * pools.h - the brute force over partitions, features, borrowing and
 * named hosts that the pools test (tests/test_pools.c) and the model
 * (tests/model.c, with it the model fuzzer) share: random host
 * descriptions, the pools a request may take, the first start by count,
 * and whether a pool's part of the plan maps, found by trying every
 * arrangement of its plain reservations on its hosts.  Static inline,
 * so a file that uses some of it does not warn about the rest; it
 * prints nothing and checks nothing: its callers do.
 */
#ifndef AR_TEST_POOLS_H
#define AR_TEST_POOLS_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ar.h"

#define POOLS_PARTS 3
#define POOLS_MAX (POOLS_PARTS * 3)

static const char *const pools_part_name[POOLS_PARTS] = {
	"batch", "gpu", "mem"
};
static const char *const pools_feature_set[3] = { "", "a", "a,b" };

/* A random description: each partition one to three pools of 1 to 4
 * hosts, each pool a feature set; a random default, and borrowing. */
struct spec {
	char text[2048];
	int deflt;
	int borrow[POOLS_PARTS][POOLS_PARTS];  /* [p][k]: p's k-th lender,
						  or -1 */
};

/* Make sp from the choices pick(arg, n) gives, each in [0, n). */
static inline void
spec_make(struct spec *sp, uint64_t (*pick)(void *, uint64_t), void *arg)
{
	int host = 0, n;
	char *p = sp->text;

	sp->deflt = (int)pick(arg, POOLS_PARTS);
	for (int i = 0; i < POOLS_PARTS; i++) {
		int used = 0;

		n = 1 + (int)pick(arg, 3);
		for (int k = 0; k < n; k++) {
			int f = (int)pick(arg, 3), c = 1 + (int)pick(arg, 4);

			if (used & (1 << f))
				continue;
			used |= 1 << f;
			p += sprintf(p,
			    "hosts=h%s[%02d-%02d] partition=%s%s%s\n",
			    pools_part_name[i], host, host + c - 1,
			    pools_part_name[i],
			    *pools_feature_set[f] ? " features=" : "",
			    pools_feature_set[f]);
			host += c;
		}
	}
	for (int i = 0; i < POOLS_PARTS; i++) {
		int nb = 0;

		for (int k = 0; k < POOLS_PARTS; k++)
			sp->borrow[i][k] = -1;
		p += sprintf(p, "partition=%s%s", pools_part_name[i],
		    i == sp->deflt ? " default=yes" : "");
		for (int k = 0; k < POOLS_PARTS; k++) {
			int j = (i + 1 + k) % POOLS_PARTS;

			if (j != i && pick(arg, 2)) {
				p += sprintf(p, "%s%s", nb ? "," : " borrow=",
				    pools_part_name[j]);
				sp->borrow[i][nb++] = j;
			}
		}
		p += sprintf(p, "\n");
	}
}

/* Does have (sorted, comma-separated) hold every name of want? */
static inline int
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
static inline int
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
static inline int
part_index(const struct ar_partition *parts, size_t np, const char *name)
{
	for (size_t i = 0; i < np; i++)
		if (strcmp(parts[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* The index in pools_part_name of a partition's name. */
static inline int
part_index_of(const char *name)
{
	for (int i = 0; i < POOLS_PARTS; i++)
		if (strcmp(pools_part_name[i], name) == 0)
			return i;
	return -1;
}

/* The pools a request may take, in order: its partition's (-1: the
 * default) with the features, then its lenders', as the spec lists
 * them; into out, how many. */
static inline size_t
eligible(const struct spec *sp, const struct ar_partition *parts, size_t np,
    const struct ar_pool *pools, size_t nk, int part, const char *feat,
    uint32_t *out)
{
	size_t n = 0;
	int p = part < 0 ? sp->deflt : part;

	for (int k = -1; k < POOLS_PARTS && (k < 0 || sp->borrow[p][k] >= 0);
	    k++) {
		int from = part_index(parts, np, pools_part_name[k < 0 ? p :
		    sp->borrow[p][k]]);

		for (size_t i = 0; i < nk; i++)
			if ((int)pools[i].partition == from &&
			    has_features(pools[i].features, feat))
				out[n++] = (uint32_t)i;
	}
	return n;
}

/* The hosts of bits (of their indexes, up to 64) into hosts, in
 * increasing order; how many. */
static inline uint32_t
bits_hosts(uint64_t bits, uint32_t *hosts)
{
	uint32_t n = 0;

	for (uint32_t h = 0; h < 64; h++)
		if (bits >> h & 1)
			hosts[n++] = h;
	return n;
}

/* rq names the hosts named (bits of their indexes; hosts holds 64),
 * nodes as many, as hosts of pool k; 1 if a partition (part, -1 none)
 * or features that pool k has not make it bad input, else 0. */
static inline int
name_hosts(struct ar_request *rq, uint32_t *hosts, uint64_t named,
    const struct ar_partition *parts, size_t np, const struct ar_pool *pools,
    uint32_t k, int part, const char *feat)
{
	rq->nhosts = bits_hosts(named, hosts);
	rq->hosts = hosts;
	rq->nodes = rq->nhosts;
	return (part >= 0 && part_index(parts, np, pools_part_name[part]) !=
	    (int)pools[k].partition) || !has_features(pools[k].features, feat);
}

/* Each pool's hosts as bits of their indexes in the store's list: 0, or
 * the error of the call that failed. */
static inline int
pool_host_bits(ar_txn *t, const struct ar_pool *pools, size_t nk,
    uint64_t *bits)
{
	struct ar_hostlist all, h;
	char err[AR_ERRMAX];
	const char *names;
	uint32_t idx[64];       /* a pool of 64 hosts, at most, as bits */
	int rc;

	if ((rc = ar_hosts(t, &names)) != 0)
		return rc;
	ar_hostlist_init(&all);
	if ((rc = ar_hostlist_parse(names, &all, err)) != 0)
		return rc;
	for (size_t k = 0; k < nk && rc == 0; k++) {
		bits[k] = 0;
		ar_hostlist_init(&h);
		if ((rc = ar_hostlist_parse(pools[k].hosts, &h, err)) == 0 &&
		    h.count > 64)
			rc = AR_EFULL;
		if (rc == 0 && (rc = ar_hostlist_find_all(&all, &h, idx,
		    err)) == 0)
			for (size_t i = 0; i < h.count; i++)
				bits[k] |= UINT64_C(1) << idx[i];
		ar_hostlist_free(&h);
	}
	ar_hostlist_free(&all);
	return rc;
}

/* The first start in [first, last] where need hosts of pool k are free
 * over len slots by count, used[k * stride + slot] in use; -1 if none. */
static inline int64_t
brute_first(const uint32_t *used, size_t stride, uint32_t cap, uint32_t k,
    int64_t first, int64_t last, int64_t len, uint32_t need)
{
	for (int64_t s = first; s <= last; s++) {
		int64_t i;

		for (i = s; i < s + len && used[k * stride + (size_t)i] + need
		    <= cap; i++)
			;
		if (i == s + len)
			return s;
	}
	return -1;
}

/* The brute force's pool for a plain request: of the eligible pools
 * el[0..ne), the one where it fits first by count (the first on a tie),
 * into *best; its start, or -1. */
static inline int64_t
brute_pool(const uint32_t *used, size_t stride, const struct ar_pool *pools,
    const uint32_t *el, size_t ne, uint32_t nodes, int64_t first,
    int64_t last, int64_t len, uint32_t *best)
{
	int64_t bs = -1, x;

	for (size_t k = 0; k < ne; k++) {
		if (pools[el[k]].count < nodes)
			continue;
		x = brute_first(used, stride, pools[el[k]].count, el[k], first,
		    last, len, nodes);
		if (x != -1 && (bs == -1 || x < bs)) {
			bs = x;
			*best = el[k];
		}
	}
	return bs;
}

/*
 * What the brute force knows of a reservation in a store of several
 * pools: its pool, interval, size and the hosts it holds for certain
 * (those it named, or those it started on), as bits.
 */
struct planned {
	uint32_t pool;
	int64_t s, e;           /* slots */
	uint32_t nodes;
	uint64_t named;         /* its hosts, if fixed; 0: any of its pool */
	uint64_t id;
};

#define ARRANGE_MAX 64          /* reservations of a pool, at most */
#define ARRANGE_BUDGET 200000   /* arrangements tried before giving up */

struct arranging {
	struct planned p[ARRANGE_MAX + 1];
	uint64_t got[ARRANGE_MAX + 1];
	size_t n;
	uint64_t pool;
	long budget;
};

/* Hosts for the plain ones from i on: 1 if they all have some, 0 if
 * not, -1 if the budget ran out. */
static inline int
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
		int clash = __builtin_popcountll(sub) != (int)a->p[i].nodes;

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

static inline int
by_start_planned(const void *x, const void *y)
{
	const struct planned *a = x, *b = y;

	return a->s < b->s ? -1 : a->s > b->s;
}

/* Does pool k (its hosts as bits) map with plan[0..n) and c (NULL:
 * none): 1, 0, or -1 undecided (the budget ran out, or more than
 * ARRANGE_MAX reservations)? */
static inline int
maps_with(const struct planned *plan, size_t n, const struct planned *c,
    uint32_t k, uint64_t pool)
{
	static struct arranging a;

	a.n = 0;
	for (size_t i = 0; i <= n; i++) {
		const struct planned *x = i < n ? &plan[i] : c;

		if (x == NULL || x->pool != k)
			continue;
		if (a.n == ARRANGE_MAX)
			return -1;
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

/* The first start of c in [first, last] where pool c.pool has the hosts
 * by count and maps with plan[0..n); -1 if none, -2 if undecided. */
static inline int64_t
brute_mapped(const uint32_t *used, size_t stride, uint32_t cap,
    const struct planned *plan, size_t n, struct planned c, uint64_t pool,
    int64_t first, int64_t last)
{
	int64_t len = c.e - c.s;

	for (int64_t s = first; s <= last; s++) {
		int64_t i;
		int m;

		for (i = s; i < s + len && used[c.pool * stride + (size_t)i] +
		    c.nodes <= cap; i++)
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

#endif
