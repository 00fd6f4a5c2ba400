/*
 * test_lib.c - unit tests of the store and a model test: thousands of
 * random operations checked against a brute-force count of every slot,
 * across many laps of the ring.  Seeded explicitly; never the clock.
 */
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ar.h"

static int passed, failed;

#define CHECK(cond, ...) do { \
	if (cond) \
		passed++; \
	else { \
		failed++; \
		fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
		fprintf(stderr, __VA_ARGS__); \
		fputc('\n', stderr); \
	} \
} while (0)

#define OK(call) do { \
	int rc_ = (call); \
	CHECK(rc_ == 0, "%s: %s", #call, ar_strerror(rc_)); \
} while (0)

static char tmproot[] = "/tmp/ar-test-XXXXXX";

/* A store directory under tmproot; each name gets its own buffer. */
#define store_path(name) store_path_in((char[256]){ 0 }, (name))

static const char *
store_path_in(char *path, const char *name)
{
	snprintf(path, 256, "%s/%s", tmproot, name);
	return path;
}

static void
rm_store(const char *dir)
{
	char path[300];

	snprintf(path, sizeof(path), "%s/data.mdb", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/lock.mdb", dir);
	unlink(path);
	rmdir(dir);
}

/* xorshift64*: a seeded generator, the same sequence on every machine. */
static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint64_t
rnd(uint64_t n)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return (rng * 0x2545f4914f6cdd1dULL) % n;
}

#define T0 ((int64_t)1795219200)         /* 2026-11-21T00:00:00Z */

static struct ar_request
request(int64_t start, int64_t duration, uint32_t nodes)
{
	struct ar_request rq = { start, start, duration, nodes, 1, 1000,
	    NULL, NULL, 0 };

	return rq;
}

static void
test_create_open(void)
{
	struct ar_config cfg;
	struct ar_info info;
	struct stat st;
	ar_store *s;
	ar_txn *t;
	const char *dir = store_path("open");

	ar_config_default(&cfg);
	CHECK(ar_open(dir, 0, &s) == AR_ENOSTORE, "missing store opens");
	CHECK(stat(dir, &st) == -1 && errno == ENOENT,
	    "opening a missing store created something");
	OK(ar_create(dir, &cfg, T0));
	OK(ar_create(dir, &cfg, T0));
	cfg.nodes = 65;
	CHECK(ar_create(dir, &cfg, T0) == AR_EEXIST, "other config accepted");
	cfg.nodes = 64;
	cfg.slot = 7 * 60;
	CHECK(ar_create(store_path("bad"), &cfg, T0) == EINVAL,
	    "slot that does not divide the horizon accepted");
	cfg.slot = 300;
	cfg.nodes = 0;
	CHECK(ar_create(store_path("bad"), &cfg, T0) == EINVAL,
	    "zero nodes accepted");
	OK(ar_open(dir, AR_RDONLY, &s));
	OK(ar_txn_begin(s, 0, T0 - 3600, &t));
	OK(ar_info(t, &info));
	CHECK(info.config.nodes == 64 && info.config.slot == 300 &&
	    info.config.horizon == 30 * 86400 && info.next_id == 1 &&
	    info.clock == T0 && info.format == AR_FORMAT_VERSION,
	    "info of a new store");
	ar_txn_abort(t);
	CHECK(ar_txn_begin(s, AR_WRITE, T0, &t) == EACCES,
	    "write transaction on a read-only handle");
	ar_close(s);
	rm_store(dir);
}

static void
test_basic(void)
{
	struct ar_config cfg;
	struct ar_answer a, alts[4];
	struct ar_request rq;
	struct ar_resv r;
	uint64_t bad, ids[4];
	size_t n;
	uint32_t nfree;
	ar_store *s;
	ar_txn *t;
	const char *dir = store_path("basic");

	ar_config_default(&cfg);
	cfg.nodes = 10;
	OK(ar_create(dir, &cfg, T0));
	OK(ar_open(dir, 0, &s));
	OK(ar_txn_begin(s, AR_WRITE, T0, &t));

	/* Rounding: 00:03 starts at 00:05, 7 minutes take two slots. */
	rq = request(T0 + 180, 420, 4);
	rq.user = "alice";
	rq.job = "j1";
	OK(ar_add(t, &rq, &a));
	CHECK(a.status == AR_GRANTED && a.id == 1 && a.start == T0 + 300 &&
	    a.end == T0 + 900 && a.free == 10, "rounded grant");
	/* Half-open: a reservation may start where the other ends. */
	rq = request(T0 + 900, 300, 10);
	OK(ar_add(t, &rq, &a));
	CHECK(a.status == AR_GRANTED && a.id == 2, "back to back");
	rq = request(T0 + 600, 300, 7);
	OK(ar_add(t, &rq, &a));
	CHECK(a.status == AR_REFUSED && a.reason == AR_R_FULL && a.free == 6,
	    "overbooking refused: status %d free %u", a.status, a.free);
	rq = request(T0 - 1, 300, 1);
	OK(ar_add(t, &rq, &a));
	CHECK(a.status == AR_REFUSED && a.reason == AR_R_PAST, "past");
	rq = request(T0 + 30 * 86400 - 300, 600, 1);
	OK(ar_add(t, &rq, &a));
	CHECK(a.status == AR_REFUSED && a.reason == AR_R_HORIZON, "horizon");
	rq = request(T0 + 30 * 86400 - 300, 300, 1);
	OK(ar_add(t, &rq, &a));
	CHECK(a.status == AR_GRANTED, "last slot of the horizon");
	rq = request(T0, 300, 11);
	OK(ar_add(t, &rq, &a));
	CHECK(a.status == AR_REFUSED && a.reason == AR_R_CAPACITY, "capacity");
	rq = request(T0, 0, 1);
	CHECK(ar_add(t, &rq, &a) == EINVAL, "zero duration");

	/* Search and suggest see the same ring. */
	rq = request(T0 + 300, 900, 7);
	OK(ar_search(t, &rq, &a));
	CHECK(a.status == AR_UNAVAILABLE && a.free == 0, "search full");
	OK(ar_suggest(t, &rq, 12 * 3600, alts, 4, &n));
	CHECK(n == 1 && alts[0].start == T0 + 1200, "suggest after the full "
	    "slot: n %zu start %" PRId64, n, alts[0].start - T0);
	OK(ar_free(t, T0 + 300, T0 + 600, &nfree));
	CHECK(nfree == 6, "free count");

	/* Windows: first fit inside [earliest, latest]. */
	rq = request(T0 + 300, 300, 8);
	rq.latest = T0 + 1800;
	OK(ar_add(t, &rq, &a));
	CHECK(a.status == AR_GRANTED && a.start == T0 + 1200, "first fit");

	OK(ar_find(t, "alice", "j1", ids, 4, &n));
	CHECK(n == 1 && ids[0] == 1, "find by label");
	CHECK(ar_cancel(t, 1, 1001, &r) == AR_EPERM, "other uid cancels");
	OK(ar_cancel(t, 1, 1000, &r));
	CHECK(r.state == AR_CANCELLED, "cancelled");
	CHECK(ar_cancel(t, 1, 0, &r) == AR_EDONE, "cancel twice");
	CHECK(ar_cancel(t, 99, 0, &r) == AR_ENOTFOUND, "cancel unknown");
	OK(ar_find(t, "alice", "j1", ids, 4, &n));
	CHECK(n == 0, "cancelled reservation still found by label");
	OK(ar_check(t, NULL, NULL, &bad));
	CHECK(bad == 0, "%" PRIu64 " violations", bad);
	OK(ar_txn_commit(t));

	/* Later, everything before the clock is purged into history. */
	OK(ar_txn_begin(s, AR_WRITE, T0 + 3600, &t));
	OK(ar_purge(t, NULL, NULL));
	OK(ar_get(t, 2, &r));
	CHECK(r.state == AR_FINISHED, "purged: state %d", r.state);
	OK(ar_check(t, NULL, NULL, &bad));
	CHECK(bad == 0, "%" PRIu64 " violations after purge", bad);
	OK(ar_txn_commit(t));
	/* The clock never runs back: an earlier now is the store's clock. */
	OK(ar_txn_begin(s, 0, T0, &t));
	CHECK(ar_txn_now(t) == T0 + 3600, "clock ran back");
	ar_txn_abort(t);
	ar_close(s);
	rm_store(dir);
}

/* Fill a small map until it is full: it grows, then refuses cleanly. */
struct filler {
	int count;
	int64_t start;
};

static int
fill(ar_txn *t, void *arg)
{
	struct filler *f = arg;
	struct ar_answer a;
	char label[200];
	int rc;

	memset(label, 'x', sizeof(label) - 1);
	label[sizeof(label) - 1] = '\0';
	for (int i = 0; i < f->count; i++) {
		struct ar_request rq = request(f->start, 300, 1);

		rq.user = label;
		if ((rc = ar_add(t, &rq, &a)) != 0)
			return rc;
	}
	return 0;
}

static void
test_map_full(void)
{
	struct ar_config cfg;
	struct ar_info info;
	struct filler f = { 1000, T0 + 300 };
	uint64_t bad;
	ar_store *s;
	ar_txn *t;
	int rc = 0, rounds = 0;
	const char *dir = store_path("full");

	ar_config_default(&cfg);
	cfg.nodes = 1000000;
	cfg.map_max = 4 << 20;
	OK(ar_create(dir, &cfg, T0));
	OK(ar_open(dir, 0, &s));
	while (rounds < 100 && (rc = ar_write(s, T0, fill, &f)) == 0)
		rounds++;
	CHECK(rc == AR_EFULL, "filling ends with %s", ar_strerror(rc));
	CHECK(rounds >= 2, "the map grew: %d rounds", rounds);
	OK(ar_txn_begin(s, 0, T0, &t));
	OK(ar_info(t, &info));
	CHECK(info.live == (uint64_t)rounds * 1000 && info.map_size == 4 << 20,
	    "what committed stays: %" PRIu64 " live, map %" PRIu64,
	    info.live, info.map_size);
	OK(ar_check(t, NULL, NULL, &bad));
	CHECK(bad == 0, "%" PRIu64 " violations in a full store", bad);
	ar_txn_abort(t);
	ar_close(s);
	rm_store(dir);
}

/*
 * The model: counts per absolute slot, and the live reservations, kept
 * by brute force.  Slot length 60 s, horizon 100 slots, 8 nodes; the
 * clock runs over about 30,000 slots, so the 2-chunk ring wraps many times.
 */
#define M_NODES 8
#define M_SLOT 60
#define M_HORIZON 100
#define M_SPAN 40000

static uint32_t model[M_SPAN];
static struct mresv {
	uint64_t id;
	int64_t start, len, need;
	uint32_t owner;
	int live;
} mresv[20000];
static int nmresv;

static int64_t
up(int64_t t)
{
	return (t + M_SLOT - 1) / M_SLOT;
}

static int
m_fits(int64_t s, int64_t len, int64_t need)
{
	for (int64_t i = s; i < s + len; i++)
		if (model[i] + need > M_NODES)
			return 0;
	return 1;
}

static int64_t
m_least(int64_t s, int64_t len)
{
	uint32_t peak = 0;

	for (int64_t i = s; i < s + len; i++)
		if (model[i] > peak)
			peak = model[i];
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
m_first_fit(int64_t first, int64_t last, int64_t len, int64_t need)
{
	for (int64_t s = first; s <= last; s++)
		if (m_fits(s, len, need))
			return s;
	return -1;
}

static void
m_op(ar_txn *t, int64_t now, uint64_t *ops)
{
	struct ar_request rq;
	struct ar_answer a, alts[3];
	enum ar_reason why;
	int64_t first, last, len, need, s;
	size_t n;
	int op = (int)rnd(10);

	rq = request(now - 120 + (int64_t)rnd((M_HORIZON + 10) * M_SLOT),
	    1 + (int64_t)rnd(25 * M_SLOT), 1 + (uint32_t)rnd(4));
	rq.jobs = 1 + (uint32_t)rnd(2);
	if (rnd(3) == 0)
		rq.latest = rq.earliest + (int64_t)rnd(20 * M_SLOT);
	rq.owner = (uint32_t)rnd(3);
	(*ops)++;
	if (op < 4) {
		const struct ar_placed *g, *mv;
		int64_t starts[2];
		uint32_t j = 0;
		size_t ng, nm;

		/* Copies one by one, first fit, all or none. */
		rq.flags = AR_NOMOVE;
		why = m_span(now, &rq, 0, &first, &last, &len, &need);
		OK(ar_add(t, &rq, &a));
		for (j = 0; why == AR_R_NONE && j < rq.jobs; j++) {
			if ((s = m_first_fit(first, last, len, need)) == -1)
				break;
			starts[j] = s;
			for (int64_t i = s; i < s + len; i++)
				model[i] += (uint32_t)need;
		}
		if (j < rq.jobs)
			while (j-- > 0)
				for (int64_t i = starts[j]; i < starts[j] + len; i++)
					model[i] -= (uint32_t)need;
		ar_added(t, &g, &ng, &mv, &nm);
		CHECK((a.status == AR_GRANTED) == (j == rq.jobs) && nm == 0 &&
		    (a.status != AR_GRANTED || (ng == rq.jobs &&
		    a.start == starts[0] * M_SLOT)),
		    "add at %" PRId64 ": store %d start %" PRId64 ", model %"
		    "u copies", first, a.status, a.start / M_SLOT, j);
		if (a.status != AR_GRANTED)
			CHECK(a.reason == (why ? why : AR_R_FULL),
			    "add reason %d, model %d", a.reason, why);
		else
			for (j = 0; j < ng && j < rq.jobs; j++) {
				CHECK(g[j].start == starts[j] * M_SLOT,
				    "copy %u at %" PRId64 ", model %" PRId64, j,
				    g[j].start / M_SLOT, starts[j]);
				mresv[nmresv++] = (struct mresv){ g[j].id,
				    starts[j], len, need, rq.owner, 1 };
			}
		return;
	}
	why = m_span(now, &rq, 1, &first, &last, &len, &need);
	if (op < 6) {
		OK(ar_search(t, &rq, &a));
		s = why == AR_R_NONE ? m_first_fit(first, last, len, need) : -1;
		CHECK((a.status == AR_AVAILABLE) == (s != -1) &&
		    (s == -1 || (a.start == s * M_SLOT &&
		    a.free == m_least(s, len))),
		    "search: store %d free %u, model start %" PRId64,
		    a.status, a.free, s);
	} else if (op < 8) {
		int64_t limit = (int64_t)rnd(40 * M_SLOT), hi, prev = -2;
		size_t want = 0;
		int64_t expect[3];
		struct ar_request from_now = rq;

		/* Suggest looks from the clock on when the start is past. */
		if (from_now.latest < now)
			from_now.latest = now;
		why = m_span(now, &from_now, 1, &first, &last, &len, &need);
		OK(ar_suggest(t, &rq, limit, alts, 3, &n));
		if (why == AR_R_NONE) {
			hi = first + limit / M_SLOT;
			if (hi < last)
				hi = last;
			if (hi > now / M_SLOT + M_HORIZON - len)
				hi = now / M_SLOT + M_HORIZON - len;
			/* Alternatives start separate runs of fitting starts. */
			for (s = first; s <= hi && want < 3; s++) {
				if (m_fits(s, len, need)) {
					if (prev != s - 1)
						expect[want++] = s;
					prev = s;
				}
			}
		}
		CHECK(n == want, "suggest: %zu alternatives, model %zu", n, want);
		for (size_t i = 0; i < n && i < want; i++)
			CHECK(alts[i].start == expect[i] * M_SLOT,
			    "suggest %zu: %" PRId64 ", model %" PRId64, i,
			    alts[i].start / M_SLOT, expect[i]);
	} else if (nmresv > 0) {
		struct mresv *m = &mresv[rnd((uint64_t)nmresv)];
		struct ar_resv r;
		uint32_t who = (uint32_t)rnd(3);
		int rc = ar_cancel(t, m->id, who, &r);
		int ended = (m->start + m->len) * M_SLOT <= now;

		if (who != 0 && who != m->owner)
			CHECK(rc == AR_EPERM, "cancel by another: %s",
			    ar_strerror(rc));
		else if (!m->live || ended)
			CHECK(rc == AR_EDONE, "cancel done: %s", ar_strerror(rc));
		else {
			CHECK(rc == 0, "cancel: %s", ar_strerror(rc));
			for (int64_t i = now / M_SLOT > m->start ?
			    now / M_SLOT : m->start; i < m->start + m->len; i++)
				model[i] -= (uint32_t)m->need;
			m->live = 0;
		}
	}
}

/* Every slot of the ring's window against the model. */
static void
m_compare(ar_txn *t, int64_t now)
{
	uint64_t bad;

	for (int64_t s = now / M_SLOT; s < now / M_SLOT + M_HORIZON; s++) {
		uint32_t nfree;

		OK(ar_free(t, s * M_SLOT, (s + 1) * M_SLOT, &nfree));
		if (nfree != M_NODES - model[s]) {
			CHECK(0, "slot %" PRId64 ": store %u free, model %u", s,
			    nfree, M_NODES - model[s]);
			break;
		}
	}
	OK(ar_check(t, NULL, NULL, &bad));
	CHECK(bad == 0, "%" PRIu64 " violations", bad);
}

static void
test_model(void)
{
	struct ar_config cfg = { M_NODES, M_SLOT, M_HORIZON * M_SLOT, 1 << 30 };
	int64_t now = 0;
	uint64_t ops = 0;
	ar_store *s;
	ar_txn *t;
	const char *dir = store_path("model");
	int wraps;

	OK(ar_create(dir, &cfg, now));
	OK(ar_open(dir, 0, &s));
	for (int i = 0; i < 7; i++)     /* no MAP_FULL mid-transaction */
		OK(ar_grow(s));
	while (now / M_SLOT < M_SPAN - 2 * M_HORIZON - 30 && nmresv < 19000) {
		OK(ar_txn_begin(s, AR_WRITE, now, &t));
		for (int i = 0, n = 1 + (int)rnd(8); i < n; i++)
			m_op(t, now, &ops);
		if (rnd(20) == 0)
			OK(ar_purge(t, NULL, NULL));
		if (rnd(10) == 0)
			m_compare(t, now);
		OK(ar_txn_commit(t));
		now += (int64_t)rnd(3) == 0 ? (int64_t)rnd(12 * M_SLOT) : 0;
	}
	OK(ar_txn_begin(s, 0, now, &t));
	m_compare(t, now);
	ar_txn_abort(t);
	wraps = (int)(now / M_SLOT / 960 / 2);
	printf("model: %" PRIu64 " operations, %d reservations, clock at slot "
	    "%" PRId64 ", %d laps of the ring\n", ops, nmresv, now / M_SLOT,
	    wraps);
	CHECK(ops > 5000 && wraps >= 5, "model test too short: %" PRIu64
	    " ops, %d laps", ops, wraps);
	ar_close(s);
	rm_store(dir);
}

/*
 * Rearrangement: random flexible requests on a small busy store, moves
 * allowed (FCFS-LRH, then FCFS-EDS).  Whatever moved must have been
 * movable (granted, not started, a window of its own, later only for
 * EDS), every start stays in its window (ar_check), and moves admit at
 * least as many requests as first fit alone on the same sequence.
 */
static uint64_t
rearrange_run(unsigned flags, int *bad_moves)
{
	struct ar_config cfg = { 10, 300, 86400, 1 << 30 };
	uint64_t granted = 0, bad;
	ar_store *s;
	ar_txn *t;
	const char *dir = store_path(flags & AR_NOMOVE ? "nomove" :
	    flags & AR_LATER ? "eds" : "lrh");

	rng = 12345;
	OK(ar_create(dir, &cfg, T0));
	OK(ar_open(dir, 0, &s));
	for (int64_t now = T0; now < T0 + 6 * 3600; now += 300) {
		OK(ar_txn_begin(s, AR_WRITE, now, &t));
		for (int i = 0; i < 3; i++) {
			struct ar_request rq = request(now + 300 *
			    (int64_t)rnd(48), 300 * (1 + (int64_t)rnd(12)),
			    1 + (uint32_t)rnd(4));
			const struct ar_placed *g, *mv;
			struct ar_answer a;
			struct ar_resv r;
			size_t ng, nm;

			if (rnd(4) != 0)
				rq.latest = rq.earliest + 300 * (int64_t)rnd(12);
			rq.jobs = 1 + (uint32_t)rnd(3);
			rq.flags = flags;
			OK(ar_add(t, &rq, &a));
			ar_added(t, &g, &ng, &mv, &nm);
			granted += ng;
			for (size_t m = 0; m < nm; m++) {
				OK(ar_get(t, mv[m].id, &r));
				if (mv[m].from <= now || r.earliest == r.latest ||
				    ((flags & AR_LATER) && mv[m].start < mv[m].from) ||
				    mv[m].start != r.start)
					++*bad_moves;
			}
		}
		OK(ar_check(t, NULL, NULL, &bad));
		CHECK(bad == 0, "%" PRIu64 " violations after rearranging", bad);
		OK(ar_txn_commit(t));
	}
	ar_close(s);
	rm_store(dir);
	return granted;
}

static void
test_rearrange(void)
{
	int bad_moves = 0;
	uint64_t none = rearrange_run(AR_NOMOVE, &bad_moves);
	uint64_t lrh = rearrange_run(0, &bad_moves);
	uint64_t eds = rearrange_run(AR_LATER, &bad_moves);

	printf("rearrange: copies granted: first fit %" PRIu64 ", FCFS-EDS %"
	    PRIu64 ", FCFS-LRH %" PRIu64 "\n", none, eds, lrh);
	CHECK(bad_moves == 0, "%d moves of reservations that may not move",
	    bad_moves);
	CHECK(lrh > none && eds > none, "moving others admitted no more");
}

/*
 * A reader killed inside its transaction leaves its slot in LMDB's lock
 * file; until the slot is cleared, no page freed after its snapshot can
 * be reused and the file grows with every write.  Opening a store clears
 * such slots: after one, churning writes must not grow the file.
 */
static int
churn(ar_txn *t, void *arg)
{
	struct ar_request rq = request(T0 + 3600, 3600, 1);
	struct ar_answer a;
	struct ar_resv r;
	int rc;

	(void)arg;
	rq.user = "churn";
	if ((rc = ar_add(t, &rq, &a)) != 0)
		return rc;
	return ar_cancel(t, a.id, 1000, &r);
}

static off_t
file_size(const char *dir)
{
	char path[300];
	struct stat st;

	snprintf(path, sizeof(path), "%s/data.mdb", dir);
	return stat(path, &st) == 0 ? st.st_size : -1;
}

static void
test_stale_reader(void)
{
	struct ar_config cfg;
	ar_store *s;
	ar_txn *t;
	off_t before, after;
	pid_t pid, holder;
	int st;
	const char *dir = store_path("stale");

	ar_config_default(&cfg);
	OK(ar_create(dir, &cfg, T0));
	OK(ar_open(dir, 0, &s));
	for (int i = 0; i < 50; i++)
		OK(ar_write(s, T0, churn, NULL));
	ar_close(s);
	/* Another process keeps the store open: an opener that found it
	 * unused would reset LMDB's reader table anyway. */
	if ((holder = fork()) == 0) {
		if (ar_open(dir, AR_RDONLY, &s) == 0)
			pause();
		_exit(1);
	}
	usleep(100000);
	if ((pid = fork()) == 0) {
		if (ar_open(dir, AR_RDONLY, &s) == 0 &&
		    ar_txn_begin(s, 0, T0, &t) == 0)
			raise(SIGKILL);
		_exit(1);
	}
	CHECK(waitpid(pid, &st, 0) == pid && WIFSIGNALED(st),
	    "the reader was not killed in its transaction");
	before = file_size(dir);
	OK(ar_open(dir, 0, &s));
	for (int i = 0; i < 300; i++)
		OK(ar_write(s, T0, churn, NULL));
	ar_close(s);
	after = file_size(dir);
	kill(holder, SIGKILL);
	waitpid(holder, &st, 0);
	printf("stale reader: data.mdb %lld bytes before 300 writes, %lld "
	    "after\n", (long long)before, (long long)after);
	CHECK(after - before < 64 * 1024, "the file grew by %lld bytes",
	    (long long)(after - before));
	rm_store(dir);
}

int
main(void)
{
	if (mkdtemp(tmproot) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	test_create_open();
	test_basic();
	test_map_full();
	test_model();
	test_rearrange();
	test_stale_reader();
	rmdir(store_path("bad"));
	rmdir(tmproot);
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}
