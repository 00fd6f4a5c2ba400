/*
 * model.h - a brute-force model of a small store: nodes in use per slot
 * and the live reservations, kept by the obvious loops.  The model test
 * (tests/test_lib.c) drives it with seeded random choices, the model
 * fuzzer (fuzz/fuzz_model.c) with the fuzzer's bytes; both compare every
 * answer of the store with the model's.
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

struct model {
	uint32_t used[M_SPAN];
	struct {
		uint64_t id;
		int64_t start, len, need;
		uint32_t owner;
		int live;
	} resv[M_RESV];
	int nresv;
	struct {                /* a client key and the request that took it */
		uint32_t owner;
		char name[24];  /* "k<epoch>.<n>": 4 names per owner an epoch */
		int64_t epoch;
		uint32_t nodes, jobs;
		int64_t duration;
		int first;      /* its copies: resv[first .. first + jobs) */
	} keys[M_KEYS];
	int nkeys;
	uint64_t (*pick)(void *, uint64_t);     /* a choice in [0, n) */
	void *arg;
	uint64_t ops, checks, mismatches;
};

/* The store configuration the model stands for. */
void model_config(struct ar_config *cfg);

/* A model of an empty store; choices come from pick(arg, n).  NULL if
 * memory ran out. */
struct model *model_new(uint64_t (*pick)(void *, uint64_t), void *arg);

/* One random operation (add, search, suggest or cancel) in t at now,
 * compared with the model; mismatches are counted and told on stderr.
 * Some adds carry a client key: a new one, one taken before by the same
 * request (a retry, replayed) or by another (refused). */
void model_op(struct model *m, ar_txn *t, int64_t now);

/* Every slot of the ring's window, and the invariant check, compared. */
void model_compare(struct model *m, ar_txn *t, int64_t now);

#endif
