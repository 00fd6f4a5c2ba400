/*
 * ar.h - the advance-reservation store.
 *
 * A store holds a slotted ring of per-slot node counts (GarQ), the
 * reservation records, and the list of reservations starting in each
 * slot.  Its address (where, below) picks the backend that keeps it: a
 * postgresql:// or postgres:// URI names a store in a PostgreSQL
 * database; mem:NAME a store in the memory of the calling process, which
 * lasts until the process ends, is shared by every ar_open of that name
 * in the process and by no other process, and has one writer at a time
 * (a second gets AR_ETIMEDOUT at once): for tests and fuzzing, never for
 * data that must be kept; anything else is a directory holding an LMDB
 * environment, the default.  Every backend keeps the same bytes and
 * gives the same answers; what one has that another has not (files and
 * their modes, a map that grows, a server) is said where it matters.
 *
 * Every function returns 0 on success or an error code: a positive errno
 * value, one of the AR_E* codes below, or a code of the store's backend
 * for a failure of its own that no AR_E* code names (LMDB's MDB_* codes,
 * MDB_CORRUPTED or MDB_READERS_FULL say; "the backend's codes" below).
 * Whatever reads or writes a store may also fail with AR_ESERVER when it
 * is PostgreSQL's and the server or the connection fails, and with
 * ENOMEM when it is in memory.  ar_strerror() names any code.  The
 * library never prints and never exits.
 *
 * Times are seconds since the epoch; a request's start rounds up to a slot
 * boundary and its duration up to whole slots; intervals are half-open.
 *
 * A refused request is not an error: ar_add() and friends return 0 and say
 * so in the answer's status and reason.
 */
#ifndef AR_H
#define AR_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define AR_VERSION "0.2.0"
#define AR_FORMAT_VERSION 10    /* on-disk schema, see format/SCHEMA.md */

/* Error codes of the library's own (clear of LMDB's, -30799 .. -30780). */
#define AR_ENOSTORE  (-30600)   /* no store at that path */
#define AR_EEXIST    (-30601)   /* a store with another configuration exists */
#define AR_EVERSION  (-30602)   /* the store has another format version */
#define AR_ECORRUPT  (-30603)   /* the store's contents are inconsistent */
#define AR_ETIMEDOUT (-30604)   /* waited too long for the writer lock */
#define AR_ENOTFOUND (-30605)   /* no such reservation */
#define AR_EPERM     (-30606)   /* not the reservation's owner */
#define AR_EDONE     (-30607)   /* the reservation is cancelled or finished */
#define AR_EFULL     (-30608)   /* no room in the store: ar_grow, then redo
				   the work; from ar_grow, the store is at
				   its maximum size */
#define AR_EHALF     (-30620)   /* a creation was interrupted: create again */
/* Not an error: what ar_write()'s function returns to keep nothing. */
#define AR_UNCHANGED (-30621)
#define AR_EUPGRADE  (-30609)   /* the store has an older format: ar_upgrade */
#define AR_ESERVER   (-30610)   /* the store's server failed or is unreachable:
				   ar_strerror tells what it said */
#define AR_EWHERE    (-30611)   /* not a store's address: a URI's store= name
				   is not 1 to 63 of [A-Za-z0-9._-], or twice */
#define AR_ENOTHOLD  (-30612)   /* ar_confirm: the reservation was never a hold */
#define AR_ELIVE     (-30613)   /* the store is live: a writer may not give
				   it a clock ahead of the system clock */

/* The status of an answer or of a reservation. */
enum ar_status {
	AR_GRANTED = 1,         /* admitted */
	AR_REFUSED,             /* not admitted; see reason */
	AR_AVAILABLE,           /* ar_search: it fits */
	AR_UNAVAILABLE,         /* ar_search / ar_suggest: it does not fit */
	AR_SUGGESTED,           /* ar_suggest: an alternative start */
	AR_MOVED,               /* an earlier reservation moved inside its window */
	AR_CANCELLED,           /* cancelled by its owner */
	AR_FINISHED,            /* ended by the store clock, purged or not */
	AR_EXPIRED,             /* a hold not confirmed in time (ar_confirm) */
	AR_HELD,                /* only ar_resv_status(): granted as a hold,
				 * not yet confirmed */
	AR_RECLAIMED            /* started, it reported no use within its
				 * grace period: the rest of it was freed
				 * (ar_use, ar_set_reclaim) */
};

/* What a reservation's site reported of its use (ar_use). */
enum ar_use {
	AR_USE_UNKNOWN = 0,     /* nothing reported */
	AR_USE_YES,             /* in use: never reclaimed */
	AR_USE_NO               /* not in use (yet) */
};

/* Why a request was refused or found unavailable. */
enum ar_reason {
	AR_R_NONE = 0,
	AR_R_FULL,              /* not enough free nodes somewhere in the interval */
	AR_R_PAST,              /* starts before the store's clock */
	AR_R_HORIZON,           /* ends beyond the horizon */
	AR_R_CAPACITY,          /* needs more nodes than the cluster has, or
	                         * more than AR_JOBS_MAX copies */
	AR_R_LIMIT,             /* ar_suggest: nothing within the search limit */
	AR_R_KEY,               /* ar_add: the client key was used before
	                         * for a different request */
	AR_R_BOOKING,           /* a booking limit of its price class */
	AR_R_HOSTS,             /* the hosts it names are taken, or the plan
				 * with it would not map (see ar_map) */
	AR_R_STARTED,           /* ar_modify: it has started, so its start
				 * and nodes stay */
	AR_R_SLICES,            /* a split request: no interval fits, and
				 * no set of slices before its deadline */
	AR_R_DISPLACED          /* maintenance that would win displaces
				 * reservations (ar_displaced); AR_FORCE
				 * cancels them */
};
#define AR_REASONS (AR_R_DISPLACED + 1) /* how many there are */

typedef struct ar_store ar_store;
typedef struct ar_txn ar_txn;

/* A store's configuration, fixed when it is created. */
struct ar_config {
	uint32_t nodes;         /* capacity: nodes in the cluster (default 64) */
	int64_t slot;           /* slot length in seconds (default 300) */
	int64_t horizon;        /* how far ahead one may reserve (default 30 days) */
	uint64_t map_max;       /* largest the store may grow, bytes; 0: 16 GiB
				   for a new store, unchanged for one there */
	long group;             /* group id to share the store with, or -1 */
	const char *hosts;      /* the nodes' names as a host list (see
				   below) of exactly nodes hosts, or NULL
				   for the default, node[1-N] zero-padded
				   to the digits of N (node[01-64]) */
	unsigned flags;         /* AR_SIMULATED, AR_ROLE_OWNERS; 0: a live
				   store whose owners are uids */
	const char *layout;     /* a host description (see ar_layout): the
				   hosts, their partitions and features;
				   then nodes and hosts are its, and hosts
				   must be NULL.  NULL: one partition,
				   "default", no features */
};

/*
 * How a store keeps time and who owns its reservations (struct
 * ar_config's flags), fixed when it is created.  A live store, the
 * default, follows the system clock (see ar_txn_begin): no writer can
 * move it ahead of real time.  A simulated store takes the clock its
 * writers give, for replays, tests and benchmarks.
 */
#define AR_SIMULATED   0x1      /* the clock is the writers' */
#define AR_ROLE_OWNERS 0x2      /* PostgreSQL: an owner is the database
				   role of the session, not a uid (see
				   ar_open) */

/* What ar_info() tells about an open store. */
struct ar_info {
	struct ar_config config;
	uint32_t format;        /* AR_FORMAT_VERSION of the store */
	int64_t clock;          /* latest time any writer used: time never runs back */
	uint64_t next_id;       /* the id the next reservation gets */
	uint64_t live;          /* reservations not yet purged or cancelled */
	uint64_t records;       /* all records, history included */
	uint64_t map_size;      /* the current map size, bytes (an LMDB
				   store's; 0 for a store without a map) */
};

/*
 * One size a moldable request accepts, and what the requester gains if
 * it is granted that size (seed 004's RSPB: its benefit levels): so
 * many nodes a job, and, for a parametric request molded by its copies,
 * so many copies.
 */
struct ar_level {
	uint32_t nodes;         /* nodes each job needs at once, >= 1 */
	uint32_t benefit;       /* any value: only the order counts */
	uint32_t jobs;          /* copies at this level, 1 to AR_JOBS_MAX,
				   all granted or none; 0: the request's
				   jobs.  A request's levels all give it,
				   or none does */
};
#define AR_LEVELS_MAX 8         /* levels in one request */

/*
 * A request, as the commands read it.  An MPI job is one job of `nodes`
 * nodes that all start together; a parametric request is `jobs`
 * independent copies, each placed on its own (ar_add) and each becoming a
 * reservation of its own.
 */
struct ar_request {
	int64_t earliest;       /* earliest start */
	int64_t latest;         /* latest start; == earliest for a fixed start */
	int64_t duration;       /* seconds, > 0 */
	uint32_t nodes;         /* nodes each job needs at once, >= 1 */
	uint32_t jobs;          /* independent copies of the job, >= 1 */
	uint32_t owner;         /* uid of the requester */
	const char *user;       /* label, NULL or at most AR_LABEL_MAX bytes */
	const char *job;        /* label, NULL or at most AR_LABEL_MAX bytes */
	unsigned flags;         /* AR_NOMOVE, AR_LATER, AR_PARTIAL */
	const char *client_key; /* NULL or "" for none, else at most
	                         * AR_CLIENT_KEY_MAX bytes: see ar_add */
	const uint32_t *hosts;  /* the hosts it must have, as indexes in the
				   store's host list, increasing; NULL */
	uint32_t nhosts;        /* ... and how many: then nodes == nhosts
				   and jobs == 1 */
	int64_t hold;           /* ar_add: > 0 to grant each copy as a hold
				   that expires this many seconds after the
				   clock unless confirmed (ar_confirm); 0
				   for a plain grant */
	unsigned resv_flags;    /* AR_RESV_MAINT, kept with each copy */
	const char *account;    /* the account the scheduler charges, kept
				   with each copy: NULL or "" for none, else
				   at most AR_LABEL_MAX bytes */
	const struct ar_level *levels;  /* a moldable request (ar_add,
				   ar_search, ar_suggest): the sizes it
				   accepts, distinct node counts (or node
				   and copy counts), tried as
				   ar_levels_order orders them, and then
				   nodes (and, where they give copies,
				   jobs) is not read; NULL for a rigid
				   one */
	uint32_t nlevels;       /* ... and how many, at most AR_LEVELS_MAX;
				   0 for a rigid request.  A moldable request
				   names no hosts and is not AR_PARTIAL, nor
				   a series */
	unsigned split;         /* ar_add, ar_search: 0, or how a request
				   that fits in no one interval of its
				   window may be split in time before its
				   deadline, latest + duration:
				   AR_SPLIT_ORR or AR_SPLIT_TARR (see
				   ar_add).  A split request names no
				   hosts, is not moldable, a hold,
				   AR_PARTIAL, nor a series */
	int64_t smallest;       /* AR_SPLIT_ORR: the shortest piece, in
				   seconds, 0 to duration (0: one slot);
				   0 for any other request */
	const char *partition;  /* the partition whose hosts it takes (and
				   those it may borrow from); NULL or "":
				   the default partition */
	const char *features;   /* the features every host must have,
				   comma-separated; NULL or "": none */
};

/* How a request may be split (struct ar_request's split). */
#define AR_SPLIT_ORR  1 /* the fewest pieces, at most AR_PIECES_MAX */
#define AR_SPLIT_TARR 2 /* the earliest free slots, in any number of
			 * pieces up to AR_SERIES_MAX */
#define AR_PIECES_MAX 4 /* ORR's threshold T: the most pieces */

/* What a reservation tells the scheduler beyond its shape (resv_flags). */
#define AR_RESV_MAINT 0x1       /* maintenance: the scheduler reserves its
				   hosts even where jobs run (Slurm's
				   MAINT and IGNORE_JOBS) */

/* How ar_add may place a request (struct ar_request's flags). */
#define AR_NOMOVE  0x1  /* first fit in the window only: move nothing */
#define AR_LATER   0x2  /* move others only later (FCFS-EDS); by default
                         * earlier or later, nearest first (FCFS-LRH) */
#define AR_PARTIAL 0x4  /* grant the copies that fit, not all or nothing */
#define AR_FORCE   0x8  /* maintenance that wins: cancel what it displaces */
#define AR_JOBS_MAX 4096        /* copies in one request */
#define AR_SERIES_MAX 4096      /* occurrences in one series */
#define AR_HOLD_MAX 31536000    /* the longest hold, a year, in seconds */

/* How a request repeats (ar_add_series). */
struct ar_repeat {
	int64_t every;          /* seconds from one occurrence to the next */
	uint32_t count;         /* occurrences; or 0, and they are ... */
	int64_t until;          /* ... those whose earliest start is at or
				   before this */
};
#define AR_DURATION_MAX 3155760000LL    /* 100 years, in seconds */

#define AR_LABEL_MAX 255
#define AR_CLIENT_KEY_MAX 255

/* The answer to a search, suggest or add. */
struct ar_answer {
	enum ar_status status;
	enum ar_reason reason;
	uint64_t id;            /* ar_add: the new reservation's id */
	int64_t start;          /* the start found (slot aligned) */
	int64_t end;            /* its end; -1 if past the year 9999 */
	uint32_t free;          /* least free nodes over [start, end) before adding */
	uint32_t cls;           /* the request's price class, 0 if the store
				   has none (see ar_set_classes) */
	int64_t price;          /* its price: class price x nodes x slots */
	int replayed;           /* ar_add: the client key was granted before,
	                         * nothing new was booked (see ar_add) */
	uint64_t conflict;      /* AR_R_HOSTS: the reservation holding a host
				   asked for, or one the plan could no longer
				   map; 0 if none is to blame */
	uint32_t occurrence;    /* ar_add of a series: the occurrence it
				   tells, from 1; 0 for any other request */
	uint32_t nodes;         /* a moldable request: the level granted,
				   found or suggested (its nodes and ... */
	uint32_t benefit;       /* ... its benefit); 0 when none fits, and
				   for a rigid request */
	uint32_t jobs;          /* ... and its copies, where the levels
				   give them (struct ar_level); else 0 */
	uint32_t pieces;        /* a split request granted or found in
				   pieces: how many (ar_pieces tells
				   them); 0 when it fits in one interval,
				   and for any other request */
	uint32_t pool;          /* the pool (ar_layout) it was granted,
				   found or suggested in; 0 in a store of
				   one pool */
};

/* A reservation record as stored. */
struct ar_resv {
	uint64_t id;
	uint32_t owner;         /* uid that made it */
	enum ar_status state;   /* AR_GRANTED, AR_CANCELLED, AR_FINISHED or
				   AR_EXPIRED */
	int64_t earliest;       /* as asked */
	int64_t latest;         /* as asked */
	int64_t duration;       /* as asked */
	int64_t start;          /* granted, slot aligned */
	int64_t end;            /* start + duration rounded up to whole slots */
	uint32_t nodes;
	uint32_t jobs;
	int64_t created;        /* store clock when granted */
	int64_t changed;        /* store clock when last changed; a finished
				   reservation's end */
	char user[AR_LABEL_MAX + 1];
	char job[AR_LABEL_MAX + 1];
	char client_key[AR_CLIENT_KEY_MAX + 1];  /* "" if none */
	uint32_t cls;           /* price class when granted, 0 for none */
	int64_t price;          /* price charged: class price x nodes x slots */
	int named;              /* its hosts were named when it was asked
				   for: they never change and it never moves */
	uint64_t series;        /* the series it is an occurrence of: the
				   id of its first occurrence granted; 0 */
	uint32_t occurrence;    /* ... and which, from 1; 0 if none */
	int64_t expires;        /* granted as a hold: when it expires unless
				   confirmed, at most its end; still set
				   once expired; 0 if never held, or
				   confirmed */
	unsigned resv_flags;    /* AR_RESV_MAINT, as asked */
	char account[AR_LABEL_MAX + 1]; /* "" if none */
	int confirmed;          /* granted as a hold and confirmed since
				   (a store of format 7 or later) */
	enum ar_use used;       /* what its site reported of its use
				   (format 8) */
	uint32_t pieces;        /* a piece of a split request (format 8):
				   how many pieces the request was granted
				   as, series naming its first and
				   occurrence this one's number; its
				   earliest, latest and duration are the
				   request's.  0 for any other */
	uint32_t pool;          /* the pool (ar_layout) all its hosts are
				   of, which never changes (format 9) */
	unsigned split;         /* a piece: how its request may be split,
				   AR_SPLIT_ORR or AR_SPLIT_TARR (a piece of
				   a format 8 store: AR_SPLIT_ORR); 0 for
				   any other */
	int64_t smallest;       /* ... and its smallest piece, as asked
				   (0: one slot) */
	int replaced;           /* a piece cancelled by ar_modify of its
				   request, which new records hold now (its
				   admission is theirs) */
};

/*
 * A price class (thesis ch. 5): requests whose book-ahead time, their
 * earliest start less the store clock when they are admitted, lies in
 * [ahead_min, ahead_max) belong to it, pay price per node per slot, and
 * are admitted only within the nested booking limits (see ar_add).
 * Classes are numbered from 1, highest price first.
 */
#define AR_CLASSES_MAX 8
#define AR_CLASS_NAME_MAX 31
struct ar_class {
	char name[AR_CLASS_NAME_MAX + 1];
	int64_t price;          /* per node per slot, in minor units, > 0 */
	int64_t ahead_min;      /* book-ahead range, seconds ... */
	int64_t ahead_max;      /* ... to this, exclusive; -1: no end */
	uint32_t limit;         /* nested booking limit b_j, nodes */
	uint32_t min;           /* its floor: ar_update_limits never sets
				   limit below it; 0: none (format 7) */
};

/* Fill cfg with the defaults: 64 nodes, 5-minute slots, 30 days, the
 * default maximum size, not shared, live, owners uids. */
void ar_config_default(struct ar_config *cfg);

/*
 * Create a store at where with configuration cfg, its clock set to now.
 * For a live store now is 0 for the system clock (a PostgreSQL store's:
 * its server's), or a time not later than that.  The store is made
 * whole before anyone sees it, so a creation killed at any moment leaves
 * no store or a complete one: an LMDB store under a temporary name in
 * its directory (made if missing, mode 0770 before the umask, with the
 * parents it lacks, as mkdir -p), then linked in; a PostgreSQL or memory
 * store in one transaction.  Creating a store that exists with the same
 * nodes, slot and horizon does nothing and succeeds (map_max is then
 * not applied: see ar_set_max_size); a store an older ar's interrupted
 * creation left is finished.  With cfg->group >= 0 an LMDB store's
 * directory becomes that group's, setgid and mode 2770, and its files
 * mode 0660 in that group, whatever the umask, so that the group's
 * members may read and write it; an existing store is given to the group
 * too (a store of another backend has no files: see ar_share).  Errors:
 * EINVAL (a bad configuration: nodes not in 1 .. 1,000,000, slot not in
 * 1 s .. 1 day, horizon not a whole number of slots or more than 10
 * million slots, map_max neither 0 nor at least 1 MiB, now not in the
 * years 1970-9999, hosts not a host list of exactly nodes hosts, flags
 * other than AR_SIMULATED and AR_ROLE_OWNERS, AR_ROLE_OWNERS for a store
 * that is not PostgreSQL's), AR_ELIVE (a live store, now later than the
 * system clock), AR_EWHERE (a URI whose store= name is bad), ENOTDIR (an
 * LMDB store's address is not a directory), AR_EEXIST (a store with
 * another nodes, slot, horizon, clock, owners, or hosts if they are
 * given), AR_EVERSION, AR_EUPGRADE (a store of an older format is
 * there), errno values from mkdir, chown, chmod, open and link,
 * AR_EFULL, ENOMEM, AR_ESERVER, the backend's codes.
 */
int ar_create(const char *where, const struct ar_config *cfg, int64_t now);

#define AR_RDONLY 0x1           /* open for reading only */

/*
 * Open the store at where (AR_RDONLY: for reading only).  On an LMDB
 * store the reader slots of dead processes are cleared, up to 4096
 * processes may hold transactions at once, and every file the store
 * needs is opened here (writer.lock too, unless AR_RDONLY), none later:
 * a program may give up the rights it opened them with (ar's commands
 * do when installed setgid).  A PostgreSQL store is one connection,
 * made here.  On a store whose
 * owners are roles (AR_ROLE_OWNERS), the session's role is asked once:
 * it owns what the handle books, and a superuser or a member of the role
 * ar_admin acts as root (0) does; the owner and who given to ar_add,
 * ar_cancel, ar_confirm and ar_modify are then not read.
 * Errors: AR_ENOSTORE (no store there; nothing is created), AR_EHALF (an
 * older ar's creation was interrupted: create it again), AR_EUPGRADE
 * (the store has an older format that ar_upgrade converts), AR_EVERSION
 * (any other format), AR_ECORRUPT, AR_EWHERE, ENOTSUP (owners are
 * roles, on a backend without roles), AR_ESERVER, ENOMEM, errno values
 * from open, the backend's codes.
 */
int ar_open(const char *where, unsigned flags, ar_store **sp);

/*
 * Convert the store at where to AR_FORMAT_VERSION, in one write
 * transaction taken under the writer lock (waiting at most wait_ms
 * milliseconds for another writer): a crash leaves the store either as
 * it was or converted.  *from is the format the store had (0 if an error
 * came first).  A store of the current format is left alone and
 * succeeds.  Formats 3 to 9 are converted: the databases added since
 * are created (the client key index, price classes and demand log of
 * format 4; the mapping of format 5; the hold index of format 6; the
 * index of what a reclaim may free of format 8, empty: no policy), a
 * store older than 5 gets the default node names, and records stay as
 * they are (format 6 adds the series of an occurrence and the expiry of
 * a hold, format 7 a reservation's flags and account and a hold's
 * being confirmed, format 8 a reservation's use reported, which older
 * records have not; format 9 partitions and format 10 a partition's
 * policy, which no older store has).  An older store's
 * clock was every writer's: it becomes live (format 7) unless flags
 * holds AR_SIMULATED, which keeps it so; its owners stay uids.  A clock
 * moved ahead of the system clock before stays so (it never runs back),
 * and ar_check tells it.  Errors: AR_ENOSTORE, AR_EVERSION (a format it
 * cannot convert), AR_ETIMEDOUT, AR_ECORRUPT, AR_EFULL (the store at its
 * maximum size), AR_EWHERE, ENOMEM, errno values from open, AR_ESERVER,
 * the backend's codes.
 */
int ar_upgrade(const char *where, unsigned flags, long wait_ms, int *from);

/*
 * An entry of one of a store's tables, as ar_dump gives it and ar_load
 * takes it: a store moves to another backend (or host) as its entries,
 * byte for byte, since every backend keeps the same bytes.  table is a
 * name of format/SCHEMA.md ("meta", "resv", ...).
 */
struct ar_entry {
	const char *table;
	const void *key;
	size_t key_size;
	const void *value;
	size_t value_size;
};

/*
 * Call fn with every entry of every table, as read transaction t sees
 * them, the meta's first, until fn returns nonzero, which is returned.
 * Errors: EACCES (a write transaction: its changes are partly in
 * memory), AR_ECORRUPT (no meta), the backend's codes, and fn's.
 */
int ar_dump(ar_txn *t, int (*fn)(const struct ar_entry *, void *),
    void *arg);

/*
 * Make the store at where (a path or a URI, as for ar_create) holding
 * exactly the entries next gives, in one transaction: next returns 1
 * with *e filled (valid until the next call), 0 after the last, or an
 * error, which is returned and leaves no store.  Run ar_check on the
 * result to verify what the entries mean.  Errors: EEXIST (a store is
 * there already), AR_ECORRUPT (the entries are not a store's: the meta
 * first, known tables, no key twice, a meta ar_open would read),
 * AR_EUPGRADE (they are an older format's: ar_upgrade then converts the
 * store made), ENOTSUP (a store whose owners are roles, for a backend
 * without roles), the errors of creating a store (ar_create's: errno
 * values, AR_EWHERE, AR_EFULL, ENOMEM, AR_ESERVER, the backend's
 * codes), and next's.
 */
int ar_load(const char *where, int (*next)(struct ar_entry *, void *),
    void *arg);

/*
 * Share the store at where, which is there, with group as ar_create does
 * with cfg->group: the directory becomes the group's, setgid and mode
 * 2770, and the store's files mode 0660 in that group.  Errors:
 * AR_ENOSTORE (no store there), EOPNOTSUPP (a PostgreSQL store: its
 * database's roles say who may use it), errno values from stat, chown,
 * chmod and open.
 */
int ar_share(const char *where, long group);

/*
 * After ar_open (or ar_create) failed with EACCES or EPERM: the path of
 * the store's directory or first file that this process may not use as
 * flags (AR_RDONLY or 0) asks, with its effective ids, into path (size
 * bytes, cut short if need be), so that a message can name it.  Returns
 * 0, or ENOENT if it finds none (and for a PostgreSQL store, which has no
 * files).
 */
int ar_denied(const char *where, unsigned flags, char *path, size_t size);
/* The backend an address names: "postgresql" for a postgresql:// or
 * postgres:// URI, "memory" for mem:NAME, else "lmdb" (a directory). */
const char *ar_backend_name(const char *where);

/* Close a store; every transaction on it must be ended first. */
void ar_close(ar_store *s);

/* Set how long a writer waits for another writer, in milliseconds
 * (default 30000; 0 means fail at once). */
void ar_set_wait(ar_store *s, long ms);

/* The pid of the process holding the writer lock (after AR_ETIMEDOUT),
 * or 0 if it is not known (a PostgreSQL store's writer may be on another
 * host). */
long ar_lock_holder(ar_store *s);

/* Let go of what the handle keeps between transactions (an LMDB
 * store's reader slot): call it before waiting a long time, e.g. for
 * input. */
void ar_idle(ar_store *s);

/*
 * Begin a transaction at time now; the store's clock becomes the later of
 * now and the clock it had.  On a live store (see AR_SIMULATED) now is 0
 * for the system clock, as the backend reads it (a PostgreSQL store's is
 * its server's), or a time that a write transaction may not ask to be
 * later than that (AR_ELIVE), so that no writer moves a live store past
 * real time; a read transaction may ("what if").  A write transaction
 * waits for the writer lock as set by ar_set_wait(), then releases every
 * hold that expired by the clock (see ar_confirm): its slots are free;
 * when there are none this costs one cursor lookup.  With a reclaim
 * policy it then reclaims every started reservation past its grace
 * period that has not reported use (see ar_use).  A read transaction
 * reads a hold past its expiry as AR_EXPIRED too (ar_get), but its slots
 * stay taken until a writer comes.  One transaction at a time per store
 * handle.  Errors: AR_ETIMEDOUT, EACCES (writing a read-only store),
 * AR_ELIVE (writing a live store at a now later than the system clock),
 * AR_ECORRUPT, AR_EFULL (releasing holds: ar_grow, then begin again;
 * ar_write does), ENOMEM, AR_ESERVER, the backend's codes.
 */
#define AR_WRITE 0x1
#define AR_FREEING 0x2          /* ar_grow, ar_write: the work frees room */
int ar_txn_begin(ar_store *s, unsigned flags, int64_t now, ar_txn **tp);

/* Commit and free a transaction; it is freed whatever the result, and
 * nothing it did is kept unless it returns 0.  Errors: AR_EFULL (call
 * ar_grow and redo the work), ENOSPC, EIO, AR_ESERVER, the backend's
 * codes. */
int ar_txn_commit(ar_txn *t);

/* Abandon and free a transaction: nothing it did is kept. */
void ar_txn_abort(ar_txn *t);

/*
 * Make room after AR_EFULL, for the next transaction: an LMDB store's
 * map doubles, up to the store's map_max (a store of another backend
 * has no map to grow: 0); no transaction may be open.  With AR_FREEING
 * (the work frees room, as a cancel or a purge does) up to map_max plus
 * a reserve of 1/16 of it, at least 1 MiB, so that a full store can
 * still be emptied.  Errors: AR_EFULL (that limit is reached),
 * AR_ECORRUPT, AR_ESERVER, the backend's codes.
 */
int ar_grow(ar_store *s, unsigned flags);

/*
 * Run fn(t, arg) in one write transaction and commit it, making room
 * (ar_grow with flags) and running fn again from the start when the
 * store is full (AR_EFULL), so fn must redo all its work each time.  fn returns 0 to
 * commit, AR_UNCHANGED to end the transaction without writing anything
 * of its own (ar_write then returns 0, and commits only the holds the
 * transaction released and the reservations it reclaimed, if any), or
 * an error code to abort; that code is
 * returned.  A transaction in which fn changed nothing but the clock is
 * ended as after AR_UNCHANGED: a write that changes nothing writes
 * nothing.  Errors: those of fn, ar_txn_begin, ar_txn_commit and ar_grow.
 */
int ar_write(ar_store *s, unsigned flags, int64_t now,
    int (*fn)(ar_txn *, void *), void *arg);

/*
 * Set the largest size the store may grow to, in bytes, in write
 * transaction t (an LMDB store's map; another backend keeps it and has
 * no map).  Errors: EACCES (read transaction), EINVAL (below 1 MiB or
 * below the map's current size), the backend's codes.
 */
int ar_set_max_size(ar_txn *t, uint64_t map_max);

/* Describe the store as seen by transaction t.  Errors: the backend's
 * codes (of reading an LMDB store's map size). */
int ar_info(ar_txn *t, struct ar_info *info);

/* The store clock of transaction t (the later of its now and the store's). */
int64_t ar_txn_now(const ar_txn *t);

/*
 * GarQ Algorithm 2 over a window: the first start in [earliest, latest]
 * where nodes * jobs nodes are free for the whole duration (for one job,
 * the start ar_add with AR_NOMOVE would grant).  Fills ans with
 * AR_AVAILABLE and that interval, or AR_UNAVAILABLE, the reason and the
 * interval at the window's first start; and the least free node count
 * over the interval.  Errors: EINVAL (a malformed request: zero nodes,
 * jobs or duration, or latest < earliest; a moldable request's levels
 * malformed, see struct ar_request), AR_ECORRUPT, ENOMEM (the plan
 * mapped, while named hosts are in it), AR_ESERVER, the backend's codes.
 * A moldable request: see ar_levels_order.  A split request (one job:
 * EINVAL for more, whose copies only ar_add splits in turn): as a
 * rigid one if it fits in one interval of its window (AR_SPLIT_TARR:
 * at its first start); else the slices
 * ar_add would book (see there), AR_AVAILABLE from the first one's
 * start to the last one's end with the least free count over them and
 * ans->pieces, ar_pieces() telling each; or AR_UNAVAILABLE, AR_R_SLICES.
 * Where named hosts are in the plan, the slices are found in the rings
 * alone: ar_add may still refuse them, AR_R_HOSTS.
 */
int ar_search(ar_txn *t, const struct ar_request *rq, struct ar_answer *ans);


/*
 * Put a moldable request's levels in the order they are tried (RSPB as
 * seed 004 reads: the highest benefit that fits): benefit, highest
 * first, and of equal benefits the larger first (nodes times jobs, 0
 * jobs counting as 1).  ar_add, ar_search and ar_suggest try a moldable
 * request's levels in this order, each as a rigid request of that many
 * nodes (and copies, where the levels give them) over the request's
 * whole window, and answer for the first that fits (ans->nodes,
 * ans->benefit, ans->jobs), or with the last one's refusal when none
 * does: every level was tried.  Levels on copies mold a parametric
 * request (many jobs of a node, say) that has no smaller node count.
 */
void ar_levels_order(struct ar_level *levels, uint32_t n);

/*
 * GarQ Algorithm 4: up to k alternatives, each the earliest start of a
 * separate run of starts where the request fits, at or after the request's
 * earliest start (or the clock, if that is later) and no later than limit
 * seconds past it, nor the horizon: a window (latest start) longer than
 * the limit is searched only up to the limit.  Stores them in
 * alts[0 .. *n) with status AR_SUGGESTED; *n == 0 means none (then
 * alts[0] holds AR_UNAVAILABLE and the reason).  A moldable request:
 * the alternatives of the first level that has any (see
 * ar_levels_order), each telling that level.
 * Errors: as ar_search.
 */
int ar_suggest(ar_txn *t, const struct ar_request *rq, int64_t limit,
    struct ar_answer *alts, size_t k, size_t *n);

/*
 * The longest job that fits from a start (ar-suggest --longest): of the
 * starts in [rq->earliest, rq->latest], as ar_search takes them, the one
 * from which rq->nodes x rq->jobs nodes stay free the longest, up to the
 * horizon or, if rq->duration > 0, at most that long; the earliest of
 * equals.  Free as ar_add admits: within the nodes and the booking limits
 * of the request's class, and where the request names hosts or the plan
 * holds reservations that named theirs, on hosts: the plan with the job
 * must map (ar_map), so the end found in the rings is mapped, and if it
 * does not map, the longest end that does is found by halving (about
 * log2 of the horizon's slots mappings), at the start found.  ans:
 * AR_SUGGESTED, the start and end, the least free count over them and
 * the price of that shape; or AR_UNAVAILABLE, the start asked and why
 * (AR_R_FULL, AR_R_BOOKING, AR_R_HOSTS, AR_R_PAST, AR_R_HORIZON: no slot
 * before the horizon, AR_R_CAPACITY) with the free count in its slot and
 * no end (-1).  The rest of rq is read as ar_search reads it, so that a
 * field requests gain (a partition) counts here too.  Errors: EINVAL (a
 * malformed request, but a duration of 0; a moldable one), AR_ECORRUPT,
 * ENOMEM, AR_ESERVER, the backend's codes.
 */
int ar_longest(ar_txn *t, const struct ar_request *rq, struct ar_answer *ans);

#define AR_WINDOW 0x1   /* ar_furthest: it may take another start in its
			   window */

/*
 * How far reservation id can be extended (ar-suggest --extend): the
 * latest end it can reach at its start, moving no one, its own slots
 * counted as free, within the nodes, the booking limits of its class,
 * the horizon and, as ar_longest says, the hosts: what ar_modify grants
 * for that end.  A reservation that has started keeps its start and
 * nodes (ar_modify keeps them), so it grows from its end.  With
 * AR_WINDOW one that has not started and is not a hold may take any
 * start in its window: the answer is then the longest it can be, at
 * the start ar_modify chooses for that duration (its own if it fits
 * there, else the earliest in its window); a started one, a hold, a
 * piece of a split request (which never moves) and one whose window
 * holds one start answer as without.  ans: AR_SUGGESTED,
 * the start, the new end, the least free count over the new shape (from
 * the clock's slot for a started one) with its own nodes counted free,
 * its class and the price of that shape; or AR_UNAVAILABLE when it cannot
 * grow, its interval as it is and why (AR_R_FULL or AR_R_BOOKING in the
 * slot after its end, whose free count it tells; AR_R_HORIZON; AR_R_HOSTS
 * and the conflict).  ans->id is id.  Errors: EINVAL (unknown flags),
 * AR_ENOTFOUND, AR_EDONE (cancelled, expired or ended), ENOMEM,
 * AR_ECORRUPT, AR_ESERVER, the backend's codes.
 */
int ar_furthest(ar_txn *t, uint64_t id, unsigned flags,
    struct ar_answer *ans);

/*
 * Admit the request in transaction t (a write transaction), each copy at
 * the earliest start in [earliest, latest] where it fits (thesis Alg.
 * 3.1/3.2 lines 16-25).  Where none fits and the flags allow, granted
 * reservations that have not started and whose own window allows it are
 * moved inside their windows to make room (FCFS-LRH, or FCFS-EDS with
 * AR_LATER); reservations with a fixed start never move.  All copies are
 * granted or none (unless AR_PARTIAL: then the first copies are granted
 * and those after the first that finds no room are refused, AR_R_FULL);
 * a refusal books and moves nothing, and is kept only as an entry of
 * the demand log (see ar_demand), the outcome of every request being
 * demand.  ans tells the
 * first copy granted (AR_GRANTED, its id, interval and free count, as in
 * struct ar_placed) or the refusal, its reason and the free count at the
 * window's first start; ar_added() lists every copy granted and every
 * move.
 *
 * A request with a client key (an idempotency key) is booked once per
 * owner: the key is recorded with the copies granted, and a later request
 * of the same owner with the same key books nothing.  It is answered with
 * ans->replayed set, the first copy's id, interval and current state
 * (AR_GRANTED, or AR_CANCELLED or AR_FINISHED if it has been since; free
 * is 0), and ar_added() lists every copy granted then, as it is now, and
 * no move.  Starts are not compared (a retry's relative start may differ);
 * if nodes, jobs or duration differ (from the first copy as it is now,
 * after any ar_modify), the request is refused with reason AR_R_KEY and
 * ans->id naming the reservation that holds the key.  A
 * refused request records no key, so retrying it tries it again.
 *
 * With rq->hold > 0 every copy granted is a hold: it takes its slots as
 * any grant does, never moves to make room for others, and expires at
 * the clock plus rq->hold, or at its end if that comes first, unless
 * ar_confirm confirms it before; ar_added() tells each copy's expiry.
 *
 * A moldable request (rq->nlevels > 0) is admitted at the first of its
 * levels that is granted (see ar_levels_order); ans->nodes,
 * ans->benefit and ans->jobs tell that level.  A retry with its client
 * key matches if the copies granted have the nodes (and number) of one
 * of its levels.
 *
 * A split request (rq->split) is admitted as any request is if it fits
 * in one interval of its window, AR_SPLIT_TARR only at its first start
 * (moves included).  Where it does not (AR_R_FULL, AR_R_BOOKING), it is
 * granted in pieces before its deadline, latest + duration (one slice:
 * a reservation like any other): with AR_SPLIT_ORR, of the sets of slices
 * of [earliest, deadline) where its nodes are free (in the node ring
 * and within its class's booking limits), in at most AR_PIECES_MAX
 * slices each at least rq->smallest long, the one of the fewest
 * slices, then the earliest end, then the earliest slots; with
 * AR_SPLIT_TARR, the earliest free slots of [earliest, deadline), in
 * any number of slices, even where one interval later would fit.  The
 * pieces together are the request's slots; each is a reservation of its
 * own at a fixed start that moves nothing and never moves, linked as a
 * series' occurrences are (ar_resv's series, occurrence and pieces;
 * their earliest, latest and duration are the request's), all granted
 * or none in t.  ans tells the request: the first piece's id and start,
 * the last one's end, the least free count over the pieces, the price
 * of them all and ans->pieces; ar_added() lists the pieces.  No set of
 * slices: refused, AR_R_SLICES, as the one interval was told.  The
 * demand log has one entry for it; a client key holds its pieces, and
 * a retry of a split request is answered with them (ans->pieces).  A
 * split request of several copies (rq->jobs > 1) splits each copy as
 * above as it would be split alone, in order, against the plan with the
 * copies before it, which it does not move; all copies or none (more
 * than AR_SERIES_MAX pieces in all: AR_R_SLICES).  Each copy's pieces
 * are linked among themselves; ans tells the first copy (its pieces,
 * their price), or the refusal of the copy that found no room;
 * ar_added() lists every piece of every copy, and the client key holds
 * them all.
 *
 * Errors: EINVAL (a malformed request or moldable levels, a client key
 * longer than AR_CLIENT_KEY_MAX, a split request that
 * names hosts, is moldable, a hold, AR_PARTIAL, or asks for a smallest
 * piece longer than its duration, or any with split TARR or none; a
 * partition or feature the store does not have, named hosts of more
 * than one pool or not of the partition and features asked), EACCES
 * (read transaction), AR_ECORRUPT (a key entry that does not match its
 * records), AR_EFULL, ENOMEM,
 * AR_ESERVER, the backend's codes.
 *
 * In a store of partitions (ar_layout) the reservation takes all its
 * hosts from one pool, kept with it: of the pools rq's partition and
 * features make eligible, the one where it fits first, the first of
 * them on a tie (search and suggest choose alike); a request needing
 * more nodes than any of them has is refused as AR_R_CAPACITY.
 */
int ar_add(ar_txn *t, const struct ar_request *rq, struct ar_answer *ans);

/*
 * Admit a series as ar_add admits a request: the occurrences of rq (jobs
 * 1) rep says, occurrence k (from 0) with its window k x rep->every
 * later, each admitted as a request of its own, in order, and each
 * becoming a
 * reservation of its own; the reservations name the series by the id of
 * the first one granted (their ids follow each other) and their
 * occurrence number (ar_resv's series and occurrence).  Occurrence k's
 * earlier ones do not move for it.  All are granted or none: the first
 * occurrence refused refuses the series, for its reason (an occurrence
 * beyond the horizon for AR_R_HORIZON), and the store is left as it was;
 * with AR_PARTIAL each occurrence that fits is granted and the others
 * are refused.  More than AR_SERIES_MAX occurrences are refused, reason
 * AR_R_CAPACITY.  ans tells the first occurrence granted, or the one
 * that refused the series, with its occurrence number; ar_occurrences()
 * tells each; ar_added() lists the occurrences granted and every move.
 * The demand log has an entry per occurrence (those not tried: refused
 * for the series' reason), and a client key holds the whole series
 * (jobs in its comparison being the number of occurrences).
 *
 * Errors: those of ar_add, and EINVAL for jobs not 1, every not in 1 s
 * .. AR_DURATION_MAX, or neither count nor until (at or after the
 * earliest start, before the year 10000).
 */
int ar_add_series(ar_txn *t, const struct ar_request *rq,
    const struct ar_repeat *rep, struct ar_answer *ans);

/*
 * What the last ar_add_series on t answered for its occurrences,
 * in order, each as ar_add answers a request with its occurrence
 * number: with AR_PARTIAL every one; otherwise every one if the series
 * was granted, or the one that refused it.  None after ar_add, or a
 * replay.  The array belongs to t and lasts until the next ar_add or
 * ar_add_series.
 */
void ar_occurrences(const ar_txn *t, const struct ar_answer **occ,
    size_t *n);

/* A copy granted, or a reservation moved, by the last ar_add. */
struct ar_placed {
	uint64_t id;
	int64_t start;          /* where it is now */
	int64_t end;
	int64_t from;           /* a move: where it started before */
	uint32_t free;          /* a copy: least free nodes over [start, end)
	                         * when it was placed, after the moves made
	                         * for it, before it (earlier copies count);
	                         * a move: 0 */
	int64_t expires;        /* a copy granted as a hold: when it expires
				   unless confirmed; else 0 */
};

/*
 * What the last ar_add on t did: the copies granted, in order (for a
 * replay, those granted under the key before, where they are now), and
 * the earlier reservations it moved (each once, from its old start to its
 * new one).  The arrays belong to t and last until the next ar_add.
 */
void ar_added(const ar_txn *t, const struct ar_placed **granted, size_t *ng,
    const struct ar_placed **moved, size_t *nm);

/*
 * The slices the last ar_search on t found for a split request, in
 * order, each as struct ar_placed tells a copy (id 0); none if it was
 * not found in pieces.  The array belongs to t and lasts until the next
 * ar_search or ar_add.
 */
void ar_pieces(const ar_txn *t, const struct ar_placed **pieces, size_t *n);

/*
 * Maintenance that wins: an ar_add of a request with AR_RESV_MAINT in
 * resv_flags that names its hosts, which admission as above refuses, is
 * placed at the first start of its window all the same, its hosts taken:
 * the reservations that have not started and did not name hosts are
 * mapped onto other hosts, keeping their times, where the plan with the
 * maintenance maps so; the rest are displaced.  Only reservations of its
 * pool over part of its time are: where moving one would leave another
 * without hosts, the one moved is displaced.  Without AR_FORCE in
 * rq->flags a displacement refuses the maintenance (AR_R_DISPLACED,
 * ans->conflict the first displaced) and changes nothing; with it they
 * are cancelled and the maintenance granted.  A started or named
 * reservation on its hosts refuses it (AR_R_HOSTS and the conflict), as
 * does, should the greedy sweep find it so, one outside its time left
 * without hosts whatever is displaced.  ar_displaced tells the
 * reservations the last ar_add displaced (or would have), in the order
 * found; the array belongs to t and lasts until the next ar_add.  A
 * maintenance admitted without displacing anything tells none.
 */
void ar_displaced(const ar_txn *t, const uint64_t **ids, size_t *n);

/* Read reservation id into r: a hold whose expiry came by the store clock
 * reads as AR_EXPIRED, changed at its expiry, whether or not a writer has
 * released it (see ar_txn_begin); any other granted one that ended by the
 * clock reads as AR_FINISHED, changed at its end, whether or not it was
 * purged.  Errors: AR_ENOTFOUND, AR_ECORRUPT, AR_ESERVER, the backend's
 * codes. */
int ar_get(ar_txn *t, uint64_t id, struct ar_resv *r);

/*
 * Cancel reservation id on behalf of uid who (0 is root and may cancel
 * anything; where owners are roles, the session's role: see ar_open):
 * its remaining slots are freed and the record is kept as history with
 * state AR_CANCELLED.  The record as it is afterwards goes to r.
 * Errors: AR_ENOTFOUND, AR_EPERM, AR_EDONE (already cancelled or
 * ended), EACCES (read transaction), AR_ECORRUPT, AR_EFULL, AR_ESERVER,
 * the backend's codes.
 * Cancelling a hold releases it: that is how a hold is given up.
 * Cancelling a piece of a split request cancels every piece of it still
 * live: it is AR_EDONE only if none is (r is the piece named).
 */
int ar_cancel(ar_txn *t, uint64_t id, uint32_t who, struct ar_resv *r);

/*
 * Confirm the hold on reservation id, on behalf of uid who (0 is root),
 * in write transaction t: it stays where it is and no longer expires
 * (r->expires becomes 0, r->confirmed 1, changed the clock).  Confirming
 * a hold confirmed before changes nothing and succeeds, so that a
 * confirmation may be retried; a reservation that was never a hold is
 * refused, AR_ENOTHOLD (so is a hold confirmed in a store of format 6
 * or older, whose records did not keep that).  The record as it is
 * afterwards goes to r, also on AR_EDONE (its state then says whether
 * it expired, was cancelled or finished) and AR_ENOTHOLD.  Errors:
 * AR_ENOTFOUND, AR_EPERM, AR_EDONE, AR_ENOTHOLD, EACCES (read
 * transaction), AR_ECORRUPT, AR_EFULL, AR_ESERVER, the backend's codes.
 */
int ar_confirm(ar_txn *t, uint64_t id, uint32_t who, struct ar_resv *r);

/* The status to tell of reservation r: AR_HELD for a granted one that
 * is held (its expires set), else its state. */
enum ar_status ar_resv_status(const struct ar_resv *r);

/*
 * Reclaiming what is not used (seed 004's DRR).  A site reports whether
 * a reservation is in use (ar_use, from its scheduler); a store with a
 * reclaim policy reclaims a started reservation that has not reported
 * use, by no report or by AR_USE_NO, within the grace period of its
 * class (or the store's) from its start: the first write transaction
 * that begins past it (ar_txn_begin) frees the rest of it, from the
 * slot its clock is in (as a cancel does), and the record ends there
 * (after its first slot at the earliest) with state AR_RECLAIMED,
 * changed then.  A reservation that ended
 * before any write transaction began past its grace is not reclaimed:
 * nothing was left to free.  A reservation that reported use is never
 * reclaimed.  Without a policy, the default, nothing is reclaimed.
 */
struct ar_reclaim {
	int64_t grace;          /* the store's: seconds, > 0; 0: never */
	int64_t cls[AR_CLASSES_MAX];    /* class i + 1's: seconds, > 0; 0:
					   the store's; -1: never */
};

/* The reclaim policy as transaction t sees it (all zero: none).  It
 * returns 0: t read it when it began. */
int ar_reclaim_policy(ar_txn *t, struct ar_reclaim *p);

/*
 * Make p the reclaim policy in write transaction t.  Graces are at most
 * AR_DURATION_MAX; a class's may be set whether or not the class exists
 * (it applies while a class of that number does).  Setting or changing
 * a policy reads every live reservation once, to index those that have
 * not reported use, and reclaims those already past their grace, as the
 * next write transaction would; removing it drops that index.  Errors:
 * EINVAL (a
 * grace out of range), EACCES (read transaction), AR_ECORRUPT, ENOMEM,
 * AR_EFULL, AR_ESERVER, the backend's codes.
 */
int ar_set_reclaim(ar_txn *t, const struct ar_reclaim *p);

/*
 * Report the use of reservation id, on behalf of uid who (0 is root and
 * may report on any), in write transaction t: AR_USE_YES or AR_USE_NO.
 * Reporting what was reported changes nothing, and AR_USE_YES is final:
 * a later AR_USE_NO changes nothing either.  The record as it is
 * afterwards goes to r, also on AR_EDONE (its state then says whether it
 * was reclaimed, cancelled, finished or expired).  Errors: EINVAL (used
 * neither), AR_ENOTFOUND, AR_EPERM, AR_EDONE, EACCES (read transaction),
 * AR_ECORRUPT, AR_EFULL, AR_ESERVER, the backend's codes.
 */
int ar_use(ar_txn *t, uint64_t id, uint32_t who, enum ar_use used,
    struct ar_resv *r);

/*
 * Change reservation id, on behalf of uid who (0 is root and may change
 * anything), to the window (earliest, latest), duration and nodes of rq,
 * in write transaction t; rq's jobs must be 1, and its labels, client
 * key, owner and flags other than AR_NOMOVE and AR_LATER are not read.
 * The new shape is admitted as ar_add admits a request, moves of others
 * included, with the reservation's own slots counted as free: one that
 * has not started keeps its start if the new window holds it and the new
 * shape fits there without moving anything, and otherwise goes where a
 * request would; one that has started (its start at or before the
 * clock) keeps its start and nodes, and only its slots from the clock's
 * slot on change.  Its id, owner, labels, client key (and its entry in
 * the key index), price class (the price is recomputed for the new
 * shape) and named hosts stay, and a hold stays one, its expiry brought
 * to its new end if that comes first; changed becomes the clock.  A modify is
 * not entered in the demand log.  ans tells the new shape as ar_add
 * tells a grant, and ar_added() lists the reservation, from its old
 * start, and the moves; or the refusal and why, and the store is as it
 * was: the reasons of ar_add, or AR_R_STARTED (a started one asked to
 * start elsewhere, or for other nodes), AR_R_PAST (a started one would
 * end by the clock), AR_R_HOSTS (one that named its hosts asked for
 * other nodes).  A piece of a split request (id any of its pieces) is
 * changed as its request: every live piece is cancelled and the request
 * as rq says admitted again as ar_add admits a split request, in new
 * pieces with new ids (ans and ar_added() as ar_add tells them), its
 * owner, labels and client key kept (the key then names the new
 * pieces); rq->split and rq->smallest are its new rule, or (split 0)
 * the rule and smallest its pieces keep, a smallest longer than
 * rq->duration taken as that; refused, nothing changed, as ar_add
 * refuses it, or AR_R_STARTED once a piece has started (ans telling
 * that piece).  Errors, before anything changed: EINVAL (a malformed
 * request, jobs not 1, hosts named; a split rule or smallest for a
 * reservation that is no piece; a split rule split_check refuses),
 * EACCES (read transaction),
 * AR_ENOTFOUND, AR_EPERM, AR_EDONE (cancelled or ended); and, leaving a
 * change half made, so that t must be aborted: AR_ECORRUPT, AR_EFULL,
 * ENOMEM, AR_ESERVER, the backend's codes.
 */
int ar_modify(ar_txn *t, uint64_t id, uint32_t who,
    const struct ar_request *rq, struct ar_answer *ans);

/*
 * Change each reservation ids[i] as ar_modify changes it to rqs[i], on
 * behalf of who, all or none (ar-add --modify series=N): one at a time
 * in order, each seeing the ones before changed, in one savepoint.
 * ans[i] tells each as ar_modify does, and ar_added() lists them all
 * and the moves (each once, from where it was).  If one is refused, the
 * store is as it was, *failed is its index and ans[*failed] says why;
 * else *failed is n.  Errors: those of ar_modify, before anything
 * changed (*failed the one at fault), and ENOMEM; on AR_ECORRUPT,
 * AR_EFULL, AR_ESERVER or the backend's codes t must be aborted.
 */
int ar_modify_all(ar_txn *t, const uint64_t *ids, size_t n, uint32_t who,
    const struct ar_request *rqs, struct ar_answer *ans, size_t *failed);

/*
 * The live reservations (granted, not ended by the store clock) of
 * series series: up to max of their ids in ids, ascending, and in *n how
 * many there are.  Errors: AR_ECORRUPT, AR_ESERVER, the backend's codes.
 */
int ar_series(ar_txn *t, uint64_t series, uint64_t *ids, size_t max,
    size_t *n);

/*
 * Find the live reservations (granted, not ended by the store clock)
 * labelled user and job (both must match; an empty or NULL label matches
 * only an empty one, and reservations with neither label are not indexed,
 * so they are never found) and store up to max of their ids in ids,
 * ascending; *n is how many there are in all.  The label index keeps
 * ended ones until a purge, so each record is read to tell.  Errors:
 * EINVAL (a label longer than AR_LABEL_MAX), AR_ECORRUPT, AR_ESERVER,
 * the backend's codes.
 */
int ar_find(ar_txn *t, const char *user, const char *job, uint64_t *ids,
    size_t max, size_t *n);

/*
 * Purge: every reservation that has ended by the store clock (finished)
 * leaves the indexes, which keep it until then, in order of end, then id;
 * fn, if not NULL, is called with each one (AR_FINISHED, changed at its
 * end).  Without fn an unlabelled reservation leaves them without its
 * record being read.  Ring slots before the clock are reused lazily.  A
 * purge that finds nothing to take out changes nothing.
 * Errors: EACCES (read transaction), AR_ECORRUPT, AR_EFULL, AR_ESERVER,
 * the backend's codes, and fn's nonzero return.
 */
int ar_purge(ar_txn *t, int (*fn)(const struct ar_resv *, void *),
    void *arg);

#define AR_LIVE 0x1             /* ar_list: only live reservations */

/*
 * Call fn for every reservation record in id order (with AR_LIVE only
 * those granted and not ended), stopping at fn's first nonzero return,
 * which is returned.  Records read as ar_get() reads them.  Errors:
 * AR_ECORRUPT (a record that does not decode), AR_ESERVER, the backend's
 * codes, and fn's nonzero return.
 */
int ar_list(ar_txn *t, unsigned flags,
    int (*fn)(const struct ar_resv *, void *), void *arg);

/*
 * Check the store's invariants: for every slot from the clock to the
 * horizon, the ring's count equals the sum of the live reservations
 * covering it and never exceeds the capacity; every start-list entry has a
 * live record starting in that slot and every live record is listed; every
 * granted start lies in its window; the label index agrees; every record
 * with a client key is in the key index, under its owner and key, and
 * every entry there names such records; every hold is in the hold index
 * under its expiry, which is no later than its end nor (once a write
 * transaction began at that clock) than the clock, and every entry
 * there names such a hold; with a reclaim policy, every live reservation
 * that has not reported use and has a grace is in the index of what a
 * reclaim may free under its due time, unless that came by the clock
 * (see ar_use), and every entry there names such a reservation.  The
 * mapping too: the host list
 * names the nodes; every pin belongs to a reservation that named its
 * hosts and has not been purged, and every such one has its pin; the
 * kept mapping is well formed, holds no host twice at once among the
 * live reservations, and a named one's is its pin; and the plan maps as
 * ar_map would map it now, verified host by host: each reservation gets
 * exactly its nodes hosts, named and started ones keep theirs, and no
 * host serves two at once.  And the series: the records from a series'
 * id to each of its occurrences are of that series, their occurrence
 * numbers rising, of one owner.  And a live store's clock is not ahead
 * of the system clock.  fn, if not NULL, is called with a one-line
 * description of each violation; *bad is how many there were (what the
 * store holds wrong is a violation, not an error).  Errors: ENOMEM,
 * AR_ESERVER, the backend's codes.
 */
int ar_check(ar_txn *t, void (*fn)(const char *, void *), void *arg,
    uint64_t *bad);

/* A store's price classes and how long it keeps its demand log. */
struct ar_pricing {
	size_t n;               /* classes; 0: none, admission as without */
	struct ar_class c[AR_CLASSES_MAX];
	int64_t retention;      /* seconds a purge keeps demand entries */
};

/* The price classes as transaction t sees them.  It returns 0: t read
 * them when it began (an error then is ar_txn_begin's). */
int ar_pricing(ar_txn *t, struct ar_pricing *p);

/*
 * Replace the price classes in write transaction t, as a whole.  The
 * classes come highest price first: prices positive and falling; limits
 * nested, b_1 the capacity and each no larger than the one before; each
 * floor no larger than its limit; the book-ahead ranges, taken in order,
 * cover [0, forever) with neither gap nor overlap.  Reservations granted
 * under older limits stay.  On EINVAL *bad is the index of the class and
 * *field names the field at fault ("price", "limit", "min", "ahead_min",
 * "ahead_max", "name", "retention", "class").  Errors: EINVAL, EACCES
 * (read transaction), EBUSY (the number of classes would change while a
 * live reservation has a class), AR_ECORRUPT, ENOMEM, AR_ESERVER, the
 * backend's codes.
 */
int ar_set_pricing(ar_txn *t, const struct ar_pricing *p, size_t *bad,
    const char **field);

/*
 * A partition's own policy (format 10), where the store's would apply
 * otherwise.  Booking limits for the store's classes, nested as theirs
 * are, held within the partition: a request granted in one of its
 * pools (borrowed ones too: a request of partition A granted in B's
 * pool counts in B) is admitted only if, over every slot of its
 * interval and for every class i from 2 to its own, the nodes of class
 * i and cheaper in the partition's pools, with it, stay within
 * limit[i - 1]; it is then not held to the store's limits, which still
 * count it (a request in a partition without limits is held to the
 * store's limits, over every pool, as before).  And a reclaim grace
 * (see struct ar_reclaim) for the reservations in its pools: a class's
 * grace comes first, then the partition's, then the store's.
 */
struct ar_part_policy {
	size_t n;               /* classes limited: 0, the store's limits
				   hold; else the store's number of classes */
	uint32_t limit[AR_CLASSES_MAX]; /* b_1 .. b_n within the partition:
				   limit[0] its hosts (as they are when
				   read), each at most the one before */
	int64_t grace;          /* seconds, > 0; 0: the store's; -1: never */
};

/* Partition partition's policy (ar_layout's index; all zero: none) as
 * transaction t sees it.  Errors: AR_ENOTFOUND (no such partition),
 * AR_ECORRUPT, ENOMEM, AR_ESERVER, the backend's codes. */
int ar_partition_policy(ar_txn *t, uint32_t partition,
    struct ar_part_policy *p);

/*
 * Make p the policy of partition partition in write transaction t,
 * replacing its limits and its grace.  Its live reservations count in
 * its limits from now on (reservations granted under older limits
 * stay); a grace that changes indexes what may be reclaimed again and
 * reclaims what is past it, as ar_set_reclaim does.  Setting a number
 * of classes other than the partition's (ar_set_pricing) drops every
 * partition's limits, their graces kept.  On EINVAL *bad is the class
 * (index) and *field the field at fault ("class": n is neither 0 nor
 * the store's number of classes; "limit": limit[0] is not the
 * partition's hosts, or one is above the one before; "reclaim": grace
 * out of range).  Errors: EINVAL, EACCES (read transaction),
 * AR_ENOTFOUND (no such partition), ENOTSUP (a store not created from a
 * host description: its one partition has the store's policy),
 * AR_ECORRUPT, ENOMEM, AR_EFULL, AR_ESERVER, the backend's codes.
 */
int ar_set_partition_policy(ar_txn *t, uint32_t partition,
    const struct ar_part_policy *p, size_t *bad, const char **field);

/* An admission outcome, as the demand log keeps it. */
struct ar_demand {
	uint64_t seq;           /* its place in the log, from 1 */
	int64_t at;             /* store clock when it was asked */
	int64_t earliest;       /* asked start */
	int64_t duration;
	uint32_t nodes;
	uint32_t jobs;
	uint32_t granted;       /* copies granted */
	uint32_t cls;
	enum ar_reason reason;  /* of a refusal */
	uint32_t partition;     /* the partition (ar_layout's index + 1) it
				   was granted in, a lender's if it
				   borrowed, or that a refusal asked for
				   (format 10); 0: not known, logged
				   before */
};

/*
 * Call fn for every demand entry asked at or after since, oldest first,
 * until it returns nonzero (which is returned).  ar_add logs every
 * outcome with price classes, and every refusal without (a grant's
 * record tells the rest); ar_purge drops entries older than the
 * retention, ar_forget those older than it is told.  Errors: AR_ECORRUPT,
 * AR_ESERVER, the backend's codes, and fn's nonzero return.
 */
int ar_demand(ar_txn *t, int64_t since,
    int (*fn)(const struct ar_demand *, void *), void *arg);

/*
 * Forecast each class's demand per slot from the demand log: every
 * request asked at or after since, granted or refused, asks for its
 * nodes x jobs over its asked interval [earliest, earliest + duration);
 * a class's demand in a slot is the sum of what its requests ask there.
 * Over the slots whose demand the log holds whole (from the first
 * entry's slot plus the furthest any entry asked ahead, to the clock),
 * or where the history is too short for any, over the slots asked for,
 * mean[j] and sd[j] (population standard deviation) are class j + 1's;
 * 0 without demand.
 * Errors: ENOMEM, AR_ECORRUPT, AR_ESERVER, the backend's codes.
 */
int ar_forecast(ar_txn *t, int64_t since, double *mean, double *sd);

/* The least free node count over slots [from, to) (seconds, slot aligned),
 * for reports and tests.  Errors: EINVAL (outside the ring's window),
 * AR_ECORRUPT, AR_ESERVER, the backend's codes. */
int ar_free(ar_txn *t, int64_t from, int64_t to, uint32_t *free);

/*
 * Revenue management (Umar's thesis, ch. 5).  Price classes, numbered
 * 1..n from the highest price down, share the capacity under nested
 * booking limits: class j and every cheaper class together may hold at
 * most b_j nodes, b_1 being the capacity, so that the protection level
 * y_j = C - b_(j+1) stays kept for classes 1..j.
 */
#define AR_FARE_MAX 1e12        /* the largest price, mean or sd */

/* How ar_booking_limits protects the classes above a boundary. */
enum ar_rm_method {
	AR_EMSR_B = 0,          /* EMSR-b: they count as one class */
	AR_EMSR_A,              /* EMSR-a: each protects its own share */
	AR_LITTLEWOOD           /* Littlewood's rule: two classes only */
};

/* A price class: its price and demand forecast, then what it is given. */
struct ar_fare_class {
	double price;           /* per node and slot, > 0 */
	double mean;            /* forecast demand, nodes per slot, >= 0 */
	double sd;              /* its standard deviation, >= 0; the last
	                         * class's mean and sd are not read */
	uint32_t protection;    /* y_j: nodes kept for classes 1..j from the
	                         * cheaper ones; the capacity for the last */
	uint32_t limit;         /* b_j: the most nodes classes j..n may hold
	                         * together; the capacity for the first */
};

/*
 * Set the protection levels and booking limits of classes[0 .. n), the
 * highest price first, sharing capacity nodes, from their prices and
 * normally distributed demand (thesis section 5.2, Algorithm 5.1 with
 * the nested limits of its worked example, b_j = C - y_(j-1)).  From the
 * cheapest class up, the classes above each boundary are protected by
 * Littlewood's rule, y = mu + sd Phi^-1(1 - p_low / p_high): with EMSR-b
 * (the default) as one class of their summed means, root summed
 * variances and mean-weighted price; with EMSR-a as the sum of each
 * one's own protection.  y is rounded down to whole nodes, as the
 * worked example does, and kept within 0 and the level below it; a
 * forecast with sd 0 is protected as it is.  The thesis's Table 5.3:
 * capacity 40, prices 100, 60, 40, means 10, 13, sds 1.5, 1.7 give
 * limits 40, 31, 18.  Errors, leaving classes as they were: EINVAL
 * (capacity 0, n not in 1..AR_CLASSES_MAX, an unknown method or
 * AR_LITTLEWOOD without exactly two classes, a price not in
 * (0, AR_FARE_MAX] or not below the one before, a mean or sd of a class
 * but the last not in [0, AR_FARE_MAX]).
 */
int ar_booking_limits(uint32_t capacity, enum ar_rm_method method,
    struct ar_fare_class *classes, size_t n);

/*
 * ar-price --update: forecast the demand of each class from the demand
 * log since then (ar_forecast), compute booking limits for the store's
 * capacity and the classes' prices (ar_booking_limits), and make them the
 * classes' limits, all in write transaction t, each raised to its class's
 * floor and to the limit of every cheaper class (so that they stay
 * nested).  fc[0 .. *n) tells the forecasts, and the limits and
 * protection levels as set (y_j = C - b_(j+1)).  Reservations granted under
 * the old limits stay.  Errors: EACCES (read transaction), AR_ENOTFOUND
 * (the store has no classes), EINVAL (method), ENOMEM, AR_ECORRUPT,
 * AR_ESERVER, the backend's codes.
 */
int ar_update_limits(ar_txn *t, enum ar_rm_method method, int64_t since,
    struct ar_fare_class *fc, size_t *n);

/*
 * ar-price --update --partition: as ar_update_limits, for partition
 * partition (ar_layout's index) alone (format 10): each class's demand
 * forecast from the entries of the demand log that are the partition's
 * (granted in its pools, borrowed ones too, or refused asking for it;
 * entries logged before format 10 are no partition's), the limits
 * computed for its hosts, and made its own (ar_set_partition_policy),
 * its grace kept.  The store's floors are not applied: they are in the
 * cluster's nodes.  fc[0 .. *n) as ar_update_limits tells it.  Errors:
 * EACCES, AR_ENOTFOUND (no such partition, or the store has no
 * classes), ENOTSUP (a store not created from a host description),
 * EINVAL (method), ENOMEM, AR_ECORRUPT, AR_EFULL, AR_ESERVER, the
 * backend's codes.
 */
int ar_update_partition_limits(ar_txn *t, uint32_t partition,
    enum ar_rm_method method, int64_t since, struct ar_fare_class *fc,
    size_t *n);

/*
 * The plan on named hosts.  The store's nodes have names, a host list
 * given when it was created; host i is the i-th of that list in its
 * sorted order.  ar_hosts() gives the list as text, valid until the
 * transaction ends.  Errors: AR_ECORRUPT, AR_ESERVER, the backend's
 * codes.
 */
int ar_hosts(ar_txn *t, const char **names);

/*
 * The cluster as it is: partitions, each of one or more pools, a pool the
 * hosts of one partition that have one feature set.  A store created
 * from a host description (struct ar_config's layout) keeps it; one
 * without has one partition, "default", of one pool.  A description is
 * lines (a record each, fields name=value, '#' begins a comment line):
 *     hosts=LIST partition=NAME features=A,B    the hosts of a pool
 *     partition=NAME default=yes borrow=P,Q     a partition's policy
 * Every host is on one line; partition defaults to "default"; lines of
 * one partition and one feature set make one pool.  The default
 * partition is the one said default=yes, else the first line's; a
 * partition that borrows from others may take their hosts, in the
 * order the list gives, when its own do not hold a request as early.
 * Pools are numbered from 0, the default partition's first, then each
 * partition's in the order the description names them; partitions are
 * the default first, then as named.  Pools and partitions that hosts
 * added later make (ar_add_hosts) come after those, as they were added.
 */
#define AR_POOLS_MAX 64         /* pools, and partitions, in a store */

struct ar_partition {
	const char *name;
	int is_default;
	const char *borrow;     /* the partitions it borrows from, in order,
				   comma-separated; "" none */
	uint64_t hosts;
};

struct ar_pool {
	uint32_t partition;     /* its partition's index */
	const char *features;   /* sorted, comma-separated; "" none */
	const char *hosts;      /* a host list */
	uint32_t count;         /* hosts */
};

/*
 * The store's partitions and pools, valid until the transaction ends or
 * adds hosts (ar_add_hosts).
 * Errors: AR_ECORRUPT, ENOMEM, AR_ESERVER, the backend's codes.
 */
int ar_layout(ar_txn *t, const struct ar_partition **parts, size_t *nparts,
    const struct ar_pool **pools, size_t *npools);

/*
 * The pool of every host: pool_of[h] for each host index h of the
 * store's host list (pool_of holds as many as the store has nodes), as
 * ar_layout numbers the pools; all 0 in a store of one pool.
 * Errors: AR_ECORRUPT, ENOMEM, AR_ESERVER, the backend's codes.
 */
int ar_host_pools(ar_txn *t, uint32_t *pool_of);

/*
 * Check a host description as ar_create would take it, and count its
 * hosts in *nodes: 0, or EINVAL
 * with a message naming the line and the field in err (AR_ERRMAX
 * bytes): a line with no hosts nor partition, an unknown field, a host
 * list that does not parse, a host on two lines, a second default
 * partition, a partition with no hosts, borrowing from an unknown
 * partition or from itself, more than AR_POOLS_MAX pools; ENOMEM.
 */
int ar_layout_check(const char *text, uint32_t *nodes, char *err);

/*
 * Drains (format 10): hosts taken out of service from a time on.  A
 * drain is maintenance that wins (see ar_displaced) on the hosts of one
 * pool, from its start through the end of the horizon, kept there as
 * the clock moves (every write transaction stretches it as it begins),
 * so that no request is granted those hosts from its start on.
 *
 * ar_drain drains hosts[0 .. n) (indexes in the store's host list,
 * increasing) from the first slot at or after from and the clock: one
 * drain per pool they are of, all or none, in t.  What has not started
 * and does not name its hosts is moved to other hosts of its pool,
 * keeping its times, where the plan maps so; the rest is displaced:
 * without AR_FORCE in flags the drain is refused (AR_R_DISPLACED, and
 * ans->conflict the first displaced) and nothing changes, with it they
 * are cancelled.  A started or host-named reservation on them past the
 * start refuses it (AR_R_HOSTS, ans->conflict it), as does a drain
 * there already; a start past the horizon is AR_R_HORIZON.
 * ar_displaced then tells every reservation it displaced (or would
 * have).  With AR_DRAIN_REMOVE the hosts are removed: drained for good,
 * ar_undrain refuses them.  A drain's reservation is changed by
 * ar_undrain only: ar_cancel, ar_modify, ar_confirm and use reports
 * refuse it, AR_EPERM, whoever asks.  ans tells the first drain's id, its start
 * and end.  Errors: EINVAL (no hosts, out of range or out of order,
 * other flags), EACCES (read transaction), AR_ECORRUPT, AR_EFULL,
 * ENOMEM, AR_ESERVER, the backend's codes.
 */
#define AR_DRAIN_REMOVE 0x100   /* ar_drain: a removal, not to be undone */

int ar_drain(ar_txn *t, const uint32_t *hosts, uint32_t n, int64_t from,
    unsigned flags, uint32_t who, struct ar_answer *ans);

/*
 * Give back hosts[0 .. n) (as ar_drain takes them), every one drained:
 * each drain holding some of them ends (cancelled, as ar_cancel cancels
 * it, at the clock if it started) and its other hosts stay drained, by
 * a drain of their own from the same start (or the clock's next slot).
 * Errors: EINVAL (no hosts, out of range or out of order),
 * AR_ENOTFOUND (a host that is not drained), AR_EPERM (a host removed),
 * EACCES (read transaction), AR_ECORRUPT, AR_EFULL, ENOMEM, AR_ESERVER,
 * the backend's codes; nothing changes on an error.
 */
int ar_undrain(ar_txn *t, const uint32_t *hosts, uint32_t n);

/*
 * Hosts added: text is lines of a host description (see ar_layout) that
 * give hosts only, each new to the store (no policy: default= and
 * borrow= are refused).  They join at once: the nodes grow by them,
 * a host of a partition and feature set the store has joins that pool,
 * any other makes a new pool, numbered after those the store has, of
 * its partition (a new partition borrows from none).  Nothing granted
 * changes: the store's host list is still sorted (host i the i-th of
 * it), so the host indexes kept in the plan and its history are
 * renumbered in t; pool numbers stay.  What t does next sees the hosts
 * added, their pools and partitions, as a transaction after its commit
 * will.  A store created without a description gets one when a line
 * names a partition other than "default" or features.  Errors: EINVAL (with a message naming the
 * line and the field in err, AR_ERRMAX bytes: as ar_layout_check says,
 * and a host the store has, a line setting a policy), EACCES (read
 * transaction), AR_ECORRUPT, AR_EFULL, ENOMEM, AR_ESERVER, the
 * backend's codes.
 */
int ar_add_hosts(ar_txn *t, const char *text, char *err);

/* A drain as ar_drains tells it. */
struct ar_drain {
	uint64_t id;            /* its reservation (AR_RESV_MAINT) */
	int64_t from;           /* drained from */
	int64_t until;          /* the end of the horizon it was last
				   stretched to */
	int removed;            /* AR_DRAIN_REMOVE */
	uint32_t pool;          /* the pool its hosts are of */
	const uint32_t *hosts;  /* its hosts, increasing, valid in fn */
	uint32_t nhosts;
};

/*
 * Call fn on every drain of the store, in the order they were made; a
 * value other than 0 from fn ends the walk and is returned.  Errors:
 * AR_ECORRUPT (a drain whose reservation is missing or not live),
 * ENOMEM, AR_ESERVER, the backend's codes, fn's.
 */
int ar_drains(ar_txn *t, int (*fn)(const struct ar_drain *, void *),
    void *arg);

/* How ar_map found a reservation's hosts, against what it told last. */
enum ar_map_status {
	AR_MAP_UNMAPPED = 0,    /* none: it ended, or was cancelled, unmapped */
	AR_MAP_NEW,             /* told for the first time */
	AR_MAP_KEPT,            /* the same hosts as told last */
	AR_MAP_REMAPPED,        /* others than told last (old holds those) */
	AR_MAP_NOTFOUND         /* no such reservation */
};

/* A reservation and its hosts, as ar_map tells them. */
struct ar_mapped {
	struct ar_resv r;       /* as ar_get reads it */
	enum ar_map_status status;
	const uint32_t *hosts;  /* host indexes, increasing: r.nodes of them */
	size_t nhosts;          /* ... 0 if unmapped */
	const uint32_t *old;    /* AR_MAP_REMAPPED: the hosts told last */
	size_t nold;
	uint32_t fragments;     /* runs of consecutive hosts in hosts */
};

#define AR_MAP_FIRST_FIT 0x1    /* ar_map: first fit, not best fit */

/*
 * Map the plan, every granted reservation that has not ended by the
 * clock, onto the store's hosts, and in a write transaction keep the
 * mapping (a read transaction only computes it).  Taken in order of
 * start, a reservation that has started with hosts, or whose hosts were
 * named when it was asked for, keeps them; any other keeps the hosts it
 * had if they are still free over its interval, and otherwise gets
 * others, best fit: as few runs of consecutive hosts as it can.  Each
 * reservation gets exactly its nodes hosts for its whole interval, and
 * no host serves two at once.  Then fn is called, until it returns
 * nonzero (which is returned), with every granted or finished
 * reservation overlapping [from, to), in order of start and id (those
 * that ended before the clock with the hosts they had), or, if ids is
 * not NULL, with each of ids[0 .. nids) in that order, whatever its
 * state (AR_MAP_NOTFOUND for one that does not exist).  What fn sees
 * lasts until it returns.  A status compares with what ar_map told
 * last, in a write transaction: only the reservations it calls fn with
 * count as told (ar_export's tells do not), so one never told is
 * AR_MAP_NEW however often it was mapped.
 * Errors: EINVAL (a bad range), ENOMEM, AR_ECORRUPT (the plan cannot
 * be mapped: admission never allows it), AR_EFULL (keeping the mapping),
 * AR_ESERVER, the backend's codes, and fn's nonzero return.
 */
int ar_map(ar_txn *t, unsigned flags, int64_t from, int64_t to,
    const uint64_t *ids, size_t nids,
    int (*fn)(const struct ar_mapped *, void *), void *arg);

/*
 * A free time frame (seed 001's availability profile): an interval over
 * which the same hosts are free, as many as free says.
 */
struct ar_frame {
	int64_t start, end;     /* its interval */
	uint32_t free;          /* hosts free throughout it */
	const uint32_t *hosts;  /* ... their indexes, increasing */
	uint32_t partition;     /* the partition they are of (ar_layout's
				   index; 0 in a store of one) */
};

/*
 * The free time frames of [from, to) (the part of it from the clock's
 * slot on and within the horizon), the plan mapped onto the hosts as
 * ar_map maps it (best fit): each a maximal interval, of whole slots
 * but the first and last cut at from and to, over which the set of
 * free hosts does not change and is not empty.  In a store of several
 * partitions, each partition's, of its hosts, partition by partition.
 * They do not overlap (a partition's); fn is called with each in order
 * of start (a partition's after the one's before), until it returns
 * nonzero
 * (which is returned); what it sees lasts until it returns.  Reads
 * only, also in a write transaction.  Errors: EINVAL (a bad range),
 * ENOMEM, AR_ECORRUPT (the plan cannot be
 * mapped), AR_ESERVER, the backend's codes, and fn's nonzero return.
 */
int ar_frames(ar_txn *t, int64_t from, int64_t to,
    int (*fn)(const struct ar_frame *, void *), void *arg);

/* Which of the free hosts a placement takes (seed 001's policies). */
enum ar_fit {
	AR_FIT_BEST = 0,        /* the smallest run of free hosts that holds
				   what is still wanted, else the largest
				   whole, and again: fewest runs (ar_map's) */
	AR_FIT_FIRST,           /* the lowest free hosts */
	AR_FIT_WORST            /* the largest run first, and again: what
				   stays free is left in the most pieces */
};

/*
 * The hosts a placement of nodes hosts over [start, end) would take: of
 * the hosts of pool (ar_layout's index; 0 in a store of one pool, and
 * an answer's pool is the one it was found in) free throughout it, the
 * plan mapped as ar_frames maps it,
 * nodes chosen by fit, each run taken from its low end (ties: the
 * lowest run); into hosts[0 .. nodes), increasing.  Reads only.
 * Errors: EINVAL (a bad interval, nodes 0 or more than the store's, an
 * unknown fit or pool), ENOSPC (fewer than nodes hosts are free throughout as
 * the plan is mapped now: the counts may still allow it, ar moving
 * reservations that have not started to other hosts), ENOMEM,
 * AR_ECORRUPT, AR_ESERVER, the backend's codes.
 */
int ar_place(ar_txn *t, int64_t start, int64_t end, uint32_t nodes,
    uint32_t pool, enum ar_fit fit, uint32_t *hosts);

/* A reservation as the cluster's scheduler acknowledged it holds it. */
struct ar_acked {
	uint64_t id;
	int64_t start, end;     /* its interval, slot aligned, as the plan
				   has it */
	const uint32_t *hosts;  /* its hosts, indexes increasing */
	size_t nhosts;
};

/*
 * The export ledger (ar-map --slurm --apply): keep, in write
 * transaction t, that the scheduler holds exactly the reservations
 * a[0 .. n) as described, and no other: their entries are written where
 * they differ, every other entry goes.  Errors: EACCES (read
 * transaction), EINVAL (an interval not slot aligned or empty, no
 * hosts, hosts not increasing or not the store's), AR_ENOTFOUND (an id
 * without a record), ENOMEM, AR_ECORRUPT, AR_EFULL, AR_ESERVER, the
 * backend's codes.
 */
int ar_export_record(ar_txn *t, const struct ar_acked *a, size_t n);

/* Whether the ledger says the scheduler acknowledged reservation id.
 * Errors: AR_ESERVER, the backend's codes. */
int ar_export_acked(ar_txn *t, uint64_t id, int *yes);

/*
 * Reports (ar-report --usage): what the cluster did and will do over a
 * range of time, from the records (history and plan alike) and the
 * demand log.
 */
enum ar_usage_by {
	AR_BY_WINDOW = 0,       /* one figure set per window of time */
	AR_BY_USER,             /* per user label, over the whole range */
	AR_BY_JOB,              /* per job label */
	AR_BY_CLASS,            /* per price class (label "0": none) */
	AR_BY_PARTITION         /* per partition (ar_layout), by the pool
				   each reservation holds */
};

#define AR_USAGE_MAX 1000000    /* windows in one report */

/*
 * The figures of one window or group, or of the whole range.  A
 * request counts where its asked start lies: its earliest start, but
 * no earlier than when it was asked, nor later than the horizon then.
 * Counts are of copies (each job of a request).
 */
struct ar_usage {
	int64_t from, to;       /* [from, to), seconds */
	const char *label;      /* a group's label; NULL for a window */
	int total;              /* the sum of the whole range */
	int known;              /* every record that counts is kept */
	int demand_known;       /* the demand log holds every request that
	                         * counts (never per user, job or
	                         * partition: the log has no labels, and
	                         * a refusal no pool) */
	uint64_t capacity;      /* node-slots there are in [from, to): of
	                         * the group's partition, by partition */
	uint64_t reserved;      /* node-slots reserved: granted, finished,
	                         * and cancelled ones until cancelled */
	/* ... of which by what was reported (ar_use): those of
	 * reservations that reported use; of those that reported none, or
	 * were reclaimed (until then); of those without a report.  The
	 * three add up to reserved. */
	uint64_t reserved_used, reserved_idle, reserved_unreported;
	int reclaim;            /* the store has a reclaim policy */
	uint64_t granted;       /* copies granted, cancelled ones included */
	uint64_t refused;       /* copies refused */
	uint64_t refused_by[AR_REASONS];        /* by enum ar_reason */
	int64_t wait_sum;       /* seconds: granted start less asked start */
	int64_t wait_max;
	uint64_t moved;         /* granted copies moved after they were made */
	int64_t revenue;        /* price of the copies granted, not cancelled */
	size_t classes;         /* the store's price classes, 0 if none */
	uint64_t class_granted[AR_CLASSES_MAX]; /* per class, 1 first */
	uint64_t class_refused[AR_CLASSES_MAX];
	int64_t class_revenue[AR_CLASSES_MAX];
};

/*
 * Cut [from, to) (from rounded down, to up, to whole slots) into windows
 * of window seconds (the last one may be shorter) and call fn with the
 * figures of each in order, or with AR_BY_USER, AR_BY_JOB, AR_BY_CLASS
 * or AR_BY_PARTITION of each label in order; then once with total set, for the
 * whole range; stop at fn's first nonzero return, which is returned.
 * The records read are those made from two horizons before from to to:
 * a flexible reservation moved to end later than that after it was made
 * (only possible with a window longer than the horizon) is not seen.
 * The cost grows with those records and the demand entries asked from a
 * horizon before from to to, not with the whole history.  Errors:
 * EINVAL (from not before to, either outside the years 1970-9999, a
 * window that is not a positive whole number of slots, more than
 * AR_USAGE_MAX windows, an unknown by), ENOMEM, AR_ECORRUPT, AR_ESERVER,
 * the backend's codes, and fn's nonzero return.
 */
int ar_usage(ar_txn *t, int64_t from, int64_t to, int64_t window,
    enum ar_usage_by by, int (*fn)(const struct ar_usage *, void *),
    void *arg);

/*
 * Retention, in write transaction t: delete the history records (the
 * cancelled, and the finished ones a purge has taken out of the
 * indexes) that end at or before before, with their client keys'
 * entries, and the demand entries asked before before; *records and
 * *entries count them.  Reports over windows from before on stay as
 * they were; earlier ones are then told as not known.  Run it after
 * ar_purge.  Errors: EACCES (read transaction), EINVAL (before outside
 * the years 1970-9999), AR_ECORRUPT, ENOMEM, AR_EFULL, AR_ESERVER, the
 * backend's codes.
 */
int ar_forget(ar_txn *t, int64_t before, uint64_t *records,
    uint64_t *entries);

/*
 * Text as the records write it (format/RECORDS.md), which the library
 * reads and writes too: times and durations printed, and host lists, in
 * which a store names its nodes.  A function that fails leaves a
 * one-line message in a buffer of AR_ERRMAX bytes: printable ASCII,
 * under 200 bytes, quoted input cut to 40 bytes.
 */
#define AR_ERRMAX 256           /* size of every error message buffer */

/*
 * Format a time as ISO 8601 UTC ("2026-11-21T10:00:00Z") into buf, which
 * has room for AR_TIMEBUF bytes.  Returns buf.  A time outside the range
 * ar_time_parse (format.h) accepts is printed too (proleptic Gregorian, any number
 * of year digits), but does not parse back.
 */
#define AR_TIMEBUF 32
char *ar_time_format(int64_t t, char *buf);

/*
 * Format a duration canonically into buf (AR_TIMEBUF bytes): the largest
 * units first, d h m s, zero groups left out ("1d12h", "1h30m", "45s");
 * 0 is "0s", a negative d is printed with a '-' (both for display only).
 * ar_duration_parse(ar_duration_format(d)) == d.  Returns buf.
 */
char *ar_duration_format(int64_t d, char *buf);

/*
 * Host lists, as Slurm writes them: comma-separated host names, each of
 * which may hold bracketed lists of numbers and ranges, as in
 * cn[001-064],gpu[1-4] or rack[1-2]-node[01-04] (format/RECORDS.md).
 * A list is a set: it never holds a host twice, and its hosts are
 * numbered 0 .. count-1 in one sorted order whatever order they were
 * written in, the order in which ar_hostlist_format prints them.  It is
 * kept as runs of numbers, not as names, so that cn[0000001-1000000]
 * costs a few bytes.  Host indexes are uint32_t: a list has at most
 * AR_HOSTS_MAX hosts.
 */
#define AR_HOSTS_MAX 1000000    /* hosts in one list */
#define AR_HOSTNAME_MAX 255     /* bytes in one host name */

struct ar_hostrun;
struct ar_hostfam;

/* A host list.  Read count; the other members are the list's own. */
struct ar_hostlist {
	size_t count;                   /* hosts in the list */
	struct ar_hostrun *runs;
	size_t nruns;
	struct ar_hostfam *fams;
	size_t nfams;
	char *text;
};

/* Initialise an empty list (count 0). */
void ar_hostlist_init(struct ar_hostlist *h);

/* Free everything a list owns; it is then empty and may be reused. */
void ar_hostlist_free(struct ar_hostlist *h);

/*
 * Parse the host list s into h, replacing what h held.  Names are made
 * of letters, digits, '-', '.' and '_', at most AR_HOSTNAME_MAX bytes
 * once expanded, with no run of more than 18 digits; brackets hold
 * numbers and ranges (cn[1-3,7]) written with the low bound's number
 * of digits (cn[001-010], cn[8-10]); several brackets in one name
 * expand to every combination.  Refused, with the byte where it was
 * found (1-based): an empty list or name, blanks, control and other
 * characters, unbalanced or nested brackets, an empty, reversed or
 * malformed range, a range whose bounds disagree on zero padding
 * ("mixed widths in range '1-010' at byte 4"), a host given twice
 * ("duplicate host 'cn5' at byte 9"), more than AR_HOSTS_MAX hosts.
 * Returns 0, or -1 with a message in err (AR_ERRMAX bytes); -2 if
 * memory ran out.  After a failure h is empty.
 */
int ar_hostlist_parse(const char *s, struct ar_hostlist *h, char *err);

/*
 * The same, refusing lists of more than max hosts (at most
 * AR_HOSTS_MAX): "more than 64 hosts at byte 10".  Hosts that share no
 * prefix and suffix with their neighbours cost about 80 bytes each and
 * their names while parsing, and a short list can name a million of
 * them (a[1-1000000]b0), so a list from an untrusted source is best
 * parsed with the number of hosts it may name.
 */
int ar_hostlist_parse_max(const char *s, size_t max, struct ar_hostlist *h,
    char *err);

/*
 * Append the whole list, compactly, to a growing buffer: *buf of *cap
 * bytes (may start NULL/0), at *len, and keep it NUL-terminated.  Hosts
 * are printed in their order, one bracketed list per prefix and suffix,
 * consecutive numbers as ranges: cn[001-004,009],gpu[1-4].  What is
 * printed parses back to the same list and prints the same again.  An
 * empty list prints nothing.  Returns 0, or -1 if memory ran out (*len
 * is then unchanged).
 */
int ar_hostlist_format(const struct ar_hostlist *h, char **buf,
    size_t *len, size_t *cap);

/*
 * The same for the n hosts whose indexes are in idx, which must
 * increase strictly and be below h->count: the hosts that a
 * reservation holds, say.  Returns 0, -1 if memory ran out, or -2 if
 * an index is out of range or out of order; *len is unchanged after a
 * failure.
 */
int ar_hostlist_format_subset(const struct ar_hostlist *h,
    const uint32_t *idx, size_t n, char **buf, size_t *len, size_t *cap);

/*
 * Write the name of host i into buf, which has room for
 * AR_HOSTNAME_MAX + 1 bytes.  Returns buf, or NULL if i >= h->count.
 */
char *ar_hostlist_name(const struct ar_hostlist *h, uint32_t i, char *buf);

/*
 * Look up a host by name.  Returns 0 and stores its index in *i, or -1
 * if the list does not hold it.
 */
int ar_hostlist_find(const struct ar_hostlist *h, const char *name,
    uint32_t *i);

/*
 * Store in idx[0 .. sub->count) the index in h of every host of sub, in
 * sub's order, which is increasing in h too: the hosts a request names,
 * as indexes in the store's list.  Returns 0, or -1 with a message in
 * err such as "unknown host 'cn099'" if a host of sub is not in h.
 */
int ar_hostlist_find_all(const struct ar_hostlist *h,
    const struct ar_hostlist *sub, uint32_t *idx, char *err);

/*
 * A store's address as a message may show it (where, as ar_open takes
 * it), into buf of size bytes, NUL-terminated, cut short if it does not
 * fit: every password it holds is "***" (a URI's user:PASSWORD@, a
 * password= parameter of its query, or a password= keyword of a
 * key=value connection string, bare or quoted).  Returns the length of
 * the whole, as snprintf does.  (ar_strerror's message for a server's
 * failure is masked the same way.)
 */
size_t ar_where_masked(const char *where, char *buf, size_t size);

/* A message for any code the library returns: its own, its backends',
 * errno's. */
const char *ar_strerror(int code);

/* The word used for a status or reason in records ("granted", "full"). */
const char *ar_status_name(enum ar_status st);
const char *ar_reason_name(enum ar_reason r);

#ifdef __cplusplus
}
#endif

#endif
