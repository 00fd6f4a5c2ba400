/*
 * test_hold.c - holds: granted on condition, confirmed or released by
 * id, and released by the first writer after they expire; their slots,
 * pins and index follow; ar_check finds what would be wrong.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ar.h"
#include "check.h"
#include "helpers.h"
#include "internal.h"           /* the hold index, to tamper with it */

#define SUITE "hold"
#include "suite.h"

static void
quiet(const char *msg, void *arg)
{
	(void)msg;
	(void)arg;
}

static struct ar_request
hold_request(int64_t start, int64_t duration, uint32_t nodes, int64_t hold)
{
	struct ar_request rq = request(start, duration, nodes);

	rq.hold = hold;
	return rq;
}

static uint32_t
free_at(ar_txn *t, int64_t from, int64_t to)
{
	uint32_t n = 0;

	OK(ar_free(t, from, to, &n));
	return n;
}

/* A hold takes its slots; readers see it held past its expiry; the
 * first writer after releases it, expired as of its expiry. */
static void
test_expire(void)
{
	const struct ar_placed *g, *m;
	struct ar_answer a;
	struct ar_request rq;
	struct ar_resv r;
	struct ar_info info;
	size_t ng, nm;
	ar_store *s = store("expire", 10, NULL);
	ar_txn *t;

	OK(ar_txn_begin(s, AR_WRITE, T0, &t));
	rq = hold_request(T0 + HOUR, HOUR, 6, 10 * MIN);
	OK(ar_add(t, &rq, &a));
	ar_added(t, &g, &ng, &m, &nm);
	CHECK(a.status == AR_GRANTED && ng == 1 && g[0].expires == T0 +
	    10 * MIN, "a hold: status %d, expires %" PRId64, a.status,
	    ng ? g[0].expires : 0);
	OK(ar_get(t, 1, &r));
	CHECK(r.state == AR_GRANTED && r.expires == T0 + 10 * MIN &&
	    ar_resv_status(&r) == AR_HELD, "held: state %d expires %" PRId64,
	    r.state, r.expires);
	CHECK(strcmp(ar_status_name(ar_resv_status(&r)), "held") == 0,
	    "the name of a hold");
	rq = hold_request(T0 + HOUR, HOUR, 6, 0);
	OK(ar_add(t, &rq, &a));
	CHECK(a.status == AR_REFUSED && a.reason == AR_R_FULL,
	    "a hold's slots are taken");
	CHECK(violations(t) == 0, "after a hold");
	OK(ar_txn_commit(t));

	/* A reader past the expiry: reads it expired, as of its expiry,
	 * but its slots stay taken until a writer releases them. */
	OK(ar_txn_begin(s, 0, T0 + 20 * MIN, &t));
	OK(ar_get(t, 1, &r));
	CHECK(r.state == AR_EXPIRED && r.changed == T0 + 10 * MIN &&
	    ar_resv_status(&r) == AR_EXPIRED, "read past expiry: %d",
	    ar_resv_status(&r));
	CHECK(free_at(t, T0 + HOUR, T0 + 2 * HOUR) == 4, "read: slots held");
	CHECK(violations(t) == 0, "a reader past the expiry");
	ar_txn_abort(t);

	/* A writer before it: nothing released. */
	OK(ar_txn_begin(s, AR_WRITE, T0 + 10 * MIN - 1, &t));
	OK(ar_get(t, 1, &r));
	CHECK(ar_resv_status(&r) == AR_HELD, "a second before expiry");
	ar_txn_abort(t);

	/* At the expiry: released. */
	OK(ar_txn_begin(s, AR_WRITE, T0 + 10 * MIN, &t));
	OK(ar_get(t, 1, &r));
	CHECK(r.state == AR_EXPIRED && r.changed == T0 + 10 * MIN &&
	    r.expires == T0 + 10 * MIN, "expired: state %d changed %" PRId64,
	    r.state, r.changed);
	CHECK(free_at(t, T0 + HOUR, T0 + 2 * HOUR) == 10, "slots freed");
	OK(ar_info(t, &info));
	CHECK(info.live == 0 && info.records == 1, "live %" PRIu64,
	    info.live);
	CHECK(violations(t) == 0, "after expiry");
	OK(ar_txn_commit(t));
	OK(ar_txn_begin(s, 0, T0 + 10 * MIN, &t));
	OK(ar_get(t, 1, &r));
	CHECK(r.state == AR_EXPIRED, "expiry committed");
	CHECK(strcmp(ar_status_name(r.state), "expired") == 0,
	    "the name of an expired hold");
	ar_txn_abort(t);
	done(s, "expire");
}

static int
unchanged(ar_txn *t, void *arg)
{
	(void)t;
	(void)arg;
	return AR_UNCHANGED;
}

/* A writer that changes nothing of its own still keeps the holds it
 * released. */
static void
test_unchanged(void)
{
	struct ar_answer a;
	struct ar_request rq;
	struct ar_resv r;
	ar_store *s = store("unchanged", 4, NULL);
	ar_txn *t;

	OK(ar_txn_begin(s, AR_WRITE, T0, &t));
	rq = hold_request(T0 + HOUR, HOUR, 4, 5 * MIN);
	OK(ar_add(t, &rq, &a));
	OK(ar_txn_commit(t));
	OK(ar_write(s, 0, T0 + 6 * MIN, unchanged, NULL));
	OK(ar_txn_begin(s, 0, T0 + 6 * MIN, &t));
	OK(ar_get(t, 1, &r));
	CHECK(r.state == AR_EXPIRED, "released by an unchanged write: %d",
	    r.state);
	CHECK(free_at(t, T0 + HOUR, T0 + 2 * HOUR) == 4, "slots freed");
	CHECK(violations(t) == 0, "after an unchanged write");
	ar_txn_abort(t);
	done(s, "unchanged");
}

/* Confirmed by id, by its owner or root, again and again; a cancel
 * releases; what is done cannot be confirmed. */
static void
test_confirm(void)
{
	struct ar_answer a;
	struct ar_request rq;
	struct ar_resv r;
	ar_store *s = store("confirm", 10, NULL);
	ar_txn *t;

	OK(ar_txn_begin(s, AR_WRITE, T0, &t));
	rq = hold_request(T0 + HOUR, HOUR, 2, 10 * MIN);
	OK(ar_add(t, &rq, &a));                         /* 1 */
	OK(ar_add(t, &rq, &a));                         /* 2 */
	OK(ar_add(t, &rq, &a));                         /* 3 */
	rq.hold = 0;
	OK(ar_add(t, &rq, &a));                         /* 4: no hold */
	OK(ar_txn_commit(t));

	OK(ar_txn_begin(s, 0, T0, &t));
	CHECK(ar_confirm(t, 1, 1000, &r) == EACCES, "confirmed reading");
	ar_txn_abort(t);

	OK(ar_txn_begin(s, AR_WRITE, T0 + MIN, &t));
	CHECK(ar_confirm(t, 1, 1001, &r) == AR_EPERM, "confirmed by another");
	CHECK(ar_confirm(t, 99, 1000, &r) == AR_ENOTFOUND, "confirmed none");
	OK(ar_confirm(t, 1, 1000, &r));
	CHECK(r.state == AR_GRANTED && r.expires == 0 && r.confirmed &&
	    r.changed == T0 + MIN && ar_resv_status(&r) == AR_GRANTED,
	    "confirmed: expires %" PRId64, r.expires);
	OK(ar_confirm(t, 1, 1000, &r));
	CHECK(r.changed == T0 + MIN && r.confirmed, "confirmed twice");
	OK(ar_confirm(t, 2, 0, &r));                    /* root */
	CHECK(ar_confirm(t, 4, 1000, &r) == AR_ENOTHOLD && r.expires == 0 &&
	    !r.confirmed, "a reservation never held, confirmed");
	OK(ar_cancel(t, 3, 1000, &r));
	CHECK(r.state == AR_CANCELLED && r.expires == 0, "a hold released");
	CHECK(ar_confirm(t, 3, 1000, &r) == AR_EDONE &&
	    r.state == AR_CANCELLED, "a released hold confirmed");
	CHECK(violations(t) == 0, "after confirms");
	OK(ar_txn_commit(t));

	/* Past the expiry the confirmed ones stay. */
	OK(ar_txn_begin(s, AR_WRITE, T0 + 30 * MIN, &t));
	OK(ar_get(t, 1, &r));
	CHECK(r.state == AR_GRANTED, "confirmed, past the expiry: %d",
	    r.state);
	CHECK(free_at(t, T0 + HOUR, T0 + 2 * HOUR) == 4, "three stay");
	CHECK(violations(t) == 0, "past the expiry");
	OK(ar_txn_commit(t));

	/* An expired one cannot be confirmed, and says why. */
	OK(ar_txn_begin(s, AR_WRITE, T0 + 31 * MIN, &t));
	rq = hold_request(T0 + HOUR, HOUR, 2, 5 * MIN);
	OK(ar_add(t, &rq, &a));                         /* 5 */
	OK(ar_txn_commit(t));
	OK(ar_txn_begin(s, AR_WRITE, T0 + 40 * MIN, &t));
	CHECK(ar_confirm(t, 5, 1000, &r) == AR_EDONE && r.state == AR_EXPIRED,
	    "an expired hold confirmed: state %d", r.state);
	ar_txn_abort(t);
	done(s, "confirm");
}

/* A hold expires no later than its end, and is then expired, not
 * finished; it never moves to make room; a modify keeps it a hold. */
static void
test_shape(void)
{
	const struct ar_placed *g, *m;
	struct ar_answer a;
	struct ar_request rq;
	struct ar_resv r;
	size_t ng, nm;
	ar_store *s = store("shape", 4, NULL);
	ar_txn *t;

	OK(ar_txn_begin(s, AR_WRITE, T0, &t));
	rq = hold_request(T0, 30 * MIN, 1, HOUR);
	OK(ar_add(t, &rq, &a));                         /* 1 */
	ar_added(t, &g, &ng, &m, &nm);
	CHECK(ng == 1 && g[0].expires == T0 + 30 * MIN,
	    "a hold longer than its reservation: %" PRId64,
	    ng ? g[0].expires : 0);
	/* A window: a plain one would move for the next, a hold does not. */
	rq = hold_request(T0 + HOUR, HOUR, 4, HOUR);
	rq.latest = T0 + 3 * HOUR;
	OK(ar_add(t, &rq, &a));                         /* 2 */
	rq = hold_request(T0 + HOUR, HOUR, 4, 0);
	OK(ar_add(t, &rq, &a));
	CHECK(a.status == AR_REFUSED, "a hold moved for another");
	/* Shorter than the hold: it expires at the new end. */
	rq = hold_request(T0 + 10 * MIN, 40 * MIN, 1, 45 * MIN);
	OK(ar_add(t, &rq, &a));                         /* 3 */
	rq = hold_request(T0 + 10 * MIN, 20 * MIN, 1, 0);
	OK(ar_modify(t, 3, 1000, &rq, &a));
	OK(ar_get(t, 3, &r));
	CHECK(a.status == AR_GRANTED && r.expires == T0 + 30 * MIN,
	    "a hold modified: expires %" PRId64, r.expires);
	/* Longer: the expiry stays. */
	rq.duration = 45 * MIN;
	OK(ar_modify(t, 3, 1000, &rq, &a));
	OK(ar_get(t, 3, &r));
	CHECK(a.status == AR_GRANTED && r.expires == T0 + 30 * MIN,
	    "a hold modified longer: expires %" PRId64, r.expires);
	CHECK(violations(t) == 0, "after modifies of a hold");
	OK(ar_txn_commit(t));

	OK(ar_txn_begin(s, AR_WRITE, T0 + 30 * MIN, &t));
	OK(ar_get(t, 1, &r));
	CHECK(r.state == AR_EXPIRED, "a hold at its end: %d", r.state);
	CHECK(violations(t) == 0, "a hold at its end");
	OK(ar_purge(t, NULL, NULL));
	CHECK(violations(t) == 0, "purged after a hold expired");
	OK(ar_txn_commit(t));
	done(s, "shape");
}

/* Holds with named hosts, copies, and bad requests. */
static void
test_more(void)
{
	const struct ar_placed *g, *m;
	struct ar_answer a;
	struct ar_request rq;
	struct ar_resv r;
	size_t ng, nm;
	ar_store *s = store("more", 8, NULL);
	ar_txn *t;

	OK(ar_txn_begin(s, AR_WRITE, T0, &t));
	rq = hold_request(T0 + HOUR, HOUR, 2, 10 * MIN);
	rq.hosts = (const uint32_t[]){ 3, 4 };
	rq.nhosts = 2;
	OK(ar_add(t, &rq, &a));                         /* 1: named */
	CHECK(a.status == AR_GRANTED, "a named hold: %s",
	    ar_reason_name(a.reason));
	rq = hold_request(T0 + HOUR, HOUR, 1, 20 * MIN);
	rq.jobs = 3;
	OK(ar_add(t, &rq, &a));                         /* 2-4 */
	ar_added(t, &g, &ng, &m, &nm);
	CHECK(ng == 3 && g[2].expires == T0 + 20 * MIN, "held copies");
	rq.hold = -1;
	CHECK(ar_add(t, &rq, &a) == EINVAL, "a negative hold");
	rq.hold = AR_HOLD_MAX + 1;
	CHECK(ar_add(t, &rq, &a) == EINVAL, "a hold too long");
	CHECK(violations(t) == 0, "named and copies held");
	OK(ar_txn_commit(t));

	OK(ar_txn_begin(s, AR_WRITE, T0 + 15 * MIN, &t));
	OK(ar_get(t, 1, &r));
	CHECK(r.state == AR_EXPIRED, "the named hold expired");
	OK(ar_get(t, 2, &r));
	CHECK(ar_resv_status(&r) == AR_HELD, "the copies still held");
	rq = hold_request(T0 + HOUR, HOUR, 2, 0);
	rq.hosts = (const uint32_t[]){ 3, 4 };
	rq.nhosts = 2;
	OK(ar_add(t, &rq, &a));
	CHECK(a.status == AR_GRANTED, "its hosts are free again: %s",
	    ar_reason_name(a.reason));
	CHECK(violations(t) == 0, "after the named hold expired");
	OK(ar_txn_commit(t));
	done(s, "more");
}

/* ar_check: a hold missing from its index, an entry of no hold, and a
 * hold past its expiry that a writer did not release. */
static void
test_check(void)
{
	unsigned char key[16];
	struct kv_val k = { 16, key }, v = { 0, key };
	struct ar_answer a;
	struct ar_request rq;
	uint64_t bad;
	ar_store *s = store("check", 8, NULL);
	ar_txn *t;

	OK(ar_txn_begin(s, AR_WRITE, T0, &t));
	rq = hold_request(T0 + HOUR, HOUR, 2, 10 * MIN);
	OK(ar_add(t, &rq, &a));                         /* 1 */
	rq.hold = 0;
	OK(ar_add(t, &rq, &a));                         /* 2 */
	hold_key(key, T0 + 5 * MIN, 2);
	OK(kv_put(t->txn, KV_HOLDS, &k, &v, 0));
	/* Each tampering also leaves meta's count of holds wrong. */
	OK(ar_check(t, quiet, NULL, &bad));
	CHECK(bad == 3, "an entry of no hold: %" PRIu64 " violations", bad);
	OK(kv_del(t->txn, KV_HOLDS, &k, NULL));
	hold_key(key, T0 + 10 * MIN, 1);
	OK(kv_del(t->txn, KV_HOLDS, &k, NULL));
	OK(ar_check(t, quiet, NULL, &bad));
	CHECK(bad == 3, "a hold out of its index: %" PRIu64 " violations",
	    bad);
	OK(ar_txn_commit(t));
	/* Out of the index, nobody releases it. */
	OK(ar_txn_begin(s, AR_WRITE, T0 + 20 * MIN, &t));
	OK(ar_check(t, quiet, NULL, &bad));
	CHECK(bad == 4, "a hold not released: %" PRIu64 " violations", bad);
	ar_txn_abort(t);
	done(s, "check");
}

int
main(int argc, char **argv)
{
	suite_memory(argc, argv);
	if (suite_begin() != 0)
		return 1;
	test_expire();
	test_unchanged();
	test_confirm();
	test_shape();
	test_more();
	test_check();
	return suite_end();
}
