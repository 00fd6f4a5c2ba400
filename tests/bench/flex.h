/*
 * flex.h - the workload generator of Umar's thesis (section 6.2), shared
 * by argen (which prints it) and by flexbench and rmbench (which replay
 * it in-process).  See argen.c; flexrun.c has what the replays share.
 */
#ifndef FLEX_H
#define FLEX_H

#include <stddef.h>
#include <stdint.h>

#define FLEX_SLOT 300           /* seconds: the thesis's 5-minute slot */

/* The ranges a request's values are drawn from, uniformly, in slots. */
struct flex_shape {
	const char *name;       /* "parametric" or "MPI" */
	int64_t exec_min, exec_max;     /* execution time */
	int64_t ahead_max;      /* book-ahead: earliest = arrival + [0, this] */
	int64_t relax_max;      /* a flexible request: latest = earliest +
	                         * [1, this] */
	uint32_t nodes_min, nodes_max;  /* nodes per job */
	uint32_t jobs_min, jobs_max;    /* independent jobs (copies) */
};

extern const struct flex_shape flex_parametric;        /* section 6.4 */
extern const struct flex_shape flex_mpi;               /* section 6.5 */

/* One request, times absolute (seconds since the epoch). */
struct flex_req {
	int64_t arrival;        /* start of the slot it arrives in */
	int64_t earliest;
	int64_t latest;         /* == earliest for a rigid request */
	int64_t duration;       /* seconds, whole slots */
	uint32_t nodes, jobs;
	uint64_t k;             /* 1, 2, ...: labelled user=uK job=K */
};

/* A generator's parameters and state. */
struct flex_gen {
	const struct flex_shape *shape;
	double rate;            /* mean arrivals per slot (Poisson) */
	unsigned flexible;      /* percent of requests with a window */
	int64_t slots;          /* slots of arrivals */
	int64_t start;          /* epoch of slot 0 */
	uint64_t rng;           /* xorshift64* state */
	int64_t t;              /* the slot being generated */
	uint64_t left;          /* arrivals still to come in slot t */
	uint64_t k;             /* requests generated so far */
};

#define FLEX_RATE_MAX 100.0

/* Start a generator: rate in (0, FLEX_RATE_MAX], flexible <= 100. */
void flex_init(struct flex_gen *g, const struct flex_shape *shape,
    double rate, unsigned flexible, int64_t slots, uint64_t seed,
    int64_t start);

/* The next request, in order of arrival: 1, or 0 when there are no more. */
int flex_next(struct flex_gen *g, struct flex_req *r);

/* flexrun.c.  Make a scratch directory under TMPDIR (else /tmp),
 * removed at exit and on SIGINT, SIGTERM, SIGPIPE and SIGHUP with the
 * store in it, and return the store's path there; prog names the
 * program in messages. */
const char *flex_scratch(const char *prog);

/* Remove the scratch store, so that the next run creates it afresh. */
void flex_scratch_remove(void);

/* Say "prog: what: error" on stderr and exit 1. */
void flex_die(const char *what, int rc);

/* All the requests of g into *rq, an array of *cap grown as needed (a
 * failing allocation exits); how many. */
size_t flex_generate(struct flex_gen *g, struct flex_req **rq, size_t *cap);

/* "jobs 1-5, nodes 1, slots 5-48, book-ahead 0-48, relax 1-24" into buf
 * of FLEX_DESCRIBE_MAX bytes; buf. */
#define FLEX_DESCRIBE_MAX 160
const char *flex_describe(char *buf, const struct flex_shape *sh);

/* Read --slots (least .. most) and --seed into *slots and *seed; -1
 * after a message on bad usage. */
int flex_options(int argc, char **argv, const char *name, uint64_t least,
    uint64_t most, uint64_t *slots, uint64_t *seed);

#endif
