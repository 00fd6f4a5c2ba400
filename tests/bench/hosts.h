/*
 * hosts.h - the host model's design study (issue 23, phase 1): in-memory
 * prototypes of admission that is exact with respect to hosts, what they
 * share, and the harness that replays the traces through them
 * (hostbench.c) and checks them (tests/test_hosts.c).
 *
 * Every prototype answers the bench's three calls (search at a start,
 * suggest the first start in a range, add at a start) for a request of
 * nodes over slots, optionally of a partition, with features, or naming
 * its hosts; keeps what it grants; moves its clock (what ended goes,
 * what started keeps its hosts from then on); and can say which hosts
 * each reservation of its plan holds now, so that a checker can see
 * that no host is held twice at once.  The designs:
 *
 *   sweep    today's library: a count ring, and while a reservation
 *            naming hosts is in the plan (or, here, the cluster has
 *            several pools) a sweep of the whole plan onto the hosts for
 *            every call (lib/map.c), replicated to grant what it grants
 *   pools    design A: a count ring per pool of like hosts; a host named
 *            by a reservation leaves its pool, from the clock until its
 *            last named or explicit use ends ("tracked"), and its free
 *            time is handed out explicitly; the sweep as the fallback
 *   profile  design B: de Assuncao's availability profile, explicit
 *            hosts for every reservation, steps of free hosts over time
 *   bitmap   design C: a count ring, and per-slot bitmaps of busy hosts
 *            while hosts are named or pools are several; the sweep as the
 *            fallback
 *
 * Hosts are bits of a 64-bit word: the traces' clusters have 64 nodes
 * (bench.h's NODES), the brute force's a few.
 */
#ifndef HOSTS_H
#define HOSTS_H

#include <stddef.h>
#include <stdint.h>

#include "bench.h"

typedef uint64_t hmask;                 /* a set of hosts, a bit each */
#define HMAX 64                         /* hosts a prototype holds */
#define PARTS_MAX 8
#define POOLS_MAX 16

/* How hosts are chosen among those that would do. */
enum hfit { HF_FIRST, HF_BEST, HF_WORST, NFITS };
extern const char *const fit_name[NFITS];

/*
 * A cluster: each host's partition and features (bits), each
 * partition's borrowing policy (the partitions its requests may use
 * beyond its own, in the order they are tried), and the pools, the hosts
 * grouped by partition and features: within a pool any host serves as
 * well as another.
 */
struct cluster {
	uint32_t nhosts, nparts, npools;
	uint8_t part[HMAX];
	uint32_t feat[HMAX];
	uint8_t pool_of[HMAX];
	hmask in_part[PARTS_MAX];
	uint8_t order[PARTS_MAX][PARTS_MAX];    /* own first, then borrowed */
	uint32_t norder[PARTS_MAX];
	hmask pool[POOLS_MAX];
	uint8_t pool_part[POOLS_MAX];
	uint32_t pool_feat[POOLS_MAX];
	const char *desc;       /* as an operator would write it */
};

/* The host description of the rows: 64 hosts in one partition, or in
 * four with features and borrowing (hostlib.c says which). */
void cluster_plain(struct cluster *c, uint32_t nhosts);
void cluster_parts(struct cluster *c);
/* Pools made from the hosts' partitions and features, and the masks. */
void cluster_finish(struct cluster *c);

/* A request as the prototypes see it: slots, not seconds. */
struct hreq {
	int64_t s, len;         /* start slot, length in slots */
	uint32_t n;             /* nodes */
	uint8_t part;           /* partition asked (0, the default) */
	uint32_t feat;          /* features it needs, all of them */
	hmask named;            /* the hosts it names (n of them), or 0 */
};

/* The hosts that may serve q, and of those its own partition's. */
hmask hreq_eligible(const struct cluster *c, const struct hreq *q);
hmask hreq_own(const struct cluster *c, const struct hreq *q);

/* --- hosts as bits ------------------------------------------------------ */

uint32_t hcount(hmask m);
/* Runs of consecutive hosts in m: the fragments of a reservation. */
uint32_t hruns(hmask m);
/* k hosts of avail by fit, taken from pref first; 0 if fewer. */
int hchoose(hmask avail, hmask pref, uint32_t k, enum hfit fit, hmask *out);

/* --- a count ring in memory (GarQ's, with a capacity of one's own) ----- */

struct hring {
	uint32_t *used;
	int64_t m, base;        /* buckets; the first slot it holds */
};

int hring_init(struct hring *r, int64_t m, int64_t base);
void hring_free(struct hring *r);
void hring_clock(struct hring *r, int64_t base);
/* The most in use in a slot of [s, e); slots before base are past. */
uint32_t hring_max(const struct hring *r, int64_t s, int64_t e);
void hring_add(struct hring *r, int64_t s, int64_t e, int32_t delta);
/* The first start in [s, hi] where every slot of len has at most limit
 * in use, or -1. */
int64_t hring_first(const struct hring *r, int64_t s, int64_t hi,
    int64_t len, uint32_t limit);

/* --- the sweep (lib/map.c's, on bits) ------------------------------------ */

/*
 * One reservation (or one part of one) as the sweep maps it: taken in
 * order of start, the fixed first, then by id (the request asked about
 * has id 0), each gets hosts free at its start from among those it may
 * have; a fixed one its own or the sweep fails.  With keepoff, as in
 * lib/map.c, one that is not fixed also keeps off the hosts of fixed
 * ones that start while it runs.
 */
struct sitem {
	int64_t s, e;
	uint64_t id;
	uint32_t n;
	int fixed;
	hmask want;             /* fixed: its hosts; else what it had, or 0 */
	hmask allow;            /* not fixed: the hosts it may have */
	hmask pref;             /* ... those it takes first */
	hmask got;              /* what the sweep gave it */
	size_t ref;             /* the caller's: which reservation */
};

struct sweeper {
	struct sitem **order, **heap, **fixed;
	size_t cap;
	uint64_t items;         /* items swept, all calls */
};

int sitem_cmp(const void *a, const void *b);
/* Sweep it[0 .. n) (in sitem_cmp order) with extra (NULL, or one item
 * merged in at its place) onto all: 0 and *failed NULL if every item got
 * hosts, else *failed is the first that got none; -1 without memory. */
int sweep_run(struct sweeper *sw, struct sitem *it, size_t n,
    struct sitem *extra, hmask all, enum hfit fit, int keepoff,
    struct sitem **failed);
void sweeper_free(struct sweeper *sw);

/* --- the plan as the harness keeps it ------------------------------------ */

/* What a design says of one reservation of its plan: its hosts now. */
struct held {
	uint64_t id;
	int64_t s, e;
	hmask hosts;
};
typedef int (*held_fn)(const struct held *h, void *arg);

/* Counts a design keeps of what it did, for the tables. */
struct hcounts {
	uint64_t sweeps;        /* whole-plan sweeps */
	uint64_t fallbacks;     /* the fast check refused where the counts
				   allowed: the sweep was asked */
	uint64_t rescued;       /* ... and it mapped */
	uint64_t explicit_;     /* grants given hosts outside a pool */
	uint64_t rebuilds;      /* the state rebuilt from a sweep */
	uint64_t covers;        /* pool reservations moved onto a host a
				   named one took */
	uint64_t displaced;     /* maintenance that won: reservations it
				   left without hosts */
	uint64_t tracked_sum, tracked_n;        /* tracked hosts, sampled */
};

/* A design's instance.  Slots throughout; now is the clock's slot. */
struct hd {
	const struct hdesign *ops;
	const struct cluster *c;
	enum hfit fit;
	int64_t now, m;         /* the clock's slot; the horizon in slots */
	struct hcounts k;
	void *impl;
};

struct hdesign {
	const char *name;
	int (*make)(struct hd *d);
	void (*destroy)(struct hd *d);
	/* The clock moved to d->now: what ended goes, what started keeps
	 * its hosts. */
	int (*clock)(struct hd *d);
	/* FIT, FULL or BEYOND (bench.h) at q->s. */
	int (*search)(struct hd *d, const struct hreq *q, enum fit *f);
	/* The first start in [q->s, hi] where q is granted, or -1. */
	int (*suggest)(struct hd *d, const struct hreq *q, int64_t hi,
	    int64_t *start);
	/* Grant q at q->s as reservation id, if it fits (*granted). */
	int (*add)(struct hd *d, const struct hreq *q, uint64_t id,
	    int *granted);
	/* Maintenance that wins: q named, at q->s, granted whatever holds
	 * its hosts; those of its reservations that keep their times on
	 * other hosts are moved, the rest are taken out of the plan and
	 * told to fn (their ids).  NULL: the design does not do it. */
	int (*force)(struct hd *d, const struct hreq *q, uint64_t id,
	    int (*fn)(uint64_t id, void *arg), void *arg);
	/* Every reservation of the plan (ending after the clock) with the
	 * hosts it holds now: for a design that maps lazily, a mapping,
	 * which fixes the hosts of those that have started. */
	int (*plan)(struct hd *d, held_fn fn, void *arg);
	size_t (*bytes)(const struct hd *d);
};

extern const struct hdesign sweep_design, pools_design, pools_holes_design,
    profile_design, bitmap_design;

/* Make and destroy an instance of ops over c, its clock at slot now. */
int hd_make(struct hd *d, const struct hdesign *ops, const struct cluster *c,
    enum hfit fit, int64_t now, int64_t m);
void hd_destroy(struct hd *d);

/* --- free time frames and scheduling options ----------------------------- */

/* Hosts busy in each slot of [from, from + n): a plan laid out. */
struct occupancy {
	int64_t from, n;
	hmask *busy;
};

int occupancy_build(struct occupancy *o, struct hd *d, int64_t from,
    int64_t n);
void occupancy_free(struct occupancy *o);

/* A free time frame: hosts free from s to e, the same all along. */
struct frame {
	int64_t s, e;
	hmask hosts;
};

/* The free time frames of the hosts of scope, from o->from: the longest
 * stretches over which the same hosts of scope are free, none empty, so
 * no two overlap; at most max; how many. */
size_t frames(const struct occupancy *o, hmask scope, struct frame *out,
    size_t max);

/* A scheduling option: a start, the hosts free over the whole request
 * from it, and the n of them fit takes. */
struct option {
	int64_t s;
	hmask free;
	hmask hosts;
};

/* Up to k options for q (its n, len, eligibility) from q->s to hi: each
 * start where the eligible hosts free over the whole request are others
 * than from the start before, and at least q->n; how many. */
size_t options(const struct occupancy *o, const struct cluster *c,
    const struct hreq *q, int64_t hi, enum hfit fit, struct option *out,
    size_t k);

/* --- the check of a plan ---------------------------------------------------- */

/*
 * What was granted, by id, as the harness saw it (not as a design keeps
 * it): a design's plan is checked against it.  Every reservation ending
 * after the clock must be in the plan, with its interval, as many hosts
 * as it asked, of those it may have (its named ones if it named them),
 * none held by another reservation in a slot both hold; one that has
 * started holds the hosts it held when first seen started.
 */
struct ledger {
	struct lentry {
		struct hreq q;
		hmask started;          /* its hosts, once seen started */
		int live;               /* granted, not taken out */
	} *e;
	size_t n, cap;          /* e[id - 1] */
	uint64_t violations;
	char first[256];        /* the first, said */
};

int ledger_grant(struct ledger *l, uint64_t id, const struct hreq *q);
void ledger_drop(struct ledger *l, uint64_t id);
void ledger_free(struct ledger *l);
/* Check d's plan (a mapping, for a design that maps lazily); count its
 * reservations and their runs of hosts.  The check's failures are
 * counted in l; 0, or an error of the design's. */
int ledger_check(struct ledger *l, struct hd *d, int started_kept,
    uint64_t *resv, uint64_t *runs);

/* --- the brute force on small plans (hostbrute.c) ------------------------------ */

/* One reservation of a plan for the exhaustive search: its hosts fixed,
 * or n of those it may have. */
struct bitem {
	int64_t s, e;
	uint32_t n;
	hmask allow, fixed;
};

/* Is there an assignment of hosts to every item, none held twice at
 * once?  1, 0, -1 when the search ran out of budget, -2 without memory;
 * it reorders it. */
int feasible(struct bitem *it, size_t n, uint32_t nhosts);

/* The scenarios: nothing named; some requests naming hosts; a cluster
 * of two partitions with features and borrowing. */
enum { BR_PLAIN, BR_PINS, BR_PARTS, NBR };

struct brute {
	uint64_t asked, granted, refused;
	uint64_t feasible;      /* refused, yet an assignment exists */
	uint64_t undecided;     /* ... the search ran out of budget */
	uint64_t violations;    /* grants the check found not exact */
	char first[256];
};

void cluster_small(struct cluster *c, int parts);
/* Run runs scenarios of kind through ops (seeded), every refusal asked
 * of the exhaustive search; 0 or an error. */
int brute_scenarios(const struct hdesign *ops, enum hfit fit, int kind,
    unsigned runs, uint64_t seed, struct brute *out);

/* --- what the designs share beyond the above ------------------------------ */

/* Add item to a growing array of elements of size sz. */
void *grow(void **a, size_t *n, size_t *cap, size_t sz);

#endif
