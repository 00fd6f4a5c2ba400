/*
 * bench.h - what the benchmark's files share.  See bench.c.
 */
#ifndef BENCH_H
#define BENCH_H

#include <stddef.h>
#include <stdint.h>

#define NODES 64
#define SLOT 300                        /* seconds */
#define HORIZON (30 * 86400)            /* seconds */
#define PERIOD (14 * 86400)             /* the clock moves once per period */
#define SUGGEST_LIMIT (12 * 3600)

/*
 * Maintenance, as the benchmarks book it (mapping.c, and the host study's
 * hostbench.c): in each period, one reservation a week of PIN_HOSTS named
 * hosts for 4 hours, 2 and 9 days after the period's clock and free to
 * start within a day of that; each on the next hosts in turn, as an
 * operator would take a cluster's racks down one by one.
 */
#define PIN_HOSTS 4
#define PIN_DURATION (4 * 3600)
#define PIN_WINDOW 86400
#define PIN_ORDERS 8            /* orders of a trace's requests whose
				   refusals pins_report adds up */
#define PINS_PER_PERIOD 2

/* The first host of the k-th maintenance of the period-th period booked
 * (both from 0), and its earliest start in a period from clock. */
static inline uint32_t
pin_first_host(size_t period, int k)
{
	return (uint32_t)((period * PINS_PER_PERIOD + (size_t)k) * PIN_HOSTS %
	    NODES);
}

static inline int64_t
pin_earliest(int64_t clock, int k)
{
	return clock + (2 + 7 * (int64_t)k) * 86400;
}

/* One request of a trace. */
struct req {
	int64_t start;          /* seconds since the epoch, not rounded */
	int64_t dur;            /* seconds, clamped to [300 s, 28 d] */
	int64_t run;            /* seconds as the trace says, [1 s, 28 d] */
	uint32_t nodes;         /* [1, 64] */
	uint32_t idx;           /* its position in the trace file */
	int nowait;             /* the trace gives no wait time */
};

/* A trace's requests in the order they are replayed, period by period. */
struct trace {
	const char *name;
	const char *order;      /* "original" or "shuffled" */
	int nowait;             /* no wait times: start = submit */
	struct req *r;
	size_t n;
	size_t *pfirst;         /* first request of each non-empty period ... */
	int64_t *pclock;        /* ... and the clock when it is considered */
	size_t np;              /* periods; pfirst[np] == n */
};

/* Time samples of one kind of call, in nanoseconds. */
struct samples {
	uint64_t *ns;
	size_t n, cap;
};

enum { OP_SEARCH, OP_SUGGEST, OP_ADD, OP_DELETE, OP_COMMIT, NOPS };

/* What one replay measured. */
struct stats {
	struct samples op[NOPS];
	int64_t *granted;       /* per replayed request: granted start or -1 */
	size_t done;            /* requests replayed */
	size_t ngranted, ndeleted;
	double wall;            /* seconds */
};

/* The answer of a backend's search. */
enum fit { FIT, FULL, BEYOND };        /* BEYOND: ends past the horizon */

/*
 * A backend.  run() considers requests tr->r[from .. to) of one period at
 * clock, calling admit() for each; purge() deletes what has ended by
 * clock.  They and the steps return 0, or an error code (-1 after a
 * message for the floor and SQLite; ar's own codes for ar).
 */
struct backend {
	const char *name;
	void *ctx;
	int (*purge)(const struct backend *b, int64_t clock, struct stats *st);
	int (*run)(const struct backend *b, const struct trace *tr,
	    size_t from, size_t to, int64_t clock, struct stats *st);
	/* The algorithm's steps, used by admit(). */
	int (*search)(void *ctx, const struct req *q, enum fit *f);
	int (*suggest)(void *ctx, const struct req *q, int64_t *start);
	int (*add)(void *ctx, const struct req *q, int64_t start,
	    int64_t *granted);
	/* NULL, or called by replay() at each period's clock, before the
	 * period's requests (after 0) and after them (after 1), with hook. */
	int (*period)(const struct backend *b, int64_t clock, int after);
	void *hook;
};

/* replay.c */
extern int quick;               /* BENCH_QUICK: 0 or 1 */
extern const char *pg_server;   /* AR_BENCH_PG: a libpq URI, or NULL */
uint64_t now_ns(void);
double timer_overhead(void);    /* ns, the median of a timed nothing */
int sample(struct samples *s, uint64_t ns);
int admit(const struct backend *b, const struct trace *tr, size_t i,
    struct stats *st);
/* A backend's run() that is admit() for each request, in order. */
int admit_each(const struct backend *b, const struct trace *tr, size_t from,
    size_t to, int64_t clock, struct stats *st);
int replay(const struct backend *b, const struct trace *tr, size_t limit,
    double budget, struct stats *st);
void stats_free(struct stats *st);
/* Keep in best whichever of best and again replayed faster (run 0:
 * again). */
void keep_faster(struct stats *best, struct stats *again, int run);
/* The pct-th percentile in microseconds, or -1 without samples. */
double pctl(struct samples *s, int pct);
double admission_p50(struct stats *st);
/* Does st grant what the floor granted (fl), over the requests st
 * replayed?  Says so, or shows the first difference; 0 or -1. */
int same_grants(const struct trace *tr, const struct stats *fl,
    const struct stats *st, const char *name);
char *scratch_dir(const char *name);
char *pg_store(const char *name);
int is_uri(const char *where);
int64_t slots_up(int64_t t, int64_t slot);
int64_t slots_down(int64_t t, int64_t slot);
void us(double v);
void ratio(double v, double floor);
/* A benchmark's start: BENCH_QUICK read into quick, and the traces'
 * directory looked for (1 if it is not there, after saying so). */
int bench_begin(const char *prog, const char *dir);
/* The system, its CPUs and the timer's overhead, on a line of its own
 * after what is printed before. */
void print_machine(void);

/* trace.c */
/* A Standard Workload Format trace's header: UnixStartTime, MaxNodes
 * and MaxProcs, each -1 if it has none. */
struct swf_header {
	long long start;
	long nodes, procs;
};
#define SWF_FIELDS 18
/* Call row with the fields of each job of the gzipped trace at path
 * (f[0] its field 1), its place among them from 0 and the header read
 * so far, until row returns 1 (no more wanted) or -1 (an error, -1
 * after a message); -1 after a message if the file cannot be read or a
 * job has not its 18 fields, or comes before UnixStartTime. */
int swf_read(const char *path, int (*row)(const double *f, size_t idx,
    const struct swf_header *h, void *arg), void *arg);
int trace_load(const char *path, size_t max, struct req **r, size_t *n,
    int *nowait);
int trace_order(struct trace *tr, const struct req *r, size_t n,
    int shuffle);
/* tr's requests in another order, into out: each period's permuted as
 * trace_order's shuffle permutes it, drawn from seed.  0, or -1 out of
 * memory (said). */
int trace_reorder(const struct trace *tr, uint64_t seed, struct trace *out);
void trace_free(struct trace *tr);
uint64_t bench_rand(uint64_t *seed);

/* floor.c: GarQ's ring as a plain array of counts in memory */
struct garq;
struct garq *garq_new(int64_t slot, int64_t slots, int64_t clock);
void garq_free(struct garq *g);
void garq_clock(struct garq *g, int64_t clock);
enum fit garq_search(const struct garq *g, int64_t first, int64_t len,
    uint32_t nodes);
int64_t garq_suggest(const struct garq *g, int64_t first, int64_t len,
    uint32_t nodes, int64_t limit);
void garq_add(struct garq *g, int64_t first, int64_t len, int64_t nodes);
double garq_used(const struct garq *g);
int64_t garq_base(const struct garq *g);

/*
 * The in-memory structures of GarQ's comparison (its section 3), written
 * from the paper's descriptions, behind one interface over slots: the
 * floor's array (compare.c), a sorted linked list of reservations
 * (list.c), a segment tree over the slots (segtree.c) and a static
 * calendar queue (calendar.c).  Times are absolute slots; the callers
 * keep them inside the ring's window, as the floor's callers do.
 */
struct structure {
	const char *name;
	void *(*make)(int64_t clock);           /* NULL without memory */
	void (*destroy)(void *s);
	/* The clock moved on: slots before its slot are past (NULL: no
	 * matter). */
	void (*clock)(void *s, int64_t clock);
	/* Do nodes more fit in every slot of [first, first + len)? */
	int (*fits)(void *s, int64_t first, int64_t len, uint32_t nodes);
	/* The first start in [first, hi] where they fit, or -1. */
	int64_t (*first_fit)(void *s, int64_t first, int64_t hi, int64_t len,
	    uint32_t nodes);
	/* Hold nodes over [first, first + len): a handle; NULL without
	 * memory. */
	void *(*add)(void *s, int64_t first, int64_t len, uint32_t nodes);
	/* Take out h, of nodes over [first, end), whose slots before from
	 * are past and forgotten already. */
	void (*del)(void *s, void *h, int64_t first, int64_t from, int64_t end,
	    uint32_t nodes);
	/* Forget the slots [from, to) of h, live, that are past now (NULL:
	 * no matter). */
	void (*past)(void *s, void *h, int64_t from, int64_t to,
	    uint32_t nodes);
	size_t (*bytes)(const void *s);         /* memory it holds now */
};

extern const struct structure array_structure, list_structure,
    tree_structure, calendar_structure;

/* Cells the structures read or write (array slots, list entries, tree
 * nodes), counted as the paper counts nodes accessed. */
extern uint64_t cells;

/* growth.c: the structures' calls as the plan and the request grow */
int growth_report(void);

/* exact.c: the price of slots, on the traces in a directory */
int slots_report(const char *trace_dir);

/* replay.c: the traces of a benchmark, each read once */
struct trace_run {
	const char *file, *name;
	int shuffle;            /* replay order: shuffled in each period */
};
/* Call fn with each of runs[from .. to) whose file is in dir, its first
 * max requests (0: all) in replay order, a file read once for the runs
 * after it that name it too; one missing or empty is said and skipped.
 * -1 on an error (a negative return of fn's), else the OR of fn's. */
int each_trace(const char *dir, const struct trace_run *runs, size_t from,
    size_t to, size_t max, int (*fn)(const struct trace *, void *),
    void *arg);

/* compare.c: a structure as a backend of the replay */
int structure_backend(struct backend *b, const struct structure *ops,
    int64_t clock);
void structure_backend_free(struct backend *b);
/* Cells per call of an operation (OP_*), and the memory the structure
 * held at the end of each period and now: mean and peak, in bytes. */
double structure_cells(const struct backend *b, int op);
void structure_memory(const struct backend *b, double *mean, size_t *peak);

/* arstore.c: the ar library, in process */
int ar_backend(struct backend *b, const char *dir, int64_t clock,
    size_t group);
/* The same on the host study's 4 partitions with borrowing (README),
 * each request asking for a partition by its place in the trace. */
int ar_backend_partitions(struct backend *b, const char *dir, int64_t clock,
    size_t group);
int ar_backend_close(struct backend *b, const char *label);
/* Give ar's store price classes (its name says so); 0 or ar's code. */
struct ar_pricing;
int ar_backend_price(struct backend *b, const struct ar_pricing *p);
/* The store behind ar's backend. */
struct ar_store;
struct ar_store *ar_backend_store(const struct backend *b);
/* Book each grant on hosts named, chosen among those free throughout by
 * fit (an enum ar_fit), as ar-suggest --fit into ar-add does; where the
 * plan as mapped leaves too few, as asked.  ar_backend_runs: the grants
 * so placed, and their runs of consecutive hosts. */
void ar_backend_fit(struct backend *b, int fit);
void ar_backend_runs(const struct backend *b, uint64_t *placed,
    uint64_t *runs);
void ar_disk_report(void);

/* sqlite.c */
int sqlite_backend(struct backend *b, const char *dir, int full);
void sqlite_backend_free(struct backend *b);

/* cmds.c: the commands in a pipeline, and one invocation */
int spawn_wait(char *const argv[], const char *in, const char *out,
    int ok);
int pipeline_replay(const struct trace *tr, const char *bin,
    const char *dir, struct stats *st);
int invocation_report(const char *bin, const char *truebin,
    const char *store, int64_t clock);

/* pgcost.c: where the time goes on PostgreSQL */
int pg_cost(void);

/* mapping.c: the plan on hosts, and admission with pins in it */
int map_report(const struct trace *tr);
void pins_backend(struct backend *b);
/* The maintenance the last replay pins_backend set up asked and granted. */
void pins_tally(size_t *asked, size_t *granted);
/* Replay tr through today's whole-plan sweep (hostsweep.c) with the pins
 * row's maintenance, in memory: the refusals the library must not exceed. */
int pins_sweep_replay(const struct trace *tr, struct stats *st);
/* ar with pins, every answer held against the sweep's on ar's plan. */
int pins_shadow_replay(const struct trace *tr);
/* The refusals of ar with pins (ar, replayed on tr) and of the sweep
 * (sweep), then of both on PIN_ORDERS - 1 more orders of tr's requests,
 * for pins_report. */
int pins_orders(const struct trace *tr, struct stats *ar,
    struct stats *sweep);
/* Report the pins row against plain ar and the sweep: 1 if ar refused
 * more than the sweep. */
int pins_report(struct stats *pins, struct stats *plain, struct stats *sweep);

/* curve.c */
int cost_curve(void);
/* Reservations of a synthetic plan, in slots of slot seconds. */
struct load {
	int64_t *first, *len;
	uint32_t *nodes;
	size_t n;
	int64_t slot;
};
void load_free(struct load *l);
/* ar_write's function: ar_add every reservation of the load (a struct
 * load), each granted where it asks, or AR_ECORRUPT. */
struct ar_txn;
int load_store(struct ar_txn *t, void *arg);

/* usage.c */
int usage_cost(void);

/* modify.c */
int modify_cost(void);

/* hold.c */
int hold_cost(void);

#endif
