/*
 * oracle.h - brute-force answers to seed 004's new kinds of request on
 * small plans, for a test to hold an implementation against: a request
 * split in time into pieces before a deadline (ORR's rule, and TARR's),
 * and a moldable request that accepts several levels (RSPB's).  Each
 * answer is found by trying every candidate, every set of slots or every
 * start, and keeping the best in the rule's order as the comments below
 * write it out; tests/bench/schemes.h has the readings of the seed these
 * orders come from.  The test of tests/bench/plan.c uses it
 * (tests/test_schemes.c); the model test can, once the library has
 * these requests.
 *
 * A plan is used[]: the nodes reserved in each slot, of cap nodes.
 * Times are slots.  What a request may not reach (the past, the
 * horizon) is the caller's to leave out of the window it gives.
 */
#ifndef AR_ORACLE_H
#define AR_ORACLE_H

#include <stdint.h>

#define ORACLE_SPAN_MAX 20      /* slots a split may range over */

/* The slots [start, start + len). */
struct oracle_piece {
	int64_t start, len;
};

/* Which of the sets of slots that would do a split takes. */
enum oracle_order {
	ORACLE_FEWEST,          /* ORR: the fewest pieces, then the earliest
				   end, then the earliest slots */
	ORACLE_EARLIEST         /* TARR: the earliest slots */
};

/*
 * One copy of d slots of n nodes, split: a set of d slots of [s, end)
 * where n nodes are free, its pieces being its runs of consecutive
 * slots, each at least minpiece long (or d long, when d is shorter),
 * and at most maxpieces of them.  "The earliest slots" compares two
 * sets as their slots, in order, compare: the first slot earlier, or
 * the same and the second earlier, and so on.  The pieces of the set
 * order picks go to out[], in time order; returns how many, 0 if no set
 * will do, -1 if end - s > ORACLE_SPAN_MAX.
 */
int oracle_split_one(const uint32_t *used, uint32_t cap, int64_t s,
    int64_t end, int64_t d, uint32_t n, enum oracle_order order,
    int64_t minpiece, int maxpieces, struct oracle_piece *out);

/*
 * copies copies, each as oracle_split_one places it on the plan with the
 * copies before it reserved: all or none.  Returns 1, the copies'
 * nodes reserved in used[], copy c's pieces at out[c * maxpieces ..]
 * and their number in npieces[c]; 0, used[] as it was; -1 as
 * oracle_split_one.
 */
int oracle_split(uint32_t *used, uint32_t cap, int64_t s, int64_t end,
    int64_t d, uint32_t n, uint32_t copies, enum oracle_order order,
    int64_t minpiece, int maxpieces, struct oracle_piece *out,
    int *npieces);

/* A level of a moldable request: copies copies of nodes nodes each. */
struct oracle_level {
	uint32_t nodes, copies;
	int benefit;
};

/*
 * A moldable request of levels lv[0 .. nlv), each copy of d slots in one
 * piece: a level fits if its copies, one after another, each find a
 * start in [s, l] where its nodes are free for d slots, each taking the
 * first such start.  Of the levels that fit, the one of the highest
 * benefit; between equal benefits, the one whose first copy starts
 * first, then the one of more nodes in all, then the first listed.
 * Returns its index, its copies reserved in used[] and their starts in
 * starts[]; -1 if no level fits, used[] as it was.
 */
int oracle_mold(uint32_t *used, uint32_t cap, int64_t s, int64_t l,
    int64_t d, const struct oracle_level *lv, int nlv, int64_t *starts);

#endif
