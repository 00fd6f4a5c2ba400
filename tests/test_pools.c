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

struct mapcheck {
	const struct ar_pool *pools;
	struct ar_hostlist *all;
	uint64_t busy[SLOTS];
	int bad;
};

static int
map_one(const struct ar_mapped *m, void *arg)
{
	struct mapcheck *mc = arg;
	struct ar_hostlist h;
	char err[AR_ERRMAX];
	uint32_t idx[64];
	uint64_t bits = 0, mine = 0;

	ar_hostlist_init(&h);
	OK(ar_hostlist_parse(mc->pools[m->r.pool].hosts, &h, err));
	OK(ar_hostlist_find_all(mc->all, &h, idx, err));
	for (size_t i = 0; i < h.count; i++)
		mine |= UINT64_C(1) << idx[i];
	ar_hostlist_free(&h);
	for (size_t i = 0; i < m->nhosts; i++)
		bits |= UINT64_C(1) << m->hosts[i];
	CHECK(m->nhosts == m->r.nodes, "reservation %" PRIu64 " mapped on "
	    "%zu hosts", m->r.id, m->nhosts);
	CHECK((bits & ~mine) == 0, "reservation %" PRIu64 " has a host "
	    "outside its pool %" PRIu32, m->r.id, m->r.pool);
	for (int64_t s = (m->r.start - T0) / SLOT; s < (m->r.end - T0) / SLOT;
	    s++) {
		CHECK((mc->busy[s] & bits) == 0, "reservation %" PRIu64
		    " shares a host at slot %" PRId64, m->r.id, s);
		mc->busy[s] |= bits;
	}
	return 0;
}

static void
test_random_round(int round)
{
	static uint32_t used[MAXPOOLS][SLOTS];
	struct spec sp;
	struct ar_config cfg;
	const struct ar_partition *parts;
	const struct ar_pool *pools;
	struct ar_hostlist all;
	struct mapcheck mc;
	char err[AR_ERRMAX], feat[8];
	const char *names;
	size_t np, nk;
	ar_store *s;
	ar_txn *t;

	spec_make(&sp);
	ar_config_default(&cfg);
	cfg.flags = AR_SIMULATED;
	cfg.horizon = 86400;
	cfg.layout = sp.text;
	OK(ar_create(store_path("random"), &cfg, T0));
	OK(ar_open(store_path("random"), 0, &s));
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
		int64_t last = first + (int64_t)rnd(20), bs = -1;
		int part = rnd(4) == 0 ? -1 : (int)rnd(PARTS);
		size_t ne;

		snprintf(feat, sizeof(feat), "%s", feature_set[rnd(3)]);
		rq = request(T0 + first * SLOT, len * SLOT,
		    1 + (uint32_t)rnd(5));
		rq.latest = T0 + last * SLOT;
		rq.flags = AR_NOMOVE;
		rq.partition = part < 0 ? NULL : part_name[part];
		rq.features = feat;
		ne = eligible(&sp, parts, np, pools, nk, part, feat, el);
		for (size_t k = 0; k < ne; k++) {
			int64_t x;

			if (pools[el[k]].count < rq.nodes)
				continue;
			x = brute_first(used, pools[el[k]].count, el[k], first,
			    last, len, rq.nodes);
			if (x != -1 && (bs == -1 || x < bs)) {
				bs = x;
				best = el[k];
			}
		}
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
	OK(ar_hosts(t, &names));
	ar_hostlist_init(&all);
	OK(ar_hostlist_parse(names, &all, err));
	memset(&mc, 0, sizeof(mc));
	mc.pools = pools;
	mc.all = &all;
	OK(ar_map(t, 0, T0, T0 + 86400, NULL, 0, map_one, &mc));
	ar_hostlist_free(&all);
	ar_txn_abort(t);
	done(s, "random");
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
	for (int round = 0; round < rounds; round++)
		test_random_round(round);
	return suite_end();
}
