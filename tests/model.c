/*
 * model.c - the brute-force model of a store; see model.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"           /* the limit rings, read in model_compare */
#include "model.h"
#include "pools.h"

#define PICK(n) m->pick(m->arg, (n))

#define CHECK(m, cond, ...) do { \
	(m)->checks++; \
	if (!(cond)) { \
		(m)->mismatches++; \
		fprintf(stderr, "model mismatch: "); \
		fprintf(stderr, __VA_ARGS__); \
		fputc('\n', stderr); \
	} \
} while (0)

#define OK(m, call) do { \
	int rc_ = (call); \
	CHECK(m, rc_ == 0, "%s: %s", #call, ar_strerror(rc_)); \
} while (0)

void
model_config(struct ar_config *cfg)
{
	ar_config_default(cfg);
	cfg->flags = AR_SIMULATED;
	cfg->nodes = M_NODES;
	cfg->slot = M_SLOT;
	cfg->horizon = M_HORIZON * M_SLOT;
	cfg->map_max = 1 << 30;
}

#define M_NAME 16               /* bytes of a host name, its '\0' too */

/* A run on several pools: the description, each pool's hosts, every
 * host's name, and each pool's nodes in use per slot, as the brute
 * force counts them. */
struct m_pools {
	struct spec sp;
	int loaded;             /* bits and names read from the store */
	uint64_t bits[POOLS_MAX];
	char names[64][M_NAME]; /* host i's name: in the store's order,
				   which hosts added keep (m_pool_add_hosts) */
	uint32_t nhosts;
	char added[160];        /* the hosts added in this transaction,
				   "" none */
	uint64_t was[M_RESV];   /* ... and then each reservation's hosts
				   as ar_map told them last, renumbered */
	uint32_t used[POOLS_MAX][M_SPAN];
	struct planned plan[ARRANGE_MAX + 1];   /* a pool's, for maps_with */
};

struct model *
model_new(uint64_t (*pick)(void *, uint64_t), void *arg)
{
	struct model *m = calloc(1, sizeof(*m));

	if (m != NULL && (m->pools = calloc(1, sizeof(*m->pools))) == NULL) {
		free(m);
		m = NULL;
	}
	if (m != NULL) {
		m->pick = pick;
		m->arg = arg;
	}
	return m;
}

void
model_free(struct model *m)
{
	if (m != NULL)
		free(m->pools);
	free(m);
}

void
model_reset(struct model *m, uint64_t (*pick)(void *, uint64_t), void *arg)
{
	size_t n = (size_t)m->nresv, top = (size_t)m->top;

	memset(m, 0, offsetof(struct model, resv));
	memset(m->resv, 0, n * sizeof(m->resv[0]));
	memset(m->used, 0, top * sizeof(m->used[0]));
	for (int c = 0; c <= M_CLASSES; c++)
		memset(m->held[c], 0, top * sizeof(m->held[c][0]));
	for (int k = 0; k < POOLS_MAX; k++)
		memset(m->pools->used[k], 0, top * sizeof(m->pools->used[k][0]));
	m->pick = pick;
	m->arg = arg;
}

static struct ar_request
request(struct model *m, int64_t start, int64_t duration, uint32_t nodes)
{
	struct ar_request rq = { start, start, duration, nodes, 1, 1000,
	    NULL, NULL, 0, NULL, NULL, 0, 0, 0, NULL, NULL, 0, 0, 0, NULL,
	    NULL };

	(void)m;
	return rq;
}

static int64_t
up(int64_t t)
{
	return (t + M_SLOT - 1) / M_SLOT;
}

/* The class of a request starting at earliest, asked at now; 0: none. */
static uint32_t
m_class(const struct model *m, int64_t earliest, int64_t now)
{
	int64_t ahead = earliest > now ? earliest - now : 0;

	for (size_t i = 0; i < m->pr.n; i++)
		if (ahead >= m->pr.c[i].ahead_min &&
		    (m->pr.c[i].ahead_max == -1 || ahead < m->pr.c[i].ahead_max))
			return (uint32_t)i + 1;
	return 0;
}

static int64_t
m_price(const struct model *m, uint32_t cls, int64_t need, int64_t len)
{
	return cls == 0 ? 0 : m->pr.c[cls - 1].price * need * len;
}

/* Nodes held at slot x by class i and every cheaper one. */
static uint32_t
m_above(const struct model *m, uint32_t i, int64_t x)
{
	uint32_t sum = 0;

	for (uint32_t k = i; k <= m->pr.n; k++)
		sum += m->held[k][x];
	return sum;
}

/* Does need nodes of class cls fit at every slot of [s, s + len): in the
 * nodes, and within the limit of its class and of every dearer one? */
static int
m_fits(const struct model *m, uint32_t cls, int64_t s, int64_t len,
    int64_t need)
{
	for (int64_t x = s; x < s + len; x++) {
		if (m->used[x] + need > M_NODES)
			return 0;
		for (uint32_t i = 2; i <= cls; i++)
			if (m_above(m, i, x) + need > m->pr.c[i - 1].limit)
				return 0;
	}
	return 1;
}

/* Take (delta > 0) or give back need nodes of class cls over a span. */
static void
m_hold(struct model *m, uint32_t cls, int64_t s, int64_t len, int64_t delta)
{
	for (int64_t x = s; x < s + len; x++) {
		m->used[x] += (uint32_t)delta;
		if (cls != 0)
			m->held[cls][x] += (uint32_t)delta;
	}
	if (s + len > m->top)
		m->top = s + len;
}

static int64_t
m_least(const struct model *m, int64_t s, int64_t len)
{
	uint32_t peak = 0;

	for (int64_t i = s; i < s + len; i++)
		if (m->used[i] > peak)
			peak = m->used[i];
	return M_NODES - peak;
}

/* What the store should answer: the reason, and the window of starts. */
static enum ar_reason
m_span(int64_t now, const struct ar_request *rq, int together,
    int64_t *first, int64_t *last, int64_t *len, int64_t *need)
{
	int64_t base = now / M_SLOT;

	*len = up(rq->duration);
	*need = (int64_t)rq->nodes * (together ? rq->jobs : 1);
	*first = up(rq->earliest);
	*last = up(rq->latest);
	if (*need > M_NODES)
		return AR_R_CAPACITY;
	if (rq->latest < now)
		return AR_R_PAST;
	if (*first < up(now))
		*first = up(now);
	if (*first + *len > base + M_HORIZON)
		return AR_R_HORIZON;
	if (*last > base + M_HORIZON - *len)
		*last = base + M_HORIZON - *len;
	return AR_R_NONE;
}

static int64_t
m_first_fit(const struct model *m, uint32_t cls, int64_t first, int64_t last,
    int64_t len, int64_t need)
{
	for (int64_t s = first; s <= last; s++)
		if (m_fits(m, cls, s, len, need))
			return s;
	return -1;
}

/* Why a request of class cls for copies that found no room was
 * refused: for a booking limit if the nodes alone had room for all its
 * copies in the window, first fit one by one. */
static enum ar_reason
m_refusal(struct model *m, uint32_t cls, int64_t first, int64_t last,
    int64_t len, int64_t need, uint32_t copies)
{
	int64_t starts[2];
	uint32_t j = 0;

	for (; cls >= 2 && j < copies; j++) {
		if ((starts[j] = m_first_fit(m, 0, first, last, len,
		    need)) == -1)
			break;
		m_hold(m, 0, starts[j], len, need);
	}
	for (uint32_t i = j; i-- > 0; )
		m_hold(m, 0, starts[i], len, -need);
	return cls >= 2 && j == copies ? AR_R_BOOKING : AR_R_FULL;
}

/* The reservation with that id, or -1. */
static int
m_find(const struct model *m, uint64_t id)
{
	int lo = 0, hi = m->nresv;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (m->resv[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < m->nresv && m->resv[lo].id == id ? lo : -1;
}

static int
m_ended(const struct model *m, int k, int64_t now)
{
	return (m->resv[k].start + m->resv[k].len) * M_SLOT <= now;
}

/* The state of reservation k once it is no longer live. */
static enum ar_status
m_gone(const struct model *m, int k)
{
	return m->resv[k].reclaimed ? AR_RECLAIMED : m->resv[k].expired ?
	    AR_EXPIRED : AR_CANCELLED;
}

/* Reservation k cancelled, expired or reclaimed at now: its slots from
 * now on are free. */
static void
m_release(struct model *m, int k, int64_t now)
{
	int64_t from = now / M_SLOT > m->resv[k].start ? now / M_SLOT :
	    m->resv[k].start;

	m_hold(m, m->resv[k].cls, from, m->resv[k].start + m->resv[k].len -
	    from, -m->resv[k].need);
	for (int64_t x = from; m->pooled && x < m->resv[k].start +
	    m->resv[k].len; x++)
		m->pools->used[m->resv[k].pool][x] -= (uint32_t)m->resv[k].need;
	m->resv[k].live = 0;
}

/* Reservation k cancelled at now, and with it, if it is a piece of a
 * split request, every other piece that is live. */
static void
m_cancelled(struct model *m, int k, int64_t now)
{
	int i = m->resv[k].pieces != 0 ? m->resv[k].first : k;
	int end = m->resv[k].pieces != 0 ? i + (int)m->resv[k].pieces : k + 1;

	for (; i < end; i++)
		if (m->resv[i].live && !m_ended(m, i, now))
			m_release(m, i, now);
}

/* Reservation k, placed or moved by this add or modify, must be within
 * the nodes and its class's limits at every slot it holds from slot
 * from on. */
static void
m_within(struct model *m, int k, int64_t from)
{
	uint32_t cls = m->resv[k].cls;

	for (int64_t x = from > m->resv[k].start ? from : m->resv[k].start;
	    x < m->resv[k].start + m->resv[k].len; x++) {
		CHECK(m, m->used[x] <= M_NODES, "slot %" PRId64 ": %u nodes "
		    "held", x, m->used[x]);
		for (uint32_t i = 2; i <= cls; i++)
			CHECK(m, m_above(m, i, x) <= m->pr.c[i - 1].limit,
			    "reservation %" PRIu64 " of class %u at slot %"
			    PRId64 ": classes %u.. hold %u, limit %u",
			    m->resv[k].id, cls, x, i, m_above(m, i, x),
			    m->pr.c[i - 1].limit);
	}
}

/* A move by an add with these flags, whose copies' ids begin at own:
 * checked to be one the store may make, and made in the model. */
static void
m_move(struct model *m, const struct ar_placed *mv, unsigned flags,
    uint64_t own, int64_t now)
{
	int k = m_find(m, mv->id);
	int64_t lo, hi, to = mv->start / M_SLOT;

	CHECK(m, k >= 0 && mv->id < own, "moved %" PRIu64 ": not an "
	    "earlier reservation", mv->id);
	if (k < 0)
		return;
	lo = up(m->resv[k].earliest) > up(now) ? up(m->resv[k].earliest) :
	    up(now);
	hi = up(m->resv[k].latest) < now / M_SLOT + M_HORIZON - m->resv[k].len ?
	    up(m->resv[k].latest) : now / M_SLOT + M_HORIZON - m->resv[k].len;
	CHECK(m, m->resv[k].live && m->resv[k].start * M_SLOT > now &&
	    mv->from == m->resv[k].start * M_SLOT && lo < hi &&
	    to >= lo && to <= hi && mv->start == to * M_SLOT &&
	    mv->end == (to + m->resv[k].len) * M_SLOT &&
	    (!(flags & AR_LATER) || mv->start > mv->from),
	    "moved %" PRIu64 " from %" PRId64 " to %" PRId64 ": live %d, "
	    "model at %" PRId64 ", window %" PRId64 "..%" PRId64, mv->id,
	    mv->from / M_SLOT, to, m->resv[k].live, m->resv[k].start, lo, hi);
	CHECK(m, m->resv[k].expires == 0, "moved %" PRIu64 ": a hold",
	    mv->id);
	m_hold(m, m->resv[k].cls, m->resv[k].start, m->resv[k].len,
	    -m->resv[k].need);
	m->resv[k].start = to;
	m_hold(m, m->resv[k].cls, to, m->resv[k].len, m->resv[k].need);
	m->moves++;
}

/* A copy granted: into the model, its record compared. */
static void
m_enter(struct model *m, ar_txn *t, const struct ar_request *rq,
    const struct ar_placed *g, uint32_t cls, int64_t len, int64_t need)
{
	struct ar_resv r;
	int k = m->nresv;
	int64_t expires = rq->hold == 0 ? 0 : ar_txn_now(t) + rq->hold;

	if (expires > g->end)
		expires = g->end;
	OK(m, ar_get(t, g->id, &r));
	CHECK(m, r.start == g->start && r.cls == cls &&
	    r.price == m_price(m, cls, need, len) && r.expires == expires &&
	    g->expires == expires, "record %" PRIu64
	    ": at %" PRId64 " class %u price %" PRId64 " expires %" PRId64
	    ", model class %u price %" PRId64 " expires %" PRId64, g->id,
	    r.start / M_SLOT, r.cls, r.price, r.expires, cls,
	    m_price(m, cls, need, len), expires);
	if (k == M_RESV)
		return;
	m->resv[k].id = g->id;
	m->resv[k].start = g->start / M_SLOT;
	m->resv[k].len = len;
	m->resv[k].need = need;
	m->resv[k].earliest = rq->earliest;
	m->resv[k].latest = rq->latest;
	m->resv[k].owner = rq->owner;
	m->resv[k].cls = cls;
	m->resv[k].price = m_price(m, cls, need, len);
	m->resv[k].live = 1;
	m->resv[k].expires = expires;
	m->resv[k].expired = 0;
	m->resv[k].confirmed = 0;
	m->resv[k].pieces = 0;
	m->resv[k].first = k;
	m->resv[k].split = 0;
	m->resv[k].smallest = 0;
	m->holds += expires != 0;
	m_hold(m, cls, m->resv[k].start, len, need);
	m->nresv++;
}

/* The benefit of the level of nodes and jobs in a moldable request. */
static uint32_t
m_benefit(const struct ar_request *asked, uint32_t nodes, uint32_t jobs)
{
	for (uint32_t i = 0; i < asked->nlevels; i++)
		if (asked->levels[i].nodes == nodes &&
		    (asked->levels[i].jobs != 0 ? asked->levels[i].jobs :
		    asked->jobs) == jobs)
			return asked->levels[i].benefit;
	return 0;
}

/*
 * Random levels for a moldable request: 2 or 3 distinct sizes with
 * benefits that often tie; and in order[] the same, in the order RSPB
 * tries them, found the obvious way: the best of those left, each time.
 */
static void
m_levels(struct model *m, struct ar_request *rq, struct ar_level *lv,
    struct ar_level *order)
{
	uint32_t n = 2 + (uint32_t)PICK(2), best, left[M_NODES], pos;
	int taken[3] = { 0, 0, 0 };

	/* Distinct sizes drawn from those left, so that a fuzzer's
	 * choices, all 0 once its bytes run out, still end. */
	for (uint32_t i = 0; i < M_NODES; i++)
		left[i] = i + 1;
	for (uint32_t i = 0; i < n; i++) {
		pos = (uint32_t)PICK(M_NODES - i);
		lv[i].nodes = left[pos];
		left[pos] = left[M_NODES - i - 1];
		lv[i].benefit = (uint32_t)PICK(3);
		lv[i].jobs = 0;
	}
	for (uint32_t k = 0; k < n; k++) {
		best = n;
		for (uint32_t i = 0; i < n; i++)
			if (!taken[i] && (best == n ||
			    lv[i].benefit > lv[best].benefit ||
			    (lv[i].benefit == lv[best].benefit &&
			    lv[i].nodes > lv[best].nodes)))
				best = i;
		taken[best] = 1;
		order[k] = lv[best];
	}
	rq->levels = lv;
	rq->nlevels = n;
}

/*
 * An add whose key, if any, is new: with AR_NOMOVE copies one by one,
 * first fit, all or none; else the same as far as first fit goes, and
 * beyond it whatever the store grants by moving others must be moves it
 * may make and must leave every limit and the nodes kept.  1 if granted.
 */
static int
m_add(struct model *m, ar_txn *t, const struct ar_request *rq,
    const struct ar_request *asked, int64_t now)
{
	const struct ar_placed *g, *mv;
	struct ar_answer a;
	enum ar_reason why;
	int64_t first, last, len, need, s, starts[2], frees[2];
	uint32_t cls = m_class(m, rq->earliest, now), fitted = 0;
	size_t ng, nm;
	int nomove = (rq->flags & AR_NOMOVE) != 0, from = m->nresv, k;

	why = m_span(now, rq, 0, &first, &last, &len, &need);
	for (; why == AR_R_NONE && fitted < rq->jobs; fitted++) {
		if ((s = m_first_fit(m, cls, first, last, len, need)) == -1)
			break;
		starts[fitted] = s;
		frees[fitted] = m_least(m, s, len);
		m_hold(m, cls, s, len, need);
	}
	for (uint32_t j = fitted; j-- > 0; )
		m_hold(m, cls, starts[j], len, -need);
	OK(m, ar_add(t, asked, &a));
	ar_added(t, &g, &ng, &mv, &nm);
	CHECK(m, a.cls == cls && a.price == m_price(m, cls, need, len) &&
	    !a.replayed, "add at %" PRId64 ": class %u price %" PRId64
	    ", model class %u price %" PRId64, first, a.cls, a.price, cls,
	    m_price(m, cls, need, len));
	/* A moldable request tells the level granted, none if refused. */
	CHECK(m, asked->nlevels == 0 ? a.nodes == 0 && a.benefit == 0 :
	    a.status == AR_GRANTED ? a.nodes == rq->nodes &&
	    a.benefit == m_benefit(asked, rq->nodes, rq->jobs) &&
	    a.jobs == (asked->levels[0].jobs != 0 ? rq->jobs : 0) :
	    a.nodes == 0, "add at %" PRId64 ": level %u of %u copies benefit "
	    "%u, model %u of %u", first, a.nodes, a.jobs, a.benefit,
	    rq->nodes, rq->jobs);
	if (a.status != AR_GRANTED) {
		if (why == AR_R_NONE)
			why = m_refusal(m, cls, first, last, len, need,
			    rq->jobs);
		m->limited += why == AR_R_BOOKING;
		CHECK(m, a.status == AR_REFUSED && a.reason == why &&
		    fitted < rq->jobs && ng == 0 && nm == 0, "add at %" PRId64
		    ": store %d reason %d, model %u of %u copies fit, reason %d",
		    first, a.status, a.reason, fitted, rq->jobs, why);
		return 0;
	}
	/* Where first fit falls short, only moves can have made room. */
	CHECK(m, why == AR_R_NONE && ng == rq->jobs && a.id == g[0].id &&
	    a.start == g[0].start && (!nomove || fitted == rq->jobs) &&
	    (fitted == rq->jobs) == (nm == 0), "add at %" PRId64 ": granted "
	    "%zu copies at %" PRId64 ", %zu moves; model %u of %u copies fit",
	    first, ng, a.start / M_SLOT, nm, fitted, rq->jobs);
	for (size_t i = 0; i < nm; i++)
		m_move(m, &mv[i], rq->flags, g[0].id, now);
	for (size_t j = 0; j < ng && j < rq->jobs; j++) {
		s = g[j].start / M_SLOT;
		/* Copies that fit first fit are placed so, before any
		 * move. */
		CHECK(m, s >= first && s <= last && (j >= fitted ||
		    (s == starts[j] && g[j].free == frees[j])),
		    "copy %zu at %" PRId64 " free %u, "
		    "model %" PRId64 " free %" PRId64 ", window %" PRId64 "..%"
		    PRId64, j, s, g[j].free, j < fitted ? starts[j] : -1,
		    j < fitted ? frees[j] : -1, first, last);
		m_enter(m, t, rq, &g[j], cls, len, need);
	}
	/* Whatever was placed or moved keeps the nodes and its limits. */
	for (k = from; nm > 0 && k < m->nresv; k++)
		m_within(m, k, 0);
	for (size_t i = 0; i < nm; i++)
		if ((k = m_find(m, mv[i].id)) >= 0)
			m_within(m, k, 0);
	return 1;
}

/*
 * A moldable add (AR_NOMOVE, no key): the first level, in RSPB's order,
 * all of whose copies fit first fit is the one the store must grant;
 * if none does, the last level's refusal is the store's.  The levels are
 * on nodes, or, one time in four, on copies: two or one, the larger
 * first of equal benefits.
 */
static void
m_mold(struct model *m, ar_txn *t, const struct ar_request *rq, int64_t now)
{
	struct ar_level lv[3], order[3];
	struct ar_request asked = *rq, one = *rq;
	int64_t first, last, len, need, s[2];
	uint32_t cls = m_class(m, rq->earliest, now), fitted;

	if (PICK(4) == 0) {
		lv[0] = (struct ar_level){ rq->nodes, (uint32_t)PICK(3), 2 };
		lv[1] = (struct ar_level){ rq->nodes, (uint32_t)PICK(3), 1 };
		order[0] = lv[lv[1].benefit > lv[0].benefit];
		order[1] = lv[lv[1].benefit <= lv[0].benefit];
		asked.levels = lv;
		asked.nlevels = 2;
	} else
		m_levels(m, &asked, lv, order);
	for (uint32_t i = 0; i < asked.nlevels; i++) {
		one.nodes = order[i].nodes;
		one.jobs = order[i].jobs != 0 ? order[i].jobs : rq->jobs;
		if (m_span(now, &one, 0, &first, &last, &len, &need) !=
		    AR_R_NONE)
			continue;
		for (fitted = 0; fitted < one.jobs; fitted++) {
			if ((s[fitted] = m_first_fit(m, cls, first, last, len,
			    need)) == -1)
				break;
			m_hold(m, cls, s[fitted], len, need);
		}
		for (uint32_t j = fitted; j-- > 0; )
			m_hold(m, cls, s[j], len, -need);
		if (fitted == one.jobs)
			break;
	}
	m->molds++;
	m_add(m, t, &one, &asked, now);
}

/* The free slots a split request may take: free[x - first] for slots
 * [first, deadline), at most M_HORIZON + 1 of them. */
#define M_WINDOW (2 * M_HORIZON)

/* reach[c][x] for slots [0, e) of free, pieces of at least p (m_orr). */
static void
m_reach(uint64_t reach[][M_WINDOW + 2], const int *free, int64_t e, int64_t p)
{
	for (int64_t x = e; x >= 0; x--)
		for (int c = 1; c <= AR_PIECES_MAX; c++) {
			uint64_t got = x < e ? reach[c][x + 1] : 0;

			for (int64_t l = p; x + l <= e && l < 64; l++) {
				int ok = 1;

				for (int64_t y = x; y < x + l; y++)
					ok &= free[y];
				if (!ok)
					break;
				if (c == 1 && x + l == e)
					got |= UINT64_C(1) << l;
				if (c > 1 && x + l < e)
					got |= reach[c - 1][x + l] << l;
			}
			reach[c][x] = got;
		}
}

/*
 * ORR's choice, found by another road than the store's: reach[c][x], the
 * totals (a bit each) that c pieces of at least p free slots make within
 * [x, e) with the last one ending at e; the fewest pieces, then the
 * earliest e, for which d is among them; then piece by piece, the
 * earliest start and the longest piece from which the rest still
 * reaches.  Into ps[] (start, length), *k of them; 0 if none.
 */
static void
m_orr(const int *free, int64_t n, int64_t d, int64_t p, int64_t *ps, int *k)
{
	static uint64_t reach[AR_PIECES_MAX + 1][M_WINDOW + 2];
	int64_t best[AR_PIECES_MAX + 1], e, left, pos = 0;

	*k = 0;
	for (int c = 1; c <= AR_PIECES_MAX; c++)
		best[c] = -1;
	for (e = 1; e <= n; e++) {
		m_reach(reach, free, e, p);
		for (int c = 1; c <= AR_PIECES_MAX; c++)
			if (best[c] == -1 && ((reach[c][0] >> d) & 1))
				best[c] = e;
	}
	for (int c = AR_PIECES_MAX; c >= 1; c--)
		if (best[c] != -1)
			*k = c;
	if (*k == 0)
		return;
	e = best[*k];
	m_reach(reach, free, e, p);
	/* The slices, each the earliest and then the longest. */
	left = d;
	for (int i = 0; i < *k; i++) {
		int rest = *k - 1 - i, found = 0;

		for (int64_t x = pos; x < e && !found; x++)
			for (int64_t l = e - x; l >= p && !found; l--) {
				int ok = l <= left;

				for (int64_t y = x; ok && y < x + l; y++)
					ok &= free[y];
				if (!ok || !(rest == 0 ? x + l == e &&
				    l == left : x + l < e &&
				    ((reach[rest][x + l] >> (left - l)) & 1)))
					continue;
				ps[2 * i] = x;
				ps[2 * i + 1] = l;
				pos = x + l;
				left -= l;
				found = 1;
			}
	}
}

/* What the model chooses for one copy of a split request. */
struct m_copy {
	int64_t s;              /* its one interval's start, or -1 */
	int k;                  /* ... or its pieces, ps[0 .. 2k) */
	int64_t ps[2 * M_WINDOW];       /* (start slot, length) each */
};

/*
 * One copy of a split request on the model as it is.  ORR: first fit in
 * its window if it has one, as any request; else, if the nodes or a
 * limit are why, the pieces ORR chooses among the free slots of [first,
 * last + len); else refused for that reason, or AR_R_SLICES if there is
 * no set of them.  TARR: the earliest len free slots of [first, last +
 * len), counted one by one; a plain reservation if they are one run,
 * else their runs as pieces; AR_R_SLICES if there are not len of them.
 */
static enum ar_reason
m_split_one(struct model *m, const struct ar_request *rq, int64_t now,
    uint32_t cls, struct m_copy *c)
{
	enum ar_reason why;
	int free[M_WINDOW + 1];
	int64_t first, last, len, need, n, p;

	c->s = -1;
	c->k = 0;
	why = m_span(now, rq, 0, &first, &last, &len, &need);
	if (why == AR_R_NONE && rq->split == AR_SPLIT_ORR && (c->s =
	    m_first_fit(m, cls, first, last, len, need)) == -1)
		why = m_refusal(m, cls, first, last, len, need, 1);
	if (c->s != -1 || (why != AR_R_NONE && why != AR_R_FULL &&
	    why != AR_R_BOOKING))
		return why;
	n = last + len - first;
	for (int64_t x = 0; x < n; x++)
		free[x] = m_fits(m, cls, first + x, 1, need);
	p = (rq->smallest + M_SLOT - 1) / M_SLOT;
	p = p < 1 ? 1 : p > len ? len : p;
	if (rq->split == AR_SPLIT_ORR)
		m_orr(free, n, len, p, c->ps, &c->k);
	else {
		int64_t left = len;

		for (int64_t x = 0; x < n && left > 0; x++) {
			if (!free[x])
				continue;
			c->ps[2 * c->k] = x;
			for (c->ps[2 * c->k + 1] = 0; x < n && free[x] &&
			    left > 0; x++, left--)
				c->ps[2 * c->k + 1]++;
			c->k++;
		}
		if (left > 0)
			c->k = 0;
		/* One run: a reservation like any other. */
		if (c->k == 1) {
			c->s = first + c->ps[0];
			c->k = 0;
		}
	}
	for (int i = 0; i < c->k; i++)
		c->ps[2 * i] += first;
	return c->k == 0 && c->s == -1 ? AR_R_SLICES : AR_R_NONE;
}

/* Hold (delta 1) or give back (-1) copy c's slots in the model. */
static void
m_copy_hold(struct model *m, const struct m_copy *c, uint32_t cls,
    int64_t len, int64_t need, int delta)
{
	if (c->s != -1)
		m_hold(m, cls, c->s, len, delta * need);
	for (int i = 0; i < c->k; i++)
		m_hold(m, cls, c->ps[2 * i], c->ps[2 * i + 1], delta * need);
}

/*
 * Copy j of split request rq, granted as the model chose it in c, g its
 * first grant: compared with the store and entered in the model, each
 * piece linked to the copy's first.  The grants it took.
 */
static size_t
m_enter_copy(struct model *m, ar_txn *t, const struct ar_request *rq,
    const struct m_copy *c, uint32_t j, const struct ar_placed *g,
    uint32_t cls, int64_t len, int64_t need)
{
	struct ar_request piece = *rq;
	struct ar_resv r;
	int f = m->nresv;

	if (c->s != -1) {
		CHECK(m, g[0].start == c->s * M_SLOT &&
		    g[0].free == m_least(m, c->s, len),
		    "copy %u at %" PRId64 " free %u, model %" PRId64
		    " free %" PRId64, j + 1, g[0].start / M_SLOT,
		    g[0].free, c->s, m_least(m, c->s, len));
		m_enter(m, t, rq, &g[0], cls, len, need);
		return 1;
	}
	for (int i = 0; i < c->k; i++) {
		int64_t x = c->ps[2 * i], l = c->ps[2 * i + 1];

		CHECK(m, g[i].start == x * M_SLOT &&
		    g[i].end == (x + l) * M_SLOT &&
		    g[i].free == m_least(m, x, l),
		    "copy %u piece %d of %d: store %" PRId64 "..%" PRId64
		    " free %u, model %" PRId64 "..%" PRId64 " free %"
		    PRId64, j + 1, i + 1, c->k, g[i].start / M_SLOT,
		    g[i].end / M_SLOT, g[i].free, x, x + l,
		    m_least(m, x, l));
		OK(m, ar_get(t, g[i].id, &r));
		CHECK(m, r.series == g[0].id &&
		    r.occurrence == (uint32_t)i + 1 &&
		    r.pieces == (uint32_t)c->k &&
		    r.earliest == rq->earliest &&
		    r.latest == rq->latest &&
		    r.duration == rq->duration && r.split == rq->split &&
		    r.smallest == rq->smallest,
		    "copy %u piece %d: series %" PRIu64 " occurrence %u "
		    "of %u, rule %u smallest %" PRId64, j + 1, i + 1,
		    r.series, r.occurrence, r.pieces, r.split, r.smallest);
		/* A piece keeps to its start: it never moves. */
		piece.earliest = piece.latest = x * M_SLOT;
		m_enter(m, t, &piece, &g[i], cls, l, need);
		if (m->nresv == f + i)
			break;          /* the model is full */
		m->resv[m->nresv - 1].pieces = (uint32_t)c->k;
		m->resv[m->nresv - 1].first = f;
		m->resv[m->nresv - 1].split = rq->split;
		m->resv[m->nresv - 1].smallest = rq->smallest;
	}
	return (size_t)c->k;
}

/*
 * A split request (AR_NOMOVE, no key), one or two copies: each copy as
 * m_split_one chooses it on the model with the copies before it, in
 * order; all or none, the refusal that of the first copy that finds no
 * room.  The store's pieces are each a reservation linked to the first
 * of its copy.
 */
static void
m_split(struct model *m, ar_txn *t, const struct ar_request *rq,
    int64_t now)
{
	static struct m_copy c[2];
	const struct ar_placed *g, *mv;
	struct ar_answer a;
	enum ar_reason why = AR_R_NONE;
	int64_t first, last, len, need;
	uint32_t cls = m_class(m, rq->earliest, now), j;
	size_t ng, nm, want = 0, at = 0;

	m->splits++;
	(void)m_span(now, rq, 0, &first, &last, &len, &need);
	for (j = 0; j < rq->jobs && j < 2; j++) {
		if ((why = m_split_one(m, rq, now, cls, &c[j])) != AR_R_NONE)
			break;
		m_copy_hold(m, &c[j], cls, len, need, 1);
		want += c[j].s != -1 ? 1 : (size_t)c[j].k;
	}
	for (uint32_t i = j; i-- > 0; )
		m_copy_hold(m, &c[i], cls, len, need, -1);
	OK(m, ar_add(t, rq, &a));
	ar_added(t, &g, &ng, &mv, &nm);
	if (why != AR_R_NONE) {
		CHECK(m, a.status == AR_REFUSED && a.reason == why && ng == 0,
		    "split at %" PRId64 ": store %d reason %d, model reason %d "
		    "(copy %u)", first, a.status, a.reason, why, j + 1);
		return;
	}
	CHECK(m, a.status == AR_GRANTED && a.pieces == (uint32_t)c[0].k &&
	    ng == want && nm == 0 && (c[0].s == -1 || a.start == c[0].s *
	    M_SLOT), "split at %" PRId64 ": store %d at %" PRId64 " in %u "
	    "pieces (%zu granted), model %zu: one at %" PRId64 " or %d "
	    "pieces", first, a.status, a.start / M_SLOT, a.pieces, ng, want,
	    c[0].s, c[0].k);
	if (ng != want || m->nresv + (int)want > M_RESV)
		return;
	for (j = 0; j < rq->jobs; j++) {
		m->pieced += c[j].s == -1;
		at += m_enter_copy(m, t, rq, &c[j], j, g + at, cls, len, need);
	}
}

#define M_SERIES 6               /* occurrences of a series, at most */

/*
 * A series of count occurrences of rq (AR_NOMOVE, jobs 1), every
 * seconds apart: each occurrence first fit in its own window, the ones
 * before it counted; all or none, the first that does not fit refusing
 * the series for its reason, or with AR_PARTIAL each that fits.  Those
 * granted are linked to the first one's id, with their numbers, and
 * are the series' live reservations.
 */
static void
m_series(struct model *m, ar_txn *t, const struct ar_request *rq,
    int64_t every, uint32_t count, int64_t now)
{
	const struct ar_answer *occ;
	const struct ar_placed *g, *mv;
	struct ar_repeat rep = { every, count, 0 };
	struct ar_request one[M_SERIES];
	struct ar_answer a;
	struct ar_resv r;
	enum ar_reason why[M_SERIES];
	int64_t s[M_SERIES], first, last, len = 0, need = 0;
	uint32_t cls[M_SERIES], k, tried, refused = count;
	uint64_t series = 0, ids[M_SERIES];
	int partial = (rq->flags & AR_PARTIAL) != 0;
	size_t n, ng, nm, j = 0, live;

	for (k = 0; k < count; k++) {
		one[k] = *rq;
		one[k].flags &= ~(unsigned)AR_PARTIAL;
		one[k].earliest += (int64_t)k * every;
		one[k].latest += (int64_t)k * every;
		cls[k] = m_class(m, one[k].earliest, now);
		why[k] = m_span(now, &one[k], 0, &first, &last, &len, &need);
		s[k] = -1;
		if (why[k] == AR_R_NONE && (s[k] = m_first_fit(m, cls[k],
		    first, last, len, need)) == -1)
			why[k] = m_refusal(m, cls[k], first, last, len, need, 1);
		if (s[k] != -1)
			m_hold(m, cls[k], s[k], len, need);
		else if (refused == count) {
			refused = k;
			if (!partial)
				break;
		}
	}
	tried = k < count ? k + 1 : count;
	for (k = 0; k < tried; k++)
		if (s[k] != -1)
			m_hold(m, cls[k], s[k], len, -need);
	OK(m, ar_add_series(t, rq, &rep, &a));
	ar_occurrences(t, &occ, &n);
	ar_added(t, &g, &ng, &mv, &nm);
	if (!partial && refused < count) {
		CHECK(m, a.status == AR_REFUSED && a.reason == why[refused] &&
		    a.occurrence == refused + 1 && n == 1 && ng == 0 &&
		    nm == 0, "series of %u: store %d reason %d occurrence %u,"
		    " model refused at %u for %d", count, a.status, a.reason,
		    a.occurrence, refused + 1, why[refused]);
		return;
	}
	CHECK(m, n == count && nm == 0, "series of %u: %zu told, %zu moves",
	    count, n, nm);
	for (k = 0; k < count && k < n; k++) {
		CHECK(m, occ[k].occurrence == k + 1 &&
		    (occ[k].status == AR_GRANTED) == (s[k] != -1) &&
		    (s[k] == -1 ? occ[k].reason == why[k] :
		    occ[k].start == s[k] * M_SLOT) && occ[k].cls == cls[k],
		    "occurrence %u of %u: store %d at %" PRId64 " reason %d, "
		    "model %" PRId64 " reason %d", k + 1, count, occ[k].status,
		    occ[k].start / M_SLOT, occ[k].reason, s[k], why[k]);
		if (s[k] == -1 || j >= ng)
			continue;
		if (series == 0)
			series = g[j].id;
		OK(m, ar_get(t, g[j].id, &r));
		CHECK(m, r.series == series && r.occurrence == k + 1 &&
		    g[j].start == s[k] * M_SLOT, "occurrence %u: series %"
		    PRIu64 " occurrence %u, model %" PRIu64, k + 1, r.series,
		    r.occurrence, series);
		m_enter(m, t, &one[k], &g[j], cls[k], len, need);
		j++;
	}
	CHECK(m, j == ng, "series: %zu granted, model %zu", ng, j);
	OK(m, ar_series(t, series, ids, M_SERIES, &live));
	CHECK(m, live == (series != 0 ? ng : 0), "series %" PRIu64 ": %zu "
	    "live, model %zu", series, live, ng);
}

/*
 * ar_modify of piece k, live and its owner's, to rq (AR_NOMOVE), which
 * answered rc and *a: its request asked again as rq says, with the rule
 * and smallest its pieces keep, in place of its pieces, as m_split_one
 * chooses on the model without them; refused as started if a piece has,
 * else for the reason the model finds, and then nothing changed.
 */
static void
m_modify_pieces(struct model *m, ar_txn *t, int k,
    const struct ar_request *rq, int64_t now, int rc,
    const struct ar_answer *a)
{
	static struct m_copy c;
	const struct ar_placed *g, *mv;
	struct ar_request nr = *rq;
	enum ar_reason why;
	int f = m->resv[k].first, n = (int)m->resv[k].pieces, started = 0;
	int64_t first, last, len, need;
	uint32_t cls;
	size_t ng, nm, want;

	CHECK(m, rc == 0, "modify of piece %" PRIu64 ": %s", m->resv[k].id,
	    ar_strerror(rc));
	if (rc != 0)
		return;
	nr.split = m->resv[k].split;
	nr.smallest = m->resv[k].smallest < rq->duration ?
	    m->resv[k].smallest : rq->duration;
	nr.owner = m->resv[k].owner;
	ar_added(t, &g, &ng, &mv, &nm);
	for (int i = f; i < f + n; i++)
		started |= !m->resv[i].live || m->resv[i].start * M_SLOT <= now;
	if (started) {
		CHECK(m, a->status == AR_REFUSED && a->reason == AR_R_STARTED &&
		    ng == 0 && nm == 0, "modify of started piece %" PRIu64
		    ": store %d reason %d", m->resv[k].id, a->status,
		    a->reason);
		return;
	}
	for (int i = f; i < f + n; i++)
		m_release(m, i, now);
	cls = m_class(m, nr.earliest, now);
	(void)m_span(now, &nr, 0, &first, &last, &len, &need);
	why = m_split_one(m, &nr, now, cls, &c);
	want = why != AR_R_NONE ? 0 : c.s != -1 ? 1 : (size_t)c.k;
	if (why != AR_R_NONE || a->status != AR_GRANTED) {
		CHECK(m, a->status == AR_REFUSED && a->reason == why &&
		    ng == 0 && nm == 0, "modify of piece %" PRIu64 ": store "
		    "%d reason %d, model reason %d", m->resv[k].id, a->status,
		    a->reason, why);
		for (int i = f; i < f + n; i++) {
			m_hold(m, m->resv[i].cls, m->resv[i].start,
			    m->resv[i].len, m->resv[i].need);
			m->resv[i].live = 1;
		}
		return;
	}
	CHECK(m, ng == want && nm == 0 && a->id == g[0].id &&
	    a->pieces == (uint32_t)c.k, "modify of piece %" PRIu64 ": %zu "
	    "granted in %u pieces, model %zu", m->resv[k].id, ng, a->pieces,
	    want);
	if (ng != want || m->nresv + (int)want > M_RESV)
		return;
	(void)m_enter_copy(m, t, &nr, &c, 0, g, cls, len, need);
	m->remade++;
}

/*
 * ar_modify of reservation k by who to the shape of rq: refused as the
 * store must refuse it, or granted where the model says (its start if
 * it has not started and fits there, else first fit in its window; from
 * the clock's slot to its new end if it has started), or, beyond first
 * fit and without AR_NOMOVE, wherever moves the store may make made
 * room.  Its class stays; its price follows its shape.
 */
static void
m_modify(struct model *m, ar_txn *t, int k, uint32_t who,
    const struct ar_request *rq, int64_t now)
{
	const struct ar_placed *g, *mv;
	struct ar_answer a;
	struct ar_resv r;
	enum ar_reason why = AR_R_NONE;
	int64_t base = now / M_SLOT, s0 = m->resv[k].start, from, first, last;
	int64_t len, need, s = -1, total;
	uint32_t cls = m->resv[k].cls;
	uint64_t id = m->resv[k].id;
	int started = s0 * M_SLOT <= now, rc, j;
	size_t ng, nm;

	rc = ar_modify(t, id, who, rq, &a);
	if (who != 0 && who != m->resv[k].owner) {
		CHECK(m, rc == AR_EPERM, "modify by another: %s",
		    ar_strerror(rc));
		return;
	}
	if (!m->resv[k].live || m_ended(m, k, now)) {
		CHECK(m, rc == AR_EDONE, "modify done: %s", ar_strerror(rc));
		return;
	}
	if (m->resv[k].pieces != 0) {
		m_modify_pieces(m, t, k, rq, now, rc, &a);
		return;
	}
	CHECK(m, rc == 0, "modify %" PRIu64 ": %s", id, ar_strerror(rc));
	if (rc != 0)
		return;
	/* Its own slots from the clock on are free for its new shape. */
	from = base > s0 ? base : s0;
	m_hold(m, cls, from, s0 + m->resv[k].len - from, -m->resv[k].need);
	why = m_span(now, rq, 0, &first, &last, &len, &need);
	total = len;
	if (started && why != AR_R_CAPACITY) {
		len = s0 + total - base;
		first = last = base;
		why = up(rq->earliest) > s0 || up(rq->latest) < s0 ||
		    need != m->resv[k].need ? AR_R_STARTED :
		    (s0 + total) * M_SLOT <= now ? AR_R_PAST :
		    s0 + total > base + M_HORIZON ? AR_R_HORIZON : AR_R_NONE;
	}
	if (why == AR_R_NONE && !started && s0 >= first && s0 <= last &&
	    m_fits(m, cls, s0, len, need))
		s = s0;
	else if (why == AR_R_NONE)
		s = m_first_fit(m, cls, first, last, len, need);
	ar_added(t, &g, &ng, &mv, &nm);
	if (a.status != AR_GRANTED) {
		if (why == AR_R_NONE)
			why = m_refusal(m, cls, first, last, len, need, 1);
		CHECK(m, a.status == AR_REFUSED && a.reason == why && s == -1 &&
		    ng == 0 && nm == 0, "modify %" PRIu64 ": store %d reason "
		    "%d, model start %" PRId64 " reason %d", id, a.status,
		    a.reason, s, why);
		m_hold(m, cls, from, s0 + m->resv[k].len - from,
		    m->resv[k].need);
		return;
	}
	CHECK(m, why == AR_R_NONE && ng == 1 && g[0].id == id &&
	    g[0].from == s0 * M_SLOT && a.id == id && a.cls == cls &&
	    a.price == m_price(m, cls, need, total) &&
	    (s == -1 ? nm > 0 && !(rq->flags & AR_NOMOVE) :
	    nm == 0 && a.start == (started ? s0 : s) * M_SLOT &&
	    a.free == m_least(m, started ? base : s, len)),
	    "modify %" PRIu64 ": granted at %" PRId64 " free %u, %zu moves, "
	    "class %u price %" PRId64 "; model %" PRId64 " reason %d", id,
	    a.start / M_SLOT, a.free, nm, a.cls, a.price, s, why);
	for (size_t i = 0; i < nm; i++) {
		CHECK(m, mv[i].id != id, "modify %" PRIu64 " moved itself", id);
		m_move(m, &mv[i], rq->flags, UINT64_MAX, now);
	}
	s = started ? base : a.start / M_SLOT;
	m_hold(m, cls, s, len, need);
	m->resv[k].start = started ? s0 : s;
	m->resv[k].len = total;
	m->resv[k].need = need;
	m->resv[k].earliest = rq->earliest;
	m->resv[k].latest = rq->latest;
	m->resv[k].price = m_price(m, cls, need, total);
	/* A hold expires no later than its new end. */
	if (m->resv[k].expires > (m->resv[k].start + total) * M_SLOT)
		m->resv[k].expires = (m->resv[k].start + total) * M_SLOT;
	m_within(m, k, base);
	for (size_t i = 0; i < nm; i++)
		if ((j = m_find(m, mv[i].id)) >= 0)
			m_within(m, j, 0);
	OK(m, ar_get(t, id, &r));
	CHECK(m, r.start == m->resv[k].start * M_SLOT &&
	    r.end == (m->resv[k].start + total) * M_SLOT &&
	    r.nodes == need && r.cls == cls && r.price == m->resv[k].price &&
	    r.changed == now && r.expires == m->resv[k].expires,
	    "modified record %" PRIu64 ": expires %" PRId64 ", model %"
	    PRId64, id, r.expires, m->resv[k].expires);
	/* A retry under its key is compared with it as it is now. */
	for (int i = 0; i < m->nkeys; i++)
		if (m->keys[i].first == k) {
			m->keys[i].nodes = (uint32_t)need;
			m->keys[i].duration = rq->duration;
		}
	m->modifies++;
}

/*
 * ar_longest of rq at now: of its starts, the one from which need
 * nodes of its class fit in the most slots one after the other, up to
 * the horizon or its duration if it has one (0: none), the earliest of
 * equals; or unavailable, and why, with the free count at its first
 * start.
 */
static void
m_longest(struct model *m, ar_txn *t, const struct ar_request *rq,
    int64_t now)
{
	struct ar_request one = *rq;
	struct ar_answer a;
	enum ar_reason why;
	int64_t first, last, len, need, best = 0, bs = -1;
	int64_t stop = now / M_SLOT + M_HORIZON;
	int64_t bound = rq->duration > 0 ? up(rq->duration) : INT64_MAX;
	uint32_t cls = m_class(m, rq->earliest, now);

	/* Reasons as for a request of one slot. */
	one.duration = 1;
	why = m_span(now, &one, 1, &first, &last, &len, &need);
	for (int64_t s = first; why == AR_R_NONE && s <= last; s++) {
		int64_t n = 0;

		while (s + n < stop && n < bound &&
		    m_fits(m, cls, s + n, 1, need))
			n++;
		if (n > best) {
			best = n;
			bs = s;
		}
	}
	if (why == AR_R_NONE && bs == -1)
		why = m_refusal(m, cls, first, last, 1, need, 1);
	OK(m, ar_longest(t, rq, &a));
	if (bs != -1)
		CHECK(m, a.status == AR_SUGGESTED && a.reason == AR_R_NONE &&
		    a.start == bs * M_SLOT && a.end == (bs + best) * M_SLOT &&
		    a.free == m_least(m, bs, best) && a.cls == cls &&
		    a.price == m_price(m, cls, need, best), "longest from %"
		    PRId64 " to %" PRId64 ", %" PRId64 " nodes: store %d at %"
		    PRId64 " to %" PRId64 " free %u price %" PRId64 ", model %"
		    PRId64 " to %" PRId64 " free %" PRId64, first, last, need,
		    a.status, a.start / M_SLOT, a.end / M_SLOT, a.free, a.price,
		    bs, bs + best, m_least(m, bs, best));
	else
		CHECK(m, a.status == AR_UNAVAILABLE && a.reason == why &&
		    a.end == -1 && a.cls == cls && ((why != AR_R_FULL &&
		    why != AR_R_BOOKING) || (a.start == first * M_SLOT &&
		    a.free == m_least(m, first, 1))), "longest from %" PRId64 ": store %d reason %d at %"
		    PRId64 " free %u, model reason %d", first, a.status,
		    a.reason, a.start / M_SLOT, a.free, why);
	m->longest++;
}

/*
 * ar_furthest of reservation k at now, with flags: the end it reaches
 * at its start, its own slots free, up to the first slot where its
 * nodes do not fit; with AR_WINDOW, one not started and not held may
 * take the start of its window from which it fits the longest (its own
 * if that is as long).  Now and then the answer is given to ar_modify,
 * as ar-add --modify would take the record, and must be granted there.
 */
static void
m_furthest(struct model *m, ar_txn *t, int k, unsigned flags, int64_t now)
{
	struct ar_answer a;
	struct ar_request rq;
	struct ar_resv r;
	int64_t base = now / M_SLOT, stop = base + M_HORIZON;
	int64_t s0 = m->resv[k].start, len = m->resv[k].len;
	int64_t need = m->resv[k].need, own = s0 > base ? s0 : base, e, ns, ne;
	uint32_t cls = m->resv[k].cls;
	uint64_t id = m->resv[k].id;
	int started = s0 * M_SLOT <= now, rc = ar_furthest(t, id, flags, &a);
	enum ar_reason why = AR_R_NONE;
	int64_t least;

	if (!m->resv[k].live || m_ended(m, k, now)) {
		CHECK(m, rc == AR_EDONE, "furthest of one done: %s",
		    ar_strerror(rc));
		return;
	}
	CHECK(m, rc == 0, "furthest %" PRIu64 ": %s", id, ar_strerror(rc));
	if (rc != 0)
		return;
	/* Its own slots are free for it. */
	m_hold(m, cls, own, s0 + len - own, -need);
	/* Its own slots fit unless a limit was lowered since. */
	for (e = own; e < stop && m_fits(m, cls, e, 1, need); e++)
		;
	ns = s0;
	ne = e;
	if ((flags & AR_WINDOW) && !started && m->resv[k].expires == 0) {
		int64_t lo = up(m->resv[k].earliest), hi = up(m->resv[k].latest);

		if (lo < up(now))
			lo = up(now);
		if (hi > stop - 1)
			hi = stop - 1;
		for (int64_t s = lo; s <= hi; s++) {
			int64_t n = 0;

			while (s + n < stop && m_fits(m, cls, s + n, 1, need))
				n++;
			if (n > ne - ns) {
				ns = s;
				ne = s + n;
			}
		}
	}
	least = m_least(m, started ? base : ns, ne - (started ? base : ns));
	if (ne - ns <= len) {
		why = e == stop ? AR_R_HORIZON : m_fits(m, 0, e, 1, need) ?
		    AR_R_BOOKING : AR_R_FULL;
		least = e < stop ? m_least(m, e, 1) : 0;
	}
	m_hold(m, cls, own, s0 + len - own, need);
	if (why != AR_R_NONE) {
		CHECK(m, a.status == AR_UNAVAILABLE && a.reason == why &&
		    a.id == id && a.start == s0 * M_SLOT &&
		    a.end == (s0 + len) * M_SLOT && (why == AR_R_HORIZON ||
		    a.free == least), "furthest %" PRIu64 ": store %d reason "
		    "%d free %u, model reason %d free %" PRId64, id, a.status,
		    a.reason, a.free, why, least);
		m->unextended++;
		return;
	}
	CHECK(m, a.status == AR_SUGGESTED && a.id == id &&
	    a.start == ns * M_SLOT && a.end == ne * M_SLOT &&
	    a.free == least && a.cls == cls &&
	    a.price == m_price(m, cls, need, ne - ns), "furthest %" PRIu64
	    " (%" PRId64 "..%" PRId64 ", flags %u): store %d at %" PRId64
	    " to %" PRId64 " free %u, model %" PRId64 " to %" PRId64
	    " free %" PRId64, id, s0, s0 + len, flags, a.status,
	    a.start / M_SLOT, a.end / M_SLOT, a.free, ns, ne, least);
	m->extended++;
	/* A piece is not modified (m_modify). */
	if (PICK(2) == 0 || m->resv[k].pieces != 0)
		return;
	/* What ar-add --modify makes of the record: end=, or duration=
	 * with AR_WINDOW; the window as it was. */
	OK(m, ar_get(t, id, &r));
	rq = request(m, r.earliest, flags & AR_WINDOW ? (ne - ns) * M_SLOT :
	    ne * M_SLOT - r.start, r.nodes);
	rq.latest = r.latest;
	rq.flags = AR_NOMOVE;
	m_modify(m, t, k, 0, &rq, now);
	OK(m, ar_get(t, id, &r));
	/* A start asked off the slot grid, its slot not yet begun, reads
	 * as past to a modify (its latest start is before the clock). */
	CHECK(m, (r.start == ns * M_SLOT && r.end == ne * M_SLOT) ||
	    (!started && rq.latest < now), "furthest %" PRIu64 " to %" PRId64 "..%" PRId64
	    ": the modify made it %" PRId64 "..%" PRId64, id, ns, ne,
	    r.start / M_SLOT, r.end / M_SLOT);
}

/* The key of owner named name, or -1. */
static int
m_key(const struct model *m, uint32_t owner, const char *name)
{
	for (int k = 0; k < m->nkeys; k++)
		if (m->keys[k].owner == owner && strcmp(m->keys[k].name, name) == 0)
			return k;
	return -1;
}

/* A request whose key k was taken: the same request is replayed,
 * nothing booked; another is refused. */
static void
m_keyed(struct model *m, ar_txn *t, const struct ar_request *rq, int k,
    int64_t now)
{
	const struct ar_placed *g, *mv;
	struct ar_answer a;
	size_t ng, nm;
	int f = m->keys[k].first, same = rq->nodes == m->keys[k].nodes &&
	    rq->jobs == m->keys[k].jobs && rq->duration == m->keys[k].duration;
	int ended = m_ended(m, f, now);

	OK(m, ar_add(t, rq, &a));
	ar_added(t, &g, &ng, &mv, &nm);
	if (!same) {
		CHECK(m, a.status == AR_REFUSED && a.reason == AR_R_KEY &&
		    a.id == m->resv[f].id && !a.replayed && ng == 0 && nm == 0,
		    "key %s of %u for another request: status %d reason %d",
		    rq->client_key, rq->owner, a.status, a.reason);
		return;
	}
	CHECK(m, a.replayed && a.reason == AR_R_NONE && a.id == m->resv[f].id &&
	    ng == rq->jobs &&
	    nm == 0 && (m->resv[f].live ? a.status == AR_GRANTED ||
	    (ended && a.status == AR_FINISHED) : a.status == m_gone(m, f)),
	    "replay of key %s of %u: replayed %d id %" PRIu64 " status %d, "
	    "%zu copies", rq->client_key, rq->owner, a.replayed, a.id,
	    a.status, ng);
	/* A replay answers for what was booked. */
	CHECK(m, a.cls == m->resv[f].cls && a.price == m->resv[f].price,
	    "replay of key %s of %u: class %u price %" PRId64 ", booked "
	    "class %u price %" PRId64, rq->client_key, rq->owner, a.cls,
	    a.price, m->resv[f].cls, m->resv[f].price);
	for (size_t j = 0; j < ng && j < rq->jobs; j++)
		CHECK(m, g[j].id == m->resv[f + (int)j].id &&
		    g[j].start == m->resv[f + (int)j].start * M_SLOT,
		    "replayed copy %zu: id %" PRIu64 " at %" PRId64, j, g[j].id,
		    g[j].start / M_SLOT);
}

/* Random classes, n of them (0: none): prices falling, limits nested,
 * b_1 the nodes; the book-ahead ranges cut the horizon at random slots
 * and go to the classes in a random order. */
static void
m_classes(struct model *m, size_t n, struct ar_pricing *p)
{
	size_t order[M_CLASSES];
	int64_t at = 0;

	memset(p, 0, sizeof(*p));
	p->n = n;
	p->retention = (1 + (int64_t)PICK(24)) * 3600;
	for (size_t i = n; i-- > 0; ) {
		snprintf(p->c[i].name, sizeof(p->c[i].name), "c%zu", i + 1);
		p->c[i].price = (i + 1 == n ? 0 : p->c[i + 1].price) + 1 +
		    (int64_t)PICK(50);
	}
	for (size_t i = 0; i < n; i++) {
		uint32_t above = i == 0 ? M_NODES : p->c[i - 1].limit;
		uint32_t less = (uint32_t)PICK(4);

		if (i == 0)
			p->c[i].limit = M_NODES;
		else if (PICK(4) == 0)
			p->c[i].limit = (uint32_t)PICK(above + 1);
		else
			p->c[i].limit = less < above ? above - less : 0;
		order[i] = i;
	}
	for (size_t i = n; i > 1; i--) {
		size_t j = (size_t)PICK(i), x = order[i - 1];

		order[i - 1] = order[j];
		order[j] = x;
	}
	for (size_t i = 0; i < n; i++) {
		struct ar_class *c = &p->c[order[i]];

		c->ahead_min = at;
		if (i + 1 == n)
			c->ahead_max = -1;
		else
			c->ahead_max = at = at + (1 + (int64_t)PICK(M_HORIZON /
			    n)) * M_SLOT;
	}
}

/* Is a live reservation of some class not ended by now? */
static int
m_priced_live(const struct model *m, int64_t now)
{
	for (int k = 0; k < m->nresv; k++)
		if (m->resv[k].live && m->resv[k].cls != 0 && !m_ended(m, k, now))
			return 1;
	return 0;
}

/* Set classes p in the store and the model; rc is what the store should
 * answer. */
static void
m_set(struct model *m, ar_txn *t, const struct ar_pricing *p, int rc_want)
{
	struct ar_pricing q;
	const char *field;
	size_t bad;
	int rc = ar_set_pricing(t, p, &bad, &field);

	CHECK(m, rc == rc_want, "%zu classes, %zu before: %s, not %s", p->n,
	    m->pr.n, ar_strerror(rc), ar_strerror(rc_want));
	if (rc == 0 && p->n != m->pr.n)
		m->renumbered++;
	m->busy += rc == EBUSY;
	if (rc == 0)
		m->pr = *p;
	OK(m, ar_pricing(t, &q));
	CHECK(m, q.n == m->pr.n && memcmp(q.c, m->pr.c, m->pr.n *
	    sizeof(q.c[0])) == 0, "classes read back: %zu", q.n);
}

/*
 * New classes: new prices, limits and ranges for as many classes, which
 * the store takes whatever it holds; with renumber, now and then another
 * number of them (any, the first time), which it refuses while a live
 * reservation has a class.  Without renumber another number is only
 * tried where it is refused.
 */
static void
m_reprice(struct model *m, ar_txn *t, int64_t now, int renumber)
{
	struct ar_pricing p;
	size_t n = m->pr.n;
	int busy = 0;

	if (!m->priced)
		n = 2 + (size_t)PICK(M_CLASSES - 1);
	else if (PICK(renumber ? 2 : 4) == 0) {
		n = (size_t)PICK(M_CLASSES + 1);
		busy = n != m->pr.n && m_priced_live(m, now);
	}
	/* Every priced reservation cancelled, then another number of
	 * classes, in the same transaction. */
	if (busy && PICK(2) == 0) {
		struct ar_resv r;

		for (int k = 0; k < m->nresv; k++)
			if (m->resv[k].live && m->resv[k].cls != 0 &&
			    !m_ended(m, k, now)) {
				OK(m, ar_cancel(t, m->resv[k].id, 0, &r));
				m_cancelled(m, k, now);
			}
		busy = 0;
	}
	m_classes(m, n, &p);
	m_set(m, t, &p, busy ? EBUSY : 0);
	m->priced = 1;
}

void
model_price(struct model *m, ar_txn *t, int64_t now)
{
	m_reprice(m, t, now, 1);
}

/*
 * Piece k of a split request reclaimed at now: the request's later
 * pieces that are live and reported no use go with it, reclaimed,
 * changed now: one not begun whole, its record keeping its interval, one
 * begun cut as m_reclaim cuts.
 */
static void
m_reclaim_later(struct model *m, ar_txn *t, int k, int64_t now)
{
	struct ar_resv r;
	int end = m->resv[k].first + (int)m->resv[k].pieces;
	int64_t s, cut;

	for (int i = k + 1; m->resv[k].pieces != 0 && i < end; i++) {
		if (!m->resv[i].live || m->resv[i].used == AR_USE_YES ||
		    m_ended(m, i, now))
			continue;
		s = m->resv[i].start;
		cut = s * M_SLOT >= now ? s + m->resv[i].len : now / M_SLOT > s ?
		    now / M_SLOT : s + 1;
		OK(m, ar_get(t, m->resv[i].id, &r));
		CHECK(m, r.state == AR_RECLAIMED && r.changed == now &&
		    r.start == s * M_SLOT && r.end == cut * M_SLOT &&
		    r.expires == 0, "piece %" PRIu64 " reclaimed with %" PRIu64
		    " at %" PRId64 ": state %d changed %" PRId64 " end %"
		    PRId64, m->resv[i].id, m->resv[k].id, now, r.state,
		    r.changed, r.end);
		m_release(m, i, now);
		m->resv[i].reclaimed = 1;
		m->resv[i].expires = 0;
		m->reclaims++;
	}
}

/*
 * With a reclaim policy, every live reservation that started at least
 * the grace before now, has not ended and has not reported use is
 * reclaimed: its record ends at the slot now is in (after its first at
 * the earliest), reads reclaimed, changed now; its slots from there on
 * are free, and a split request's later pieces go with it (with one
 * that ended before its grace too).
 */
static void
m_reclaim(struct model *m, ar_txn *t, int64_t now)
{
	struct ar_resv r;
	int64_t s, cut;

	for (int k = 0; m->grace != 0 && k < m->nresv; k++) {
		s = m->resv[k].start;
		if (!m->resv[k].live || m->resv[k].used == AR_USE_YES ||
		    s * M_SLOT + m->grace > now)
			continue;
		/* A piece that ended before its grace frees the rest of its
		 * request all the same, if the index had it: it was live
		 * when the policy was last set. */
		if (m_ended(m, k, now)) {
			if (m->resv[k].pieces != 0 && (s + m->resv[k].len) *
			    M_SLOT > m->policy_at)
				m_reclaim_later(m, t, k, now);
			continue;
		}
		cut = now / M_SLOT > s ? now / M_SLOT : s + 1;
		OK(m, ar_get(t, m->resv[k].id, &r));
		CHECK(m, r.state == AR_RECLAIMED && r.changed == now &&
		    r.end == cut * M_SLOT && r.expires == 0, "reservation %"
		    PRIu64 " reclaimed at %" PRId64 ": state %d changed %"
		    PRId64 " end %" PRId64, m->resv[k].id, now, r.state,
		    r.changed, r.end);
		m_release(m, k, now);
		m->resv[k].reclaimed = 1;
		m->resv[k].expires = 0;
		m->reclaims++;
		m_reclaim_later(m, t, k, now);
	}
}

/* ar_use of reservation k by who: refused as the store must refuse it,
 * else what it reported, yes final. */
static void
m_use(struct model *m, ar_txn *t, int k, uint32_t who, enum ar_use used,
    int64_t now)
{
	struct ar_resv r;
	int rc = ar_use(t, m->resv[k].id, who, used, &r);

	if (who != 0 && who != m->resv[k].owner)
		CHECK(m, rc == AR_EPERM, "use report by another: %s",
		    ar_strerror(rc));
	else if (!m->resv[k].live || m_ended(m, k, now))
		CHECK(m, rc == AR_EDONE && r.state == (!m->resv[k].live ?
		    m_gone(m, k) : AR_FINISHED), "use report done: %s, state "
		    "%d", ar_strerror(rc), r.state);
	else {
		if (m->resv[k].used != AR_USE_YES)
			m->resv[k].used = used;
		CHECK(m, rc == 0 && r.state == AR_GRANTED &&
		    r.used == m->resv[k].used, "use report %" PRIu64 ": %s, "
		    "used %d, model %d", m->resv[k].id, ar_strerror(rc),
		    r.used, m->resv[k].used);
		m->reports++;
	}
}

/* A new reclaim policy, the store's grace only: those past it at once. */
static void
m_policy(struct model *m, ar_txn *t, int64_t now)
{
	struct ar_reclaim p;

	memset(&p, 0, sizeof(p));
	p.grace = PICK(4) == 0 ? 0 : 1 + (int64_t)PICK(20 * M_SLOT);
	OK(m, ar_set_reclaim(t, &p));
	/* The same policy again changes nothing: the index stays as it is,
	 * with the pieces that had ended since it was made. */
	if (p.grace != m->grace)
		m->policy_at = now;
	m->grace = p.grace;
	m_reclaim(m, t, now);
}

static void m_drains_stretch(struct model *, ar_txn *, int64_t);
static void m_pool_added(struct model *, ar_txn *, int64_t);

void
model_begin(struct model *m, ar_txn *t, int64_t now)
{
	struct ar_resv r;

	for (int k = 0; k < m->nresv; k++) {
		if (!m->resv[k].live || m->resv[k].expires == 0 ||
		    m->resv[k].expires > now)
			continue;
		OK(m, ar_get(t, m->resv[k].id, &r));
		CHECK(m, r.state == AR_EXPIRED && r.changed ==
		    m->resv[k].expires, "hold %" PRIu64 " expired at %" PRId64
		    ": state %d changed %" PRId64, m->resv[k].id,
		    m->resv[k].expires, r.state, r.changed);
		m_release(m, k, now);
		m->resv[k].expired = 1;
		m->expiries++;
	}
	m_reclaim(m, t, now);
	if (m->pooled)
		m_drains_stretch(m, t, now);
	if (m->pooled && m->pools->added[0] != '\0')
		m_pool_added(m, t, now);
}

/* ar_confirm of reservation k by who: refused as the store must refuse
 * it (one never a hold too), else its hold, if any, is gone. */
static void
m_confirm(struct model *m, ar_txn *t, int k, uint32_t who, int64_t now)
{
	struct ar_resv r;
	int rc = ar_confirm(t, m->resv[k].id, who, &r);

	if (who != 0 && who != m->resv[k].owner)
		CHECK(m, rc == AR_EPERM, "confirm by another: %s",
		    ar_strerror(rc));
	else if (!m->resv[k].live || m_ended(m, k, now))
		CHECK(m, rc == AR_EDONE && r.state == (!m->resv[k].live ?
		    m_gone(m, k) : AR_FINISHED), "confirm done: %s, state %d",
		    ar_strerror(rc), r.state);
	else if (m->resv[k].expires == 0 && !m->resv[k].confirmed)
		CHECK(m, rc == AR_ENOTHOLD, "confirm %" PRIu64 ", never a "
		    "hold: %s", m->resv[k].id, ar_strerror(rc));
	else {
		CHECK(m, rc == 0 && r.state == AR_GRANTED && r.expires == 0 &&
		    r.changed == (m->resv[k].expires ? now : r.changed),
		    "confirm %" PRIu64 ": %s", m->resv[k].id, ar_strerror(rc));
		m->confirms += m->resv[k].expires != 0;
		m->resv[k].expires = 0;
		m->resv[k].confirmed = 1;
	}
}

/* ar_cancel of reservation k by who: refused as the store must refuse
 * it, else it goes, and a piece with every live piece of its request. */
static void
m_cancel(struct model *m, ar_txn *t, int k, uint32_t who, int64_t now)
{
	struct ar_resv r;
	int rc = ar_cancel(t, m->resv[k].id, who, &r), any = 0;

	/* A piece is its request: every live piece goes. */
	for (int i = m->resv[k].first; m->resv[k].pieces != 0 &&
	    i < m->resv[k].first + (int)m->resv[k].pieces; i++)
		any |= m->resv[i].live && !m_ended(m, i, now);
	if (who != 0 && who != m->resv[k].owner)
		CHECK(m, rc == AR_EPERM, "cancel by another: %s",
		    ar_strerror(rc));
	else if (m->resv[k].drain != 0 && m->resv[k].live)
		CHECK(m, rc == AR_EPERM, "cancel of drain %" PRIu64 ": %s",
		    m->resv[k].id, ar_strerror(rc));
	else if (m->resv[k].pieces != 0) {
		CHECK(m, rc == (any ? 0 : AR_EDONE), "cancel of a "
		    "piece: %s", ar_strerror(rc));
		m_cancelled(m, k, now);
	} else if (!m->resv[k].live || m_ended(m, k, now))
		CHECK(m, rc == AR_EDONE, "cancel done: %s", ar_strerror(rc));
	else {
		CHECK(m, rc == 0 && r.state == AR_CANCELLED &&
		    r.cls == m->resv[k].cls &&
		    r.price == m->resv[k].price, "cancel: %s, class "
		    "%u price %" PRId64, ar_strerror(rc), r.cls, r.price);
		m_release(m, k, now);
	}
}

/*
 * A run on several pools (model_layout).  The brute force is
 * tests/pools.h's, as test_pools uses it for single requests: the
 * eligible pools, the first start by count and the pool where it comes
 * first, then the first start there from it at which the pool's plan
 * maps, every arrangement of its plain reservations tried around those
 * that hold their hosts: the named ones, and the started ones, whose
 * hosts ar_map keeps (map.c).  Admission's sweep may find no
 * arrangement where one exists (ar-add(1), PARTITIONS): an answer later,
 * or refused for the hosts, where the brute force grants is counted,
 * not failed, and the model test bounds how often it happens.
 * Drains are reservations of the model too, named, stretched to the
 * horizon's end as the clock moves (m_drains_stretch); hosts added
 * renumber bits[] and every reservation's hosts, by name.
 */
void
model_layout(struct model *m, struct ar_config *cfg)
{
	spec_make(&m->pools->sp, m->pick, m->arg);
	m->pools->loaded = 0;
	memset(m->pools->bits, 0, sizeof(m->pools->bits));
	m->pools->added[0] = '\0';
	m->pooled = 1;
	cfg->layout = m->pools->sp.text;
}

/* The plan as ar_map tells it, checked as it goes. */
struct m_view {
	struct model *m;
	int64_t base;
	uint64_t busy[M_HORIZON];
	uint32_t count[POOLS_MAX][M_HORIZON];   /* nodes told, per pool */
	size_t seen;
};

/* One reservation ar_map told: on as many hosts as its nodes, of its
 * pool, the named on theirs, none on a host another holds then. */
static int
m_view_one(const struct ar_mapped *mp, void *arg)
{
	struct m_view *v = arg;
	struct model *m = v->m;
	int k = m_find(m, mp->r.id);
	uint64_t bits = 0;
	int64_t from = (mp->r.start / M_SLOT > v->base ? mp->r.start / M_SLOT :
	    v->base), to = mp->r.end / M_SLOT;

	if (mp->r.state != AR_GRANTED)
		return 0;       /* it ended before the clock */
	for (size_t h = 0; h < mp->nhosts; h++)
		bits |= UINT64_C(1) << mp->hosts[h];
	v->seen++;
	CHECK(m, k >= 0 && m->resv[k].live && mp->r.pool == m->resv[k].pool &&
	    mp->r.pool < POOLS_MAX && mp->nhosts == mp->r.nodes &&
	    (bits & ~m->pools->bits[mp->r.pool]) == 0 &&
	    (m->resv[k].named == 0 || m->resv[k].named == bits),
	    "map: reservation %" PRIu64 " of pool %" PRIu32 " on %zu hosts "
	    "(%#" PRIx64 "), model: pool %" PRIu32 " named %#" PRIx64,
	    mp->r.id, mp->r.pool, mp->nhosts, bits, k >= 0 ?
	    m->resv[k].pool : 0, k >= 0 ? m->resv[k].named : 0);
	if (k < 0)
		return 0;
	m->resv[k].on = bits;
	for (int64_t x = from; x < to && x < v->base + M_HORIZON; x++) {
		CHECK(m, (v->busy[x - v->base] & bits) == 0, "map: "
		    "reservation %" PRIu64 " shares a host at slot %" PRId64,
		    mp->r.id, x);
		v->busy[x - v->base] |= bits;
		v->count[m->resv[k].pool][x - v->base] += mp->r.nodes;
	}
	return 0;
}

/* ar_map of the plan from the clock on, every host checked, and every
 * live reservation of the model told; each one's hosts into its on. */
static void
m_pool_view(struct model *m, ar_txn *t, int64_t now)
{
	static struct m_view v;
	size_t live = 0;

	memset(&v, 0, sizeof(v));
	v.m = m;
	v.base = now / M_SLOT;
	OK(m, ar_map(t, 0, now, (v.base + M_HORIZON) * M_SLOT, NULL, 0,
	    m_view_one, &v));
	for (int k = 0; k < m->nresv; k++)
		live += m->resv[k].live && !m_ended(m, k, now);
	CHECK(m, v.seen == live, "map: %zu reservations told, model %zu",
	    v.seen, live);
	for (int k = 0; k < POOLS_MAX; k++)
		for (int64_t x = v.base; x < v.base + M_HORIZON; x++)
			if (v.count[k][x - v.base] != m->pools->used[k][x]) {
				CHECK(m, 0, "map: pool %d at slot %" PRId64
				    ": %u nodes told, model %u", k, x,
				    v.count[k][x - v.base],
				    m->pools->used[k][x]);
				break;
			}
}

/* The hosts reservation j holds for certain: those it named (a drain
 * its hosts), or, once it started, those ar_map told it on; 0: any of
 * its pool. */
static uint64_t
m_fixed(const struct model *m, int j, int64_t now)
{
	return m->resv[j].named != 0 ? m->resv[j].named :
	    m->resv[j].start * M_SLOT <= now ? m->resv[j].on : 0;
}

/* A live reservation of c's pool over c's time that holds one of c's
 * named hosts for certain: its id, 0 if none. */
static uint64_t
m_conflict(const struct model *m, const struct planned *c, int64_t now)
{
	for (int j = 0; j < m->nresv; j++)
		if (m->resv[j].live && !m_ended(m, j, now) &&
		    m->resv[j].pool == c->pool && m->resv[j].start < c->e &&
		    m->resv[j].start + m->resv[j].len > c->s &&
		    (m_fixed(m, j, now) & c->named) != 0)
			return m->resv[j].id;
	return 0;
}

/* Bits of host indexes, each host h now to[h]. */
static uint64_t
m_renumber(uint64_t bits, const uint32_t *to)
{
	uint64_t out = 0;

	for (uint32_t h = 0; h < 64; h++)
		if (bits >> h & 1)
			out |= UINT64_C(1) << to[h];
	return out;
}

/* Some of the hosts of bits, at random: at least one. */
static uint64_t
m_some_hosts(struct model *m, uint64_t bits)
{
	uint64_t some = 0;

	for (uint32_t h = 0; h < 64; h++)
		if ((bits >> h & 1) && PICK(2))
			some |= UINT64_C(1) << h;
	return some != 0 ? some : bits & -bits;
}

/* The live reservations of pool k into the model's plan, as the brute
 * force sees them; how many (ARRANGE_MAX + 1 at most: then undecided). */
static size_t
m_pool_plan(struct model *m, uint32_t k, int64_t now)
{
	size_t n = 0;

	for (int j = 0; j < m->nresv && n <= ARRANGE_MAX; j++) {
		if (!m->resv[j].live || m_ended(m, j, now) ||
		    m->resv[j].pool != k)
			continue;
		m->pools->plan[n] = (struct planned){ k, m->resv[j].start,
		    m->resv[j].start + m->resv[j].len,
		    (uint32_t)m->resv[j].need, m_fixed(m, j, now),
		    m->resv[j].id };
		n++;
	}
	return n;
}

/* The brute force's start for c in [first, last], c.s and c.e its first
 * slot and end: a named one in its pool, a plain one in the pool of
 * el[0..ne) where it fits first by count (into c->pool), then the first
 * start there from it where the plan maps; -1 none, -2 undecided.
 * *counted: whether any start fits by count (else the refusal is for
 * the nodes, not the hosts). */
static int64_t
m_pool_expect(struct model *m, const struct ar_pool *pools,
    const uint32_t *el, size_t ne, struct planned *c, int64_t first,
    int64_t last, int64_t now, int *counted)
{
	struct m_pools *p = m->pools;
	int64_t bs, len = c->e - c->s;
	size_t n;

	bs = c->named != 0 ? brute_first(&p->used[0][0], M_SPAN,
	    pools[c->pool].count, c->pool, first, last, len, c->nodes) :
	    brute_pool(&p->used[0][0], M_SPAN, pools, el, ne, c->nodes, first,
	    last, len, &c->pool);
	if (!(*counted = bs != -1))
		return -1;
	n = m_pool_plan(m, c->pool, now);
	return brute_mapped(&p->used[0][0], M_SPAN, pools[c->pool].count,
	    p->plan, n, *c, p->bits[c->pool], bs, last);
}

/* A grant g of rq in pool, named hosts named: into the model. */
static void
m_pool_enter(struct model *m, ar_txn *t, const struct ar_request *rq,
    const struct ar_placed *g, uint32_t pool, uint64_t named, int64_t len)
{
	int k = m->nresv;

	m_enter(m, t, rq, g, 0, len, rq->nodes);
	if (m->nresv == k)
		return;         /* the model is full */
	m->resv[k].pool = pool;
	m->resv[k].named = named;
	for (int64_t x = m->resv[k].start; x < m->resv[k].start + len; x++)
		m->pools->used[pool][x] += rq->nodes;
}

/*
 * Maintenance that wins (AR_FORCE), rigid at c.s: refused for the hosts
 * if a named or started reservation holds one of them then; else granted
 * there, in its pool, and what it displaced were plain reservations of
 * that pool, not started, over its time, now cancelled, the rest
 * mapping with it.  Displacing where an arrangement keeps them all is
 * counted (the store maps the others greedily).
 */
static void
m_pool_maint(struct model *m, ar_txn *t, const struct ar_request *rq,
    const struct planned *c, int64_t now)
{
	const struct ar_placed *g, *mv;
	const uint64_t *ids;
	struct ar_answer a;
	struct ar_resv r;
	uint64_t conflict = m_conflict(m, c, now);
	size_t nd, ng, nm, n;
	int keeps, rest, j;

	n = m_pool_plan(m, c->pool, now);
	keeps = maps_with(m->pools->plan, n, c, c->pool,
	    m->pools->bits[c->pool]);
	OK(m, ar_add(t, rq, &a));
	ar_displaced(t, &ids, &nd);
	ar_added(t, &g, &ng, &mv, &nm);
	m->maints++;
	if (conflict != 0) {
		CHECK(m, a.status == AR_REFUSED && a.reason == AR_R_HOSTS &&
		    ng == 0, "maintenance at %" PRId64 " on hosts %#" PRIx64
		    " that %" PRIu64 " holds: store %d reason %d", c->s,
		    c->named, conflict, a.status, a.reason);
		return;
	}
	CHECK(m, a.status == AR_GRANTED && a.start == c->s * M_SLOT &&
	    a.pool == c->pool && ng == 1 && nm == 0, "maintenance at %"
	    PRId64 " in pool %" PRIu32 ": store %d reason %d at %" PRId64
	    " pool %" PRIu32, c->s, c->pool, a.status, a.reason,
	    a.start / M_SLOT, a.pool);
	if (a.status != AR_GRANTED || ng != 1)
		return;
	for (size_t i = 0; i < nd; i++) {
		j = m_find(m, ids[i]);
		CHECK(m, j >= 0 && m->resv[j].live && !m_ended(m, j, now) &&
		    m->resv[j].pool == c->pool && m->resv[j].named == 0 &&
		    m->resv[j].start * M_SLOT > now &&
		    m->resv[j].start < c->e &&
		    m->resv[j].start + m->resv[j].len > c->s, "maintenance "
		    "at %" PRId64 " displaced %" PRIu64 ", which it may not",
		    c->s, ids[i]);
		if (j < 0 || !m->resv[j].live)
			continue;
		OK(m, ar_get(t, ids[i], &r));
		CHECK(m, r.state == AR_CANCELLED, "displaced %" PRIu64
		    ": state %d", ids[i], r.state);
		m_release(m, j, now);
		m->displaced++;
	}
	m->overdisplaced += nd > 0 && keeps == 1;
	n = m_pool_plan(m, c->pool, now);
	rest = maps_with(m->pools->plan, n, c, c->pool,
	    m->pools->bits[c->pool]);
	CHECK(m, rest != 0, "maintenance at %" PRId64 ": the plan with it "
	    "does not map", c->s);
	m_pool_enter(m, t, rq, &g[0], c->pool, c->named, c->e - c->s);
}

/* The store's host names, by index, into names (64 at most), how many
 * into *n: 0, or the error of the call that failed. */
static int
m_store_names(ar_txn *t, char (*names)[M_NAME], uint32_t *n)
{
	struct ar_hostlist all;
	char err[AR_ERRMAX], buf[AR_HOSTNAME_MAX + 1];
	const char *text;
	int rc;

	if ((rc = ar_hosts(t, &text)) != 0)
		return rc;
	ar_hostlist_init(&all);
	if ((rc = ar_hostlist_parse(text, &all, err)) == 0 && all.count > 64)
		rc = AR_EFULL;
	for (uint32_t i = 0; rc == 0 && i < all.count; i++)
		snprintf(names[i], M_NAME, "%s", ar_hostlist_name(&all, i,
		    buf));
	*n = rc == 0 ? (uint32_t)all.count : 0;
	ar_hostlist_free(&all);
	return rc;
}

/* The store's layout into parts and pools; the first time each pool's
 * hosts and every host's name too, read from the store, which the model
 * keeps from then on.  1 if it could. */
static int
m_pool_load(struct model *m, ar_txn *t, const struct ar_partition **parts,
    size_t *np, const struct ar_pool **pools, size_t *nk)
{
	struct m_pools *p = m->pools;
	int rc;

	if ((rc = ar_layout(t, parts, np, pools, nk)) == 0 && !p->loaded &&
	    (rc = pool_host_bits(t, *pools, *nk, p->bits)) == 0)
		rc = m_store_names(t, p->names, &p->nhosts);
	CHECK(m, rc == 0 && *nk <= POOLS_MAX, "layout: %s", ar_strerror(rc));
	if (rc != 0 || *nk > POOLS_MAX)
		return 0;
	p->loaded = 1;
	return 1;
}

/* The names of the hosts of bits into buf, comma-separated. */
static const char *
m_names_of(const struct m_pools *p, uint64_t bits, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (uint32_t h = 0; h < 64 && len < size; h++)
		if (bits >> h & 1)
			len += (size_t)snprintf(buf + len, size - len, "%s%s",
			    len ? "," : "", h < p->nhosts ? p->names[h] : "?");
	return buf;
}

/* A drain the model expects the store to have made (by ar_drain, or
 * what an undrain left drained): its id once ar_drains tells it. */
struct m_newdrain {
	uint32_t pool;
	uint64_t hosts;
	int64_t s;              /* its first slot */
	int removed;
	uint32_t owner;
	uint64_t id;
};

/* The drains ar_drains tells, against the model's. */
struct m_drainwalk {
	struct model *m;
	struct m_newdrain *want;
	size_t nwant, seen;
};

/* A drain ar_drains tells: one of the model's, as the model has it, or
 * one it expects; nothing else. */
static int
m_drain_one(const struct ar_drain *d, void *arg)
{
	struct m_drainwalk *w = arg;
	struct model *m = w->m;
	uint64_t bits = 0;
	int k = m_find(m, d->id);

	w->seen++;
	for (uint32_t h = 0; h < d->nhosts; h++)
		bits |= d->hosts[h] < 64 ? UINT64_C(1) << d->hosts[h] : 0;
	if (k >= 0) {
		CHECK(m, m->resv[k].live && m->resv[k].drain == 1 + d->removed &&
		    m->resv[k].named == bits && m->resv[k].pool == d->pool &&
		    d->from == m->resv[k].start * M_SLOT && d->until ==
		    (m->resv[k].start + m->resv[k].len) * M_SLOT, "drain %"
		    PRIu64 ": pool %" PRIu32 " hosts %#" PRIx64 " from %"
		    PRId64 " until %" PRId64 " removed %d; model: live %d pool %"
		    PRIu32 " hosts %#" PRIx64 " from %" PRId64 " until %" PRId64
		    " drain %d", d->id, d->pool, bits, d->from / M_SLOT,
		    d->until / M_SLOT, d->removed, m->resv[k].live,
		    m->resv[k].pool, m->resv[k].named, m->resv[k].start,
		    m->resv[k].start + m->resv[k].len, m->resv[k].drain);
		return 0;
	}
	for (size_t i = 0; i < w->nwant; i++) {
		if (w->want[i].id != 0 || w->want[i].pool != d->pool ||
		    w->want[i].hosts != bits)
			continue;
		CHECK(m, d->from == w->want[i].s * M_SLOT &&
		    d->removed == w->want[i].removed, "new drain %" PRIu64
		    " of hosts %#" PRIx64 ": from %" PRId64 " removed %d, model "
		    "from %" PRId64 " removed %d", d->id, bits,
		    d->from / M_SLOT, d->removed, w->want[i].s,
		    w->want[i].removed);
		w->want[i].id = d->id;
		return 0;
	}
	CHECK(m, 0, "drain %" PRIu64 " of pool %" PRIu32 " hosts %#" PRIx64
	    ": not the model's", d->id, d->pool, bits);
	return 0;
}

/* ar_drains compared: the model's live drains, and the new ones want
 * expects, which join the model, stretched to the horizon's end. */
static void
m_drains_told(struct model *m, ar_txn *t, int64_t now,
    struct m_newdrain *want, size_t nwant)
{
	struct m_drainwalk w = { m, want, nwant, 0 };
	int64_t end = now / M_SLOT + M_HORIZON;
	size_t live = 0;

	OK(m, ar_drains(t, m_drain_one, &w));
	for (int k = 0; k < m->nresv; k++)
		live += m->resv[k].live && m->resv[k].drain != 0;
	CHECK(m, w.seen == live + nwant, "%zu drains told, model %zu",
	    w.seen, live + nwant);
	/* Into the model in the order of their ids. */
	for (size_t i = 1; i < nwant; i++)
		for (size_t j = i; j > 0 && want[j].id < want[j - 1].id; j--) {
			struct m_newdrain x = want[j];

			want[j] = want[j - 1];
			want[j - 1] = x;
		}
	for (size_t i = 0; i < nwant; i++) {
		struct ar_request rq = request(m, want[i].s * M_SLOT,
		    (end - want[i].s) * M_SLOT,
		    (uint32_t)__builtin_popcountll(want[i].hosts));
		struct ar_placed g;
		struct ar_resv r;
		int k = m->nresv;

		CHECK(m, want[i].id != 0, "drain of pool %" PRIu32 " hosts %#"
		    PRIx64 " from %" PRId64 ": not told", want[i].pool,
		    want[i].hosts, want[i].s);
		if (want[i].id == 0)
			continue;
		memset(&g, 0, sizeof(g));
		g.id = want[i].id;
		g.start = want[i].s * M_SLOT;
		g.end = end * M_SLOT;
		rq.owner = want[i].owner;
		OK(m, ar_get(t, g.id, &r));
		CHECK(m, r.state == AR_GRANTED && r.end == g.end &&
		    r.nodes == rq.nodes && r.pool == want[i].pool &&
		    (r.resv_flags & AR_RESV_MAINT), "drain %" PRIu64 ": state "
		    "%d end %" PRId64 " nodes %" PRIu32 " pool %" PRIu32,
		    g.id, r.state, r.end / M_SLOT, r.nodes, r.pool);
		m_pool_enter(m, t, &rq, &g, want[i].pool, want[i].hosts,
		    end - want[i].s);
		if (m->nresv > k)
			m->resv[k].drain = 1 + want[i].removed;
	}
}

/* Every live drain stretched to the horizon's end, as each write
 * transaction stretches it as it begins: the store's record compared. */
static void
m_drains_stretch(struct model *m, ar_txn *t, int64_t now)
{
	int64_t end = now / M_SLOT + M_HORIZON, was;
	struct ar_resv r;

	for (int k = 0; k < m->nresv; k++) {
		if (!m->resv[k].live || m->resv[k].drain == 0)
			continue;
		was = m->resv[k].start + m->resv[k].len;
		if (was < end) {
			m_hold(m, 0, was, end - was, m->resv[k].need);
			for (int64_t x = was; x < end; x++)
				m->pools->used[m->resv[k].pool][x] +=
				    (uint32_t)m->resv[k].need;
			m->resv[k].len = end - m->resv[k].start;
		}
		OK(m, ar_get(t, m->resv[k].id, &r));
		CHECK(m, r.state == AR_GRANTED && r.end == end * M_SLOT,
		    "drain %" PRIu64 " at %" PRId64 ": state %d, ends at %"
		    PRId64 ", not at the horizon's end %" PRId64,
		    m->resv[k].id, now, r.state, r.end / M_SLOT, end);
	}
}

/*
 * A drain of random hosts of one pool, now and then of two, from a
 * random time (mostly within the horizon), forced or not, a few a
 * removal of one host.  Per pool the brute force decides: refused for
 * the hosts if a named or started reservation (a drain too) holds one
 * of them past its start; else what no arrangement of the plan keeps
 * must be displaced, and where one keeps all and the store displaced
 * some anyway it is counted (its mapping is greedy).  Unforced,
 * anything displaced refuses it; forced, the displaced ones (plain, not
 * started, past its start) are cancelled and the rest must map.  A
 * refused drain changes nothing; a granted one is in ar_drains.
 */
static void
m_pool_drain(struct model *m, ar_txn *t, int64_t now)
{
	struct m_pools *p = m->pools;
	const struct ar_partition *parts;
	const struct ar_pool *pools;
	const uint64_t *ids;
	struct m_newdrain want[POOLS_MAX];
	struct planned c[POOLS_MAX];
	struct ar_answer a;
	struct ar_resv r;
	enum ar_reason why = AR_R_NONE;
	uint64_t asked, conflict[POOLS_MAX];
	uint32_t hosts[64], nh, k, who, nd_pool[POOLS_MAX];
	int64_t from, s, end = now / M_SLOT + M_HORIZON;
	int keeps[POOLS_MAX], j, over = 0;
	size_t np, nk, nd, n, nwant = 0;
	unsigned flags;

	if (!m_pool_load(m, t, &parts, &np, &pools, &nk))
		return;
	m_pool_view(m, t, now);
	/* A quarter drain a whole pool: whatever it holds then goes. */
	k = (uint32_t)PICK(nk);
	asked = PICK(4) == 0 ? p->bits[k] : m_some_hosts(m, p->bits[k]);
	if (nk > 1 && PICK(4) == 0) {
		k = (k + 1 + (uint32_t)PICK(nk - 1)) % (uint32_t)nk;
		asked |= m_some_hosts(m, p->bits[k]);
	}
	from = PICK(16) == 0 ? 2 * M_HORIZON * M_SLOT : 40 * M_SLOT;
	from = now + (int64_t)PICK((uint64_t)from);
	flags = PICK(2) ? AR_FORCE : 0;
	if (PICK(16) == 0) {
		flags |= AR_DRAIN_REMOVE;
		asked &= -asked;
	}
	who = (uint32_t)PICK(3);
	s = up(from);
	nh = bits_hosts(asked, hosts);
	for (k = 0; k < nk; k++) {
		c[k] = (struct planned){ k, s, end, (uint32_t)
		    __builtin_popcountll(asked & p->bits[k]),
		    asked & p->bits[k], 0 };
		conflict[k] = 0;
		keeps[k] = 1;
		nd_pool[k] = 0;
		if (c[k].named == 0 || s >= end)
			continue;
		conflict[k] = m_conflict(m, &c[k], now);
		n = m_pool_plan(m, k, now);
		keeps[k] = maps_with(p->plan, n, &c[k], k, p->bits[k]);
	}
	OK(m, ar_drain(t, hosts, nh, from, flags, who, &a));
	m->drains++;
	m->removals += (flags & AR_DRAIN_REMOVE) != 0;
	ar_displaced(t, &ids, &nd);
	if (s >= end) {
		CHECK(m, a.status == AR_REFUSED && a.reason == AR_R_HORIZON &&
		    a.start == s * M_SLOT && nd == 0, "drain from %" PRId64
		    ", past the horizon: store %d reason %d start %" PRId64
		    ", %zu displaced", s, a.status, a.reason, a.start / M_SLOT,
		    nd);
		m->drains_refused++;
		return;
	}
	/* What it displaced (or would have): plain reservations of a pool
	 * drained, not started, past its start. */
	for (size_t i = 0; i < nd; i++) {
		j = m_find(m, ids[i]);
		CHECK(m, j >= 0 && m->resv[j].live && !m_ended(m, j, now) &&
		    c[m->resv[j].pool].named != 0 && m->resv[j].named == 0 &&
		    m->resv[j].start * M_SLOT > now &&
		    m->resv[j].start + m->resv[j].len > s, "drain of %#" PRIx64
		    " from %" PRId64 " displaced %" PRIu64 ", which it may not"
		    " (model: live %d pool %" PRIu32 " named %#" PRIx64
		    " at %" PRId64 "..%" PRId64 ")", asked, s, ids[i],
		    j >= 0 ? m->resv[j].live : -1, j >= 0 ? m->resv[j].pool :
		    0, j >= 0 ? m->resv[j].named : 0, j >= 0 ?
		    m->resv[j].start : 0, j >= 0 ? m->resv[j].start +
		    m->resv[j].len : 0);
		if (j >= 0)
			nd_pool[m->resv[j].pool]++;
	}
	/* The first pool refused is the answer. */
	for (k = 0; k < nk && why == AR_R_NONE; k++)
		why = conflict[k] != 0 ? AR_R_HOSTS : !(flags & AR_FORCE) &&
		    nd_pool[k] > 0 ? AR_R_DISPLACED : AR_R_NONE;
	for (k = 0; k < nk; k++) {
		if (c[k].named == 0 || conflict[k] != 0)
			continue;
		CHECK(m, keeps[k] != 0 || nd_pool[k] > 0, "drain of %#" PRIx64
		    " from %" PRId64 ": no arrangement of pool %" PRIu32
		    "'s plan keeps all, nothing displaced", asked, s, k);
		over |= keeps[k] == 1 && nd_pool[k] > 0;
		m->undecided += keeps[k] < 0;
	}
	CHECK(m, why == AR_R_NONE ? a.status == AR_GRANTED && a.id != 0 &&
	    a.start == s * M_SLOT && a.end == end * M_SLOT :
	    a.status == AR_REFUSED && a.reason == why && a.id == 0,
	    "drain of %#" PRIx64 " from %" PRId64 "%s: store %d reason %d "
	    "at %" PRId64 ", model reason %d", asked, s, flags & AR_FORCE ?
	    " forced" : "", a.status, a.reason, a.start / M_SLOT, why);
	if (a.status != AR_GRANTED || why != AR_R_NONE) {
		/* Nothing changed: what it would have displaced stays. */
		for (size_t i = 0; i < nd; i++) {
			OK(m, ar_get(t, ids[i], &r));
			CHECK(m, r.state == AR_GRANTED, "drain refused: %" PRIu64
			    " displaced all the same, state %d", ids[i],
			    r.state);
		}
		m->drains_refused++;
		m->drain_cautious += over;
		return;
	}
	for (size_t i = 0; i < nd; i++) {
		if ((j = m_find(m, ids[i])) < 0 || !m->resv[j].live)
			continue;
		OK(m, ar_get(t, ids[i], &r));
		CHECK(m, r.state == AR_CANCELLED, "displaced %" PRIu64
		    ": state %d", ids[i], r.state);
		if (r.state != AR_CANCELLED)
			continue;       /* told; the model follows the store */
		m_release(m, j, now);
		m->drain_displaced++;
	}
	for (k = 0; k < nk; k++)
		if (c[k].named != 0)
			want[nwant++] = (struct m_newdrain){ k, c[k].named, s,
			    (flags & AR_DRAIN_REMOVE) != 0, who, 0 };
	m_drains_told(m, t, now, want, nwant);
	/* What is left maps; any displaced one back where an arrangement
	 * would still hold it: displaced by the greedy mapping, counted. */
	for (k = 0; k < nk; k++) {
		if (c[k].named == 0)
			continue;
		n = m_pool_plan(m, k, now);
		CHECK(m, maps_with(p->plan, n, NULL, k, p->bits[k]) != 0,
		    "drain of %#" PRIx64 " from %" PRId64 ": pool %" PRIu32
		    "'s plan with it does not map", asked, s, k);
		for (size_t i = 0; i < nd && !over && n < ARRANGE_MAX; i++) {
			struct planned back;

			if ((j = m_find(m, ids[i])) < 0 ||
			    m->resv[j].pool != k)
				continue;
			back = (struct planned){ k, m->resv[j].start,
			    m->resv[j].start + m->resv[j].len,
			    (uint32_t)m->resv[j].need, 0, m->resv[j].id };
			over = maps_with(p->plan, n, &back, k, p->bits[k]) == 1;
		}
	}
	m->drain_cautious += over;
	m_pool_view(m, t, now);
}

/*
 * An undrain: the hosts of one drain, or some of the drained hosts,
 * now and then with one more, drained or not.  Refused, nothing
 * changed, if one of them was removed (AR_EPERM), else if one is not
 * drained (AR_ENOTFOUND); else every drain holding some ends (at the
 * clock if it began) and what it held and was not asked stays drained,
 * by a drain of its own from its start or the clock's next slot; the
 * hosts asked are not drained any more (asked again: AR_ENOTFOUND).
 */
static void
m_pool_undrain(struct model *m, ar_txn *t, int64_t now)
{
	struct m_pools *p = m->pools;
	struct m_newdrain want[64];
	uint64_t drained = 0, removed = 0, asked = 0;
	uint32_t hosts[64], nh;
	size_t nwant = 0;
	int rc, expect, k, one, ndrains = 0;

	if (!p->loaded)
		return;         /* no drain yet */
	for (k = 0; k < m->nresv; k++) {
		if (!m->resv[k].live || m->resv[k].drain == 0)
			continue;
		if (m->resv[k].drain == 2)
			removed |= m->resv[k].named;
		else {
			drained |= m->resv[k].named;
			ndrains++;
		}
	}
	one = ndrains > 0 ? (int)PICK((uint64_t)ndrains) : -1;
	for (k = 0; one >= 0 && k < m->nresv; k++)
		if (m->resv[k].live && m->resv[k].drain == 1 && one-- == 0)
			asked = PICK(2) ? m->resv[k].named : m_some_hosts(m,
			    drained);
	if (asked == 0 || PICK(8) == 0)
		asked |= UINT64_C(1) << PICK(p->nhosts);
	expect = (asked & removed) != 0 ? AR_EPERM : (asked & ~drained) != 0 ?
	    AR_ENOTFOUND : 0;
	nh = bits_hosts(asked, hosts);
	rc = ar_undrain(t, hosts, nh);
	m->undrains++;
	CHECK(m, rc == expect, "undrain of %#" PRIx64 " (drained %#" PRIx64
	    ", removed %#" PRIx64 "): %s, model %s", asked, drained, removed,
	    ar_strerror(rc), ar_strerror(expect));
	if (rc != 0 || expect != 0)
		return;
	m->undrained++;
	for (k = 0; k < m->nresv; k++) {
		struct ar_resv r;

		if (!m->resv[k].live || m->resv[k].drain == 0 ||
		    (m->resv[k].named & asked) == 0)
			continue;
		OK(m, ar_get(t, m->resv[k].id, &r));
		CHECK(m, r.state == AR_CANCELLED, "undrain of %#" PRIx64
		    ": drain %" PRIu64 " state %d", asked, m->resv[k].id,
		    r.state);
		if ((m->resv[k].named & ~asked) != 0)
			want[nwant++] = (struct m_newdrain){ m->resv[k].pool,
			    m->resv[k].named & ~asked, m->resv[k].start >
			    up(now) ? m->resv[k].start : up(now), 0,
			    m->resv[k].owner, 0 };
		m_release(m, k, now);
	}
	m_drains_told(m, t, now, want, nwant);
	CHECK(m, ar_undrain(t, hosts, nh) == AR_ENOTFOUND, "undrain of %#"
	    PRIx64 ": the hosts are still drained", asked);
	m_pool_view(m, t, now);
}

static int
by_name(const void *x, const void *y)
{
	return strcmp(x, y);
}

/*
 * Hosts added: one or two new names of a partition and feature set,
 * which join the pool of both, or make a new one after the others; now
 * and then a name the store has (EINVAL, nothing changed).  The model
 * renumbers its hosts itself, by name (its names are letters then two
 * digits, so byte order is the store's), and compares the store's host
 * list; the rest waits for the next transaction (m_pool_added).
 */
static void
m_pool_add_hosts(struct model *m, ar_txn *t, int64_t now)
{
	struct m_pools *p = m->pools;
	const struct ar_partition *parts;
	const struct ar_pool *pools;
	char err[AR_ERRMAX], add[2][M_NAME], all[64][M_NAME], told[64][M_NAME];
	uint64_t fresh = 0;
	uint32_t to[64], nadd, n, ntold, q;
	size_t np, nk, len;
	int part, f, num, bad, rc;

	/* Up to 32 hosts: more would leave too much room to refuse. */
	if (!m_pool_load(m, t, &parts, &np, &pools, &nk) ||
	    p->nhosts + 2 > 32)
		return;
	m_pool_view(m, t, now);
	part = (int)PICK(POOLS_PARTS);
	f = (int)PICK(3);
	nadd = 1 + (uint32_t)PICK(2);
	num = (int)PICK(100);
	bad = PICK(16) == 0;
	for (uint32_t i = 0; i < nadd; i++) {
		uint32_t h;

		do {
			snprintf(add[i], M_NAME, "h%s%02d",
			    pools_part_name[part], num);
			num = (num + 1) % 100;
			for (h = 0; h < p->nhosts && strcmp(p->names[h],
			    add[i]) != 0; h++)
				;
		} while (h < p->nhosts);
	}
	if (bad)
		snprintf(add[0], M_NAME, "%s", p->names[PICK(p->nhosts)]);
	len = (size_t)snprintf(p->added, sizeof(p->added), "hosts=%s", add[0]);
	if (nadd == 2)
		len += (size_t)snprintf(p->added + len, sizeof(p->added) - len,
		    ",%s", add[1]);
	snprintf(p->added + len, sizeof(p->added) - len, " partition=%s%s%s\n",
	    pools_part_name[part], *pools_feature_set[f] ? " features=" : "",
	    pools_feature_set[f]);
	/* The pool they join, nk if a new one (parts and pools are the
	 * layout before the hosts are added, which replaces it). */
	for (q = 0; q < nk && (strcmp(parts[pools[q].partition].name,
	    pools_part_name[part]) != 0 || strcmp(pools[q].features,
	    pools_feature_set[f]) != 0); q++)
		;
	rc = ar_add_hosts(t, p->added, err);
	CHECK(m, rc == (bad ? EINVAL : 0), "hosts added (%s): %s: %s",
	    add[0], ar_strerror(rc), err);
	if (rc != 0 || bad) {
		p->added[0] = '\0';
		return;
	}
	m->hosts_added += nadd;
	/* The model's renumbering: each host's place among them all. */
	memcpy(all, p->names, p->nhosts * sizeof(all[0]));
	memcpy(all + p->nhosts, add, nadd * sizeof(all[0]));
	n = p->nhosts + nadd;
	qsort(all, n, sizeof(all[0]), by_name);
	for (uint32_t h = 0, i = 0; i < n; i++) {
		if (h < p->nhosts && strcmp(all[i], p->names[h]) == 0)
			to[h++] = i;
		else
			fresh |= UINT64_C(1) << i;
	}
	for (uint32_t k = 0; k < nk; k++)
		p->bits[k] = m_renumber(p->bits[k], to);
	p->bits[q] = (q < nk ? p->bits[q] : 0) | fresh;
	for (int j = 0; j < m->nresv; j++) {
		m->resv[j].named = m_renumber(m->resv[j].named, to);
		m->resv[j].on = m_renumber(m->resv[j].on, to);
		p->was[j] = m->resv[j].on;
	}
	memcpy(p->names, all, n * sizeof(all[0]));
	p->nhosts = n;
	OK(m, m_store_names(t, told, &ntold));
	CHECK(m, ntold == n, "hosts added (%s): %" PRIu32 " hosts, model %"
	    PRIu32, p->added, ntold, n);
	for (uint32_t i = 0; i < n && i < ntold; i++)
		if (strcmp(told[i], p->names[i]) != 0) {
			CHECK(m, 0, "hosts added (%s): host %" PRIu32 " is %s, "
			    "model %s", p->added, i, told[i], p->names[i]);
			break;
		}
}

/*
 * The first transaction after hosts were added: the store's pools, as
 * many as the model's, each of the model's hosts, and every live
 * reservation on the hosts it had, by name, as ar_map tells them.  (The
 * transaction that added them does nothing more: the store reads its
 * layout, its pools' hosts, as a transaction begins.)
 */
static void
m_pool_added(struct model *m, ar_txn *t, int64_t now)
{
	struct m_pools *p = m->pools;
	const struct ar_partition *parts;
	const struct ar_pool *pools;
	char b1[1024], b2[1024];
	uint64_t bits[POOLS_MAX];
	size_t np, nk;
	int rc;

	if ((rc = ar_layout(t, &parts, &np, &pools, &nk)) == 0 &&
	    nk <= POOLS_MAX)
		rc = pool_host_bits(t, pools, nk, bits);
	CHECK(m, rc == 0 && nk <= POOLS_MAX, "hosts added (%s): %s, %zu pools",
	    p->added, ar_strerror(rc), nk);
	for (uint32_t k = 0; rc == 0 && k < nk && k < POOLS_MAX; k++)
		CHECK(m, bits[k] == p->bits[k] && pools[k].count ==
		    (uint32_t)__builtin_popcountll(bits[k]), "hosts added "
		    "(%s): pool %" PRIu32 " of %" PRIu32 " hosts %s, model %s",
		    p->added, k, pools[k].count, m_names_of(p, bits[k], b1,
		    sizeof(b1)), m_names_of(p, p->bits[k], b2, sizeof(b2)));
	for (size_t k = nk; rc == 0 && k < POOLS_MAX; k++)
		CHECK(m, p->bits[k] == 0, "hosts added (%s): pool %zu, model "
		    "%s", p->added, k, m_names_of(p, p->bits[k], b1,
		    sizeof(b1)));
	m_pool_view(m, t, now);
	for (int j = 0; j < m->nresv; j++)
		if (m->resv[j].live && !m_ended(m, j, now))
			CHECK(m, m->resv[j].on == p->was[j], "hosts added (%s): "
			    "reservation %" PRIu64 " on %s, before on %s",
			    p->added, m->resv[j].id, m_names_of(p,
			    m->resv[j].on, b1, sizeof(b1)), m_names_of(p,
			    p->was[j], b2, sizeof(b2)));
	p->added[0] = '\0';
}

/*
 * A request on several pools, ar_add or (search) ar_search: plain, of a
 * partition (or none) and features; or of named hosts of a pool, mostly
 * of a partition and features that agree (else bad input), a few of
 * them maintenance that wins.  From the next slot on, so that none
 * starts at the clock.
 */
static void
m_pool_request(struct model *m, ar_txn *t, int64_t now, int search)
{
	struct m_pools *p = m->pools;
	const struct ar_partition *parts;
	const struct ar_pool *pools;
	const struct ar_placed *g, *mv;
	struct ar_request rq;
	struct ar_answer a;
	struct planned c;
	uint32_t hosts[64], el[POOLS_MAX], k, most = 0;
	int64_t first, last, len, bs;
	size_t np, nk, ne = 0, ng, nm;
	int part, kind, bad = 0, rc, ok, counted;
	char feat[8];

	if (!m_pool_load(m, t, &parts, &np, &pools, &nk))
		return;
	m_pool_view(m, t, now);
	memset(&c, 0, sizeof(c));
	first = now / M_SLOT + 1 + (int64_t)PICK(40);
	len = 1 + (int64_t)PICK(6);
	/* 0-3 plain, 4-6 named hosts, 7 maintenance. */
	kind = search ? 0 : (int)PICK(8);
	last = kind == 7 ? first : first + (int64_t)PICK(20);
	part = PICK(4) == 0 ? -1 : (int)PICK(POOLS_PARTS);
	snprintf(feat, sizeof(feat), "%s", pools_feature_set[PICK(3)]);
	k = (uint32_t)PICK(nk);
	rq = request(m, first * M_SLOT, len * M_SLOT, 1 + (uint32_t)PICK(4));
	rq.latest = last * M_SLOT;
	rq.flags = AR_NOMOVE;
	rq.owner = (uint32_t)PICK(3);
	c.s = first;
	c.e = first + len;
	if (kind >= 4) {
		c.named = m_some_hosts(m, p->bits[k]);
		if (PICK(4) != 0) {
			part = PICK(2) ? -1 : part_index_of(
			    parts[pools[k].partition].name);
			snprintf(feat, sizeof(feat), "%s", PICK(2) ?
			    pools[k].features : "");
		}
		if (nk > 1 && PICK(8) == 0) {
			uint32_t o = (k + 1 + (uint32_t)PICK(nk - 1)) %
			    (uint32_t)nk;

			c.named |= p->bits[o] & -p->bits[o];
			bad = 1;
		}
		bad |= name_hosts(&rq, hosts, c.named, parts, np, pools, k,
		    part, feat);
		c.pool = k;
		if (kind == 7) {
			rq.resv_flags = AR_RESV_MAINT;
			rq.flags |= AR_FORCE;
		}
	}
	rq.partition = part < 0 ? NULL : pools_part_name[part];
	rq.features = feat;
	c.nodes = rq.nodes;
	/* A feature no host has, or named hosts outside the request's
	 * pool, are bad input. */
	if (!known(pools, nk, feat) || bad) {
		rc = search ? ar_search(t, &rq, &a) : ar_add(t, &rq, &a);
		CHECK(m, rc == EINVAL, "bad request (features %s, %s): %s",
		    feat, bad ? "named hosts off its pool" : "none unknown",
		    ar_strerror(rc));
		m->bad_named += bad;
		return;
	}
	if (kind == 7) {
		m_pool_maint(m, t, &rq, &c, now);
		return;
	}
	if (kind < 4) {
		ne = eligible(&p->sp, parts, np, pools, nk, part, feat, el);
		for (size_t i = 0; i < ne; i++)
			most = pools[el[i]].count > most ? pools[el[i]].count :
			    most;
	}
	bs = m_pool_expect(m, pools, el, ne, &c, first, last, now, &counted);
	rc = search ? ar_search(t, &rq, &a) : ar_add(t, &rq, &a);
	CHECK(m, rc == 0, "%s on pools: %s", search ? "search" : "add",
	    ar_strerror(rc));
	if (rc != 0)
		return;
	ok = a.status == (search ? AR_AVAILABLE : AR_GRANTED);
	m->pool_asked++;
	if (bs == -2)
		m->undecided++;
	else if (ok ? bs < 0 || a.start != bs * M_SLOT : bs >= 0) {
		/* Only the sweep's known caution. */
		CHECK(m, bs >= 0 && (ok ? a.start > bs * M_SLOT :
		    a.reason == AR_R_HOSTS), "%s %s at %" PRId64 "..%" PRId64
		    " (pool %" PRIu32 "): %s at %" PRId64 " reason %d, the "
		    "brute force %s %" PRId64, search ? "search" : "add",
		    c.named ? "named" : "plain", first, last, c.pool,
		    ar_status_name(a.status), a.start / M_SLOT, a.reason,
		    bs >= 0 ? "at" : "refuses", bs);
		m->cautious++;
	}
	if (!ok) {
		/* For the nodes if no start has them by count, else for
		 * the hosts. */
		CHECK(m, a.reason == (c.named == 0 && most < c.nodes ?
		    AR_R_CAPACITY : !counted ? AR_R_FULL : AR_R_HOSTS),
		    "%s refused: reason %d (nodes %u, "
		    "partition %s features %s, eligible pools %zu, the largest "
		    "%u)", search ? "search" : "add", a.reason, c.nodes,
		    part < 0 ? "-" : pools_part_name[part], feat, ne, most);
		return;
	}
	/* Where it is granted the brute force finds room, in that pool. */
	c.s = a.start / M_SLOT;
	c.e = c.s + len;
	bs = brute_mapped(&p->used[0][0], M_SPAN, pools[c.pool].count, p->plan,
	    m_pool_plan(m, c.pool, now), c, p->bits[c.pool], c.s, c.s);
	CHECK(m, a.pool == c.pool && (bs == c.s || bs == -2), "%s at %" PRId64
	    " in pool %" PRIu32 ": the brute force's pool %" PRIu32 " %s",
	    search ? "search" : "add", c.s, a.pool, c.pool, bs == c.s ?
	    "" : "has no room there");
	if (search)
		return;
	ar_added(t, &g, &ng, &mv, &nm);
	CHECK(m, ng == 1 && nm == 0, "add on pools: %zu granted, %zu moved",
	    ng, nm);
	if (ng != 1)
		return;
	m->pool_adds++;
	m->named += c.named != 0;
	m_pool_enter(m, t, &rq, &g[0], c.pool, c.named, len);
}

/* One operation of a run on several pools: an add, a search, a
 * cancel, mostly of a recent reservation, a drain, an undrain or hosts
 * added. */
static void
m_pool_op(struct model *m, ar_txn *t, int64_t now)
{
	int op;

	/* After hosts added, nothing until the next transaction. */
	if (m->pools->added[0] != '\0')
		return;
	op = (int)PICK(12);
	m->ops++;
	/* As many undrains as drains and more, lest drains take all. */
	if (op == 10 && PICK(2))
		m_pool_drain(m, t, now);
	else if (op == 11 && PICK(6) == 0)
		m_pool_add_hosts(m, t, now);
	else if (op >= 10)
		m_pool_undrain(m, t, now);
	else if (op < 6)
		m_pool_request(m, t, now, 0);
	else if (op < 8)
		m_pool_request(m, t, now, 1);
	else if (m->nresv > 0) {
		int k = m->nresv - 1 - (int)PICK(m->nresv < 32 ?
		    (uint64_t)m->nresv : 32);
		uint32_t who = (uint32_t)PICK(3);

		m_cancel(m, t, k, who == 1 ? m->resv[k].owner : who, now);
	}
}

void
model_op(struct model *m, ar_txn *t, int64_t now)
{
	struct ar_request rq;
	struct ar_answer a, alts[3];
	enum ar_reason why;
	int64_t earliest, duration, first, last, len, need, s;
	uint32_t cls;
	size_t n;
	int op;

	if (m->pooled) {
		m_pool_op(m, t, now);
		return;
	}
	if (m->priced && PICK(50) == 0) {
		m->ops++;
		m_reprice(m, t, now, 0);
		return;
	}
	op = (int)PICK(17);
	/* Up to two minutes in the past, but never before 1970. */
	/* Each choice in a statement of its own: the order in which a
	 * call's arguments are evaluated is unspecified (gcc and clang
	 * differ), and an input must mean the same run in every build. */
	earliest = (now < 120 ? 0 : now - 120) +
	    (int64_t)PICK((M_HORIZON + 10) * M_SLOT);
	duration = 1 + (int64_t)PICK(25 * M_SLOT);
	rq = request(m, earliest, duration, 1 + (uint32_t)PICK(4));
	rq.jobs = 1 + (uint32_t)PICK(2);
	if (PICK(3) == 0)
		rq.latest = rq.earliest + (int64_t)PICK(20 * M_SLOT);
	rq.owner = (uint32_t)PICK(3);
	cls = m_class(m, rq.earliest, now);
	m->ops++;
	if (op == 13) {
		/* Half without a bound on the duration. */
		if (PICK(2) == 0)
			rq.duration = 0;
		m_longest(m, t, &rq, now);
		return;
	}
	if (op == 14 && m->nresv > 0) {
		/* Mostly recent ones, which may still be live. */
		int k = m->nresv - 1 - (int)PICK(m->nresv < 32 ?
		    (uint64_t)m->nresv : 32);

		m_furthest(m, t, k, PICK(2) ? AR_WINDOW : 0, now);
		return;
	}
	if (op == 15 && m->nresv > 0) {
		int k = m->nresv - 1 - (int)PICK(m->nresv < 16 ?
		    (uint64_t)m->nresv : 16);
		uint32_t who = (uint32_t)PICK(3);

		m_use(m, t, k, who, PICK(2) ? AR_USE_YES : AR_USE_NO, now);
		return;
	}
	if (op == 16) {
		m_policy(m, t, now);
		return;
	}
	if (op == 12 && m->nresv > 0) {
		int k = m->nresv - 1 - (int)PICK(m->nresv < 16 ?
		    (uint64_t)m->nresv : 16);

		m_confirm(m, t, k, (uint32_t)PICK(3), now);
		return;
	}
	if (op < 4) {
		/* A quarter are holds, of up to half an hour. */
		if (PICK(4) == 0)
			rq.hold = 1 + (int64_t)PICK(30 * M_SLOT);
		char name[24];
		int k = -1, f = m->nresv;
		int64_t epoch = now / (M_HORIZON * M_SLOT);

		/* With classes, a third of the adds may move others. */
		if (m->priced && PICK(3) == 0) {
			rq.flags = PICK(2) ? AR_LATER : 0;
			m_add(m, t, &rq, &rq, now);
			return;
		}
		rq.flags = AR_NOMOVE;
		if (PICK(8) == 0 && m->nresv + M_SERIES <= M_RESV) {
			rq.jobs = 1;
			rq.flags |= PICK(2) ? AR_PARTIAL : 0;
			int64_t every = 1 + (int64_t)PICK(20 * M_SLOT);

			m_series(m, t, &rq, every, 1 + (uint32_t)PICK(M_SERIES),
			    now);
			return;
		}
		if (PICK(8) == 0) {
			m_mold(m, t, &rq, now);
			return;
		}
		if (PICK(8) == 0 && m->nresv + 2 * M_WINDOW <= M_RESV) {
			/* One copy, or two split in turn. */
			rq.jobs = 1 + (uint32_t)(PICK(3) == 0);
			rq.hold = 0;
			/* Wide enough to find gaps, up to all the nodes; a
			 * window to its deadline up to six times its
			 * length. */
			rq.nodes = 3 + (uint32_t)PICK(M_NODES - 2);
			rq.latest = rq.earliest + (int64_t)PICK(
			    5 * (uint64_t)rq.duration + 1);
			rq.split = PICK(3) ? AR_SPLIT_ORR : AR_SPLIT_TARR;
			if (rq.split == AR_SPLIT_ORR && PICK(4) == 0)
				rq.smallest = (int64_t)PICK(
				    (uint64_t)rq.duration + 1);
			m_split(m, t, &rq, now);
			return;
		}
		if (m->nkeys > 0 && PICK(6) == 0) {
			/* A retry, its start as relative as ever. */
			k = (int)PICK((uint64_t)m->nkeys);
			rq.owner = m->keys[k].owner;
			rq.nodes = m->keys[k].nodes;
			rq.jobs = m->keys[k].jobs;
			rq.duration = m->keys[k].duration;
			rq.client_key = m->keys[k].name;
		} else if (PICK(4) == 0 && m->nresv + 2 <= M_RESV) {
			snprintf(name, sizeof(name), "k%" PRId64 ".%u", epoch,
			    (unsigned)PICK(4));
			rq.client_key = name;
			k = m_key(m, rq.owner, name);
		}
		if (k >= 0) {
			m_keyed(m, t, &rq, k, now);
			return;
		}
		if (m_add(m, t, &rq, &rq, now) && rq.client_key != NULL) {
			/* Names of past epochs never come again: forget
			 * them when room runs out (an epoch has 12). */
			if (m->nkeys == M_KEYS) {
				k = 0;
				for (int i = 0; i < m->nkeys; i++)
					if (m->keys[i].epoch == epoch)
						m->keys[k++] = m->keys[i];
				m->nkeys = k;
			}
			k = m->nkeys++;
			m->keys[k].owner = rq.owner;
			m->keys[k].epoch = epoch;
			strcpy(m->keys[k].name, rq.client_key);
			m->keys[k].nodes = rq.nodes;
			m->keys[k].jobs = rq.jobs;
			m->keys[k].duration = rq.duration;
			m->keys[k].first = f;
		}
		return;
	}
	why = m_span(now, &rq, 1, &first, &last, &len, &need);
	if (op < 6) {
		struct ar_level lv[3], order[3];
		struct ar_request asked = rq;

		/* A quarter moldable: the first level, in RSPB's order,
		 * that fits is the answer, else the last one's refusal. */
		if (PICK(4) == 0)
			m_levels(m, &asked, lv, order);
		for (uint32_t i = 0; i == 0 || i < asked.nlevels; i++) {
			if (asked.nlevels > 0) {
				rq.nodes = order[i].nodes;
				why = m_span(now, &rq, 1, &first, &last, &len,
				    &need);
			}
			s = why == AR_R_NONE ? m_first_fit(m, cls, first,
			    last, len, need) : -1;
			if (s != -1)
				break;
		}
		OK(m, ar_search(t, &asked, &a));
		if (why == AR_R_NONE && s == -1)
			why = m_refusal(m, cls, first, last, len, need, 1);
		CHECK(m, asked.nlevels == 0 ? a.nodes == 0 : s != -1 ?
		    a.nodes == rq.nodes && a.benefit == m_benefit(&asked, rq.nodes,
		    rq.jobs) : a.nodes == 0, "search: level %u benefit %u, "
		    "model %u", a.nodes, a.benefit, s != -1 ? rq.nodes : 0);
		CHECK(m, (a.status == AR_AVAILABLE) == (s != -1) &&
		    a.reason == why && a.cls == cls &&
		    a.price == m_price(m, cls, need, len) &&
		    (s == -1 || (a.start == s * M_SLOT &&
		    a.free == m_least(m, s, len))),
		    "search: store %d reason %d free %u class %u price %" PRId64
		    ", model start %" PRId64 " reason %d class %u price %" PRId64,
		    a.status, a.reason, a.free, a.cls, a.price, s, why, cls,
		    m_price(m, cls, need, len));
	} else if (op < 8) {
		int64_t limit = (int64_t)PICK(40 * M_SLOT), hi, prev;
		size_t want = 0, nextra;
		int64_t expect[3], extra[3];
		struct ar_request from_now = rq, asked = rq;
		struct ar_level lv[3], order[3];

		/* A quarter moldable: the alternatives of the first level,
		 * in RSPB's order, that has any; else the last one's. */
		if (PICK(4) == 0)
			m_levels(m, &asked, lv, order);
		/* Suggest looks from the clock on when the start is past. */
		if (from_now.latest < now)
			from_now.latest = now;
		OK(m, ar_suggest(t, &asked, limit, alts, 3, &n));
		for (uint32_t i = 0; want == 0 && (i == 0 ||
		    i < asked.nlevels); i++) {
			if (asked.nlevels > 0)
				from_now.nodes = rq.nodes = order[i].nodes;
			why = m_span(now, &from_now, 1, &first, &last, &len,
			    &need);
			if (why != AR_R_NONE)
				continue;
			/* No further than the limit, whatever the window. */
			hi = first + limit / M_SLOT;
			if (hi > now / M_SLOT + M_HORIZON - len)
				hi = now / M_SLOT + M_HORIZON - len;
			/* Alternatives start separate runs of fitting starts;
			 * with fewer runs than asked, the further fitting
			 * starts where the nodes reserved change follow,
			 * earliest first; all in time order. */
			prev = -2;
			nextra = 0;
			for (s = first; s <= hi; s++) {
				if (!m_fits(m, cls, s, len, need))
					continue;
				if (prev != s - 1) {
					if (want < 3)
						expect[want++] = s;
				} else if (m->used[s] != m->used[s - 1] &&
				    nextra < 3)
					extra[nextra++] = s;
				prev = s;
			}
			for (size_t e = 0; e < nextra && want < 3; e++)
				expect[want++] = extra[e];
			for (size_t e = 1; e < want; e++)
				for (size_t j = e; j > 0 &&
				    expect[j] < expect[j - 1]; j--) {
					int64_t x = expect[j];

					expect[j] = expect[j - 1];
					expect[j - 1] = x;
				}
			if (want == 0)
				why = AR_R_LIMIT;
		}
		for (size_t i = 0; i < (n > 0 ? n : 1); i++)
			CHECK(m, asked.nlevels == 0 ? alts[i].nodes == 0 :
			    want > 0 ? alts[i].nodes == rq.nodes &&
			    alts[i].benefit == m_benefit(&asked, rq.nodes,
			    rq.jobs) :
			    alts[i].nodes == 0, "suggest %zu: level %u, model %u",
			    i, alts[i].nodes, want > 0 ? rq.nodes : 0);
		CHECK(m, n == want && (n > 0 || (alts[0].status ==
		    AR_UNAVAILABLE && alts[0].reason == why)), "suggest: %zu "
		    "alternatives, model %zu; reason %d, model %d", n, want,
		    alts[0].reason, why);
		for (size_t i = 0; i < n && i < want; i++)
			CHECK(m, alts[i].start == expect[i] * M_SLOT &&
			    alts[i].status == AR_SUGGESTED &&
			    alts[i].cls == cls &&
			    alts[i].price == m_price(m, cls, need, len),
			    "suggest %zu: %" PRId64 " class %u price %" PRId64
			    ", model %" PRId64 " class %u price %" PRId64, i,
			    alts[i].start / M_SLOT, alts[i].cls, alts[i].price,
			    expect[i], cls, m_price(m, cls, need, len));
		CHECK(m, alts[0].cls == cls, "suggest: class %u, model %u",
		    alts[0].cls, cls);
	} else if (op >= 10 && op < 12 && m->nresv > 0) {
		/* Mostly recent ones, which may still be live. */
		int k = PICK(4) == 0 ? (int)PICK((uint64_t)m->nresv) :
		    m->nresv - 1 - (int)PICK(m->nresv < 32 ? (uint64_t)m->nresv :
		    32);
		uint32_t who = (uint32_t)PICK(3);

		/* Half keep their start, as a running one must. */
		if (PICK(2) == 0) {
			rq.earliest = m->resv[k].start * M_SLOT -
			    (int64_t)PICK(M_SLOT);
			if (rq.earliest < 0)
				rq.earliest = 0;
			rq.latest = PICK(2) ? rq.earliest : m->resv[k].start *
			    M_SLOT + (int64_t)PICK(3 * M_SLOT);
			if (PICK(2) == 0)
				rq.nodes = (uint32_t)m->resv[k].need;
		}
		rq.jobs = 1;
		rq.flags = m->priced && PICK(3) == 0 ? PICK(2) ? AR_LATER :
		    0 : AR_NOMOVE;
		/* A piece's request is split as asked: moving nothing. */
		if (m->resv[k].pieces != 0)
			rq.flags = AR_NOMOVE;
		m_modify(m, t, k, who == 1 ? m->resv[k].owner : who, &rq,
		    now);
	} else if (m->nresv > 0) {
		int k = (int)PICK((uint64_t)m->nresv);

		m_cancel(m, t, k, (uint32_t)PICK(3), now);
	}
}

static void
m_violation(const char *msg, void *arg)
{
	(void)arg;
	fprintf(stderr, "model: violation: %s\n", msg);
}

void
model_compare(struct model *m, ar_txn *t, int64_t now)
{
	uint32_t held[M_HORIZON];
	int64_t base = now / M_SLOT;
	uint64_t bad;

	/* Not in the transaction that added hosts (nor, if no write
	 * transaction began since, after it): the store reads its layout
	 * as a transaction begins, and the rest of one that added hosts
	 * maps on the hosts as they were numbered before. */
	if (m->pooled && m->pools->added[0] != '\0')
		return;
	/* On several pools, each pool's count is its hosts ar_map tells. */
	if (m->pooled)
		m_pool_view(m, t, now);
	for (int64_t s = base; !m->pooled && s < base + M_HORIZON; s++) {
		uint32_t nfree;

		OK(m, ar_free(t, s * M_SLOT, (s + 1) * M_SLOT, &nfree));
		if (nfree != M_NODES - m->used[s]) {
			CHECK(m, 0, "slot %" PRId64 ": store %u free, model %u", s,
			    nfree, M_NODES - m->used[s]);
			break;
		}
	}
	/* Class i's ring counts the nodes of classes i and cheaper. */
	for (uint32_t i = 2; i <= m->pr.n; i++) {
		OK(m, ring_counts(t, &t->limit[i], base, base + M_HORIZON,
		    held));
		for (int64_t s = base; s < base + M_HORIZON; s++)
			if (held[s - base] != m_above(m, i, s)) {
				CHECK(m, 0, "slot %" PRId64 ": classes %u.. hold "
				    "%u, model %u", s, i, held[s - base],
				    m_above(m, i, s));
				break;
			}
	}
	OK(m, ar_check(t, m_violation, NULL, &bad));
	CHECK(m, bad == 0, "%" PRIu64 " violations", bad);
}
