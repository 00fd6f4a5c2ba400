/*
 * modify.c - changing a reservation: its window, duration or nodes; and
 * changing several (a series' occurrences, say), all or none.
 *
 * The reservation is taken out (its slots from the clock on, in the
 * node ring and its class's limit rings; its entries in the end and
 * movable lists; its pin) and its new shape admitted as a request would
 * be (flex.c): a grant rewrites the record under its own id; a refusal
 * leaves the store as admission found it, and the reservation is put
 * back as it was.  No savepoint is needed for that, so a modify costs
 * about what a cancel and an add cost; admission takes its own where it
 * moves others or maps the plan (as it does for a reservation whose
 * hosts the mapping keeps).  With a pin in the plan the reservation also
 * leaves the tracked hosts it held (track_drop), which only undoing puts
 * back: then the modify takes a savepoint of its own.  The label index and the client key index
 * are left alone: what they hold does not change.
 *
 * A started reservation keeps its start and, so that its hosts never
 * change while it runs, its nodes: its new shape is the run of slots
 * from the clock's slot to its new end, admitted at that one start.
 */
#include <errno.h>
#include <stdlib.h>

#include "internal.h"

/*
 * The new shape of reservation was as a span, in sp, and what ans says
 * of it before admission: its class (the one it was given when it was
 * asked for), its price, its interval, and in ans->reason why it cannot
 * be considered at all, if so.
 */
static int
new_span(ar_txn *t, const struct ar_request *rq, const struct ar_resv *was,
    struct span *sp, struct ar_answer *ans)
{
	int64_t slot = t->m.slot, s0 = was->start / slot, end;
	int rc;

	/* It keeps its pool. */
	t->keep_pool = was->pool + 1;
	rc = to_span(t, rq, 0, sp, ans);
	t->keep_pool = 0;
	if (rc != 0)
		return rc;
	sp->cls = ans->cls = was->cls;
	ans->status = AR_REFUSED;
	if (was->start <= t->now && ans->reason != AR_R_CAPACITY &&
	    (slot_up(t, rq->earliest) > s0 || slot_up(t, rq->latest) < s0))
		ans->reason = AR_R_STARTED;     /* told where it was asked */
	else if (was->start <= t->now && ans->reason != AR_R_CAPACITY) {
		/* Started: from the clock's slot to its new end. */
		end = s0 + sp->slots;
		ans->reason = AR_R_NONE;
		ans->start = was->start;
		ans->end = end * slot;
		if (rq->nodes != was->nodes)
			ans->reason = AR_R_STARTED;
		else if (ans->end > TIME_MAX) {
			ans->reason = AR_R_HORIZON;
			ans->end = -1;
		} else if (ans->end <= t->now)
			ans->reason = AR_R_PAST;
		else if (end > t->base + t->m.horizon)
			ans->reason = AR_R_HORIZON;
		sp->first = sp->last = t->base;
		sp->slots = end - t->base;
	}
	ans->price = sp->cls == 0 || ans->end < 0 ? 0 :
	    t->pr.c[sp->cls - 1].price * (int64_t)sp->need *
	    ((ans->end - ans->start) / slot);
	return 0;
}

/* Take reservation r out of, or (add) put it back into, the rings from
 * the clock on, the lists and the pins (hosts: the ones it named). */
static int
hold(ar_txn *t, const struct ar_resv *r, const uint32_t *hosts, int add)
{
	int64_t from = r->start / t->m.slot, to = r->end / t->m.slot;
	int64_t need = (int64_t)r->nodes * r->jobs;
	int rc;

	if (from < t->base)
		from = t->base;
	if ((rc = fit_add(t, r->cls, r->pool, from, to,
	    add ? need : -need)) != 0 ||
	    (rc = resv_list(t, r, add)) != 0)
		return rc;
	return r->named ? map_pin(t, r, hosts, r->nodes, add) : 0;
}

/*
 * Admit the new shape: where it is, if it has not started, its new
 * window holds that start and others too, and it fits there as it
 * stands; else as a request.
 */
static int
readmit(ar_txn *t, const struct ar_request *rq, const struct span *sp,
    const struct ar_resv *was, struct ar_answer *ans)
{
	struct ar_request here = *rq;
	struct ar_answer first = *ans;
	struct span at = *sp;
	int64_t s = was->start / t->m.slot;
	int rc;

	if (was->start > t->now && s >= sp->first && s <= sp->last &&
	    sp->first < sp->last) {
		at.first = at.last = s;
		here.flags |= AR_NOMOVE;
		if ((rc = admit_span(t, &here, &at, was, ans)) != 0 ||
		    ans->status == AR_GRANTED)
			return rc;
		*ans = first;
	}
	return admit_span(t, rq, sp, was, ans);
}

int
ar_modify(ar_txn *t, uint64_t id, uint32_t who, const struct ar_request *rq,
    struct ar_answer *ans)
{
	struct ar_request nr = *rq;
	struct ar_resv was;
	struct span sp;
	struct savepoint sv;
	uint32_t *hosts = NULL;
	int64_t start, end;
	int rc, pinned;

	t->ngranted = t->nmoved = 0;
	if (!t->write)
		return EACCES;
	if (rq->jobs != 1 || rq->nhosts != 0)
		return EINVAL;
	if ((rc = resv_owned(t, id, who, &was)) != 0)
		return rc;
	/* A piece is part of a request whose shape is its pieces'. */
	if (was.pieces != 0)
		return modify_split(t, &was, who, rq, ans);
	if (rq->split != 0 || rq->smallest != 0)
		return EINVAL;
	if ((rc = new_span(t, rq, &was, &sp, ans)) != 0)
		return rc;
	if (ans->reason == AR_R_NONE && was.named && rq->nodes != was.nodes)
		ans->reason = AR_R_HOSTS;
	if (ans->reason != AR_R_NONE)
		return 0;
	/* A refusal tells the interval asked for, which for a started one
	 * is not where admission looks. */
	start = ans->start;
	end = ans->end;
	nr.flags &= AR_NOMOVE | AR_LATER;
	nr.owner = was.owner;
	nr.user = was.user;
	nr.job = was.job;
	nr.client_key = was.client_key;
	/* Named hosts stay: the new shape asks for them. */
	if (was.named) {
		if ((rc = map_pin_hosts(t, &was, &hosts)) != 0)
			return rc;
		nr.hosts = hosts;
		nr.nhosts = was.nodes;
	}
	/* With a pin in the plan, the tracked hosts it holds explicitly
	 * are freed as well (else the mapping after admission gives it
	 * them in its old shape), and a refusal puts all back by undoing. */
	if ((rc = map_pinned(t, &pinned)) != 0 ||
	    (pinned && (rc = txn_save(t, &sv)) != 0))
		goto out;
	if ((rc = hold(t, &was, hosts, 0)) != 0 ||
	    (pinned && (rc = track_drop(t, id)) != 0) ||
	    (rc = readmit(t, &nr, &sp, &was, ans)) != 0) {
		if (pinned)
			txn_undo(t, &sv);
		goto out;
	}
	if (ans->status == AR_GRANTED) {
		ans->id = id;
		ans->start = t->granted[0].start;
		ans->end = t->granted[0].end;
		ans->free = t->granted[0].free;
		if (pinned)
			rc = txn_keep(t, &sv);
		goto out;
	}
	if (pinned)
		txn_undo(t, &sv);
	else
		rc = hold(t, &was, hosts, 1);
	t->ngranted = t->nmoved = 0;
	ans->id = 0;
	if (was.start <= t->now) {
		ans->start = start;
		ans->end = end;
	}
out:
	free(hosts);
	return rc;
}

int
ar_modify_all(ar_txn *t, const uint64_t *ids, size_t n, uint32_t who,
    const struct ar_request *rqs, struct ar_answer *ans, size_t *failed)
{
	struct gathered acc = { NULL, NULL, 0, 0, 0, 0 };
	struct savepoint sv;
	size_t i;
	int rc = 0;

	*failed = n;
	t->ngranted = t->nmoved = 0;
	if (!t->write)
		return EACCES;
	if ((rc = txn_save(t, &sv)) != 0)
		return rc;
	for (i = 0; i < n; i++)
		if ((rc = ar_modify(t, ids[i], who, &rqs[i], &ans[i])) != 0 ||
		    ans[i].status != AR_GRANTED || (rc = gathered_add(t, &acc)) != 0)
			break;
	if (i < n) {
		txn_undo(t, &sv);
		t->ngranted = t->nmoved = 0;
		*failed = i;
	} else if ((rc = txn_keep(t, &sv)) == 0)
		rc = gathered_put(t, &acc);
	gathered_free(&acc);
	return rc;
}
