/*
 * argen - the workload generator of Umar's thesis (section 6.2): per
 * 5-minute slot a Poisson number of arrivals; each request arriving in
 * slot t may start from t + U[0, book-ahead], runs U[a, b] slots, and a
 * flexible one (PCT% of them, chosen at random) may start as late as its
 * earliest start + U[1, relax].  Parametric requests (section 6.4) are
 * U[1, 5] independent jobs of one node each; MPI requests (section 6.5)
 * one job of U[1, 5] nodes.
 *
 * Prints one record per line for ar-add, times absolute, with the
 * request's arrival as an extra field.  The same seed gives the same
 * bytes; nothing comes from the clock.  Every request draws all its
 * values, used or not, so runs that differ only in --flexible see the
 * same arrivals, starts and lengths, and the flexible ones of a smaller
 * PCT are among those of a larger one.
 *
 * Built with -DARGEN_LIB, only the generator: flexbench links it.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "flex.h"

const struct flex_shape flex_parametric = {
	"parametric", 5, 48, 48, 24, 1, 1, 1, 5
};

const struct flex_shape flex_mpi = {
	"MPI", 5, 15, 24, 12, 1, 5, 1, 1
};

/* xorshift64*, seeded through splitmix64 so that any seed will do. */
static uint64_t
rnd(struct flex_gen *g)
{
	g->rng ^= g->rng >> 12;
	g->rng ^= g->rng << 25;
	g->rng ^= g->rng >> 27;
	return g->rng * 0x2545f4914f6cdd1dULL;
}

/* Uniform in [lo, hi]. */
static int64_t
uniform(struct flex_gen *g, int64_t lo, int64_t hi)
{
	return lo + (int64_t)(rnd(g) % (uint64_t)(hi - lo + 1));
}

/* Knuth's Poisson sampler: multiply uniforms until below e^-rate. */
static uint64_t
poisson(struct flex_gen *g)
{
	double limit = exp(-g->rate), p = 1.0;
	uint64_t k = 0;

	do {
		k++;
		p *= (double)(rnd(g) >> 11) * 0x1p-53;
	} while (p > limit);
	return k - 1;
}

void
flex_init(struct flex_gen *g, const struct flex_shape *shape, double rate,
    unsigned flexible, int64_t slots, uint64_t seed, int64_t start)
{
	uint64_t z = seed + 0x9e3779b97f4a7c15ULL;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	g->shape = shape;
	g->rate = rate;
	g->flexible = flexible;
	g->slots = slots;
	g->start = start;
	g->rng = z != 0 ? z : 0x9e3779b97f4a7c15ULL;
	g->t = -1;
	g->left = 0;
	g->k = 0;
}

int
flex_next(struct flex_gen *g, struct flex_req *r)
{
	const struct flex_shape *sh = g->shape;
	int64_t ahead, exec, relax;
	int flexible;

	while (g->left == 0) {
		if (g->t + 1 >= g->slots)
			return 0;
		g->t++;
		g->left = poisson(g);
	}
	g->left--;
	/* Always the same draws, in the same order. */
	flexible = (unsigned)uniform(g, 0, 99) < g->flexible;
	ahead = uniform(g, 0, sh->ahead_max);
	exec = uniform(g, sh->exec_min, sh->exec_max);
	relax = uniform(g, 1, sh->relax_max);
	r->nodes = (uint32_t)uniform(g, sh->nodes_min, sh->nodes_max);
	r->jobs = (uint32_t)uniform(g, sh->jobs_min, sh->jobs_max);
	r->arrival = g->start + g->t * FLEX_SLOT;
	r->earliest = r->arrival + ahead * FLEX_SLOT;
	r->latest = r->earliest + (flexible ? relax * FLEX_SLOT : 0);
	r->duration = exec * FLEX_SLOT;
	r->k = ++g->k;
	return 1;
}

#ifndef ARGEN_LIB

#include "format.h"

#define T0 ((int64_t)1795219200)         /* 2026-11-21T00:00:00Z */

static int
uint_opt(const char *name, const char *arg, uint64_t min, uint64_t max,
    uint64_t *v)
{
	char err[AR_ERRMAX];

	if (ar_uint_parse(arg, min, max, v, err) == 0)
		return 0;
	fprintf(stderr, "argen: option '--%s': %s\n", name, err);
	return -1;
}

static int
rate_opt(const char *arg, double *rate)
{
	char *end;

	errno = 0;
	*rate = strtod(arg, &end);
	if (errno == 0 && end != arg && *end == '\0' && *rate > 0 &&
	    *rate <= FLEX_RATE_MAX)
		return 0;
	fprintf(stderr, "argen: option '--rate': must be a number above 0 "
	    "and at most %g\n", FLEX_RATE_MAX);
	return -1;
}

static void
usage(void)
{
	fprintf(stderr,
	    "usage: argen [--parametric | --mpi] [--rate R] [--flexible PCT] "
	    "[--slots N]\n"
	    "             [--seed N] [--start TIME]\n"
	    "  --parametric  U[1,5] jobs of 1 node, 5-48 slots, book-ahead "
	    "0-48, relax 1-24\n"
	    "                (the default)\n"
	    "  --mpi         1 job of U[1,5] nodes, 5-15 slots, book-ahead "
	    "0-24, relax 1-12\n"
	    "  --rate R      mean arrivals per 5-minute slot, Poisson "
	    "(default 2)\n"
	    "  --flexible P  percent of requests with a start window "
	    "(default 50)\n"
	    "  --slots N     slots of arrivals (default 2016, one week)\n"
	    "  --seed N      (default 1)\n"
	    "  --start TIME  slot 0 (default 2026-11-21T00:00:00Z)\n");
}

int
main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "parametric", no_argument, NULL, 'p' },
		{ "mpi", no_argument, NULL, 'm' },
		{ "rate", required_argument, NULL, 'r' },
		{ "flexible", required_argument, NULL, 'f' },
		{ "slots", required_argument, NULL, 'n' },
		{ "seed", required_argument, NULL, 's' },
		{ "start", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const struct flex_shape *shape = &flex_parametric;
	struct flex_gen g;
	struct flex_req r;
	char err[AR_ERRMAX];
	double rate = 2;
	uint64_t flexible = 50, slots = 2016, seed = 1;
	int64_t start = T0;
	int opt;

	while ((opt = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		switch (opt) {
		case 'p':
			shape = &flex_parametric;
			break;
		case 'm':
			shape = &flex_mpi;
			break;
		case 'r':
			if (rate_opt(optarg, &rate))
				return 2;
			break;
		case 'f':
			if (uint_opt("flexible", optarg, 0, 100, &flexible))
				return 2;
			break;
		case 'n':
			if (uint_opt("slots", optarg, 1, 10000000, &slots))
				return 2;
			break;
		case 's':
			if (uint_opt("seed", optarg, 0, UINT64_MAX, &seed))
				return 2;
			break;
		case 't':
			if (ar_time_parse(optarg, T0, &start, err) != 0) {
				fprintf(stderr, "argen: option '--start': %s\n",
				    err);
				return 2;
			}
			break;
		case 'h':
			usage();
			return 0;
		default:
			usage();
			return 2;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "argen: unexpected argument '%s'\n",
		    argv[optind]);
		usage();
		return 2;
	}
	flex_init(&g, shape, rate, (unsigned)flexible, (int64_t)slots, seed,
	    start);
	while (flex_next(&g, &r))
		printf("earliest=@%" PRId64 " latest=@%" PRId64 " duration=%"
		    PRId64 "s nodes=%" PRIu32 " jobs=%" PRIu32 " user=u%" PRIu64
		    " job=%" PRIu64 " arrival=@%" PRId64 "\n", r.earliest,
		    r.latest, r.duration, r.nodes, r.jobs, r.k, r.k, r.arrival);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		perror("argen: standard output");
		return 3;
	}
	return 0;
}

#endif
