/*
 * schemes.h - seed 004's reservation schemes (Sivakumar and
 * Maruthanayagam: RSPB, ORR, TARR, DRR) and the thesis's FCFS rigid and
 * FCFS-EDS, on a plan in memory (plan.c), for make compare (schemes.c)
 * and tests/test_schemes.c.  What follows is how the seed is read: the
 * rules here, the metrics schemes.c prints, and what the library is to
 * do when it has these requests (issue 25).  Where the seed is silent or
 * slips, the reading taken says so and why.
 *
 * THE SETTING.  A cluster of C nodes; time in slots of 5 minutes; a plan
 * holds per slot the nodes reserved.  A request arrives at slot a (the
 * clock when it is admitted) and asks for n nodes for d slots, `jobs`
 * independent copies of it (the thesis's parametric requests; each copy
 * a reservation of its own), from its earliest start s (the seed's
 * Start_new, or expected start) to start at the latest at l; its
 * deadline, the seed's defer time DT ("the time until which the
 * reservation can be postponed"), is D = l + d: all it gets ends by D.
 * A rigid request has l = s.  Nothing is placed before the clock nor
 * past the horizon (a + H).  The seed's schemes work on one resource;
 * here a slot is free for a request when n nodes are free in it, and a
 * slice (the seed's free time slice) is a longest run of such slots.
 *
 * The seed's Tables 1 and 2 are not the output of any simulation: in
 * every row RIT = AWT - expected start and the reschedule time is
 * expected finish + expected start, and the schemes' columns differ by
 * the same constants in every row of both tables (RSPB - ORR 0.17,
 * ORR - TARR 0.44, TARR - DRR 1.11).  Only their direction is taken:
 * DRR < TARR < ORR < RSPB, on both metrics.
 *
 * AVERAGE WAITING TIME (section III.A).  WT = Start_reserve - Start_new:
 * a reservation's granted start less its asked start s.  TWT = sum of
 * WT over the reservation list; AWT = TWT / the number of reservations.
 * Read: the list is what was granted (a refused request has no
 * Start_reserve), each copy one reservation, as ar-report's awt counts
 * copies; a copy granted in pieces is one reservation (issue 25: the
 * pieces are one request), its Start_reserve the start of its first
 * piece.  What a split costs a job, ending later than s + d, is not in
 * AWT: make compare prints it beside, as "late" (the end of the last
 * piece less s + d, averaged over the copies granted).
 *
 * RESOURCE IDLE TIME (section III.B).  The prose: resources sit idle
 * while a request is waiting for them, when the idle time does not fit
 * the allocation policy; RIT = Finish_previous - Start_current "when
 * there exists a reservation request with a conflict", and Total RIT =
 * the sum of RIT over the reservation list.  On one resource,
 * Finish_previous - Start_current is the free slice between the
 * reservation before and the one that had to wait, with its sign turned
 * (as written it is negative, or an overlap): the seed's own slice queue
 * computes it the right way round, start(i+1) - finish(i).  Read for C
 * nodes: for each copy granted that did not run from s to s + d in one
 * piece, the idle nodes, up to its own n, in every slot it waited: from
 * s to the end of its last piece, less its own pieces,
 *
 *     RIT_i = sum over slots t of W_i of min(idle(t), n_i) x 5 min,
 *     idle(t) = C - nodes running a job at t,
 *
 * and Total RIT = sum of RIT_i, in node-hours, on the final plan.  A
 * reservation's nodes run a job only while its job runs: the nodes of a
 * reservation its holder does not use, and the rest of one whose job
 * ended early, are idle, as the seed's DRR has it (unutilized
 * reservations).  A copy granted at s in one piece waited nowhere: 0.
 * make compare prints Total RIT and its mean per copy granted; a scheme
 * that grants more can wait more in all, so acceptance is printed too.
 *
 * FCFS RIGID.  Each copy at s exactly, or the request is refused; all
 * copies or none (ar_add with latest = earliest and AR_NOMOVE).
 *
 * FCFS-EDS (Umar's thesis, Alg. 3.1/3.2).  Each copy at the first start
 * in [s, l] where it fits; where none does, granted reservations that
 * have not started and have windows of their own are moved later inside
 * them to make room: ar_add with AR_LATER, done here rule for rule as
 * lib/flex.c does it (at most 32 movers a copy, found by start slot and
 * id from a day before the full slot, put back in id order at the
 * nearest later start; at most 288 starts tried; a start whose full
 * slot stays full whatever leaves skips past that slot), so that the
 * two can be held against each other.  No price classes.
 *
 * RSPB.  The seed: a request has a benefit function over resource
 * levels (a reduced but positive benefit at lower levels says the client
 * will take less when resources are scarce, with no negotiation);
 * requests arriving within an interval form a meta-request scheduled
 * together, by priority; a request granted is a contract, not examined
 * again.  Read: a request lists its levels, each a size and a benefit
 * (issue 25's nodes=32:10,16:6,8:3); it is granted the level of the
 * highest benefit that fits anywhere in its window [s, l], in one piece
 * a copy, all copies, moving nothing, at that level's first start;
 * between equal benefits the level that starts first, then the larger,
 * then the first listed.  Why: the seed's benefit depends on the level
 * alone, not on when, so what the client gains is the benefit, and time
 * is bounded by its window; a lower level is taken only where no higher
 * one fits ("when there is a resource scarcity").  The meta-request is
 * the requests arriving in one slot (ar admits each slot's in one
 * transaction), taken in decreasing order of their top benefit, then of
 * arrival; the benefit of the whole batch at its best is a knapsack
 * problem the seed does not ask for.  The workloads here give every
 * request the same top benefit (no request has a priority), so that is
 * the order of arrival.  Levels here: n:10, ceil(n/2):6, ceil(n/4):3
 * nodes (issue 25's ratios), the duration the same at each (the seed's
 * levels are service levels over the asked time; a moldable job that
 * runs longer on fewer nodes would need a duration per level); a
 * parametric request of j copies of one node molds its copies instead,
 * j:10, ceil(j/2):6, ceil(j/4):3.  Equal sizes are one level, the
 * highest benefit.
 *
 * TARR.  The seed: a request that fits as asked is granted so;
 * otherwise the free slices from its start on are taken in order, each
 * whole ("whenever a free slot is available it is allotted as such"),
 * until its time is covered, all before the defer time.  Read: each
 * copy takes the earliest d free slots of [s, D), its pieces being their
 * runs (the last slice cut to what is still needed); if there are not d
 * of them, the request is refused, all copies or none.  Any slice will
 * do (the seed has no smallest piece) and there may be any number.  So
 * the first piece starts as early as can be, and the last ends as early
 * as can be, at the cost of the most pieces.  Slips read through: the
 * seed's conflict test (start_new <= start_i && finish_new > finish_i
 * || start_new <= finish_i || finish_new <= finish_i) is true of nearly
 * any reservation, and its slice loop never moves on; its slice queue
 * holds only the gaps between reservations, not the free time before the
 * first or after the last: the free time here is every slice in [s, D).
 *
 * ORR.  The seed: the slices that end before the defer time (the select
 * slice queue); if the first one is long enough it is taken whole ("the
 * optimized allotment as it doesn't require the context switching");
 * otherwise slices are allotted in order and counted; if their number
 * exceeds a threshold T, the queue is shuffled at random and ORR runs
 * again; at or below T the slices are assigned.  Read: T bounds the
 * pieces, and the random retry is a search among the selections of at
 * most T pieces, one with no bound on how often it tries, no promise of
 * finding a selection that exists, and no two runs alike.  Taken
 * deterministically: of the sets of d slots of [s, D) where n nodes are
 * free, in at most T pieces each at least the smallest piece p long
 * (issue 25's optional smallest piece; the seed has none), the one of
 * the fewest pieces; then the one that ends first; then the earliest
 * slots (the first piece as early, then as long, as it can be, then the
 * next...).  The fewest pieces first, because that is what the threshold
 * and the preference for one piece are for (the seed: every piece a
 * process suspended and resumed); the earliest end next, because a job
 * that must be cut should still end as soon as it can; the earliest
 * slots last, to make the answer one.  So a request that fits in one
 * piece anywhere in its window gets its first fit there (FCFS-EDS
 * without moves), and one that needs more than T pieces is refused: no
 * set of at most T slices before the deadline.  Slips read through: the
 * algorithm as written goes on allotting every slice after the required
 * time is covered (it subtracts below zero); the select slice queue
 * keeps a slice only if it ends before DT and so drops a slice's part
 * before DT: read as every slice, cut at D.  Here T = 4 and p = 1 slot.
 * In a set of the fewest pieces no free run holds two pieces (they would
 * make one), which plan.c's search uses.
 *
 * DRR.  The seed: when the slot asked for is reserved, ask whether the
 * job holding it is alive (isalive) and whether its reservation is still
 * required (isrequire); if not, the slot goes to the new request.  Read
 * as issue 25 has it: the site reports whether a reservation is used
 * (used=yes or no, from its scheduler); a started reservation that has
 * reported no use within a grace period G of its start is reclaimed: the
 * rest of its interval, its later pieces too, is freed at the next write
 * transaction (the report itself, from a cron job, is one), and its
 * status reads reclaimed.  One that reported use is never reclaimed.
 * The seed's isalive, a holder gone, is what a hold's expiry covers in
 * ar: a hold whose client went away is released (ar_confirm).  DRR is
 * otherwise ORR: the seed's DRR keeps ORR's slice queue (its paper
 * follows ORR's and TARR's), and the library is to split by ORR's rule;
 * so DRR here is ORR's selection on a plan that reclaims.  G = 2 slots
 * (10 minutes: a cron job every 5 minutes has two looks).
 *
 * WHICH RESERVATIONS GO UNUSED.  A trace gives each job's run time and
 * requested time.  The job reserves its requested time and uses it from
 * its start for its run time; the rest is reserved and idle.  A job
 * whose run time is under a tenth of its requested time counts as one
 * whose reservation went unused: a job that failed at once or was given
 * up (the seed's network failure, terminated parent process); it reports
 * no use, and the minutes it ran are not counted as use.  The generated
 * workload has no run times: a request goes unused with the share the
 * traces give (the mean of their shares), chosen by its number and the
 * seed, and a used one runs its whole duration.
 */
#ifndef SCHEMES_H
#define SCHEMES_H

#include <stddef.h>
#include <stdint.h>

#define ORR_PIECES 4            /* T: ORR's (and DRR's) most pieces */
#define ORR_SMALLEST 1          /* p: their smallest piece, slots */
#define DRR_GRACE 2             /* G: slots from a start to a reclaim */

/* The slots [start, start + len). */
struct piece {
	int64_t start, len;
};

/* A request in slots (see THE SETTING above). */
struct sreq {
	uint32_t k;             /* its number in its workload, from 0 */
	int64_t earliest, latest;       /* s and l */
	int64_t dur;            /* d */
	uint32_t nodes, jobs;
};

/* A level of a moldable request: copies copies of nodes nodes each. */
struct level {
	uint32_t nodes, copies;
	int benefit;
};

#define LEVELS_MAX 3

/* A reservation of the plan: one copy of a request, id its index + 1. */
struct sresv {
	uint32_t k;             /* its request */
	uint32_t nodes;
	int64_t earliest, latest;       /* its request's s and l */
	size_t first;           /* its pieces are pc[first .. first + n) */
	uint32_t npieces;
};

/* Movable reservations starting in one slot, by id (FCFS-EDS). */
struct idvec {
	uint32_t *id;
	uint32_t n, cap;
};

struct undo;

/* The plan in memory: counts per slot, reservations, their pieces. */
struct plan {
	uint32_t cap;           /* C */
	int64_t slot;           /* seconds */
	int64_t nslots;         /* slots of used[]: every one a piece may hold */
	int64_t horizon;        /* H, slots */
	int64_t now;            /* the clock's slot */
	uint32_t *used;         /* nodes reserved per slot */
	struct sresv *r;
	size_t nr, rcap;
	struct piece *pc;
	size_t npc, pccap;
	struct idvec *flex;     /* per start slot: the reservations FCFS-EDS
				   may move */
	struct undo *log;       /* what the admission under way changed */
	size_t nlog, logcap;
};

/* An empty plan of cap nodes and nslots slots of slot seconds, a
 * horizon of horizon slots, the clock at slot 0.  A failing allocation
 * here or below says so and exits. */
void plan_init(struct plan *p, uint32_t cap, int64_t slot, int64_t nslots,
    int64_t horizon);
void plan_free(struct plan *p);

/*
 * Admit q at the clock, each as its rule above says: 1 if granted, its
 * copies the reservations from index p->nr before the call on; 0 if
 * refused, the plan as it was.  plan_mold tells the level granted in
 * *chosen.  A request the library would refuse as malformed (nodes
 * more than the cluster has, a window past, or ending past the horizon
 * even at its earliest start) is refused.
 */
int plan_rigid(struct plan *p, const struct sreq *q);
int plan_eds(struct plan *p, const struct sreq *q);
int plan_mold(struct plan *p, const struct sreq *q, const struct level *lv,
    size_t nlv, size_t *chosen);
/* RSPB's levels of q as make compare gives them (RSPB above): on its
 * copies if it has more than one, else on its nodes; equal sizes once,
 * the highest benefit.  How many, into lv[0 .. LEVELS_MAX). */
size_t plan_levels(const struct sreq *q, struct level *lv);
int plan_orr(struct plan *p, const struct sreq *q, int64_t smallest,
    int most);
int plan_tarr(struct plan *p, const struct sreq *q);

/* Free the slots from at on of reservation id (DRR's reclaim): its
 * pieces end at at; the node-slots freed. */
int64_t plan_reclaim(struct plan *p, uint64_t id, int64_t at);

/* Record a reservation as granted elsewhere (the library), in one piece:
 * the next id. */
void plan_record(struct plan *p, uint32_t k, uint32_t nodes, int64_t start,
    int64_t len);

/* Add a piece to the last reservation recorded (the library's next
 * piece of a split request; the pieces of one reservation follow each
 * other in p->pc, so only the last one can grow). */
void plan_piece(struct plan *p, int64_t start, int64_t len);

/* Have reservations a of x and b of y the same request, nodes and
 * pieces? */
int plan_same(const struct plan *x, const struct sresv *a,
    const struct plan *y, const struct sresv *b);

/* FNV-1a over every reservation's id, request, nodes and pieces. */
uint64_t plan_hash(const struct plan *p);

#endif
