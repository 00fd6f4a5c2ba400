/*
 * cmd.h - what every ar command shares: the options, the input loop with
 * group commits, turning records into requests and answers into records,
 * and the exit codes.  A command is a struct cmd and a three-line main.
 */
#ifndef AR_CMD_H
#define AR_CMD_H

#include <getopt.h>
#include <stdio.h>

#include "ar.h"
#include "format.h"

/* The exit codes of every command, as in grep. */
#define EXIT_REFUSED 1          /* some request refused or not found */
#define EXIT_USAGE 2            /* bad usage or bad input */
#define EXIT_STORE 3            /* the store cannot be used */

#define ALTS_MAX 100            /* most alternatives one request may ask */

/* One input line on its way through a command: what every command
 * keeps of it, and what the command keeps of its own (own). */
struct item {
	struct ar_record rec;   /* the input; output fields are set on it */
	long line;              /* input line number, 0 for arguments */
	int bad;                /* the input was rejected */
	int unresolved;         /* a partition or feature the layout read
				   before the transaction does not have:
				   resolved again in it (cmd_pool_resolve),
				   where hosts added since may bring it */
	int wrote;              /* apply changed the store */
	struct ar_request rq;   /* its labels point into rec */
	int64_t earliest;       /* the fields as given, -1 when absent */
	int64_t latest;
	struct ar_level *levels;        /* a moldable request's, in the
				   order they are tried: AR_LEVELS_MAX of
				   them, made on first use, and apart from
				   the item, as the items move when the
				   batch grows and rq points at them */
	uint32_t *hosts;        /* the hosts the request names, as indexes */
	size_t hostcap;
	size_t nalts;           /* answers in alts */
	struct ar_answer *alts; /* room for ctx.answers of them */
	size_t altcap;
	void *own;              /* the command's own, of line_size bytes:
				   zero when the item is made, and kept, as
				   the item is, from one line to another */
};

struct ctx;

/* Each command's bit in the table of fields. */
enum {
	CMD_ADD = 1 << 0, CMD_DEL = 1 << 1, CMD_MAP = 1 << 2,
	CMD_PRICE = 1 << 3, CMD_REPORT = 1 << 4, CMD_SEARCH = 1 << 5,
	CMD_SUGGEST = 1 << 6
};

/* A field of the records, and the commands (CMD_ bits) that read it
 * from their input and that print it (fields.c has them all). */
struct cmd_field {
	const char *name;
	unsigned read_by;
	unsigned printed_by;
	int numeric;            /* a number wherever it appears */
};

/* Every field, ending with a NULL name. */
extern const struct cmd_field cmd_fields[];

/* The names of every field, in strcmp order, for ar_field_check: a
 * class's (granted_cN) once for each class, granted_c1 to granted_c8;
 * *n is how many. */
const char *const *cmd_field_names(size_t *n);

/* The names of the fields that are numbers, NULL-terminated, for
 * ar_record_numbers. */
const char *const *cmd_numeric_fields(void);

/* A command: its name, usage, options and what it does with an item. */
struct cmd {
	const char *name;
	unsigned bit;                   /* its CMD_ bit */
	const char *usage;              /* the synopsis after the name */
	unsigned write;                 /* 0, or AR_WRITE for a write
					   transaction, | AR_FREEING if it
					   frees room (see ar_grow) */
	const char *shortopts;          /* the command's own options */
	const struct option *longopts;
	/* Take one of the command's own options; 0, or -1 on bad usage. */
	int (*option)(struct ctx *, int, const char *);
	/* NULL, or once every option is read: check them together; 0, or
	 * -1 after a message (bad usage). */
	int (*options_end)(struct ctx *);
	/* Turn it->rec into a request; 0, or -1 with a message in err. */
	int (*prepare)(struct ctx *, struct item *, char *err);
	/* Run it against the store, setting it->wrote if it changed it;
	 * 0, or a store error that ends the run. */
	int (*apply)(struct ctx *, ar_txn *, struct item *);
	/* Set the output fields and print; returns 0 or EXIT_REFUSED. */
	int (*emit)(struct ctx *, struct item *);
	/* Instead of reading records (always when prepare is NULL, else
	 * when an option set ctx.whole): a whole-store job; an exit code. */
	int (*whole)(struct ctx *, ar_store *);
	/* whole reads records itself (cmd_read_all), from stdin or from
	 * the arguments, which it finds in ctx.argc and ctx.argv. */
	int whole_reads;
	/* Instead of opening the store (always when prepare and whole are
	 * NULL, else when an option set ctx.standalone): a job that needs
	 * none, with the arguments left after the options; an exit code. */
	int (*standalone)(struct ctx *, int, char **);
	/* What the command keeps of each line beyond struct item: its size
	 * (0: nothing), and what frees what it holds, or NULL. */
	size_t line_size;
	void (*line_free)(void *own);
};

struct ctx {
	const struct cmd *cmd;
	const char *dir;        /* the store's directory, or its URI */
	char shown[1024];       /* ... as messages name it: no password */
	ar_store *store;
	int json;               /* AR_REC_JSON or 0 */
	int64_t now;            /* the clock for this batch */
	int fixed_now;          /* --now or AR_NOW was given */
	int live;               /* the store is live: its writers take no
				   --now */
	int store_wide;         /* the job changes the store for every user
				   (price classes, history, what Slurm was
				   told): root's alone under setgid */
	int whole;              /* run cmd->whole instead of reading records */
	unsigned write;         /* cmd->write, or as an option made it */
	int standalone;         /* run cmd->standalone: no store is opened */
	size_t answers;         /* answers an item may get (default 1) */
	uint32_t uid;
	long wait_ms;           /* --wait */
	void *data;             /* the command's own state */
	char *out;              /* output waiting for the batch's commit */
	size_t outlen, outcap;
	int hold;               /* messages wait for the commit too ... */
	char *err;              /* ... here */
	size_t errlen, errcap;
	int nomem;              /* a message was lost for want of memory */
	int keep_output;        /* a whole-store job's output stands even
				   when it fails (--check's violations) */
	struct cmd_layout *layout;      /* the store's partitions, read
					   with its clock */
	char *host_names;       /* the store's host list, as stored ... */
	uint32_t host_count;    /* ... the store's nodes, as many hosts as
				   a sound list names ... */
	struct ar_hostlist hosts;       /* ... and parsed, on first use */
	int hosts_parsed;       /* 1 parsed, -1 failed (and said so) */
	int argc;               /* the arguments after the options */
	char **argv;
};

/*
 * The store's partitions and pools as the commands name them: the
 * partitions' names and every feature, comma-separated, and each pool's
 * partition, by name.
 */
struct cmd_layout {
	char *partitions;
	char *features;
	size_t nparts, npools;
	char *pool_partition[AR_POOLS_MAX];
	/* A store of several pools: each pool's features, and the pool of
	 * every host (ar_host_pools). */
	char *pool_features[AR_POOLS_MAX];
	uint32_t *pool_of;
};

/* Read the store's layout into x->layout, once; reservation records
 * then name their partition if the store has more than one. */
int cmd_layout_read(struct ctx *x, ar_txn *t);
/* Free what cmd_layout_read made. */
void cmd_layout_free(struct ctx *x);
/*
 * The store's host names and layout as transaction t sees them, into x.
 * Hosts may be added (ar-report --add-hosts) between two transactions of
 * a command, which renumbers hosts: then they are read again, and, if
 * to is not NULL, *to (to free) maps each host index of the names read
 * before to its index now; else *to is NULL.  0, or an error code.
 */
int cmd_hosts_read(struct ctx *x, ar_txn *t, uint32_t **to);
/* The partition and features of item it, which the layout read before
 * did not have (it->unresolved), resolved with x->layout as the batch's
 * transaction read it, its named hosts (renumbered) of a pool that
 * agrees: 0, or -1 with err. */
int cmd_pool_resolve(struct ctx *x, struct item *it, char *err);

/* Does command c read field key? */
int cmd_reads(const struct cmd *c, const char *key);

/* Field key of record r, or NULL if it is not there.  Every field a
 * command reads is read through this: one that cmd_fields does not say
 * the command reads stops it (abort), a bug that --help would hide. */
const char *cmd_get(const struct ctx *x, const struct ar_record *r,
    const char *key);

/* For --help: the fields c reads and prints, on f. */
void cmd_fields_help(FILE *f, const struct cmd *c);

/* The store's hosts, parsed on first use; NULL (after a message) if
 * that failed. */
const struct ar_hostlist *cmd_hosts(struct ctx *x);

/* Run the command: parse argv, open the store, process input, exit code. */
int cmd_main(const struct cmd *c, int argc, char **argv, void *data);

/*
 * For a job that needs every record before it answers: read the input
 * (stdin, or the arguments as one record) with the driver's checks, each
 * record through prepare, which returns -1 with a message in err for a
 * bad one; then, if no line was bad, return all's exit code for the
 * n items read.  Otherwise the bad lines are reported and nothing else
 * done: EXIT_USAGE, or EXIT_STORE if the input could not be read.
 */
int cmd_read_all(struct ctx *x, int argc, char **argv,
    int (*prepare)(struct ctx *, struct item *, char *),
    int (*all)(struct ctx *, struct item *, size_t n));

/* Parse time field key of it->rec, if there, into *t: 1 found, 0
 * absent, -1 bad (with err). */
int cmd_time_field(struct ctx *x, struct item *it, const char *key,
    int64_t *t, char *err);

/* Read field key as a reservation id into *id: 1 if it is there, 0 if
 * not (*id is then 0), -1 with a message in err if it is bad. */
int cmd_id_field(struct ctx *x, struct item *it, const char *key,
    uint64_t *id, char *err);

/* Read the request fields of it->rec into it->rq; -1 with err on bad. */
int cmd_request(struct ctx *x, struct item *it, char *err);

/* A split request's fields (split, smallest, defer) into it->rq, whose
 * window and duration are read: defer sets its latest start (hl: latest
 * was given, which defer does not go with).  -1 with err if bad. */
int cmd_split_fields(struct ctx *x, struct item *it, int hl, char *err);

/* The same for a job whose length is asked, not given: its duration (or
 * end), if there, bounds it; it->rq.duration is 0 if not. */
int cmd_job(struct ctx *x, struct item *it, char *err);

/* How a request repeats, into *rep: every (daily, weekly, N slots or a
 * duration) and count or until; every=Nslots is -N until the slot is
 * known; every 0 if it does not repeat.  -1 with err if bad. */
int cmd_repeat(struct ctx *x, struct item *it, struct ar_repeat *rep,
    char *err);

/* A request's hold, into it->rq.hold: how long it lasts unless
 * confirmed, if given.  -1 with err if bad. */
int cmd_hold(struct ctx *x, struct item *it, char *err);

/* ar-search's apply and emit: the answer of ar_search, exit 1 if it
 * does not fit (ar-price quotes this way too). */
int cmd_search_apply(struct ctx *x, ar_txn *t, struct item *it);
int cmd_search_emit(struct ctx *x, struct item *it);

/* Set status, reason, start, end and free from an answer. -1: no memory. */
int cmd_answer(struct item *it, const struct ar_answer *a);

/* The field a moldable request's levels are on: "jobs" (copies of a
 * parametric request) or "nodes". */
const char *cmd_levels_key(const struct item *it);

/* A copy's hold: status held and its expiry, or (expires 0) no expiry.
 * -1: no memory. */
int cmd_held(struct ar_record *r, int64_t expires);

/* An occurrence's fields: its id if granted (else none), its series (if
 * it has one) and its occurrence number.  -1: no memory. */
int cmd_occurrence(struct ar_record *r, uint64_t id, uint64_t series,
    uint32_t occurrence);

/* A piece's fields: its request's series (if not 0), the piece's
 * number and how many pieces there are; or (pieces 0) none of them.
 * -1: no memory. */
int cmd_pieces(struct ar_record *r, uint64_t series, uint32_t piece,
    uint32_t pieces);

/* Print a record to the batch output; -1 if memory ran out. */
int cmd_print(struct ctx *x, const struct ar_record *r);

/* Add n bytes of text, not a record, to the batch output; -1 if memory
 * ran out. */
int cmd_write(struct ctx *x, const char *text, size_t n);

/* Set key (hosts=, old_hosts=) to the host list of host indexes
 * idx[0 .. n), increasing, in the store's names; none: delete it.  -1
 * after a message (the store's host list) or if memory ran out. */
int cmd_set_hosts(struct ctx *x, struct ar_record *r, const char *key,
    const uint32_t *idx, size_t n);

/* Fill a record from a reservation (id, series, labels, flags and
 * account, times, nodes, status, and a hold's expiry). */
int cmd_resv(struct ar_record *r, const struct ar_resv *v);

/* NULL if Slurm reads s as one user or account name, else why not (an
 * account= field is one). */
const char *slurm_name_problem(const char *s);

/* Make r the record of one window, group (label) or total of ar_usage,
 * as grouped by by; pr names the classes.  A figure not known, or a
 * fraction of nothing, is JSON's null with nulls, else text ("unknown",
 * "-").  -1: no memory. */
int cmd_usage_record(struct ar_record *r, const struct ar_usage *u,
    const char *label, enum ar_usage_by by, const struct ar_pricing *pr,
    int nulls);

/* The field, or --by's word, that names a grouping: "window", "user",
 * "job", "class". */
const char *cmd_usage_by_name(enum ar_usage_by by);

/* Print the output and messages made so far; -1 on a write error. */
int cmd_flush(struct ctx *x);

/* The whole of file path ("-": stdin), given to option opt of command
 * name, as text in *textp (to be freed): 0, or the exit status after a
 * message (a file that cannot be read, a NUL byte in it). */
int cmd_read_text(const char *name, const char *opt, const char *path,
    char **textp);
/* Report a store error: "name: dir: msg"; returns EXIT_STORE. */
int cmd_store_error(struct ctx *x, int rc);

/* Report a problem with an input line: "name: line N: msg". */
void cmd_warn(struct ctx *x, long line, const char *fmt, ...);

/* A configuration's clock ("live", "simulated") and owners ("uid",
 * "role"), as --info tells them. */
const char *cmd_clock_mode(unsigned flags);
const char *cmd_owners(unsigned flags);

/* The range of --from and --to as given (NULL: the store's clock, and
 * the clock plus the horizon) into *lo and *hi; 0, or an exit code
 * after a message. */
int cmd_range(struct ctx *x, ar_store *s, const char *from, const char *to,
    int64_t *lo, int64_t *hi);

/* Parse a duration given by what ("option '--limit'"); -1 after
 * printing a message. */
int cmd_duration_opt(struct ctx *x, const char *what, const char *arg,
    int64_t *d);

#endif
