/*
 * test_reclaim.c - use reports and reclaiming what is not used (issue
 * 25, seed 004's DRR) through the library: the policy's bounds, a
 * class's grace over the store's, a policy set late reclaiming at once,
 * a hold and a reservation with named hosts reclaimed out of their
 * indexes, and ar_check finding the index of what a reclaim may free
 * tampered with.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ar.h"
#include "check.h"
#include "helpers.h"
#include "internal.h"           /* `unused`, to tamper with it */

#define SUITE "reclaim"
#include "suite.h"

static void
quiet(const char *msg, void *arg)
{
	(void)msg;
	(void)arg;
}

/* A policy of the store's grace g, and class 1's c1. */
static struct ar_reclaim
policy(int64_t g, int64_t c1)
{
	struct ar_reclaim p;

	memset(&p, 0, sizeof(p));
	p.grace = g;
	p.cls[0] = c1;
	return p;
}

/* Bad policies and reports are refused, and change nothing. */
static void
test_bounds(void)
{
	struct ar_reclaim p = policy(-1, 0), got;
	struct ar_request rq = request(T0 + HOUR, HOUR, 2);
	struct ar_answer a;
	struct ar_resv r;
	ar_store *s = store("bounds", 8, NULL);
	ar_txn *t;

	OK(ar_txn_begin(s, 0, T0, &t));
	CHECK(ar_set_reclaim(t, &p) == EACCES, "a policy in a reader");
	ar_txn_abort(t);
	OK(ar_txn_begin(s, AR_WRITE, T0, &t));
	CHECK(ar_set_reclaim(t, &p) == EINVAL, "a negative grace");
	p = policy(AR_DURATION_MAX + 1, 0);
	CHECK(ar_set_reclaim(t, &p) == EINVAL, "a grace over 100 years");
	p = policy(0, -2);
	CHECK(ar_set_reclaim(t, &p) == EINVAL, "a class's grace below -1");
	OK(ar_reclaim_policy(t, &got));
	CHECK(got.grace == 0 && got.cls[0] == 0, "no policy after refusals");
	OK(ar_add(t, &rq, &a));
	CHECK(ar_use(t, a.id, 0, AR_USE_UNKNOWN, &r) == EINVAL,
	    "a report of nothing");
	CHECK(ar_use(t, a.id + 1, 0, AR_USE_YES, &r) == AR_ENOTFOUND,
	    "a report on no reservation");
	CHECK(ar_use(t, a.id, rq.owner + 1, AR_USE_YES, &r) == AR_EPERM,
	    "a report by another");
	OK(ar_txn_commit(t));
	done(s, "bounds");
}

/* Class 1's grace (10 minutes) is its own; the store's (1 hour) the
 * others'; -1 never; a policy set past a grace reclaims at once. */
static void
test_graces(void)
{
	struct ar_pricing pr;
	struct ar_request rq;
	struct ar_reclaim p;
	struct ar_answer a;
	struct ar_resv r;
	const char *field;
	size_t bad;
	uint64_t nbad;
	ar_store *s = store("graces", 8, NULL);
	ar_txn *t;

	memset(&pr, 0, sizeof(pr));
	pr.n = 2;
	pr.retention = 86400;
	pr.c[0] = (struct ar_class){ "soon", 10, 0, 2 * HOUR, 8, 0 };
	pr.c[1] = (struct ar_class){ "later", 5, 2 * HOUR, -1, 8, 0 };
	OK(ar_txn_begin(s, AR_WRITE, T0, &t));
	OK(ar_set_pricing(t, &pr, &bad, &field));
	rq = request(T0 + HOUR, 2 * HOUR, 2);
	OK(ar_add(t, &rq, &a));                         /* 1, class 1 */
	rq = request(T0 + 3 * HOUR, 2 * HOUR, 2);
	OK(ar_add(t, &rq, &a));                         /* 2, class 2 */
	OK(ar_txn_commit(t));
	/* Set past both graces: class 1's reclaims 1 at once. */
	OK(ar_txn_begin(s, AR_WRITE, T0 + HOUR + 15 * MIN, &t));
	p = policy(HOUR, 10 * MIN);
	OK(ar_set_reclaim(t, &p));
	OK(ar_get(t, 1, &r));
	CHECK(r.state == AR_RECLAIMED && r.end == T0 + HOUR + 15 * MIN &&
	    r.changed == T0 + HOUR + 15 * MIN, "reclaimed as the policy is "
	    "set: state %d end %" PRId64, r.state, r.end);
	OK(ar_check(t, quiet, NULL, &nbad));
	CHECK(nbad == 0, "%" PRIu64 " violations after a policy", nbad);
	OK(ar_txn_commit(t));
	/* Class 2 never, then the store's hour. */
	OK(ar_txn_begin(s, AR_WRITE, T0 + 3 * HOUR, &t));
	p = policy(HOUR, 10 * MIN);
	p.cls[1] = -1;
	OK(ar_set_reclaim(t, &p));
	OK(ar_txn_commit(t));
	OK(ar_txn_begin(s, AR_WRITE, T0 + 4 * HOUR + 30 * MIN, &t));
	OK(ar_get(t, 2, &r));
	CHECK(r.state == AR_GRANTED, "class 2 never reclaimed: state %d",
	    r.state);
	p.cls[1] = 0;
	OK(ar_set_reclaim(t, &p));
	OK(ar_get(t, 2, &r));
	CHECK(r.state == AR_RECLAIMED, "class 2 by the store's hour: state %d",
	    r.state);
	OK(ar_check(t, quiet, NULL, &nbad));
	CHECK(nbad == 0, "%" PRIu64 " violations", nbad);
	OK(ar_txn_commit(t));
	done(s, "graces");
}

/* A hold and a reservation with named hosts, reclaimed, leave the hold
 * index and the pins; one that reported use stays. */
static void
test_indexes(void)
{
	struct ar_request rq;
	struct ar_reclaim p = policy(10 * MIN, 0);
	struct ar_answer a;
	struct ar_resv r;
	uint32_t hosts[2] = { 0, 1 };
	uint64_t nbad;
	ar_store *s = store("indexes", 8, NULL);
	ar_txn *t;

	OK(ar_txn_begin(s, AR_WRITE, T0, &t));
	OK(ar_set_reclaim(t, &p));
	rq = request(T0 + HOUR, HOUR, 2);
	rq.hold = 2 * HOUR;
	OK(ar_add(t, &rq, &a));                         /* 1, held */
	rq = request(T0 + HOUR, HOUR, 2);
	rq.hosts = hosts;
	rq.nhosts = 2;
	OK(ar_add(t, &rq, &a));                         /* 2, named */
	rq = request(T0 + HOUR, HOUR, 2);
	OK(ar_add(t, &rq, &a));                         /* 3 */
	OK(ar_use(t, 3, 0, AR_USE_YES, &r));
	OK(ar_txn_commit(t));
	OK(ar_txn_begin(s, AR_WRITE, T0 + HOUR + 10 * MIN, &t));
	OK(ar_get(t, 1, &r));
	CHECK(r.state == AR_RECLAIMED && r.expires == 0, "the hold reclaimed: "
	    "state %d expires %" PRId64, r.state, r.expires);
	OK(ar_get(t, 2, &r));
	CHECK(r.state == AR_RECLAIMED, "the named one reclaimed: state %d",
	    r.state);
	OK(ar_get(t, 3, &r));
	CHECK(r.state == AR_GRANTED && r.used == AR_USE_YES, "the used one "
	    "stays: state %d", r.state);
	CHECK(t->m.holds == 0, "holds left: %" PRIu64, t->m.holds);
	OK(ar_check(t, quiet, NULL, &nbad));
	CHECK(nbad == 0, "%" PRIu64 " violations", nbad);
	OK(ar_txn_commit(t));
	done(s, "indexes");
}

/* ar_check finds an entry of `unused` missing, and one too many. */
static void
test_check(void)
{
	unsigned char key[16];
	struct kv_val k = { 16, key }, v = { 0, key };
	struct ar_request rq = request(T0 + HOUR, HOUR, 2);
	struct ar_reclaim p = policy(10 * MIN, 0);
	struct ar_answer a;
	uint64_t bad;
	ar_store *s = store("check", 8, NULL);
	ar_txn *t;

	OK(ar_txn_begin(s, AR_WRITE, T0, &t));
	OK(ar_set_reclaim(t, &p));
	OK(ar_add(t, &rq, &a));                         /* 1 */
	key_u64(key, (uint64_t)(T0 + HOUR + 10 * MIN));
	key_u64(key + 8, 1);
	OK(kv_del(t->txn, KV_UNUSED, &k, NULL));
	OK(ar_check(t, quiet, NULL, &bad));
	CHECK(bad == 2, "an entry missing: %" PRIu64 " violations", bad);
	OK(kv_put(t->txn, KV_UNUSED, &k, &v, 0));
	key_u64(key + 8, 7);
	OK(kv_put(t->txn, KV_UNUSED, &k, &v, 0));
	OK(ar_check(t, quiet, NULL, &bad));
	CHECK(bad == 2, "an entry of no reservation: %" PRIu64 " violations",
	    bad);
	ar_txn_abort(t);
	done(s, "check");
}

int
main(int argc, char **argv)
{
	suite_memory(argc, argv);
	if (suite_begin() != 0)
		return 1;
	test_bounds();
	test_graces();
	test_indexes();
	test_check();
	return suite_end();
}
