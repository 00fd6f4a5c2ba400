/*
 * fuzz_model.c - libFuzzer model fuzzer: the input's bytes are the
 * choices of a random sequence of operations (add, search, suggest,
 * cancel, purge, the clock moving on) on a fresh small memory store,
 * removed after each input, and every answer is compared with
 * tests/model.c's brute-force count of every slot.
 * An odd first byte makes it a run with price classes, which change as
 * it goes, and adds that may move others; a first byte of 2 modulo 4 a
 * run on a store of several pools (model_layout: partitions, features,
 * named hosts, maintenance that wins, drains, undrains and hosts
 * added).  Any mismatch aborts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "model.h"

struct bytes {
	const uint8_t *p;
	size_t n;
};

/* A choice in [0, n) from the next bytes; 0 once they run out. */
static uint64_t
pick(void *arg, uint64_t n)
{
	struct bytes *b = arg;
	uint64_t v = 0;

	for (int i = 0; i < 2 && b->n > 0; i++, b->p++, b->n--)
		v = v << 8 | *b->p;
	return n ? v % n : 0;
}

#define STORE "mem:model"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct model *m;
	struct bytes b = { data, size };
	struct ar_config cfg;
	ar_store *s;
	ar_txn *t;
	int64_t now = 0;
	/* Read as a choice too, so that even inputs run as before. */
	int priced = size > 0 && (data[0] & 1), quiet = 0;
	int pooled = size > 0 && (data[0] & 3) == 2;

	model_config(&cfg);
	/* One model, made once and emptied for every input. */
	if (m == NULL && (m = model_new(pick, &b)) == NULL)
		return 0;
	model_reset(m, pick, &b);
	if (pooled)
		model_layout(m, &cfg);
	if (ar_create(STORE, &cfg, now) != 0 || ar_open(STORE, 0, &s) != 0)
		abort();
	while (b.n > 0 && now / M_SLOT < M_SPAN - 2 * M_HORIZON - 30 &&
	    m->nresv < M_RESV - 100) {
		if (ar_txn_begin(s, AR_WRITE, now, &t) != 0)
			abort();
		model_begin(m, t, now);
		/* New classes first in a transaction (see model.h). */
		if (priced && (now == 0 || quiet || pick(&b, 16) == 0))
			model_price(m, t, now);
		for (uint64_t i = 0, n = 1 + pick(&b, 8); i < n; i++)
			model_op(m, t, now);
		if (pick(&b, 8) == 0 && ar_purge(t, NULL, NULL) != 0)
			abort();
		if (ar_txn_commit(t) != 0)
			abort();
		now += (int64_t)pick(&b, 16 * M_SLOT);
		/* A quiet spell: everything ends. */
		if ((quiet = priced && pick(&b, 32) == 0))
			now += M_HORIZON * M_SLOT;
	}
	if (ar_txn_begin(s, 0, now, &t) != 0)
		abort();
	model_compare(m, t, now);
	ar_txn_abort(t);
	ar_close(s);
	if (m->mismatches != 0 || mem_remove(STORE) != 0)
		abort();
	return 0;
}
