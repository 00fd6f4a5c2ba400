/*
 * hostlib.c - what the host study's prototypes share: the clusters of the
 * rows, hosts as bits and the three ways of choosing them, a count ring,
 * the sweep that maps a plan onto hosts (lib/map.c's rules, on bits), and
 * the free time frames and scheduling options of a plan laid out.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hosts.h"

const char *const fit_name[NFITS] = { "first", "best", "worst" };

void *
grow(void **a, size_t *n, size_t *cap, size_t sz)
{
	void *p;

	if (*n == *cap) {
		size_t c = *cap ? 2 * *cap : 64;

		if ((p = realloc(*a, c * sz)) == NULL)
			return NULL;
		*a = p;
		*cap = c;
	}
	p = (char *)*a + (*n)++ * sz;
	memset(p, 0, sz);
	return p;
}

/* --- clusters ------------------------------------------------------------- */

void
cluster_finish(struct cluster *c)
{
	c->npools = 0;
	memset(c->in_part, 0, sizeof(c->in_part));
	for (uint32_t h = 0; h < c->nhosts; h++) {
		uint32_t p;

		c->in_part[c->part[h]] |= (hmask)1 << h;
		for (p = 0; p < c->npools; p++)
			if (c->pool_part[p] == c->part[h] &&
			    c->pool_feat[p] == c->feat[h])
				break;
		if (p == c->npools) {
			c->pool_part[p] = c->part[h];
			c->pool_feat[p] = c->feat[h];
			c->pool[p] = 0;
			c->npools++;
		}
		c->pool[p] |= (hmask)1 << h;
		c->pool_of[h] = (uint8_t)p;
	}
}

void
cluster_plain(struct cluster *c, uint32_t nhosts)
{
	memset(c, 0, sizeof(*c));
	c->nhosts = nhosts;
	c->nparts = 1;
	c->norder[0] = 1;
	c->desc = "hosts=node[01-64]";
	cluster_finish(c);
}

/*
 * The partitioned row's cluster: as many hosts as the traces' machines,
 * four partitions, features that split one of them into two pools, and
 * borrowing one way into the scarce ones (gpu lends to batch only, last,
 * and borrows from no one).
 */
enum { F_MEM1T = 1, F_A100 = 2, F_NVLINK = 4 };

void
cluster_parts(struct cluster *c)
{
	static const struct {
		uint32_t from, to;
		uint8_t part;
		uint32_t feat;
	} hosts[] = {
		{ 0, 32, 0, 0 },                        /* node[01-32] */
		{ 32, 48, 1, F_MEM1T },                 /* big[01-16] */
		{ 48, 52, 2, F_A100 },                  /* gpu[01-04] */
		{ 52, 56, 2, F_A100 | F_NVLINK },       /* gpu[05-08] */
		{ 56, 64, 3, 0 },                       /* dbg[01-08] */
	};
	static const uint8_t order[4][4] = {
		{ 0, 3, 1, 2 }, { 1, 0 }, { 2 }, { 3, 0 }
	};
	static const uint32_t norder[4] = { 4, 2, 1, 2 };

	memset(c, 0, sizeof(*c));
	c->nhosts = 64;
	c->nparts = 4;
	for (size_t i = 0; i < sizeof(hosts) / sizeof(hosts[0]); i++)
		for (uint32_t h = hosts[i].from; h < hosts[i].to; h++) {
			c->part[h] = hosts[i].part;
			c->feat[h] = hosts[i].feat;
		}
	for (uint32_t p = 0; p < 4; p++) {
		c->norder[p] = norder[p];
		memcpy(c->order[p], order[p], norder[p]);
	}
	c->desc =
	    "    hosts=node[01-32] partition=batch      (the default)\n"
	    "    hosts=big[01-16]  partition=bigmem     features=mem1t\n"
	    "    hosts=gpu[01-04]  partition=gpu        features=a100\n"
	    "    hosts=gpu[05-08]  partition=gpu        features=a100,nvlink\n"
	    "    hosts=dbg[01-08]  partition=debug\n"
	    "    partition=batch  borrow=debug,bigmem,gpu\n"
	    "    partition=bigmem borrow=batch\n"
	    "    partition=debug  borrow=batch\n"
	    "    partition=gpu    borrow=\n";
	cluster_finish(c);
}

/* The hosts of partitions q may use that have its features: of its own
 * partition only (own), or of every partition it may borrow from.  A
 * pool's hosts share their features: the pools say it. */
static hmask
eligible(const struct cluster *c, const struct hreq *q, int own)
{
	hmask parts = 0, m = 0;

	if (q->named)
		return q->named;
	for (uint32_t i = 0; i < (own ? 1 : c->norder[q->part]); i++)
		parts |= c->in_part[c->order[q->part][i]];
	for (uint32_t p = 0; p < c->npools; p++)
		if ((c->pool_feat[p] & q->feat) == q->feat)
			m |= c->pool[p];
	return m & parts;
}

hmask
hreq_eligible(const struct cluster *c, const struct hreq *q)
{
	return eligible(c, q, 0);
}

hmask
hreq_own(const struct cluster *c, const struct hreq *q)
{
	return eligible(c, q, 1);
}

/* --- hosts as bits --------------------------------------------------------- */

uint32_t
hcount(hmask m)
{
	return (uint32_t)__builtin_popcountll(m);
}

/* The hosts [first, first + len). */
static hmask
span_mask(uint32_t first, uint32_t len)
{
	return (len >= 64 ? ~(hmask)0 : (((hmask)1 << len) - 1)) << first;
}

/* The runs of m, ascending: first host and length of each; how many. */
static uint32_t
runs_of(hmask m, uint8_t *first, uint8_t *len)
{
	uint32_t n = 0;

	while (m != 0) {
		uint32_t f = (uint32_t)__builtin_ctzll(m);
		hmask rest = ~(m >> f);
		uint32_t l = rest == 0 ? 64 - f : (uint32_t)__builtin_ctzll(rest);

		first[n] = (uint8_t)f;
		len[n++] = (uint8_t)l;
		m &= ~span_mask(f, l);
	}
	return n;
}

uint32_t
hruns(hmask m)
{
	uint8_t f[64], l[64];

	return runs_of(m, f, l);
}

/*
 * k hosts of m by fit.  First fit takes the lowest.  Best fit is
 * lib/hostset.c's (hostset_choose): the smallest run that holds what is
 * still wanted, else the largest whole, and again, each from the low end
 * of its run.  Worst fit takes from the largest run first.
 */
static hmask
choose_fit(hmask m, uint32_t k, enum hfit fit)
{
	uint8_t first[64], len[64], taken[64] = { 0 };
	uint32_t n, want = k, best, c;
	hmask out = 0;

	if (fit == HF_FIRST) {
		for (; want > 0; want--) {
			hmask low = m & -m;

			out |= low;
			m &= ~low;
		}
		return out;
	}
	n = runs_of(m, first, len);
	while (want > 0) {
		best = n;
		for (uint32_t i = 0; i < n; i++) {
			if (taken[i])
				continue;
			c = len[i];
			if (best == n)
				best = i;
			else if (fit == HF_WORST) {
				if (c > len[best])
					best = i;
			} else if (c >= want) {
				if (len[best] < want || c < len[best])
					best = i;
			} else if (len[best] < want && c > len[best])
				best = i;
		}
		taken[best] = 1;
		c = len[best] < want ? len[best] : want;
		out |= span_mask(first[best], c);
		want -= c;
	}
	return out;
}

int
hchoose(hmask avail, hmask pref, uint32_t k, enum hfit fit, hmask *out)
{
	hmask own = avail & pref;
	uint32_t n = hcount(own);

	if (hcount(avail) < k)
		return 0;
	if (n >= k)
		*out = choose_fit(own, k, fit);
	else
		*out = own | choose_fit(avail & ~pref, k - n, fit);
	return 1;
}

/* --- a count ring ------------------------------------------------------------ */

int
hring_init(struct hring *r, int64_t m, int64_t base)
{
	if ((r->used = calloc((size_t)m, sizeof(*r->used))) == NULL)
		return ENOMEM;
	r->m = m;
	r->base = base;
	return 0;
}

void
hring_free(struct hring *r)
{
	free(r->used);
	r->used = NULL;
}

void
hring_clock(struct hring *r, int64_t base)
{
	for (int64_t s = r->base; s < base && s < r->base + r->m; s++)
		r->used[s % r->m] = 0;
	if (base > r->base)
		r->base = base;
}

uint32_t
hring_max(const struct hring *r, int64_t s, int64_t e)
{
	uint32_t top = 0;

	if (s < r->base)
		s = r->base;
	for (int64_t i = s % r->m; s < e; s++) {
		if (r->used[i] > top)
			top = r->used[i];
		if (++i == r->m)
			i = 0;
	}
	return top;
}

void
hring_add(struct hring *r, int64_t s, int64_t e, int32_t delta)
{
	if (s < r->base)
		s = r->base;
	for (int64_t i = s % r->m; s < e; s++) {
		r->used[i] = (uint32_t)((int64_t)r->used[i] + delta);
		if (++i == r->m)
			i = 0;
	}
}

int64_t
hring_first(const struct hring *r, int64_t s, int64_t hi, int64_t len,
    uint32_t limit)
{
	int64_t start = s, count = 0;

	for (int64_t i = s % r->m; s < hi + len && start <= hi; s++) {
		if (r->used[i] > limit) {
			start = s + 1;
			count = 0;
		} else if (++count >= len)
			return start;
		if (++i == r->m)
			i = 0;
	}
	return -1;
}

/* --- the sweep --------------------------------------------------------------- */

int
sitem_cmp(const void *a, const void *b)
{
	const struct sitem *x = a, *y = b;

	if (x->s != y->s)
		return x->s < y->s ? -1 : 1;
	if (x->fixed != y->fixed)
		return x->fixed ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

void
sweeper_free(struct sweeper *sw)
{
	free(sw->order);
	free(sw->heap);
	free(sw->fixed);
	memset(sw, 0, sizeof(*sw));
}

static int
sweeper_room(struct sweeper *sw, size_t n)
{
	struct sitem **o, **h, **f;

	if (n <= sw->cap)
		return 0;
	n = n < 2 * sw->cap ? 2 * sw->cap : n;
	if ((o = realloc(sw->order, n * sizeof(*o))) != NULL)
		sw->order = o;
	if ((h = realloc(sw->heap, n * sizeof(*h))) != NULL)
		sw->heap = h;
	if ((f = realloc(sw->fixed, n * sizeof(*f))) != NULL)
		sw->fixed = f;
	if (o == NULL || h == NULL || f == NULL)
		return -1;
	sw->cap = n;
	return 0;
}

/* The running items, a heap by end. */
static void
heap_push(struct sitem **h, size_t *n, struct sitem *x)
{
	size_t i = (*n)++;

	for (; i > 0 && h[(i - 1) / 2]->e > x->e; i = (i - 1) / 2)
		h[i] = h[(i - 1) / 2];
	h[i] = x;
}

static struct sitem *
heap_pop(struct sitem **h, size_t *n)
{
	struct sitem *top = h[0], *last = h[--*n];
	size_t i = 0, c;

	while ((c = 2 * i + 1) < *n) {
		if (c + 1 < *n && h[c + 1]->e < h[c]->e)
			c++;
		if (h[c]->e >= last->e)
			break;
		h[i] = h[c];
		i = c;
	}
	h[i] = last;
	return top;
}

int
sweep_run(struct sweeper *sw, struct sitem *it, size_t n, struct sitem *extra,
    hmask all, enum hfit fit, int keepoff, struct sitem **failed)
{
	size_t total = n + (extra != NULL), nf = 0, fp = 0, nh = 0, k = 0;
	hmask free_ = all;

	*failed = NULL;
	if (sweeper_room(sw, total + 1) != 0)
		return -1;
	for (size_t i = 0, merged = extra == NULL; k < total; k++)
		if (!merged && (i == n || sitem_cmp(extra, &it[i]) < 0)) {
			sw->order[k] = extra;
			merged = 1;
		} else
			sw->order[k] = &it[i++];
	if (keepoff)
		for (k = 0; k < total; k++)
			if (sw->order[k]->fixed)
				sw->fixed[nf++] = sw->order[k];
	sw->items += total;
	for (k = 0; k < total; k++) {
		struct sitem *x = sw->order[k];

		while (nh > 0 && sw->heap[0]->e <= x->s)
			free_ |= heap_pop(sw->heap, &nh)->got;
		if (x->fixed) {
			if ((x->want & ~free_) != 0) {
				*failed = x;
				return 0;
			}
			x->got = x->want;
		} else {
			hmask blocked = 0, avail;

			while (fp < nf && sw->fixed[fp]->s <= x->s)
				fp++;
			for (size_t j = fp; j < nf && sw->fixed[j]->s < x->e; j++)
				blocked |= sw->fixed[j]->want;
			avail = free_ & x->allow & ~blocked;
			if (x->want != 0 && (x->want & ~avail) == 0)
				x->got = x->want;
			else if (!hchoose(avail, x->pref, x->n, fit, &x->got)) {
				*failed = x;
				return 0;
			}
		}
		free_ &= ~x->got;
		heap_push(sw->heap, &nh, x);
	}
	return 0;
}

/* --- instances --------------------------------------------------------------- */

int
hd_make(struct hd *d, const struct hdesign *ops, const struct cluster *c,
    enum hfit fit, int64_t now, int64_t m)
{
	memset(d, 0, sizeof(*d));
	d->ops = ops;
	d->c = c;
	d->fit = fit;
	d->now = now;
	d->m = m;
	return ops->make(d);
}

void
hd_destroy(struct hd *d)
{
	if (d->ops != NULL)
		d->ops->destroy(d);
	d->ops = NULL;
}

/* --- frames and options ------------------------------------------------------ */

static int
lay_out(const struct held *h, void *arg)
{
	struct occupancy *o = arg;
	int64_t s = h->s < o->from ? o->from : h->s;
	int64_t e = h->e > o->from + o->n ? o->from + o->n : h->e;

	for (; s < e; s++)
		o->busy[s - o->from] |= h->hosts;
	return 0;
}

int
occupancy_build(struct occupancy *o, struct hd *d, int64_t from, int64_t n)
{
	o->from = from;
	o->n = n;
	if ((o->busy = calloc((size_t)n, sizeof(*o->busy))) == NULL)
		return ENOMEM;
	return d->ops->plan(d, lay_out, o);
}

void
occupancy_free(struct occupancy *o)
{
	free(o->busy);
	o->busy = NULL;
}

size_t
frames(const struct occupancy *o, hmask scope, struct frame *out, size_t max)
{
	size_t n = 0;
	int64_t t = 0;

	while (t < o->n && n < max) {
		hmask f = ~o->busy[t] & scope;
		int64_t u = t + 1;

		while (u < o->n && (~o->busy[u] & scope) == f)
			u++;
		if (f != 0) {
			out[n].s = o->from + t;
			out[n].e = o->from + u;
			out[n++].hosts = f;
		}
		t = u;
	}
	return n;
}

size_t
options(const struct occupancy *o, const struct cluster *c,
    const struct hreq *q, int64_t hi, enum hfit fit, struct option *out,
    size_t k)
{
	hmask elig = hreq_eligible(c, q), own = hreq_own(c, q), prev = 0;
	size_t n = 0;

	if (hi > o->from + o->n - q->len)
		hi = o->from + o->n - q->len;
	for (int64_t s = q->s < o->from ? o->from : q->s; s <= hi && n < k;
	    s++) {
		hmask f = elig;

		for (int64_t u = s; u < s + q->len && f != 0; u++)
			f &= ~o->busy[u - o->from];
		if (f != prev && hcount(f) >= q->n) {
			out[n].s = s;
			out[n].free = f;
			hchoose(f, own, q->n, fit, &out[n++].hosts);
		}
		prev = f;
	}
	return n;
}
