/*
 * model.c - the brute-force model of a store; see model.h.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

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
	cfg->nodes = M_NODES;
	cfg->slot = M_SLOT;
	cfg->horizon = M_HORIZON * M_SLOT;
	cfg->map_max = 1 << 30;
}

struct model *
model_new(uint64_t (*pick)(void *, uint64_t), void *arg)
{
	struct model *m = calloc(1, sizeof(*m));

	if (m != NULL) {
		m->pick = pick;
		m->arg = arg;
	}
	return m;
}

static struct ar_request
request(struct model *m, int64_t start, int64_t duration, uint32_t nodes)
{
	struct ar_request rq = { start, start, duration, nodes, 1, 1000,
	    NULL, NULL, 0, NULL };

	(void)m;
	return rq;
}

static int64_t
up(int64_t t)
{
	return (t + M_SLOT - 1) / M_SLOT;
}


static int
m_fits(const struct model *m, int64_t s, int64_t len, int64_t need)
{
	for (int64_t i = s; i < s + len; i++)
		if (m->used[i] + need > M_NODES)
			return 0;
	return 1;
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
m_first_fit(const struct model *m, int64_t first, int64_t last, int64_t len, int64_t need)
{
	for (int64_t s = first; s <= last; s++)
		if (m_fits(m, s, len, need))
			return s;
	return -1;
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
	int ended = (m->resv[f].start + m->resv[f].len) * M_SLOT <= now;

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
	    (ended && a.status == AR_FINISHED) : a.status == AR_CANCELLED),
	    "replay of key %s of %u: replayed %d id %" PRIu64 " status %d, "
	    "%zu copies", rq->client_key, rq->owner, a.replayed, a.id,
	    a.status, ng);
	for (size_t j = 0; j < ng && j < rq->jobs; j++)
		CHECK(m, g[j].id == m->resv[f + (int)j].id &&
		    g[j].start == m->resv[f + (int)j].start * M_SLOT,
		    "replayed copy %zu: id %" PRIu64 " at %" PRId64, j, g[j].id,
		    g[j].start / M_SLOT);
}

void
model_op(struct model *m, ar_txn *t, int64_t now)
{
	struct ar_request rq;
	struct ar_answer a, alts[3];
	enum ar_reason why;
	int64_t first, last, len, need, s;
	size_t n;
	int op = (int)PICK(10);

	/* Up to two minutes in the past, but never before 1970. */
	rq = request(m, (now < 120 ? 0 : now - 120) +
	    (int64_t)PICK((M_HORIZON + 10) * M_SLOT),
	    1 + (int64_t)PICK(25 * M_SLOT), 1 + (uint32_t)PICK(4));
	rq.jobs = 1 + (uint32_t)PICK(2);
	if (PICK(3) == 0)
		rq.latest = rq.earliest + (int64_t)PICK(20 * M_SLOT);
	rq.owner = (uint32_t)PICK(3);
	m->ops++;
	if (op < 4) {
		const struct ar_placed *g, *mv;
		int64_t starts[2], frees[2];
		uint32_t j = 0;
		size_t ng, nm;
		char name[24];
		int k = -1, f = m->nresv;
		int64_t epoch = now / (M_HORIZON * M_SLOT);

		/* Copies one by one, first fit, all or none. */
		rq.flags = AR_NOMOVE;
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
		why = m_span(now, &rq, 0, &first, &last, &len, &need);
		OK(m, ar_add(t, &rq, &a));
		for (j = 0; why == AR_R_NONE && j < rq.jobs; j++) {
			if ((s = m_first_fit(m, first, last, len, need)) == -1)
				break;
			starts[j] = s;
			frees[j] = m_least(m, s, len);
			for (int64_t i = s; i < s + len; i++)
				m->used[i] += (uint32_t)need;
		}
		if (j < rq.jobs)
			while (j-- > 0)
				for (int64_t i = starts[j]; i < starts[j] + len; i++)
					m->used[i] -= (uint32_t)need;
		ar_added(t, &g, &ng, &mv, &nm);
		CHECK(m, (a.status == AR_GRANTED) == (j == rq.jobs) && nm == 0 &&
		    !a.replayed &&
		    (a.status != AR_GRANTED || (ng == rq.jobs &&
		    a.start == starts[0] * M_SLOT)),
		    "add at %" PRId64 ": store %d start %" PRId64 ", model %"
		    "u copies", first, a.status, a.start / M_SLOT, j);
		if (a.status != AR_GRANTED)
			CHECK(m, a.reason == (why ? why : AR_R_FULL),
			    "add reason %d, model %d", a.reason, why);
		else
			for (j = 0; j < ng && j < rq.jobs; j++) {
				CHECK(m, g[j].start == starts[j] * M_SLOT &&
				    g[j].free == frees[j],
				    "copy %u at %" PRId64 " free %u, model %"
				    PRId64 " free %" PRId64, j, g[j].start / M_SLOT,
				    g[j].free, starts[j], frees[j]);
				if (m->nresv < M_RESV) {
					m->resv[m->nresv].id = g[j].id;
					m->resv[m->nresv].start = starts[j];
					m->resv[m->nresv].len = len;
					m->resv[m->nresv].need = need;
					m->resv[m->nresv].owner = rq.owner;
					m->resv[m->nresv++].live = 1;
				}
			}
		if (a.status == AR_GRANTED && rq.client_key != NULL) {
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
		OK(m, ar_search(t, &rq, &a));
		s = why == AR_R_NONE ? m_first_fit(m, first, last, len, need) : -1;
		CHECK(m, (a.status == AR_AVAILABLE) == (s != -1) &&
		    (s == -1 || (a.start == s * M_SLOT &&
		    a.free == m_least(m, s, len))),
		    "search: store %d free %u, model start %" PRId64,
		    a.status, a.free, s);
	} else if (op < 8) {
		int64_t limit = (int64_t)PICK(40 * M_SLOT), hi, prev = -2;
		size_t want = 0;
		int64_t expect[3];
		struct ar_request from_now = rq;

		/* Suggest looks from the clock on when the start is past. */
		if (from_now.latest < now)
			from_now.latest = now;
		why = m_span(now, &from_now, 1, &first, &last, &len, &need);
		OK(m, ar_suggest(t, &rq, limit, alts, 3, &n));
		if (why == AR_R_NONE) {
			/* No further than the limit, whatever the window. */
			hi = first + limit / M_SLOT;
			if (hi > now / M_SLOT + M_HORIZON - len)
				hi = now / M_SLOT + M_HORIZON - len;
			/* Alternatives start separate runs of fitting starts. */
			for (s = first; s <= hi && want < 3; s++) {
				if (m_fits(m, s, len, need)) {
					if (prev != s - 1)
						expect[want++] = s;
					prev = s;
				}
			}
		}
		CHECK(m, n == want, "suggest: %zu alternatives, model %zu", n, want);
		for (size_t i = 0; i < n && i < want; i++)
			CHECK(m, alts[i].start == expect[i] * M_SLOT,
			    "suggest %zu: %" PRId64 ", model %" PRId64, i,
			    alts[i].start / M_SLOT, expect[i]);
	} else if (m->nresv > 0) {
		int k = (int)PICK((uint64_t)m->nresv);
		struct ar_resv r;
		uint32_t who = (uint32_t)PICK(3);
		int rc = ar_cancel(t, m->resv[k].id, who, &r);
		int ended = (m->resv[k].start + m->resv[k].len) * M_SLOT <= now;

		if (who != 0 && who != m->resv[k].owner)
			CHECK(m, rc == AR_EPERM, "cancel by another: %s",
			    ar_strerror(rc));
		else if (!m->resv[k].live || ended)
			CHECK(m, rc == AR_EDONE, "cancel done: %s", ar_strerror(rc));
		else {
			CHECK(m, rc == 0, "cancel: %s", ar_strerror(rc));
			for (int64_t i = now / M_SLOT > m->resv[k].start ?
			    now / M_SLOT : m->resv[k].start;
			    i < m->resv[k].start + m->resv[k].len; i++)
				m->used[i] -= (uint32_t)m->resv[k].need;
			m->resv[k].live = 0;
		}
	}
}

void
model_compare(struct model *m, ar_txn *t, int64_t now)
{
	uint64_t bad;

	for (int64_t s = now / M_SLOT; s < now / M_SLOT + M_HORIZON; s++) {
		uint32_t nfree;

		OK(m, ar_free(t, s * M_SLOT, (s + 1) * M_SLOT, &nfree));
		if (nfree != M_NODES - m->used[s]) {
			CHECK(m, 0, "slot %" PRId64 ": store %u free, model %u", s,
			    nfree, M_NODES - m->used[s]);
			break;
		}
	}
	OK(m, ar_check(t, NULL, NULL, &bad));
	CHECK(m, bad == 0, "%" PRIu64 " violations", bad);
}

