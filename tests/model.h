/*
 * model.h - a brute-force model of a small store: nodes in use per slot,
 * in all and per price class, and the live reservations, kept by the
 * obvious loops.  The model test (tests/test_lib.c) drives it with
 * seeded random choices, the model fuzzer (fuzz/fuzz_model.c) with the
 * fuzzer's bytes; both compare every answer of the store with the
 * model's.
 */
#ifndef AR_MODEL_H
#define AR_MODEL_H

#include <stdint.h>

#include "ar.h"

#define M_NODES 8
#define M_SLOT 60
#define M_HORIZON 100           /* slots: the ring has 2 positions */
#define M_SPAN 40000            /* slots the clock may cover */
#define M_RESV 20000
#define M_KEYS 32               /* client keys the model remembers */
#define M_CLASSES 4             /* price classes, at most, in a run with them */

struct model {
	struct {                /* a client key and the request that took it */
		uint32_t owner;
		char name[24];  /* "k<epoch>.<n>": 4 names per owner an epoch */
		int64_t epoch;
		uint32_t nodes, jobs;
		int64_t duration;
		int first;      /* its copies: resv[first .. first + jobs) */
	} keys[M_KEYS];
	int nkeys;
	struct ar_pricing pr;   /* the classes the store should have */
	int priced;             /* a run with classes: they change, and adds
				   move others too */
	/* What a run with classes saw: moves, refusals for a limit, other
	 * numbers of classes refused (EBUSY) and taken. */
	uint64_t moves, limited, busy, renumbered;
	uint64_t modifies;      /* modifies granted */
	uint64_t longest;       /* ar_longest asked */
	uint64_t molds;         /* moldable adds asked */
	uint64_t splits, pieced;        /* split adds asked, and granted
					   in pieces */
	uint64_t remade;        /* split requests modified (a piece's),
				   granted */
	uint64_t extended, unextended;  /* ar_furthest: could grow, or not */
	uint64_t holds, confirms, expiries;     /* granted, confirmed, expired */
	int64_t grace;          /* the store's reclaim policy: its grace in
				   seconds, 0 none (ar_set_reclaim) */
	int64_t policy_at;      /* when it was last set */
	uint64_t reports, reclaims;     /* use reports granted, reclaims */
	/* A run on a store of several pools (model_layout): what it saw.
	 * Adds and searches compared (maintenance apart), adds granted, of
	 * named hosts, maintenance (asked, and what it displaced), named
	 * hosts refused as bad input; answers later or refused where an
	 * arrangement of the plan holds them (the sweep's caution, ar-add(1)
	 * PARTITIONS), maintenance that displaced where an arrangement keeps
	 * all, and answers the brute force could not decide. */
	int pooled;
	uint64_t pool_asked, pool_adds, named, maints, displaced, bad_named;
	uint64_t cautious, overdisplaced, undecided;
	/* ... and drains asked (removals among them), refused, what they
	 * displaced, those that displaced what an arrangement keeps (the
	 * greedy mapping), undrains asked and granted, hosts added. */
	uint64_t drains, removals, drains_refused, drain_displaced;
	uint64_t drain_cautious, undrains, undrained, hosts_added;
	uint64_t (*pick)(void *, uint64_t);     /* a choice in [0, n) */
	void *arg;
	uint64_t ops, checks, mismatches;
	/* Last, what model_reset clears only as far as it was used. */
	int nresv;
	int64_t top;            /* slots [0, top) may have been held */
	struct {
		uint64_t id;
		int64_t start, len, need;       /* slots, nodes */
		int64_t earliest, latest;       /* its window, as asked */
		uint32_t owner;
		uint32_t cls;
		int64_t price;
		int live;
		int64_t expires;        /* a hold: when it expires; else 0 */
		int expired;            /* not live: it expired, not cancelled */
		int confirmed;          /* a hold confirmed */
		enum ar_use used;       /* what it reported (ar_use) */
		int reclaimed;          /* not live: it was reclaimed */
		uint32_t pieces;        /* a piece of a split request: how
					   many, the first at first */
		int first;
		unsigned split;         /* ... its request's rule, and */
		int64_t smallest;       /* smallest piece, as asked */
		uint32_t pool;          /* its pool (ar_layout), in a run
					   on several pools */
		uint64_t named;         /* ... the hosts it named, as bits
					   of their indexes; 0 none */
		uint64_t on;            /* ... its hosts as ar_map told them
					   last */
		int drain;              /* ... a drain of the hosts it names
					   (1), a removal (2): stretched to
					   the horizon's end by every write
					   transaction; 0 neither */
	} resv[M_RESV];         /* in the order granted: ids ascending */
	uint32_t used[M_SPAN];
	uint32_t held[M_CLASSES + 1][M_SPAN];  /* nodes of class c, c >= 1 */
	struct m_pools *pools;  /* the layout and each pool's nodes in use,
				   in a run on several pools (model.c) */
};

/* The store configuration the model stands for. */
void model_config(struct ar_config *cfg);

/* A model of an empty store; choices come from pick(arg, n).  NULL if
 * memory ran out. */
struct model *model_new(uint64_t (*pick)(void *, uint64_t), void *arg);

/* Free m and what it holds. */
void model_free(struct model *m);

/* Make m a model of an empty store again, its choices from pick(arg, n),
 * in a time as short as what it held was: the model fuzzer makes one
 * an input, thousands a second. */
void model_reset(struct model *m, uint64_t (*pick)(void *, uint64_t),
    void *arg);

/*
 * Make the run one on a store of several pools: a random host
 * description (tests/pools.h: partitions of pools with feature sets, a
 * default, borrowing) from m's choices into cfg->layout, which lasts
 * until the next model_layout or model_reset; called before the store
 * is created.  model_op then makes requests of a partition and
 * features, of named hosts of a pool (some bad input), maintenance that
 * wins (AR_FORCE), searches and cancels, and compares each answer
 * (granted or not, start, pool) with the brute force of tests/pools.h,
 * and every host ar_map tells (within the reservation's pool, the named
 * exactly, none twice at once).  Also drains (forced or not, a few
 * removals), undrains and hosts added: what a drain displaces against
 * every arrangement of the plan, the drains ar_drains tells, each
 * stretched as the clock moves, and each reservation's hosts by name
 * as hosts added renumber them.  No classes, holds, series, splits or
 * modifies in such a run.
 */
void model_layout(struct model *m, struct ar_config *cfg);

/*
 * New random price classes, set in write transaction t at now before
 * anything else is done in it (the store loses a cancel's changes to the
 * rings of classes dropped later in the same transaction, so the model
 * never tries that): prices falling, nested limits, book-ahead
 * ranges a random partition of the horizon; the first time 2 to
 * M_CLASSES of them, later now and then another number (0 to
 * M_CLASSES), which the store must refuse while a live reservation has
 * a class.  From the first call on, model_op also changes prices and
 * limits now and then, and some adds may move others.
 */
void model_price(struct model *m, ar_txn *t, int64_t now);

/* A write transaction t began at now: the holds that expired by then
 * are released, and with a reclaim policy the started reservations past
 * their grace that reported no use are reclaimed, in the model too;
 * every drain is stretched to the horizon's end; compared. */
void model_begin(struct model *m, ar_txn *t, int64_t now);

/* One random operation (add, a series, a split request, search, suggest,
 * the longest job from a start, how far a reservation can grow, modify,
 * confirm, a use report, a new reclaim policy or cancel; some adds are
 * holds; in a run with classes, also an add or
 * a modify that may move others, or new prices and limits) in t at now,
 * compared with the model; mismatches
 * are counted and told on stderr.  Some adds carry a client key: a new one, one taken before by
 * the same request (a retry, replayed) or by another (refused). */
void model_op(struct model *m, ar_txn *t, int64_t now);

/* Every slot of the ring's window, in the node ring and in each class's
 * limit ring, and the invariant check, compared. */
void model_compare(struct model *m, ar_txn *t, int64_t now);

#endif
