/*
 * test_series.c - recurring reservations: a series granted all or none,
 * or those occurrences that fit; each occurrence a reservation linked to
 * its series; found, cancelled and changed as a whole; ar_check's view
 * of the links.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ar.h"
#include "check.h"
#include "helpers.h"
#include "internal.h"           /* resv_put: to damage a link */

#define SUITE "series"
#include "suite.h"

/* ar_add_series if rep says every, else ar_add. */
static int
add(ar_txn *t, const struct ar_request *rq, const struct ar_repeat *rep,
    struct ar_answer *a)
{
	return rep->every != 0 ? ar_add_series(t, rq, rep, a) :
	    ar_add(t, rq, a);
}

/* Every hour from 01:00, 4 times: four reservations, one series. */
static void
test_grant(void)
{
	const struct ar_answer *occ;
	const struct ar_placed *g, *m;
	struct ar_answer a;
	struct ar_request rq;
	struct ar_repeat rep = { 0, 0, 0 };
	struct ar_resv r;
	uint64_t ids[8];
	size_t n, ng, nm;
	ar_store *s = store("grant", 10, NULL);
	ar_txn *t;

	OK(ar_txn_begin(s, AR_WRITE, T0, &t));
	rq = request(T0 + HOUR, 30 * MIN, 6);
	rep.every = HOUR;
	rep.count = 4;
	rq.user = "alice";
	OK(add(t, &rq, &rep, &a));
	CHECK(a.status == AR_GRANTED && a.id == 1 && a.occurrence == 1 &&
	    a.start == T0 + HOUR && a.free == 10, "series: status %d id %"
	    PRIu64 " occurrence %u", a.status, a.id, a.occurrence);
	ar_occurrences(t, &occ, &n);
	ar_added(t, &g, &ng, &m, &nm);
	CHECK(n == 4 && ng == 4 && nm == 0, "%zu occurrences told, %zu "
	    "granted", n, ng);
	for (size_t i = 0; i < n && i < ng; i++) {
		OK(ar_get(t, g[i].id, &r));
		CHECK(occ[i].status == AR_GRANTED && occ[i].occurrence == i + 1 &&
		    occ[i].id == i + 1 && g[i].id == i + 1 &&
		    occ[i].start == T0 + (int64_t)(i + 1) * HOUR &&
		    r.series == 1 && r.occurrence == i + 1 &&
		    r.start == occ[i].start && strcmp(r.user, "alice") == 0,
		    "occurrence %zu: id %" PRIu64 " series %" PRIu64
		    " occurrence %u", i + 1, r.id, r.series, r.occurrence);
	}
	OK(ar_series(t, 1, ids, 8, &n));
	CHECK(n == 4 && ids[0] == 1 && ids[3] == 4, "series 1 has %zu", n);
	OK(ar_series(t, 2, ids, 8, &n));
	CHECK(n == 0, "series 2, an occurrence of 1's, has %zu", n);
	/* Not a series. */
	rq = request(T0 + 8 * HOUR, HOUR, 1);
	rep.every = 0;
	OK(add(t, &rq, &rep, &a));
	ar_occurrences(t, &occ, &n);
	OK(ar_get(t, 5, &r));
	CHECK(a.occurrence == 0 && n == 0 && r.series == 0 &&
	    r.occurrence == 0, "a request alone is in a series");
	OK(ar_series(t, 5, ids, 8, &n));
	CHECK(n == 0, "a reservation alone is a series of %zu", n);
	/* Until: every 2 hours from 09:00, up to 13:00. */
	rq = request(T0 + 9 * HOUR, HOUR, 1);
	rep = (struct ar_repeat){ 2 * HOUR, 0, T0 + 13 * HOUR };
	OK(add(t, &rq, &rep, &a));
	ar_occurrences(t, &occ, &n);
	CHECK(a.status == AR_GRANTED && a.id == 6 && n == 3 &&
	    occ[2].start == T0 + 13 * HOUR, "until: %zu occurrences", n);
	CHECK(violations(t) == 0, "violations after series");
	/* A cancelled occurrence leaves its series. */
	OK(ar_cancel(t, 2, 1000, &r));
	CHECK(r.series == 1 && r.occurrence == 2, "cancelled occurrence");
	OK(ar_series(t, 1, ids, 8, &n));
	CHECK(n == 3 && ids[0] == 1 && ids[1] == 3, "series 1 has %zu after "
	    "a cancel", n);
	OK(ar_txn_commit(t));
	/* Ended ones are not live. */
	OK(ar_txn_begin(s, 0, T0 + 3 * HOUR, &t));
	OK(ar_series(t, 1, ids, 1, &n));
	CHECK(n == 2 && ids[0] == 3, "series 1 has %zu at 03:00", n);
	ar_txn_abort(t);
	done(s, "grant");
}

/* Occurrence 3 finds no room: none is granted, unless partial. */
static void
test_all_or_none(void)
{
	const struct ar_answer *occ;
	const struct ar_placed *g, *m;
	struct ar_answer a;
	struct ar_request rq;
	struct ar_repeat rep = { 0, 0, 0 };
	struct ar_info before, after;
	struct ar_resv r;
	size_t n, ng, nm;
	ar_store *s = store("none", 10, NULL);
	ar_txn *t;

	OK(ar_txn_begin(s, AR_WRITE, T0, &t));
	rq = request(T0 + 3 * HOUR, HOUR, 8);
	OK(add(t, &rq, &rep, &a));                         /* 1 */
	OK(ar_info(t, &before));
	rq = request(T0 + HOUR, HOUR, 4);
	rep.every = HOUR;
	rep.count = 4;
	OK(add(t, &rq, &rep, &a));
	ar_occurrences(t, &occ, &n);
	ar_added(t, &g, &ng, &m, &nm);
	OK(ar_info(t, &after));
	CHECK(a.status == AR_REFUSED && a.reason == AR_R_FULL &&
	    a.occurrence == 3 && a.start == T0 + 3 * HOUR && a.free == 2 &&
	    n == 1 && occ[0].occurrence == 3 && ng == 0 && nm == 0,
	    "refused: status %d reason %d occurrence %u, %zu told", a.status,
	    a.reason, a.occurrence, n);
	CHECK(after.next_id == before.next_id && after.live == before.live,
	    "a refused series left %" PRIu64 " live", after.live);
	CHECK(ar_get(t, 2, &r) == AR_ENOTFOUND, "a refused series left 2");
	CHECK(violations(t) == 0, "violations after a refused series");

	/* Partial: 1, 2 and 4; the series is named by the first. */
	rq.flags = AR_PARTIAL;
	OK(add(t, &rq, &rep, &a));
	ar_occurrences(t, &occ, &n);
	ar_added(t, &g, &ng, &m, &nm);
	CHECK(a.status == AR_GRANTED && a.id == 2 && n == 4 && ng == 3 &&
	    occ[2].status == AR_REFUSED && occ[2].reason == AR_R_FULL &&
	    occ[2].occurrence == 3 && occ[3].status == AR_GRANTED &&
	    occ[3].id == 4 && occ[3].occurrence == 4, "partial: %zu told, "
	    "%zu granted", n, ng);
	OK(ar_get(t, 4, &r));
	CHECK(r.series == 2 && r.occurrence == 4 && r.start == T0 + 4 * HOUR,
	    "partial: the last is occurrence %u of %" PRIu64, r.occurrence,
	    r.series);
	/* Partial, the first refused: the series is the second's id. */
	rq = request(T0 + 3 * HOUR, HOUR, 4);
	rep.every = HOUR;
	rep.count = 2;
	rq.flags = AR_PARTIAL;
	OK(add(t, &rq, &rep, &a));
	ar_occurrences(t, &occ, &n);
	CHECK(a.status == AR_GRANTED && a.id == 5 && a.occurrence == 2 &&
	    n == 2 && occ[0].status == AR_REFUSED, "partial, first refused");
	OK(ar_get(t, 5, &r));
	CHECK(r.series == 5 && r.occurrence == 2, "series %" PRIu64
	    " occurrence %u", r.series, r.occurrence);
	/* Partial, none fits. */
	rep.count = 1;
	OK(add(t, &rq, &rep, &a));
	ar_occurrences(t, &occ, &n);
	CHECK(a.status == AR_REFUSED && a.reason == AR_R_FULL &&
	    a.occurrence == 1 && n == 1, "partial, none fits");
	CHECK(violations(t) == 0, "violations after partial series");
	OK(ar_txn_commit(t));
	done(s, "none");
}

/* The horizon, the limit, and malformed series. */
static void
test_limits(void)
{
	const struct ar_answer *occ;
	struct ar_answer a;
	struct ar_request rq;
	struct ar_repeat rep = { 0, 0, 0 };
	size_t n;
	ar_store *s = store("limits", 10, NULL);
	ar_txn *t;

	OK(ar_txn_begin(s, AR_WRITE, T0, &t));
	/* 20:00 to 02:00 the next day: past the horizon from 01:00 on. */
	rq = request(T0 + 20 * HOUR, HOUR, 1);
	rep.every = HOUR;
	rep.count = 7;
	OK(add(t, &rq, &rep, &a));
	CHECK(a.status == AR_REFUSED && a.reason == AR_R_HORIZON &&
	    a.occurrence == 5, "past the horizon: reason %d occurrence %u",
	    a.reason, a.occurrence);
	rq.flags = AR_PARTIAL;
	OK(add(t, &rq, &rep, &a));
	ar_occurrences(t, &occ, &n);
	CHECK(a.status == AR_GRANTED && n == 7 &&
	    occ[3].status == AR_GRANTED && occ[4].reason == AR_R_HORIZON &&
	    occ[6].reason == AR_R_HORIZON, "partial to the horizon");
	/* Past the year 9999: beyond the horizon too. */
	rq = request(T0 + HOUR, HOUR, 1);
	rep.every = AR_DURATION_MAX;
	rep.count = 100;
	rq.flags = AR_PARTIAL;
	OK(add(t, &rq, &rep, &a));
	ar_occurrences(t, &occ, &n);
	CHECK(a.status == AR_GRANTED && n == 100 &&
	    occ[99].reason == AR_R_HORIZON && occ[99].end == -1,
	    "past 9999: %zu told", n);
	/* Malformed. */
	rq = request(T0 + HOUR, HOUR, 1);
	rep = (struct ar_repeat){ HOUR, 0, 0 };
	CHECK(add(t, &rq, &rep, &a) == EINVAL, "neither count nor until");
	rep.until = T0;
	CHECK(add(t, &rq, &rep, &a) == EINVAL, "until before the start");
	rep.count = 2;
	rq.jobs = 2;
	CHECK(add(t, &rq, &rep, &a) == EINVAL, "a series of two jobs");
	rq.jobs = 1;
	rep.every = -HOUR;
	CHECK(add(t, &rq, &rep, &a) == EINVAL, "every -1h");
	CHECK(violations(t) == 0, "violations after the limits");
	ar_txn_abort(t);
	done(s, "limits");
}

/* At most AR_SERIES_MAX occurrences, as many as the horizon holds. */
static void
test_max(void)
{
	const struct ar_answer *occ;
	struct ar_config cfg;
	struct ar_answer a;
	struct ar_request rq;
	struct ar_repeat rep = { 0, 0, 0 };
	ar_store *s = NULL;
	ar_txn *t;
	size_t n;

	ar_config_default(&cfg);
	cfg.flags = AR_SIMULATED;
	cfg.nodes = 2;
	OK(ar_create(store_path("max"), &cfg, T0));
	OK(ar_open(store_path("max"), 0, &s));
	OK(ar_txn_begin(s, AR_WRITE, T0, &t));
	rq = request(T0 + HOUR, 5 * MIN, 1);
	rep.every = 5 * MIN;
	rep.until = T0 + HOUR + AR_SERIES_MAX * 5 * MIN;
	OK(add(t, &rq, &rep, &a));
	CHECK(a.status == AR_REFUSED && a.reason == AR_R_CAPACITY &&
	    a.start == T0 + HOUR, "%d occurrences: reason %d",
	    AR_SERIES_MAX + 1, a.reason);
	rep.until -= 5 * MIN;
	OK(add(t, &rq, &rep, &a));
	ar_occurrences(t, &occ, &n);
	CHECK(a.status == AR_GRANTED && n == AR_SERIES_MAX &&
	    occ[n - 1].id == AR_SERIES_MAX, "%d occurrences: %zu told",
	    AR_SERIES_MAX, n);
	CHECK(violations(t) == 0, "violations after the longest series");
	OK(ar_txn_commit(t));
	done(s, "max");
}

/* With a window, each occurrence may shift within its own. */
static void
test_windows(void)
{
	const struct ar_answer *occ;
	struct ar_answer a;
	struct ar_request rq;
	struct ar_repeat rep = { 0, 0, 0 };
	size_t n;
	ar_store *s = store("windows", 10, NULL);
	ar_txn *t;

	OK(ar_txn_begin(s, AR_WRITE, T0, &t));
	rq = request(T0 + 2 * HOUR, 30 * MIN, 8);
	OK(add(t, &rq, &rep, &a));                         /* 1 */
	rq = request(T0 + HOUR, 30 * MIN, 4);
	rq.latest = T0 + HOUR + 30 * MIN;
	rep.every = HOUR;
	rep.count = 3;
	rq.flags = AR_NOMOVE;
	OK(add(t, &rq, &rep, &a));
	ar_occurrences(t, &occ, &n);
	CHECK(a.status == AR_GRANTED && n == 3 &&
	    occ[0].start == T0 + HOUR &&
	    occ[1].start == T0 + 2 * HOUR + 30 * MIN &&
	    occ[2].start == T0 + 3 * HOUR, "windows: %" PRId64 " %" PRId64
	    " %" PRId64, occ[0].start, occ[1].start, occ[2].start);
	CHECK(violations(t) == 0, "violations after windows");
	ar_txn_abort(t);
	done(s, "windows");
}

/* The client key holds the whole series. */
static void
test_key(void)
{
	const struct ar_placed *g, *m;
	struct ar_answer a;
	struct ar_request rq;
	struct ar_repeat rep = { 0, 0, 0 };
	size_t ng, nm;
	ar_store *s = store("key", 10, NULL);
	ar_txn *t;

	OK(ar_txn_begin(s, AR_WRITE, T0, &t));
	rq = request(T0 + HOUR, HOUR, 2);
	rep.every = 2 * HOUR;
	rep.count = 3;
	rq.client_key = "weekly";
	OK(add(t, &rq, &rep, &a));
	CHECK(a.status == AR_GRANTED && !a.replayed, "keyed series");
	OK(add(t, &rq, &rep, &a));
	ar_added(t, &g, &ng, &m, &nm);
	CHECK(a.replayed && a.id == 1 && ng == 3 && g[2].id == 3,
	    "replayed series: %zu", ng);
	rep.count = 4;
	OK(add(t, &rq, &rep, &a));
	CHECK(a.status == AR_REFUSED && a.reason == AR_R_KEY,
	    "another count under the key: reason %d", a.reason);
	CHECK(violations(t) == 0, "violations after keyed series");
	ar_txn_abort(t);
	done(s, "key");
}

/* Every live occurrence changed, all or none. */
static void
test_modify_all(void)
{
	const struct ar_placed *g, *m;
	struct ar_answer a, ans[3];
	struct ar_request rq, rqs[3];
	struct ar_repeat rep = { 0, 0, 0 };
	struct ar_resv r, before[3];
	uint64_t ids[3];
	size_t n, ng, nm, bad_at;
	ar_store *s = store("modify", 10, NULL);
	ar_txn *t;

	OK(ar_txn_begin(s, AR_WRITE, T0, &t));
	rq = request(T0 + HOUR, 30 * MIN, 4);
	rep.every = HOUR;
	rep.count = 3;
	OK(add(t, &rq, &rep, &a));                         /* 1-3 */
	rq = request(T0 + 3 * HOUR + 30 * MIN, HOUR, 8);
	OK(ar_add(t, &rq, &a));                         /* 4 */
	OK(ar_series(t, 1, ids, 3, &n));
	CHECK(n == 3, "series of %zu", n);
	for (size_t i = 0; i < 3; i++) {
		OK(ar_get(t, ids[i], &before[i]));
		rqs[i] = request(before[i].start, 45 * MIN, 4);
	}
	/* 45 minutes each: the third would run into 4. */
	OK(ar_modify_all(t, ids, 3, 1000, rqs, ans, &bad_at));
	ar_added(t, &g, &ng, &m, &nm);
	CHECK(bad_at == 2 && ans[2].status == AR_REFUSED &&
	    ans[2].reason == AR_R_FULL && ng == 0 && nm == 0,
	    "refused at %zu: reason %d", bad_at, ans[2].reason);
	for (size_t i = 0; i < 3; i++) {
		OK(ar_get(t, ids[i], &r));
		CHECK(r.end == before[i].end && r.changed == before[i].changed,
		    "occurrence %zu changed by a refused modify", i + 1);
	}
	CHECK(violations(t) == 0, "violations after a refused modify");
	/* 40 minutes: all. */
	for (size_t i = 0; i < 3; i++)
		rqs[i].duration = 30 * MIN + 10 * MIN;
	rqs[2].duration = 30 * MIN;
	OK(ar_modify_all(t, ids, 3, 1000, rqs, ans, &bad_at));
	ar_added(t, &g, &ng, &m, &nm);
	CHECK(bad_at == 3 && ng == 3 && g[1].id == 2 &&
	    g[1].from == T0 + 2 * HOUR && ans[0].status == AR_GRANTED &&
	    ans[0].end == T0 + HOUR + 40 * MIN, "modified all: %zu", ng);
	OK(ar_get(t, 2, &r));
	CHECK(r.end == T0 + 2 * HOUR + 40 * MIN && r.series == 1 &&
	    r.occurrence == 2, "occurrence 2 after the modify");
	/* Another owner: refused before anything, at the first. */
	CHECK(ar_modify_all(t, ids, 3, 7, rqs, ans, &bad_at) == AR_EPERM &&
	    bad_at == 0, "another owner");
	CHECK(violations(t) == 0, "violations after modify all");
	ar_txn_abort(t);
	done(s, "modify");
}

/* ar_check finds broken links. */
static void
test_check(void)
{
	struct ar_answer a;
	struct ar_request rq;
	struct ar_repeat rep = { 0, 0, 0 };
	struct ar_resv r;
	uint64_t bad;
	ar_store *s = store("check", 10, NULL);
	ar_txn *t;

	OK(ar_txn_begin(s, AR_WRITE, T0, &t));
	rq = request(T0 + HOUR, HOUR, 1);
	OK(add(t, &rq, &rep, &a));                         /* 1, alone */
	rep.every = HOUR;
	rep.count = 3;
	OK(add(t, &rq, &rep, &a));                         /* 2-4 */
	CHECK(violations(t) == 0, "violations before the damage");
	OK(ar_get(t, 4, &r));
	r.occurrence = 2;
	OK(resv_put(t, &r));
	OK(ar_check(t, NULL, NULL, &bad));
	CHECK(bad == 1, "an occurrence out of order: %" PRIu64, bad);
	r.occurrence = 3;
	r.owner = 7;
	OK(resv_put(t, &r));
	OK(ar_check(t, NULL, NULL, &bad));
	CHECK(bad == 1, "an occurrence of another owner: %" PRIu64, bad);
	r.owner = 1000;
	OK(resv_put(t, &r));
	OK(ar_get(t, 3, &r));
	r.series = 0;
	r.occurrence = 0;
	OK(resv_put(t, &r));
	OK(ar_check(t, NULL, NULL, &bad));
	CHECK(bad == 1, "a series with a stranger inside: %" PRIu64, bad);
	ar_txn_abort(t);
	done(s, "check");
}

int
main(int argc, char **argv)
{
	suite_memory(argc, argv);
	if (suite_begin() != 0)
		return 1;
	test_grant();
	test_all_or_none();
	test_limits();
	test_max();
	test_windows();
	test_key();
	test_modify_all();
	test_check();
	return suite_end();
}
