/*
 * test_modify.c - ar_modify: a reservation changed in place, atomically,
 * before and while it runs; its class and its named hosts kept; others
 * moved for it as for a request; ar_check clean after each.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ar.h"
#include "check.h"
#include "helpers.h"
#include "internal.h"           /* the stored mapping, to tamper with it */

#define SUITE "modify"
#include "suite.h"

/* A store of nodes, 5-minute slots, a day's horizon, open for writing
 * at now. */
static int
same_resv(const struct ar_resv *a, const struct ar_resv *b)
{
	return a->id == b->id && a->start == b->start && a->end == b->end &&
	    a->nodes == b->nodes && a->earliest == b->earliest &&
	    a->latest == b->latest && a->duration == b->duration &&
	    a->changed == b->changed && a->price == b->price &&
	    a->state == b->state;
}

/* Extend, shrink, change nodes and window; who may; what stays. */
static void
test_shape(void)
{
	struct ar_answer a;
	struct ar_request rq;
	struct ar_resv r, before;
	const struct ar_placed *g, *m;
	size_t ng, nm;
	uint32_t nfree;
	ar_store *s = store("shape", 10, NULL);
	ar_txn *t;

	OK(ar_txn_begin(s, AR_WRITE, T0, &t));
	rq = request(T0 + HOUR, HOUR, 4);
	rq.user = "alice";
	rq.job = "j1";
	rq.client_key = "k1";
	OK(ar_add(t, &rq, &a));                         /* 1 */
	rq = request(T0 + 2 * HOUR, HOUR, 6);
	OK(ar_add(t, &rq, &a));                         /* 2 */
	OK(ar_txn_commit(t));

	OK(ar_txn_begin(s, AR_WRITE, T0 + 10 * MIN, &t));
	/* Longer: from 01:00 to 02:30, past reservation 2 (6 of 10). */
	rq = request(T0 + HOUR, 90 * MIN, 4);
	OK(ar_modify(t, 1, 1000, &rq, &a));
	CHECK(a.status == AR_GRANTED && a.id == 1 && a.start == T0 + HOUR &&
	    a.end == T0 + 150 * MIN && a.free == 4,
	    "extended: status %d id %" PRIu64 " free %u", a.status, a.id,
	    a.free);
	ar_added(t, &g, &ng, &m, &nm);
	CHECK(ng == 1 && g[0].id == 1 && g[0].from == T0 + HOUR && nm == 0,
	    "listed as granted");
	OK(ar_get(t, 1, &r));
	CHECK(r.end == T0 + 150 * MIN && r.duration == 90 * MIN &&
	    strcmp(r.user, "alice") == 0 && strcmp(r.job, "j1") == 0 &&
	    strcmp(r.client_key, "k1") == 0 && r.owner == 1000 &&
	    r.created == T0 && r.changed == T0 + 10 * MIN,
	    "the record after: labels, key, owner, created stay");
	OK(ar_free(t, T0 + 2 * HOUR, T0 + 150 * MIN, &nfree));
	CHECK(nfree == 0, "the extension is booked: %u free", nfree);
	CHECK(violations(t) == 0, "ar_check after an extension");

	/* Its own slots count as free: 10 nodes over its own interval fit
	 * before reservation 2 only. */
	rq = request(T0 + HOUR, HOUR, 10);
	OK(ar_modify(t, 1, 1000, &rq, &a));
	CHECK(a.status == AR_GRANTED && a.end == T0 + 2 * HOUR,
	    "all nodes over its own slots");
	OK(ar_get(t, 1, &before));
	/* Refused: full.  Nothing changes. */
	rq = request(T0 + HOUR, 2 * HOUR, 10);
	OK(ar_modify(t, 1, 1000, &rq, &a));
	CHECK(a.status == AR_REFUSED && a.reason == AR_R_FULL && a.id == 0,
	    "overbooking refused: %d %d", a.status, a.reason);
	ar_added(t, &g, &ng, &m, &nm);
	CHECK(ng == 0 && nm == 0, "a refusal lists nothing");
	OK(ar_get(t, 1, &r));
	CHECK(same_resv(&r, &before), "a refusal leaves it as it was");
	OK(ar_free(t, T0 + HOUR, T0 + 2 * HOUR, &nfree));
	CHECK(nfree == 0, "its slots are still held");
	/* Shorter, fewer nodes: its slots come free. */
	rq = request(T0 + HOUR, 30 * MIN, 2);
	OK(ar_modify(t, 1, 1000, &rq, &a));
	CHECK(a.status == AR_GRANTED, "shrunk");
	OK(ar_free(t, T0 + 90 * MIN, T0 + 2 * HOUR, &nfree));
	CHECK(nfree == 10, "the slots it left are free: %u", nfree);
	/* A new window: the start it has is outside it, so it moves to
	 * the first fit. */
	rq = request(T0 + 3 * HOUR, 30 * MIN, 2);
	rq.latest = T0 + 4 * HOUR;
	OK(ar_modify(t, 1, 1000, &rq, &a));
	CHECK(a.status == AR_GRANTED && a.start == T0 + 3 * HOUR,
	    "moved to its new window");
	/* A window holding its start: it stays where it is, though an
	 * earlier start would fit. */
	rq = request(T0 + 2 * HOUR, 45 * MIN, 2);
	rq.latest = T0 + 4 * HOUR;
	OK(ar_modify(t, 1, 1000, &rq, &a));
	CHECK(a.status == AR_GRANTED && a.start == T0 + 3 * HOUR &&
	    a.end == T0 + 3 * HOUR + 45 * MIN, "kept its start in the window");
	CHECK(violations(t) == 0, "ar_check after the changes");

	/* Who may: the owner and root. */
	CHECK(ar_modify(t, 1, 1001, &rq, &a) == AR_EPERM, "another uid");
	OK(ar_modify(t, 1, 0, &rq, &a));
	CHECK(a.status == AR_GRANTED, "root");
	CHECK(ar_modify(t, 99, 0, &rq, &a) == AR_ENOTFOUND, "unknown id");
	rq.jobs = 2;
	CHECK(ar_modify(t, 1, 0, &rq, &a) == EINVAL, "two jobs");
	rq.jobs = 1;
	rq.duration = 0;
	CHECK(ar_modify(t, 1, 0, &rq, &a) == EINVAL, "no duration");
	rq = request(T0 + HOUR, HOUR, 11);
	OK(ar_modify(t, 1, 1000, &rq, &a));
	CHECK(a.status == AR_REFUSED && a.reason == AR_R_CAPACITY,
	    "more nodes than the cluster");
	rq = request(T0 + 23 * HOUR, 2 * HOUR, 1);
	OK(ar_modify(t, 1, 1000, &rq, &a));
	CHECK(a.status == AR_REFUSED && a.reason == AR_R_HORIZON, "horizon");
	OK(ar_cancel(t, 1, 1000, &r));
	CHECK(ar_modify(t, 1, 1000, &rq, &a) == AR_EDONE, "cancelled");
	CHECK(violations(t) == 0, "ar_check at the end");
	OK(ar_txn_commit(t));
	CHECK(ar_txn_begin(s, 0, T0, &t) == 0 &&
	    ar_modify(t, 2, 0, &rq, &a) == EACCES, "read transaction");
	ar_txn_abort(t);
	done(s, "shape");
}

/* A running reservation: its start and nodes stay; only its slots from
 * the clock on change. */
static void
test_running(void)
{
	struct ar_answer a;
	struct ar_request rq;
	struct ar_resv r;
	uint32_t nfree;
	ar_store *s = store("running", 10, NULL);
	ar_txn *t;

	OK(ar_txn_begin(s, AR_WRITE, T0, &t));
	rq = request(T0 + HOUR, HOUR, 4);
	rq.latest = T0 + 2 * HOUR;
	OK(ar_add(t, &rq, &a));                         /* 1, at 01:00 */
	rq = request(T0 + 3 * HOUR, HOUR, 8);
	OK(ar_add(t, &rq, &a));                         /* 2 */
	OK(ar_txn_commit(t));

	/* 01:30: it runs.  Longer, to 03:00, its window as it was. */
	OK(ar_txn_begin(s, AR_WRITE, T0 + 90 * MIN, &t));
	rq = request(T0 + HOUR, 2 * HOUR, 4);
	rq.latest = T0 + 2 * HOUR;
	OK(ar_modify(t, 1, 1000, &rq, &a));
	CHECK(a.status == AR_GRANTED && a.start == T0 + HOUR &&
	    a.end == T0 + 3 * HOUR, "running, extended: %d %d", a.status,
	    a.reason);
	OK(ar_free(t, T0 + 90 * MIN, T0 + 3 * HOUR, &nfree));
	CHECK(nfree == 6, "its future is booked: %u", nfree);
	/* Into reservation 2: 4 + 8 > 10. */
	rq.duration = 150 * MIN;
	OK(ar_modify(t, 1, 1000, &rq, &a));
	CHECK(a.status == AR_REFUSED && a.reason == AR_R_FULL &&
	    a.start == T0 + HOUR && a.end == T0 + 210 * MIN,
	    "running, into a full slot: %d %d", a.status, a.reason);
	/* Its start cannot move, nor its nodes change. */
	rq = request(T0 + 2 * HOUR, HOUR, 4);
	OK(ar_modify(t, 1, 1000, &rq, &a));
	CHECK(a.status == AR_REFUSED && a.reason == AR_R_STARTED,
	    "running, another start");
	rq = request(T0 + HOUR, HOUR, 5);
	OK(ar_modify(t, 1, 1000, &rq, &a));
	CHECK(a.status == AR_REFUSED && a.reason == AR_R_STARTED,
	    "running, other nodes");
	/* Nor end before the clock. */
	rq = request(T0 + HOUR, 30 * MIN, 4);
	OK(ar_modify(t, 1, 1000, &rq, &a));
	CHECK(a.status == AR_REFUSED && a.reason == AR_R_PAST,
	    "running, ending in the past");
	/* Shorter, ending in the clock's slot's next: fine, and its start
	 * given exactly stays too. */
	rq = request(T0 + HOUR, 35 * MIN, 4);
	OK(ar_modify(t, 1, 1000, &rq, &a));
	CHECK(a.status == AR_GRANTED && a.end == T0 + 95 * MIN,
	    "running, shortened to the next slot");
	OK(ar_free(t, T0 + 95 * MIN, T0 + 3 * HOUR, &nfree));
	CHECK(nfree == 10, "what it left is free: %u", nfree);
	OK(ar_get(t, 1, &r));
	CHECK(r.start == T0 + HOUR && r.earliest == T0 + HOUR &&
	    r.latest == T0 + HOUR, "its record");
	CHECK(violations(t) == 0, "ar_check while it runs");
	OK(ar_txn_commit(t));
	done(s, "running");
}

/* Others move for a modify as for a request; with AR_NOMOVE none do. */
static void
test_moves(void)
{
	struct ar_answer a;
	struct ar_request rq;
	const struct ar_placed *g, *m;
	size_t ng, nm;
	ar_store *s = store("moves", 4, NULL);
	ar_txn *t;

	OK(ar_txn_begin(s, AR_WRITE, T0, &t));
	rq = request(T0 + HOUR, HOUR, 2);
	OK(ar_add(t, &rq, &a));                         /* 1 */
	rq = request(T0 + 2 * HOUR, HOUR, 4);
	rq.latest = T0 + 4 * HOUR;
	OK(ar_add(t, &rq, &a));                         /* 2, at 02:00 */
	rq = request(T0 + HOUR, 2 * HOUR, 2);
	rq.flags = AR_NOMOVE;
	OK(ar_modify(t, 1, 1000, &rq, &a));
	CHECK(a.status == AR_REFUSED && a.reason == AR_R_FULL,
	    "no moves: refused");
	rq.flags = 0;
	OK(ar_modify(t, 1, 1000, &rq, &a));
	ar_added(t, &g, &ng, &m, &nm);
	CHECK(a.status == AR_GRANTED && ng == 1 && nm == 1 && m[0].id == 2 &&
	    m[0].from == T0 + 2 * HOUR && m[0].start == T0 + 3 * HOUR,
	    "reservation 2 moved for it: %d, %zu moves", a.status, nm);
	CHECK(violations(t) == 0, "ar_check after the moves");
	OK(ar_txn_commit(t));
	done(s, "moves");
}

/* Its class stays; its price follows its shape; the limits apply. */
static void
test_classes(void)
{
	static const struct ar_class c[2] = {
		{ "near", 100, 0, 2 * HOUR, 10, 0 },
		{ "far", 50, 2 * HOUR, -1, 4, 0 },
	};
	struct ar_pricing p;
	struct ar_answer a;
	struct ar_request rq;
	struct ar_resv r;
	const char *field;
	size_t at;
	ar_store *s = store("classes", 10, NULL);
	ar_txn *t;

	memset(&p, 0, sizeof(p));
	p.n = 2;
	memcpy(p.c, c, sizeof(c));
	p.retention = 86400;
	OK(ar_txn_begin(s, AR_WRITE, T0, &t));
	OK(ar_set_pricing(t, &p, &at, &field));
	rq = request(T0 + 3 * HOUR, HOUR, 2);
	OK(ar_add(t, &rq, &a));                         /* 1: far */
	CHECK(a.cls == 2 && a.price == 50 * 2 * 12, "far: %u", a.cls);
	/* Nearer than two hours now, it stays far and pays for 2 hours. */
	rq = request(T0 + HOUR, 2 * HOUR, 2);
	OK(ar_modify(t, 1, 1000, &rq, &a));
	OK(ar_get(t, 1, &r));
	CHECK(a.status == AR_GRANTED && a.cls == 2 && r.cls == 2 &&
	    a.price == 50 * 2 * 24 && r.price == a.price,
	    "class kept, repriced: %u %" PRId64, r.cls, r.price);
	/* Far may hold 4 nodes. */
	rq.nodes = 5;
	OK(ar_modify(t, 1, 1000, &rq, &a));
	CHECK(a.status == AR_REFUSED && a.reason == AR_R_BOOKING,
	    "over its class's limit: %d %d", a.status, a.reason);
	CHECK(violations(t) == 0, "ar_check with classes");
	OK(ar_txn_commit(t));
	done(s, "classes");
}

struct hosts_of {
	uint64_t id;
	uint32_t hosts[8];
	size_t n;
};

static int
hosts_of(const struct ar_mapped *m, void *arg)
{
	struct hosts_of *h = arg;

	if (m->r.id == h->id) {
		h->n = m->nhosts < 8 ? m->nhosts : 8;
		memcpy(h->hosts, m->hosts, h->n * sizeof(*h->hosts));
	}
	return 0;
}

/* Named hosts stay and their pin follows the end; a running, mapped
 * one keeps its hosts, and may not grow into a pin on them. */
static void
test_hosts(void)
{
	static const uint32_t two[2] = { 2, 3 };
	struct hosts_of before = { 1, { 0 }, 0 }, after = { 1, { 0 }, 0 };
	struct ar_answer a;
	struct ar_request rq;
	ar_store *s = store("hosts", 4, "n[1-4]");
	ar_txn *t;

	OK(ar_txn_begin(s, AR_WRITE, T0, &t));
	rq = request(T0 + HOUR, HOUR, 2);
	OK(ar_add(t, &rq, &a));                         /* 1 */
	OK(ar_map(t, 0, T0, T0 + 86400, NULL, 0, hosts_of, &before));
	CHECK(before.n == 2, "mapped");
	rq = request(T0 + 3 * HOUR, HOUR, 2);
	rq.hosts = before.hosts;
	rq.nhosts = 2;
	OK(ar_add(t, &rq, &a));                         /* 2, on 1's hosts */
	CHECK(a.status == AR_GRANTED, "named: %d", a.status);
	rq = request(T0 + 5 * HOUR, HOUR, 2);
	rq.hosts = two;
	rq.nhosts = 2;
	OK(ar_add(t, &rq, &a));                         /* 3 */
	rq = request(T0 + 8 * HOUR, HOUR, 2);
	rq.hosts = two;
	rq.nhosts = 2;
	OK(ar_add(t, &rq, &a));                         /* 4, on 3's */
	/* A named one: longer, its pin follows; other nodes: no. */
	rq = request(T0 + 5 * HOUR, 2 * HOUR, 2);
	OK(ar_modify(t, 3, 1000, &rq, &a));
	CHECK(a.status == AR_GRANTED && a.end == T0 + 7 * HOUR,
	    "named, extended: %d %d", a.status, a.reason);
	rq.nodes = 3;
	OK(ar_modify(t, 3, 1000, &rq, &a));
	CHECK(a.status == AR_REFUSED && a.reason == AR_R_HOSTS,
	    "named, other nodes");
	rq = request(T0 + 5 * HOUR, 4 * HOUR, 2);
	OK(ar_modify(t, 3, 1000, &rq, &a));
	CHECK(a.status == AR_REFUSED && a.reason == AR_R_HOSTS &&
	    a.conflict == 4, "named, onto another's pin: %d %d %" PRIu64,
	    a.status, a.reason, a.conflict);
	CHECK(violations(t) == 0, "ar_check after named modifies");
	OK(ar_txn_commit(t));

	/* 01:30: 1 runs on the hosts 2 named for 03:00. */
	OK(ar_txn_begin(s, AR_WRITE, T0 + 90 * MIN, &t));
	rq = request(T0 + HOUR, 90 * MIN, 2);
	OK(ar_modify(t, 1, 1000, &rq, &a));
	CHECK(a.status == AR_GRANTED, "running, mapped, longer: %d",
	    a.status);
	rq.duration = 150 * MIN;
	OK(ar_modify(t, 1, 1000, &rq, &a));
	CHECK(a.status == AR_REFUSED && a.reason == AR_R_HOSTS &&
	    a.conflict != 0, "running, into a pin on its hosts: %d %d",
	    a.status, a.reason);
	OK(ar_map(t, 0, T0, T0 + 86400, NULL, 0, hosts_of, &after));
	CHECK(after.n == 2 && memcmp(before.hosts, after.hosts,
	    sizeof(before.hosts)) == 0, "its hosts stayed");
	CHECK(violations(t) == 0, "ar_check after a running one grew");
	OK(ar_txn_commit(t));
	done(s, "hosts");
}

/* A `map` entry for reservation id: nodes hosts from first, mapped for
 * slots [s, s + slots). */
static void
map_entry(ar_txn *t, uint64_t id, int64_t s, uint32_t slots, uint32_t nodes,
    uint32_t first)
{
	unsigned char key[8], buf[sizeof(struct disk_map) + sizeof(struct run)];
	struct disk_map d = { s, slots, nodes, 1, MAP_UNTOLD };
	struct run r = { first, nodes };
	struct kv_val k = { 8, key }, v = { sizeof(buf), buf };

	key_u64(key, id);
	memcpy(buf, &d, sizeof(d));
	memcpy(buf + sizeof(d), &r, sizeof(r));
	OK(kv_put(t->txn, KV_MAP, &k, &v, 0));
}

/*
 * ar_check takes the kept mapping as map.c does: a started reservation's
 * entry for its start and nodes holds its hosts to its end now, so a
 * mapping that a modify failed to redo, leaving another on those hosts
 * after its old end, is caught.
 */
static void
test_check_kept(void)
{
	struct ar_answer a;
	struct ar_request rq;
	uint64_t bad = 0;
	int64_t s0 = T0 / 300;
	ar_store *s = store("kept", 4, "n[1-4]");
	ar_txn *t;

	OK(ar_txn_begin(s, AR_WRITE, T0, &t));
	rq = request(T0 + HOUR, HOUR, 2);
	OK(ar_add(t, &rq, &a));                         /* 1 */
	rq = request(T0 + 2 * HOUR, HOUR, 2);
	OK(ar_add(t, &rq, &a));                         /* 2 */
	OK(ar_txn_commit(t));
	OK(ar_txn_begin(s, AR_WRITE, T0 + 90 * MIN, &t));
	rq = request(T0 + HOUR, 90 * MIN, 2);
	OK(ar_modify(t, 1, 1000, &rq, &a));
	CHECK(a.status == AR_GRANTED, "running, longer");
	/* Both on n[1-2], 1 as it was before the change. */
	map_entry(t, 1, s0 + 12, 12, 2, 0);
	map_entry(t, 2, s0 + 24, 12, 2, 0);
	OK(ar_check(t, NULL, NULL, &bad));
	CHECK(bad > 0, "the kept mapping holds a host twice: %" PRIu64
	    " violations", bad);
	ar_txn_abort(t);
	done(s, "kept");
}

/*
 * A piece of a split request is modified as its request: every piece
 * cancelled and the request admitted again, split by the rule its
 * records keep; all or none; not once a piece has started.  Full on 4
 * nodes at [01:30, 02:00), [02:30, 03:00) and [04:00, 04:30): a 2h
 * request before 05:30 is two pieces, [03:00, 04:00) and [04:30, 05:30).
 */
static void
test_pieces(void)
{
	struct ar_answer a;
	struct ar_request rq;
	struct ar_resv r;
	const struct ar_placed *g, *m;
	size_t ng, nm;
	ar_store *s = store("pieces", 4, NULL);
	ar_txn *t;

	OK(ar_txn_begin(s, AR_WRITE, T0, &t));
	rq = request(T0 + 90 * MIN, 30 * MIN, 4);
	OK(ar_add(t, &rq, &a));                         /* 1 */
	rq = request(T0 + 150 * MIN, 30 * MIN, 4);
	OK(ar_add(t, &rq, &a));                         /* 2 */
	rq = request(T0 + 4 * HOUR, 30 * MIN, 4);
	OK(ar_add(t, &rq, &a));                         /* 3 */
	rq = request(T0 + HOUR, 2 * HOUR, 1);
	rq.latest = T0 + 210 * MIN;
	rq.split = AR_SPLIT_ORR;
	rq.smallest = 30 * MIN;
	rq.client_key = "k";
	OK(ar_add(t, &rq, &a));                         /* 4 and 5 */
	CHECK(a.status == AR_GRANTED && a.pieces == 2 && a.id == 4,
	    "split: %d %u", a.status, a.pieces);
	OK(ar_get(t, 5, &r));
	CHECK(r.split == AR_SPLIT_ORR && r.smallest == 30 * MIN &&
	    r.pieces == 2, "a piece keeps its rule: %u %" PRId64, r.split,
	    r.smallest);

	/* Its window too early for 2h: refused, nothing changes. */
	rq = request(T0 + 30 * MIN, 2 * HOUR, 1);
	rq.latest = T0 + HOUR;
	OK(ar_modify(t, 5, 1000, &rq, &a));
	ar_added(t, &g, &ng, &m, &nm);
	CHECK(a.status == AR_REFUSED && a.reason == AR_R_SLICES && ng == 0,
	    "no slices: %d %d", a.status, a.reason);
	OK(ar_get(t, 4, &r));
	CHECK(r.state == AR_GRANTED && r.start == T0 + 3 * HOUR &&
	    strcmp(r.client_key, "k") == 0, "piece 1 as it was");
	CHECK(violations(t) == 0, "ar_check after a refused modify");

	/* Longer, the rule kept: new pieces 6 and 7, 4 and 5 cancelled. */
	rq = request(T0 + HOUR, 150 * MIN, 1);
	rq.latest = T0 + 210 * MIN;
	OK(ar_modify(t, 5, 1000, &rq, &a));
	ar_added(t, &g, &ng, &m, &nm);
	CHECK(a.status == AR_GRANTED && a.id == 6 && a.pieces == 2 &&
	    ng == 2 && g[0].id == 6 && g[1].id == 7 &&
	    g[1].end == T0 + 6 * HOUR, "grown: %d %zu", a.status, ng);
	OK(ar_get(t, 5, &r));
	CHECK(r.state == AR_CANCELLED && r.client_key[0] == '\0' &&
	    r.replaced, "the old piece cancelled, replaced, its key given up");
	OK(ar_get(t, 7, &r));
	CHECK(r.series == 6 && r.occurrence == 2 && r.split == AR_SPLIT_ORR &&
	    r.smallest == 30 * MIN && strcmp(r.client_key, "k") == 0,
	    "the new piece: series %" PRIu64, r.series);
	CHECK(violations(t) == 0, "ar_check after a modify of pieces");
	/* TARR takes no smallest. */
	rq.split = AR_SPLIT_TARR;
	rq.smallest = 10 * MIN;
	CHECK(ar_modify(t, 6, 1000, &rq, &a) == EINVAL, "tarr, smallest");
	/* Not another's. */
	rq.smallest = 0;
	CHECK(ar_modify(t, 6, 2000, &rq, &a) == AR_EPERM, "not the owner");
	OK(ar_txn_commit(t));

	/* Once piece 1 has started, the request stays as it is. */
	OK(ar_txn_begin(s, AR_WRITE, T0 + 210 * MIN, &t));
	OK(ar_modify(t, 7, 1000, &rq, &a));
	CHECK(a.status == AR_REFUSED && a.reason == AR_R_STARTED &&
	    a.start == T0 + 3 * HOUR, "started: %d %d", a.status, a.reason);
	OK(ar_get(t, 7, &r));
	CHECK(r.state == AR_GRANTED && r.split == AR_SPLIT_ORR,
	    "piece 2 as it was");
	CHECK(violations(t) == 0, "ar_check after a started one refused");
	OK(ar_txn_commit(t));
	done(s, "pieces");
}

/* A piece written by format 8, which kept no rule, reads as ORR's with
 * no smallest, and is modified so. */
static void
test_pieces_format8(void)
{
	struct ar_answer a;
	struct ar_request rq;
	struct ar_resv r;
	ar_store *s = store("pieces8", 4, NULL);
	ar_txn *t;

	OK(ar_txn_begin(s, AR_WRITE, T0, &t));
	rq = request(T0 + 90 * MIN, 30 * MIN, 4);
	OK(ar_add(t, &rq, &a));                         /* 1 */
	rq = request(T0 + HOUR, HOUR, 1);
	rq.latest = T0 + 3 * HOUR;
	rq.split = AR_SPLIT_TARR;
	OK(ar_add(t, &rq, &a));                         /* 2 and 3 */
	CHECK(a.status == AR_GRANTED && a.pieces == 2, "tarr: %u", a.pieces);
	for (uint64_t id = 2; id <= 3; id++) {
		OK(resv_get(t, id, &r));
		CHECK(r.split == AR_SPLIT_TARR, "kept: %u", r.split);
		r.split = 0;                    /* as format 8 wrote it */
		OK(resv_put(t, &r));
		OK(ar_get(t, id, &r));
		CHECK(r.split == AR_SPLIT_ORR && r.smallest == 0,
		    "format 8 reads as ORR: %u", r.split);
	}
	CHECK(violations(t) == 0, "ar_check with format 8 pieces");
	/* ORR's: one interval, [02:00, 03:00). */
	rq.split = 0;
	OK(ar_modify(t, 3, 1000, &rq, &a));
	CHECK(a.status == AR_GRANTED && a.pieces == 0 && a.id == 4 &&
	    a.start == T0 + 2 * HOUR, "as ORR: %d %u", a.status, a.pieces);
	CHECK(violations(t) == 0, "ar_check after");
	OK(ar_txn_commit(t));
	done(s, "pieces8");
}

int
main(int argc, char **argv)
{
	suite_memory(argc, argv);
	if (suite_begin() != 0)
		return 1;
	test_shape();
	test_running();
	test_moves();
	test_classes();
	test_hosts();
	test_check_kept();
	test_pieces();
	test_pieces_format8();
	return suite_end();
}
