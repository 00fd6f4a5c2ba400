/*
 * hostcheck.c - the check that a design's grants are exact: its plan
 * laid out slot by slot against what the harness saw it grant (hosts.h,
 * struct ledger).  It trusts nothing the design keeps: the ledger is the
 * harness's own.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hosts.h"

int
ledger_grant(struct ledger *l, uint64_t id, const struct hreq *q)
{
	while (l->n < id) {
		struct lentry *e = grow((void **)&l->e, &l->n, &l->cap,
		    sizeof(*l->e));

		if (e == NULL)
			return ENOMEM;
	}
	l->e[id - 1].q = *q;
	l->e[id - 1].live = 1;
	return 0;
}

void
ledger_drop(struct ledger *l, uint64_t id)
{
	if (id >= 1 && id <= l->n)
		l->e[id - 1].live = 0;
}

void
ledger_free(struct ledger *l)
{
	free(l->e);
	memset(l, 0, sizeof(*l));
}

static void
violation(struct ledger *l, const char *fmt, ...)
{
	va_list ap;

	if (l->violations++ == 0) {
		va_start(ap, fmt);
		vsnprintf(l->first, sizeof(l->first), fmt, ap);
		va_end(ap);
	}
}

struct checking {
	struct ledger *l;
	const struct hd *d;
	hmask *busy;            /* from the clock over the horizon */
	uint8_t *seen;          /* by id - 1 */
	int started_kept;
	uint64_t resv, runs;
};

static int
check_one(const struct held *h, void *arg)
{
	struct checking *ck = arg;
	struct ledger *l = ck->l;
	const struct hd *d = ck->d;
	struct lentry *e;
	int64_t s;

	if (h->id == 0 || h->id > l->n || !l->e[h->id - 1].live) {
		violation(l, "reservation %" PRIu64 " in the plan was never "
		    "granted, or was taken out", h->id);
		return 0;
	}
	e = &l->e[h->id - 1];
	if (ck->seen[h->id - 1]++) {
		violation(l, "reservation %" PRIu64 " twice in the plan", h->id);
		return 0;
	}
	ck->resv++;
	ck->runs += hruns(h->hosts);
	if (h->s != e->q.s || h->e != e->q.s + e->q.len)
		violation(l, "reservation %" PRIu64 " moved in time", h->id);
	if (hcount(h->hosts) != e->q.n)
		violation(l, "reservation %" PRIu64 " holds %u hosts of %u",
		    h->id, hcount(h->hosts), e->q.n);
	if ((h->hosts & ~hreq_eligible(d->c, &e->q)) != 0)
		violation(l, "reservation %" PRIu64 " holds hosts it may not "
		    "have (%016" PRIx64 ")", h->id, h->hosts &
		    ~hreq_eligible(d->c, &e->q));
	if (h->s <= d->now) {
		if (e->started == 0)
			e->started = h->hosts;
		else if (ck->started_kept && e->started != h->hosts)
			violation(l, "reservation %" PRIu64 " started on "
			    "%016" PRIx64 ", now on %016" PRIx64, h->id,
			    e->started, h->hosts);
	}
	for (s = h->s < d->now ? d->now : h->s; s < h->e && s < d->now + d->m;
	    s++) {
		hmask *b = &ck->busy[s - d->now];

		if ((*b & h->hosts) != 0) {
			violation(l, "reservation %" PRIu64 " shares hosts "
			    "%016" PRIx64 " in slot %" PRId64, h->id,
			    *b & h->hosts, s);
			break;
		}
		*b |= h->hosts;
	}
	return 0;
}

int
ledger_check(struct ledger *l, struct hd *d, int started_kept,
    uint64_t *resv, uint64_t *runs)
{
	struct checking ck = { l, d, NULL, NULL, started_kept, 0, 0 };
	int rc;

	if ((ck.busy = calloc((size_t)d->m, sizeof(*ck.busy))) == NULL ||
	    (ck.seen = calloc(l->n + 1, 1)) == NULL) {
		free(ck.busy);
		return ENOMEM;
	}
	if ((rc = d->ops->plan(d, check_one, &ck)) == 0)
		for (size_t i = 0; i < l->n; i++) {
			const struct lentry *e = &l->e[i];

			if (e->live && e->q.s + e->q.len > d->now &&
			    !ck.seen[i])
				violation(l, "reservation %zu lost from the "
				    "plan", i + 1);
		}
	free(ck.busy);
	free(ck.seen);
	*resv = ck.resv;
	*runs = ck.runs;
	return rc;
}
