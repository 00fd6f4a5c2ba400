/*
 * helpers.h - what the tests and the model fuzzer need the same way: a
 * seeded generator and the removal of a scratch store.  Static inline,
 * so a file that uses one of them does not warn about the other.
 */
#ifndef AR_TEST_HELPERS_H
#define AR_TEST_HELPERS_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "mem/mem.h"

/* Stores of PostgreSQL removed so far: part of their names. */
static unsigned pg_round;

/* xorshift64*: a seeded generator, the same sequence on every machine. */
static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static inline uint64_t
rnd(uint64_t n)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return (rng * 0x2545f4914f6cdd1dULL) % n;
}

/* rnd as a choice function, pick(arg, n), for what takes one (the
 * model, random host descriptions). */
static inline uint64_t
pick_rnd(void *arg, uint64_t n)
{
	(void)arg;
	return rnd(n);
}

/* The bits set in x: hosts in a set of at most 64. */
static inline int
popcount(uint64_t x)
{
	int n = 0;

	for (; x != 0; x &= x - 1)
		n++;
	return n;
}

/* Remove the store in dir: its three files, then the directory; or the
 * memory store dir names. */
static inline void
rm_store(const char *dir)
{
	char path[4200];

	if (mem_is_address(dir)) {
		mem_remove(dir);
		return;
	}
	/* A PostgreSQL store stays in its throwaway database: the next
	 * store of that name is another (suite.h). */
	if (strstr(dir, "://") != NULL) {
		pg_round++;
		return;
	}
	snprintf(path, sizeof(path), "%s/data.mdb", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/lock.mdb", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/writer.lock", dir);
	unlink(path);
	rmdir(dir);
}

#endif
