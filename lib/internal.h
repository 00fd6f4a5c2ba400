/*
 * internal.h - what the library's files share and nobody else sees.
 * The on-disk layout described here is specified in format/SCHEMA.md.
 *
 * The library is a stack of floors.  A file calls functions of its own
 * floor and of the floors below it, never of one above, so that a
 * floor can be read, tested and changed knowing only what lies under
 * it (tests/floors.sh, in make check, reads the objects' symbols and
 * fails on a call up).  From the ground up:
 *
 * 1. Storage: the seam every backend fills (kv.h; kv.c, the table of
 *    backends and the walk over a table) and the backends (lmdb/, pg/,
 *    mem/); a store's address (where.c); the store handle, its meta,
 *    the storage's side of a transaction and the store clock (store.c).
 *    And what knows no store: growing arrays (array.h), times printed
 *    (times.c).
 * 2. Records and rings: the slotted ring (ring.c), the slot lists
 *    (slots.c), the reservation records and their indexes, labels and
 *    client keys (resv.c), the price classes in the rings (classes.c),
 *    the reclaim policy and the reservations that have not reported
 *    use (unused.c),
 *    the demand log (demand.c), host sets and host lists (hostset.c,
 *    hostlist.c), the partitions and their pools (layout.c), a
 *    partition's own limits and grace (partpolicy.c).
 * 3. The plan on hosts (map.c): pins, the mapping kept, the sweep that
 *    maps the plan, ar_map and the export ledger.  It lies below
 *    booking, which asks it whether the plan still maps with what it
 *    admits while named hosts are in it.
 * 4. Booking: a moldable request's levels, in the order they are tried
 *    (mold.c), the slices a split request would take (slices.c), a
 *    request reduced to slots and where it fits (search.c),
 *    savepoints (savepoint.c), what admission did (added.c), holds
 *    (hold.c), cancelling and purging (cancel.c), use reports and
 *    reclaiming (reclaim.c), admission and its
 *    moves (flex.c), series (series.c), split requests booked in
 *    pieces (split.c), ar_add and its client keys
 *    (add.c), changes (modify.c), the longest job and how far a
 *    reservation grows (longest.c), hosts drained (drain.c).  Within
 *    the floor a file calls only those named before it.
 * 5. Reports: the price classes as set and updated from the demand
 *    log (pricing.c, with EMSR in price.c), usage and forgetting
 *    history (report.c), the invariant check (check.c), the free time
 *    frames of the plan on hosts and a placement's hosts (frames.c).
 * 6. What the API composes of every floor: transactions (txn.c:
 *    ar_txn_begin opens the storage's transaction, readies the rings
 *    and the price classes, then releases the holds that expired and
 *    reclaims what is not used) and
 *    stores created and upgraded (create.c).
 *
 * One object crosses the floors, the transaction (struct ar_txn): it
 * holds each floor's part of what a transaction keeps in memory.
 */
#ifndef AR_INTERNAL_H
#define AR_INTERNAL_H

#include <stddef.h>

#include "ar.h"
#include "kv.h"

/* --- 1. storage ------------------------------------------------------- */

/* The store's configuration and counters, one value under key "meta". */
struct meta {
	uint32_t magic;         /* META_MAGIC */
	uint32_t format;        /* AR_FORMAT_VERSION */
	uint32_t nodes;
	uint32_t chunks;        /* ring positions: ceil(horizon / CHUNK_SLOTS) + 1 */
	int64_t slot;           /* seconds */
	int64_t horizon;        /* slots (M) */
	int64_t clock;          /* latest time a writer used */
	uint64_t next_id;
	uint64_t live;
	uint64_t records;
	uint64_t map_max;
	int64_t purged;         /* clock of the latest purge */
	uint64_t pins;          /* entries in `pins` (format 5): while 0,
				   admission needs not look there */
	uint64_t holds;         /* entries in `holds` (format 6): while 0,
				   a writer needs not look there */
	uint32_t mode;          /* META_SIMULATED, META_ROLE_OWNERS (format
				   7); 0: live, owners are uids */
	uint32_t reclaim;       /* 1 while a reclaim policy is set (format
				   8): it is in `pricing`, and `unused`
				   indexes the live reservations that have
				   not reported use; 0: neither is read */
};

/* The meta of formats 3 and 4 ends before pins, of 5 before holds, of 6
 * before mode. */
#define META_V4_SIZE offsetof(struct meta, pins)
#define META_V5_SIZE offsetof(struct meta, holds)
#define META_V6_SIZE offsetof(struct meta, mode)

/* The meta's mode: the clock is the writers' (AR_SIMULATED), owners are
 * database roles (AR_ROLE_OWNERS). */
#define META_SIMULATED 0x1
#define META_ROLE_OWNERS 0x2
/* ... and it was created from a host description, kept in `meta` under
 * "layout" (format 9, layout.c). */
#define META_LAYOUT 0x4

#define META_MAGIC 0x61725354u  /* "arST" */

#define TIME_MAX 253402300799LL        /* 9999-12-31T23:59:59Z */
#define HORIZON_MAX_SLOTS 10000000      /* slots in a store's horizon */
#define WAIT_DEFAULT_MS 30000           /* a writer's wait for another */

/*
 * Host sets (hostset.c): a set of host indexes as runs, ascending, none
 * empty and no two touching.  Results go to out, which may not be an
 * operand; ENOMEM if memory ran out.
 */
struct run {
	uint32_t first;
	uint32_t count;
};

struct hostset {
	struct run *r;
	size_t n, cap;
};

/*
 * The cluster as it is (layout.c): partitions, and pools, the hosts of
 * one partition with one feature set, the default partition's first.
 */
struct layout_part {
	char *name;
	int deflt;              /* the default partition (index 0, parsed) */
	char *borrow;           /* the partitions it borrows from, as given */
	uint32_t *lenders;      /* ... as indexes, in that order */
	size_t nlenders;
	uint64_t hosts;         /* hosts in its pools */
	int line, borrow_line;  /* where it was named first, its borrow set */
};

struct layout_pool {
	uint32_t partition;
	char *features;         /* sorted, comma-separated; "" none */
	char *hosts;            /* its hosts as a host list */
	uint32_t count;
	struct hostset set;     /* its hosts as indexes in the store's list */
	struct hostset others;  /* every other host */
};

struct layout {
	struct layout_part *part;
	size_t nparts;
	struct layout_pool *pool;
	size_t npools;
	uint32_t nodes;         /* hosts in all */
	char *all;              /* every host, as a host list */
	char *text;             /* the canonical description */
	struct ar_partition *pub_part;  /* what ar_layout gives */
	struct ar_pool *pub_pool;
};

struct ar_store {
	const struct kv_backend *be;
	struct layout lay;      /* the last layout a transaction parsed */
	struct kv_store *ks;
	ar_txn *spare;          /* an ended transaction, kept for the next */
	long wait_ms;
	unsigned flags;
	int roles;              /* owners are database roles: ... */
	uint32_t role;          /* ... the session's, which owns what it
				   books, ... */
	int admin;              /* ... and may act for any owner */
};

/* Big-endian keys, so that the tables' byte order is numeric order. */
static inline void
key_u64(unsigned char *buf, uint64_t v)
{
	for (int i = 7; i >= 0; i--, v >>= 8)
		buf[i] = (unsigned char)v;
}

static inline void
key_u32(unsigned char *buf, uint32_t v)
{
	buf[0] = (unsigned char)(v >> 24);
	buf[1] = (unsigned char)(v >> 16);
	buf[2] = (unsigned char)(v >> 8);
	buf[3] = (unsigned char)v;
}

static inline uint32_t
u32_key(const void *buf)
{
	const unsigned char *p = buf;

	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | p[3];
}

static inline uint64_t
u64_key(const void *buf)
{
	const unsigned char *p = buf;
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

/* store.c */
/* The meta's key in KV_META. */
extern const struct kv_val meta_key;
/* Read the meta through txn into m: AR_EUPGRADE if it is of an older
 * format (read whole, for ar_upgrade), AR_EVERSION, AR_ECORRUPT. */
int meta_read(struct kv_txn *txn, struct meta *m);
/* Write t's meta. */
int meta_put(ar_txn *t);
/* Write, or read, a NUL-terminated text under key in `meta`: the
 * store's host list, its host description; reading, AR_ECORRUPT if it
 * is not there or not one text. */
int meta_text_put(struct kv_txn *txn, const struct kv_val *key,
    const char *text);
int meta_text_get(struct kv_txn *txn, const struct kv_val *key,
    const char **text);
/* Write the store's host list, as text. */
int hosts_put(struct kv_txn *txn, const char *text);
/* A live store's clock for a transaction given now (0: the system
 * clock, *system), the clock kept being kept; AR_ELIVE for a writer
 * asking for a clock ahead of both. */
int live_clock(struct kv_txn *txn, int write, int64_t now, int64_t kept,
    int64_t *system, int64_t *clock);
/* Close the store s and free it. */
void store_close(ar_store *s);
/* Begin t's transaction at the backend of store s: read its meta, set
 * the store clock (from now, as ar_txn_begin takes it) and the rings'
 * base. */
int store_begin(ar_txn *t, ar_store *s, int write, int64_t now);
/* Commit t's transaction at the backend, its meta first if it changed;
 * abort it if that fails. */
int store_commit(ar_txn *t);
/* Abort t's transaction at the backend, if it began. */
void store_abort(ar_txn *t);
/* Seconds to slots, rounding up: a start on a boundary stays there. */
int64_t slot_up(const ar_txn *t, int64_t time);
/* Who acts: uid, or on a store whose owners are roles the session's
 * role; and who may change what (0: anything). */
uint32_t txn_owner(const ar_txn *t, uint32_t uid);
uint32_t txn_who(const ar_txn *t, uint32_t who);

/* --- 2. records and rings --------------------------------------------- */

/*
 * The ring is stored as chunks of CHUNK_SLOTS consecutive slots, one LMDB
 * value each, sized to fill one 4 KiB overflow page: LMDB then hands out
 * a pointer to mapped memory, aligned, so a scan over consecutive slots
 * reads consecutive memory, and a write modifies the page in place.
 * Each chunk keeps the largest count of every block of BLOCK_SLOTS slots
 * and of the whole chunk, and the ring keeps every chunk's peak in one
 * summary value, so the cost of checking an interval grows with the
 * number of chunks it covers, not with its slots.
 */
#define CHUNK_SLOTS 960
#define BLOCK_SLOTS 32
#define CHUNK_BLOCKS (CHUNK_SLOTS / BLOCK_SLOTS)

struct chunk {
	uint64_t number;        /* absolute chunk number (slot / CHUNK_SLOTS) */
	uint32_t peak;          /* largest count in used[] */
	uint32_t spare;
	uint32_t blockmax[CHUNK_BLOCKS];        /* largest count per block */
	uint32_t used[CHUNK_SLOTS];             /* nodes in use per slot */
};

/* The summary: per ring position, chunk number << PEAK_BITS | its peak. */
#define PEAK_BITS 20            /* capacity is at most 1,000,000 nodes */
#define SUMMARY_KEY 0xffffffffu

/*
 * What a transaction knows of one ring position.  A chunk the transaction
 * changes lives in copy until ring_flush() writes it to LMDB, at commit
 * or before a nested transaction begins or commits; a chunk it only reads
 * is LMDB's page, remembered in c while the transaction's gen matches.
 * Once the transaction has written chunks, every write moves gen (see
 * txn_wrote()), so a chunk written, or read then, is kept in copy
 * instead, as LMDB has it, for as long as the ring's epoch stays.
 */
struct cached {
	const struct chunk *c;
	uint64_t gen;
	struct chunk *copy;     /* kept from one transaction to the next */
	int dirty;              /* copy holds changes LMDB does not have */
	uint64_t held;          /* copy is the chunk as LMDB has it, while
				   this is the ring's epoch */
};

/*
 * A ring (ring.c): counts per slot, such as the nodes in use.  The node
 * ring's keys are its bare u32 positions; a ring with another id puts
 * the id first (u32, big-endian), so that several share one database.
 */
struct ring {
	enum kv_table dbi;
	uint32_t id;            /* 0: the node ring */
	uint32_t chunks;        /* ring positions */
	uint32_t capacity;      /* the room a fit may fill in a slot */
	uint32_t max;           /* the largest count a slot may hold: the
				   capacity, or the nodes for a ring whose
				   capacity is a booking limit */
	int64_t base;           /* first slot the ring answers for ... */
	int64_t horizon;        /* ... and how many */
	/* What the transaction knows of it: */
	uint64_t *summary;      /* the summary, loaded on first use */
	int summary_loaded;
	int summary_dirty;      /* written back at commit */
	struct cached *cache;   /* per position */
	uint32_t *dirty;        /* positions whose copy is dirty ... */
	size_t ndirty;          /* ... and how many */
	struct chunk *scratch;  /* a copy when LMDB's memory is unaligned */
	uint64_t epoch;         /* moved when the copies held may differ
				   from LMDB's: a transaction begins, a
				   nested one is undone */
	uint64_t reads;         /* chunks read from the store, ever: what
				   the cache saves, for the tests */
};

/* What ring_save() keeps to undo a ring's changes. */
struct ring_save {
	uint64_t *summary;
	int summary_dirty;
};

/*
 * An entry of a slot list (slots.c): a slot and a reservation id.  In the
 * end list the id's top bit says the reservation is also in the label
 * index, so a purge reads the record only then.  A bucket holds up to
 * BUCKET_CAP entries: one 4 KiB overflow page.
 */
struct slot_entry {
	uint64_t slot;
	uint64_t id;
};

#define ENTRY_LABELLED (UINT64_C(1) << 63)
#define BUCKET_CAP 255

/* A slot list as a transaction sees it: its database, and its buckets in
 * memory, by bound, then spare ones. */
struct slot_list {
	enum kv_table dbi;
	struct bucket **b;
	size_t n, cap;
};

/* A reservation record on disk: this header, then user, job and client
 * key bytes.  Records of format 3 have key_len 0 (it was spare). */
struct disk_resv {
	uint64_t id;
	int64_t earliest;
	int64_t latest;
	int64_t duration;
	int64_t start;          /* granted start slot */
	int64_t created;
	int64_t changed;
	uint32_t slots;         /* duration in slots */
	uint32_t nodes;
	uint32_t jobs;
	uint32_t owner;
	uint16_t state;         /* enum ar_status, | STATE_NAMED */
	uint16_t user_len;
	uint16_t job_len;
	uint16_t key_len;
};

/* A record's state: its hosts were named (format 5). */
#define STATE_NAMED 0x100
/* ... it is an occurrence of a series (format 6): this follows its text. */
#define STATE_SERIES 0x200
struct disk_series {
	uint64_t series;        /* the id of its first occurrence granted */
	uint32_t occurrence;    /* from 1 */
	uint32_t pieces;        /* a piece of a split request: how many
				   (format 8; before, always 0) */
};
/* ... it was granted as a hold, and its expiry, an int64, ends the record,
 * after its charge if any (format 6). */
#define STATE_HOLD 0x400
/* ... it carries what the scheduler is told beyond its shape (format 7):
 * this follows its series, then the account's bytes. */
#define STATE_SCHED 0x800
struct disk_sched {
	uint32_t flags;         /* AR_RESV_MAINT */
	uint16_t account_len;   /* 0 to AR_LABEL_MAX */
	uint16_t pool;          /* the pool its hosts are of (format 9;
				   before, always 0) */
};
/* ... it was granted as a hold and confirmed (format 7): confirming it
 * again is no error, and no change. */
#define STATE_CONFIRMED 0x1000
/* ... its site reported it in use, or not (format 8, ar_use): at most
 * one of the two. */
#define STATE_USED 0x2000
#define STATE_UNUSED 0x4000
/* ... it is a piece of a split request that keeps how its request may be
 * split (format 9; a piece of format 8 has not the bit, and reads as
 * AR_SPLIT_ORR with no smallest): this follows its series. */
#define STATE_SPLIT 0x8000
struct disk_split {
	uint32_t split;         /* AR_SPLIT_ORR or AR_SPLIT_TARR */
	uint32_t replaced;      /* 1: cancelled by a modify of its request,
				   which new records hold now; else 0 */
	int64_t smallest;       /* the request's smallest piece, seconds */
};
#define STATE_FLAGS (STATE_NAMED | STATE_SERIES | STATE_HOLD | STATE_SCHED | \
    STATE_CONFIRMED | STATE_USED | STATE_UNUSED | STATE_SPLIT)

/*
 * An entry of the client key index (resv.c): the key is the owner (u32,
 * big-endian) and the client key; the value this header, then the ids of
 * the copies granted (u64 each, at least one, at most jobs).
 */
struct key_entry {
	uint32_t jobs;          /* copies asked */
	uint32_t spare;
};

#define KEYS_KEY_MAX (4 + AR_CLIENT_KEY_MAX)

/*
 * The price classes (classes.c), one value under the key "classes" in
 * `pricing`; no value: none.  The classes in price order, each an
 * ar_class as ar.h lays it out.
 */
struct pricing {
	uint32_t n;             /* classes, 0 .. AR_CLASSES_MAX */
	uint32_t spare;
	int64_t retention;      /* seconds the demand log keeps an entry */
	struct ar_class c[AR_CLASSES_MAX];
};

#define RETENTION_DEFAULT (90 * 86400)

/* A priced reservation's record ends with this (format 4). */
struct disk_charge {
	uint32_t cls;
	uint32_t spare;
	int64_t price;
};

/* One entry of the demand log, under a u64 sequence number. */
struct disk_demand {
	int64_t at;             /* store clock when it was asked */
	int64_t earliest;
	int64_t duration;
	uint32_t nodes;
	uint32_t jobs;
	uint32_t granted;       /* copies granted */
	uint16_t cls;
	uint8_t reason;         /* enum ar_reason of a refusal, else 0 */
	uint8_t partition;      /* the partition it was granted in, or a
				   refusal asked for, as index + 1 (format
				   10); 0: not known (logged before) */
};

/* A request reduced to slots. */
struct span {
	int64_t first;          /* earliest start slot */
	int64_t last;           /* latest start slot */
	int64_t slots;          /* length */
	uint64_t need;          /* nodes needed at once */
	uint32_t cls;           /* price class, 0 for none */
	uint32_t pool;          /* the pool it takes its hosts from */
};

void hostset_free(struct hostset *s);
/* Add [first, first + count) after everything s holds. */
int hostset_append(struct hostset *s, uint32_t first, uint32_t count);
int hostset_copy(struct hostset *dst, const struct hostset *src);
/* Exchange what a and b hold: a result made aside becomes the set. */
void hostset_swap(struct hostset *a, struct hostset *b);
uint64_t hostset_count(const struct hostset *s);
int hostset_equal(const struct hostset *a, const struct hostset *b);
int hostset_union(struct hostset *out, const struct hostset *a,
    const struct hostset *b);
int hostset_minus(struct hostset *out, const struct hostset *a,
    const struct hostset *b);
/* Does s hold host h? */
int hostset_has(const struct hostset *s, uint32_t h);
/* Is sub within of? */
int hostset_subset(const struct hostset *sub, const struct hostset *of);
/* The lowest host both hold, or -1. */
int64_t hostset_common(const struct hostset *a, const struct hostset *b);
/* k hosts of avail, best fit (fewest runs) or first fit; ENOSPC. */
int hostset_choose(struct hostset *out, const struct hostset *avail,
    uint64_t k, int first_fit);
/* k hosts of avail by fit (first, best or worst); ENOSPC. */
int hostset_fit(struct hostset *out, const struct hostset *avail,
    uint64_t k, enum ar_fit fit);

/* ring.c: each takes the ring r, and t for its transaction */
int ring_begin(struct ring *r, uint32_t chunks, uint32_t capacity,
    int64_t base, int64_t horizon);
void ring_free(struct ring *r);
int ring_first_over(ar_txn *t, struct ring *r, int64_t from, int64_t to,
    uint32_t cap, int64_t *bad);
int ring_peak(ar_txn *t, struct ring *r, int64_t from, int64_t to,
    uint32_t *peak);
int ring_first_fit(ar_txn *t, struct ring *r, int64_t lo, int64_t hi,
    int64_t len, uint64_t need, int64_t *start);
/* Is there a slot of [from, to) where a's and b's counts add up to more
 * than cap (*over)? */
int ring_sum_over(ar_txn *t, struct ring *a, struct ring *b, int64_t from,
    int64_t to, uint32_t cap, int *over);
int ring_add(ar_txn *t, struct ring *r, int64_t from, int64_t to,
    int64_t delta);
int ring_counts(ar_txn *t, struct ring *r, int64_t from, int64_t to,
    uint32_t *out);
int ring_flush_chunks(ar_txn *t, struct ring *r);
int ring_flush(ar_txn *t, struct ring *r);
/* Has r changes in memory that ring_flush would write? */
int ring_pending(const struct ring *r);
int ring_save(ar_txn *t, struct ring *r, struct ring_save *rs);
void ring_restore(struct ring *r, struct ring_save *rs);
void ring_release(struct ring_save *rs);

/* slots.c: the end list (t->ends) and the movable list (t->flex) */
/* Enter (slot, id) in list l; labelled sets its label bit. */
int slots_add(ar_txn *t, struct slot_list *l, uint64_t slot, uint64_t id,
    int labelled);
/* Take (slot, id) out of l; AR_ECORRUPT if it is not there. */
int slots_remove(ar_txn *t, struct slot_list *l, uint64_t slot, uint64_t id);
/* Is (slot, id) in l?  *labelled: -1 if not, else its label bit. */
int slots_find(ar_txn *t, struct slot_list *l, uint64_t slot, uint64_t id,
    int *labelled);
/* visit() the entries of l with slots in [from, to], in (slot, id) order,
 * until it returns nonzero (which is returned; KV_STOP: enough, not an
 * error). */
int slots_scan(ar_txn *t, struct slot_list *l, uint64_t from, uint64_t to,
    int (*visit)(ar_txn *, const struct slot_entry *, void *), void *arg);
/* Write both lists' changed buckets to the store. */
int slots_flush(ar_txn *t);
/* Have the lists changed buckets that slots_flush would write? */
int slots_pending(const ar_txn *t);
/* Forget the buckets in memory: their transaction ended or was undone. */
void slots_discard(ar_txn *t);
/* Free the buckets' memory. */
void slots_free(ar_txn *t);
/* Take every entry with a slot up to last out of l; *purged counts them.
 * visit(), if not NULL, sees each labelled one, or (all) every one in
 * (slot, id) order, before it goes. */
int slots_purge(ar_txn *t, struct slot_list *l, uint64_t last, int all,
    int (*visit)(ar_txn *, const struct slot_entry *, void *), void *arg,
    uint64_t *purged);

/* resv.c */
int resv_put(ar_txn *t, const struct ar_resv *r);
void resv_cursor_close(ar_txn *t);
int resv_get(ar_txn *t, uint64_t id, struct ar_resv *r);
int resv_decode(const ar_txn *t, const struct kv_val *v, struct ar_resv *r);
/* Read r as of clock: a hold past its expiry expired, an ended one
 * finished. */
void resv_as_of(struct ar_resv *r, int64_t clock);
size_t label_key(const char *user, const char *job, unsigned char *buf);
int resv_index(ar_txn *t, const struct ar_resv *r, int add);
int resv_index_more(ar_txn *t, const struct ar_resv *r, int add);
/* resv_index without the label index: the labels stay as they are. */
int resv_list(ar_txn *t, const struct ar_resv *r, int add);
int resv_movable(const ar_txn *t, const struct ar_resv *r);
/* The key index; a key has at most AR_CLIENT_KEY_MAX bytes, the key of
 * the index (keys_key) at most KEYS_KEY_MAX. */
size_t keys_key(uint32_t owner, const char *key, unsigned char *buf);
/* owner's entry for key in *v (the backend's memory), or AR_ENOTFOUND. */
int key_get(ar_txn *t, uint32_t owner, const char *key, struct kv_val *v);
/* Check an entry: its header in *e, its n ids; AR_ECORRUPT if bad. */
int key_decode(const struct kv_val *v, struct key_entry *e, size_t *n);
uint64_t key_id(const struct kv_val *v, size_t i);
/* Record owner's key for the n copies granted of jobs asked. */
int key_put(ar_txn *t, uint32_t owner, const char *key, uint32_t jobs,
    const struct ar_placed *granted, size_t n);
/* Reservation id into r if it is live and who (0: root) may change it:
 * EACCES (a read transaction), AR_ENOTFOUND, AR_EPERM (also a drain's,
 * whoever asks), AR_EDONE. */
int resv_owned(ar_txn *t, uint64_t id, uint32_t who, struct ar_resv *r);
/* The drains (format 10, drain.c): an entry of the value under the key
 * "drains" in `meta`, in the machine's byte order. */
struct disk_drain {
	uint64_t id;            /* its reservation */
	uint32_t flags;         /* DRAIN_REMOVED */
	uint32_t spare;         /* 0 */
};
#define DRAIN_REMOVED 0x1       /* a removal: never undrained */
/* The store's drains, copied into *d (to be freed), *n of them. */
int drains_read(ar_txn *t, struct disk_drain **d, size_t *n);
/* Make d[0 .. n) the store's drains; none: no key. */
int drains_write(ar_txn *t, const struct disk_drain *d, size_t n);
/* Take live reservation r out of the rings' future and the indexes,
 * and write it with state, changed at changed. */
int retire(ar_txn *t, struct ar_resv *r, enum ar_status state,
    int64_t changed);
/* The same, its slots freed from slot from on (no earlier than its start
 * nor the rings' base), and, if that is before its end, its record ending
 * there (or after its first slot, if that is where). */
int retire_from(ar_txn *t, struct ar_resv *r, int64_t from,
    enum ar_status state, int64_t changed);

/* unused.c: the reclaim policy, and the index of the live reservations
 * that have not reported use, which `unused` keeps while a policy is set
 * (meta's reclaim): under their start slot then id (u64s, big-endian),
 * with an empty value, so the first entry is the earliest start. */
/* Load the reclaim policy of transaction t, if its store has one. */
int unused_begin(ar_txn *t);
/* Enter live reservation r in, or (add == 0) take it out of, the index,
 * if a policy is set and r has not reported use. */
int unused_index(ar_txn *t, const struct ar_resv *r, int add);
/* Make p the policy of write transaction t (all zero: none), the meta
 * saying whether there is one; the index is the caller's. */
int unused_policy_put(ar_txn *t, const struct ar_reclaim *p);
/* The grace of a reservation of class cls (0: none) in pool pool, in
 * seconds; 0: never reclaimed. */
int64_t unused_grace(const ar_txn *t, uint32_t cls, uint32_t pool);
/* Is live reservation r in the index, and under which time (*due)? */
int unused_due(const ar_txn *t, const struct ar_resv *r, int64_t *due);
/* Drop every entry of the index. */
int unused_clear(ar_txn *t);

/* layout.c: partitions, features and pools */
/* The ring of pool p, when the store has more than one, has id
 * POOL_RING + p; a store has at most AR_POOLS_MAX pools. */
#define POOL_RING 0x200u
/* Parse a host description into l: EINVAL with a message naming the
 * line and the field in err, ENOMEM. */
int layout_parse(const char *text, struct layout *l, char *err);
/* The same for a store's canonical text, stored, with the lines of
 * hosts added (ar_add_hosts) after it: its pools keep their numbers,
 * new ones follow; lines of text that set a policy, or hosts the store
 * has, are EINVAL, the message naming text's line. */
int layout_extend(const char *stored, const char *text, struct layout *l,
    char *err);
void layout_free(struct layout *l);
/* Keep a description's canonical text in the store. */
int layout_put(struct kv_txn *txn, const char *text);
/* Load t's layout if its store was created from a description, and
 * ready the pool rings if it has more than one pool. */
int layout_begin(ar_txn *t);
/* Free what layout_begin and layout_need made. */
void layout_end(ar_txn *t);
/* t->lay, loaded (a store without a description: one pool). */
int layout_need(ar_txn *t);
/* Write what the rings of t's pools and partitions hold in memory. */
int layout_flush(ar_txn *t);
/* After hosts were added in write transaction t (ar_add_hosts, not
 * within a savepoint): its pools, their rings and its partitions' as
 * the store now has them, and the node rings' bound the nodes now. */
int layout_reload(ar_txn *t);
/* The pools a request of partition and features (NULL or "" for the
 * default, none) may take, in the order they are tried, into pools
 * (room for AR_POOLS_MAX), *n of them (0 if none has the features);
 * EINVAL for an unknown partition or feature. */
int layout_eligible(ar_txn *t, const char *partition, const char *features,
    uint32_t *pools, uint32_t *n);
/* The pool of the hosts rq names, into *pool: EINVAL unless they all lie
 * in one pool, of the partition rq asks (if it does) and with every
 * feature it asks. */
int layout_named(ar_txn *t, const struct ar_request *rq, uint32_t *pool);
/* The pool of host index h of layout l, which has it; l->npools if
 * none. */
uint32_t layout_host_pool(const struct layout *l, uint32_t h);

/* partpolicy.c: a partition's own booking limits and reclaim grace
 * (format 10), one value under the key "partitions" in `pricing`: a
 * part_policy per partition, by index, up to the last that has one. */
struct part_policy {
	uint32_t n;             /* classes it limits: 0 none (the store's
				   limits hold), else the store's count */
	uint32_t spare;         /* 0 */
	int64_t grace;          /* reclaim: seconds; 0 the store's; -1
				   never */
	uint32_t limit[AR_CLASSES_MAX]; /* b_i within its pools, limit[0]
				   its hosts; 0 past n */
};
/* Partition P's ring of class i (2 <= i <= n), whose capacity is its
 * b_i, has id PART_RING + 16 P + i. */
#define PART_RING 0x400u
/* Load t's partitions' policies (after layout_begin and classes_begin)
 * and ready their limit rings. */
int part_begin(ar_txn *t);
/* Free what part_begin made. */
void part_end(ar_txn *t);
/* Is p well formed for partition part (ar_set_partition_policy)?  0, or
 * EINVAL with the class and field at fault. */
int part_valid(const ar_txn *t, uint32_t part, const struct part_policy *p,
    size_t *bad, const char **field);
/* The ring that holds class i (>= 2) within pool pool's partition to
 * its own limit; NULL if the partition has none. */
struct ring *part_limit(ar_txn *t, uint32_t pool, uint32_t i);
/* The grace of pool pool's partition: seconds, 0 the store's, -1 never. */
int64_t part_grace(const ar_txn *t, uint32_t pool);
/* Has some partition a grace of its own? */
int part_any_grace(const ar_txn *t);
/* Make p the policy of partition part in write transaction t: its
 * reservations counted in its new limit rings, out of its old. */
int part_put(ar_txn *t, uint32_t part, const struct part_policy *p);
/* Drop every partition's limits (the number of classes changes), their
 * graces kept. */
int part_limits_drop(ar_txn *t);

/* classes.c: price classes and their booking limits in the rings */
/* Load the pricing of transaction t and ready its limit rings. */
int classes_begin(ar_txn *t);
/* Make pr the price classes of write transaction t, its limit rings
 * following (unchanged classes write nothing). */
int classes_put(ar_txn *t, const struct pricing *pr);
/* Format 6 to 7, in write transaction txn: each class's floor, where
 * older formats left the bytes unused (and not always zero), is 0. */
int classes_upgrade(struct kv_txn *txn);
/* The class of request rq asked at earliest, by its book-ahead; 0 for
 * maintenance (a drain too), which is of no class. */
uint32_t class_of(const ar_txn *t, const struct ar_request *rq,
    int64_t earliest);
/* The first start in [lo, hi] where need nodes of class cls fit for len
 * slots, in the node ring, within every limit that binds cls and in pool
 * pool's ring (if the store has more than one); -1. */
int fit_first(ar_txn *t, uint32_t cls, uint32_t pool, int64_t lo, int64_t hi,
    int64_t len, uint64_t need, int64_t *start);
/* The start of the next run of fitting starts after prev, which fits. */
int fit_next(ar_txn *t, uint32_t cls, uint32_t pool, int64_t prev, int64_t hi,
    int64_t len, uint64_t need, int64_t *start);
/* The first slot of [from, to) where need nodes of class cls do not fit
 * in some ring, or to. */
int fit_end(ar_txn *t, uint32_t cls, uint32_t pool, int64_t from, int64_t to,
    uint64_t need, int64_t *end);
/* Why copies of sp found no room in [first, hi]: AR_R_BOOKING if the
 * nodes alone would have held them all, first fit one by one, else
 * AR_R_FULL. */
int fit_refusal(ar_txn *t, const struct span *sp, int64_t hi,
    uint32_t copies, enum ar_reason *reason);
/* Add delta nodes of class cls over [from, to) to every ring it counts in. */
int fit_add(ar_txn *t, uint32_t cls, uint32_t pool, int64_t from, int64_t to,
    int64_t delta);

/* demand.c */
/* Begin a new store's demand log with an entry of no request (jobs 0),
 * which says the log holds every refusal from then on. */
int demand_begin(struct kv_txn *txn, int64_t now);
/* Log an admission outcome: every one with classes, else refusals;
 * partition its partition's index + 1. */
int demand_log(ar_txn *t, const struct ar_request *rq, uint32_t cls,
    uint32_t granted, enum ar_reason reason, uint32_t partition);
/* Drop demand entries older than the retention; *dropped counts them. */
int demand_prune(ar_txn *t, uint64_t *dropped);
/* Forget where the demand log ends: a nested transaction was undone. */
void demand_forget(ar_txn *t);
/* Drop demand entries asked before a time; *dropped counts them. */
int demand_drop(ar_txn *t, int64_t before, uint64_t *dropped);

/* --- the transaction -------------------------------------------------- */

/*
 * A transaction, and the parts of the store it holds in memory, each
 * floor's: the storage's transaction, meta and clock; the rings, the
 * slot lists, the price classes and the record cursor; the plan's pins;
 * what admission did.  They share txn, the backend's transaction, and
 * gen: a page pointer a part keeps is good while gen has not moved
 * since it was taken (see txn_wrote()).
 */
struct ar_txn {
	/* The storage's (store.c): */
	ar_store *s;
	struct kv_txn *txn;
	int write;
	int meta_dirty;
	struct meta m;
	struct meta begun;      /* the meta as it was read: txn_changed() */
	int64_t now;            /* store clock for this transaction */
	int64_t kept;           /* the clock the store kept when it began */
	int64_t system;         /* a live store's system clock then; 0 for
				   a simulated one */
	int64_t base;           /* first slot the rings are authoritative for */
	uint64_t gen;           /* bumped when values read may have moved */
	int flushed;            /* this transaction holds dirty chunk pages */
	/* The records' and rings': */
	struct ring ring;       /* nodes in use per slot */
	struct ring idle;       /* tracked hosts idle per slot (track.c),
				   pool 0's */
	struct pricing pr;      /* the price classes, loaded at begin */
	struct layout lay;      /* the partitions and pools, when loaded */
	int lay_shared;         /* ... lay is the store's (s->lay) */
	struct ring *pool;      /* pool p's nodes in use per slot, when the
				   store has more than one pool */
	uint32_t npools;        /* ... and how many: 1 for one pool */
	struct ring *idle_rest; /* ... and the idle rings of pools 1 and on,
				   pool p's at [p - 1] (idle_ring()) */
	uint32_t keep_pool;     /* a request to_span reduces must take pool
				   keep_pool - 1 (ar_modify); 0: any */
	/* limit[i], 2 <= i <= pr.n: nodes in use per slot by classes i and
	 * cheaper, whose capacity is the booking limit b_i (class 1's is
	 * the node ring, b_1 the capacity). */
	struct ring limit[AR_CLASSES_MAX + 1];
	/* Each partition's policy (partpolicy.c), all zero for none; and
	 * the limit rings of those with limits: partition p's class i at
	 * prings[pring_at[p] + i - 2] (pring_at -1: none). */
	struct part_policy part[AR_POOLS_MAX];
	struct ring *prings;
	uint32_t nprings;
	int32_t pring_at[AR_POOLS_MAX];
	uint64_t demand_seq;    /* the next demand entry's key; 0: unknown */
	struct kv_cursor *resv_cur;     /* on the records, kept where it
					   was last used */
	struct slot_list ends;  /* live reservations by end slot */
	struct slot_list flex;  /* movable ones by start slot */
	/* The plan's (map.c): */
	int pins;               /* a reservation with named hosts has not
				   ended: 1, 0, or -1 not known yet */
	int tracking;           /* the tracked hosts were built (track.c):
				   1, 0, or -1 not known yet */
	int64_t idled_from;     /* the slots where explicit uses went since */
	int64_t idled_to;       /* ... track_idled() was last asked */
	struct take_host *take; /* the tracked hosts track_take found,
				   for track_hold */
	size_t ntake, takecap;
	/* Booking's: */
	int64_t released;       /* holds expiring by this clock are released:
				   a write transaction's now, or the clock
				   the last writer left */
	int expired;            /* holds this transaction released */
	int reclaimed;          /* reservations it reclaimed */
	struct ar_reclaim policy;       /* the reclaim policy, loaded at
					   begin if meta's reclaim says so */
	struct ar_placed *granted, *moved;      /* what the last ar_add did */
	size_t ngranted, nmoved, gcap, mcap;
	uint64_t *displaced;    /* ... and what its maintenance displaced */
	size_t ndisplaced, dcap;
	/* A reader's (drain.c): the drains it sees stretched to its
	 * horizon's end, in memory only (drains_view). */
	uint64_t *stretched;
	size_t nstretched, scap;
	/* Admitting a series (series.c): the occurrence a grant is, from 1
	 * (0: no series), and the series, 0 until one is granted; and
	 * what each occurrence was answered. */
	uint32_t occurrence;
	uint64_t series;
	struct ar_answer *occ;
	size_t nocc, occap;
	/* A split request (slices.c, split.c): the pieces a grant is one
	 * of (0: none), and the slices chosen last, as ar_pieces tells. */
	uint32_t pieces;
	int64_t split_earliest; /* ... and while pieces is set, the
				   request's earliest start, which classes
				   them all as it is classed */
	struct ar_placed *slices;
	size_t nslices, slicecap;
	/* A split request of several copies (split.c): the first id its
	 * copies are granted from, which the later copies do not move
	 * (flex.c), as the copies of one request never move for each
	 * other; 0 otherwise. */
	uint64_t first_copy;
};

/*
 * A write, to any table: a value read is good until the transaction
 * writes (kv.h); with LMDB, when the transaction holds dirty chunk
 * pages, LMDB may spill them to disk and free their memory,
 * so chunk pointers taken before are forgotten.  Chunks flushed by an
 * enclosing transaction are stable while a nested one runs, and clean
 * pages stay put for the whole transaction.
 */
static inline void
txn_wrote(ar_txn *t)
{
	if (t->flushed)
		t->gen++;
}

/* --- 3. the plan on hosts --------------------------------------------- */

/*
 * An entry of `map`, under the reservation's id: this header, then its
 * hosts' runs, then the runs it had when ar_map last told them
 * (printed), if it has.
 */
struct disk_map {
	int64_t start;          /* slot it was mapped for */
	uint32_t slots;
	uint32_t nodes;
	uint32_t runs;          /* runs of hosts */
	uint32_t printed;       /* runs told last; MAP_UNTOLD: never */
};

#define MAP_UNTOLD UINT32_MAX

/* A pin, the named hosts of a reservation, is kept in `pins` under its
 * end slot then its id, so that a purge drops the ended ones from the
 * front; its value is the hosts' runs. */
static inline void
pin_key(unsigned char *key, int64_t end_slot, uint64_t id)
{
	key_u64(key, (uint64_t)end_slot);
	key_u64(key + 8, id);
}

/* A reservation of the plan and the hosts a sweep gave it. */
struct map_got {
	uint64_t id;
	int64_t start, end;     /* slots */
	uint32_t nodes;
	uint32_t pool;          /* the reservation's pool */
	const struct run *hosts;
	size_t nruns;
};

/* map.c */
/* Decode an entry of `map` or `exported`: its header, its hosts and the
 * hosts told last (none if untold); AR_ECORRUPT if it is not well
 * formed (runs normal and within the nodes, as many hosts as nodes). */
int map_entry_decode(const ar_txn *t, const struct kv_val *v, struct disk_map *d,
    struct hostset *hosts, struct hostset *told);
/* Decode a pin's hosts; AR_ECORRUPT if they are not normal runs within
 * the nodes. */
int map_pin_decode(const ar_txn *t, const struct kv_val *v, struct hostset *s);

/* Map the plan as ar_map does, best fit, keeping nothing, and call fn
 * with every reservation of it (in no particular order) until it
 * returns nonzero, which is returned; or, if the sweep finds no hosts
 * for one, set *failed to its id and *conflict to the one in its way,
 * calling fn for none.  ar_check verifies the result its own way. */
int map_verify(ar_txn *t, int (*fn)(const struct map_got *, void *),
    void *arg, uint64_t *failed, uint64_t *conflict);

/* A request's named hosts, checked: the plan with it maps, it on hosts
 * of pool `pool` (which hosts it names are of).  start is its slot;
 * *conflict the reservation in the way when it does not (*ok 0). */
int map_fits(ar_txn *t, const struct ar_request *rq, uint32_t pool,
    int64_t start, int64_t slots, int *ok, uint64_t *conflict);
/* Would the plan map with reservation id over slots [start, end) instead
 * of its own (*ok)?  As ar_modify maps it; *conflict as there. */
int map_fits_moved(ar_txn *t, uint64_t id, int64_t start, int64_t end,
    int *ok, uint64_t *conflict);
/* Maintenance that wins (rq names hosts, of pool `pool`, AR_RESV_MAINT)
 * at [start, start + slots): the reservations that cannot keep their times on other hosts
 * with it in the plan, in t->displaced, and *ok if the plan maps without
 * them; else (*ok 0) *conflict is the started or named reservation that
 * holds its hosts, or one outside its time that the sweep leaves
 * without hosts whatever it displaces.  Displaced are only reservations
 * of its pool over part of its time: one that would push another out
 * is displaced. */
int map_displace(ar_txn *t, const struct ar_request *rq, uint32_t pool,
    int64_t start, int64_t slots, int *ok, uint64_t *conflict);
/* After an admission while named hosts are in the plan: map it all
 * again and keep the mapping, or say (*ok 0) which reservation could
 * not be mapped. */
int map_after_admission(ar_txn *t, int *ok, uint64_t *conflict);
/* Does the plan hold a reservation with named hosts (t->pins)? */
int map_pinned(ar_txn *t, int *yes);
/* Record, or drop, the named hosts of reservation r. */
int map_pin(ar_txn *t, const struct ar_resv *r, const uint32_t *hosts,
    uint32_t n, int add);
/* The pinned hosts of reservation r, which named them: r->nodes host
 * indexes, increasing, in *hosts, to be freed. */
int map_pin_hosts(ar_txn *t, const struct ar_resv *r, uint32_t **hosts);
/* Does `map` keep hosts for reservation id (*yes)? */
int map_kept(ar_txn *t, uint64_t id, int *yes);
/* Forget what the mapping keeps of reservation id (ar_forget). */
int map_forget(ar_txn *t, uint64_t id);
/* Drop the pins of reservations that ended by the clock. */
int map_prune(ar_txn *t);
/* Hosts added (ar_add_hosts): every host index kept in `pins`, `map`
 * and `exported`, host i becoming to[i] (increasing). */
int map_renumber(ar_txn *t, const uint32_t *to);

/* track.c */
/* The idle ring of pool p has ring id IDLE_RING + p; the node ring's id
 * is 0, the limit rings' their class, the pool rings' POOL_RING + p. */
#define IDLE_RING 0x100u

/* Pool p's idle ring (p below t->npools). */
static inline struct ring *
idle_ring(ar_txn *t, uint32_t p)
{
	return p == 0 ? &t->idle : &t->idle_rest[p - 1];
}

/* A tracked host and its until (slot). */
struct track_host {
	uint32_t host;
	int64_t until;
};

/* A tracked host a request may hold over [s, stop), stop its end or
 * the host's until if that comes first; idle from idle_from to
 * idle_to around it. */
struct take_host {
	uint32_t host;
	int64_t stop;
	int64_t idle_from, idle_to;
};

/* A reservation of a mapping, for track_build: its slots, whether it
 * named its hosts, the hosts the mapping gave it. */
struct track_use {
	uint64_t id;
	int64_t s, e;
	int named;
	const struct hostset *got;
};

/* Were the tracked hosts built (*yes)?  Until they are, admission with
 * pins in the plan sweeps the plan. */
int track_built(ar_txn *t, int *yes);
/* Do need more nodes of pool `pool` fit over slots [s, e) (*ok): the
 * pool's count (the node ring in a store of one pool, else the pool's
 * ring) and its idle tracked hosts leave room at every slot? */
int track_fits(ar_txn *t, uint32_t pool, int64_t s, int64_t e,
    uint64_t need, int *ok);
/* track_fits refused: would the request fit if it held, explicitly,
 * tracked hosts of the pool that no explicit use holds over [s, e) up
 * to their until (*ok)?  Each one taken is idle there no more.  If so,
 * the fewest that do are left for track_hold. */
int track_take(ar_txn *t, uint32_t pool, int64_t s, int64_t e,
    uint64_t need, int *ok);
/* Does a plain request of `jobs` jobs of need nodes fit in pool `pool`
 * over [s, e) by the tracked hosts (*ok): by their count (track_fits),
 * or, a request of one job, holding idle ones itself (track_take; those
 * it holds are left for track_hold, else t->ntake is 0)? */
int track_room(ar_txn *t, uint32_t pool, int64_t s, int64_t e,
    uint64_t need, uint64_t jobs, int *ok);
/* Reservation id, just granted in pool `pool` over [s, e) where
 * track_take said it fits, holds the hosts it found: their uses, their
 * untils, the idle rings and its entry of `explicit` follow. */
int track_hold(ar_txn *t, uint32_t pool, uint64_t id, int64_t s,
    int64_t e);
/* track_fits with need 0 for every pool of the store. */
int track_fits_every(ar_txn *t, int64_t s, int64_t e, int *ok);
/* The explicit hosts of reservation id over [s, e), into ex (none if it
 * holds none, or not with that shape). */
int track_explicit(ar_txn *t, uint64_t id, int64_t s, int64_t e,
    struct hostset *ex);
/* Reservation id leaves its place (cancelled, expired, moved, changed):
 * its explicit uses go, and the hosts are idle there. */
int track_drop(ar_txn *t, uint64_t id);
/* Do the slots where explicit uses went (track_drop) since the last call
 * still fit, tracked hosts counted (*ok)?  The record starts again. */
int track_idled(ar_txn *t, int *ok);
/* Forget every tracked host and explicit use, and the idle they made. */
int track_reset(ar_txn *t);
/* Reservation id, which holds its hosts from before end, now holds them
 * to slot to (a drain stretched, drain.c): its uses and its hosts'
 * untils follow, or, if they are not its own up to end, the tracking is
 * dropped (track_reset), to be built again. */
int track_stretch(ar_txn *t, uint64_t id, int64_t end, int64_t to);
/* Track again from a mapping of the whole plan, u[0..n). */
int track_build(ar_txn *t, const struct track_use *u, size_t n);
/* The tracked hosts whose until is after the clock, by host; *hosts is
 * to be freed. */
int track_hosts(ar_txn *t, struct track_host **hosts, size_t *n);
/* What the idle rings should count, per slot of the rings' window, from
 * `tracked` (ar_check): pool p's at expect[p * horizon ...], expect
 * holding t->npools horizons; and *markers, the pools marked built. */
int track_expect(ar_txn *t, uint64_t *expect, uint32_t *markers);

/* --- 4. booking ------------------------------------------------------- */

/* A hold is entered in `holds` under its expiry (u64, big-endian) then
 * its id, with an empty value: the first entry is the next to expire. */
static inline void
hold_key(unsigned char *key, int64_t expires, uint64_t id)
{
	key_u64(key, (uint64_t)expires);
	key_u64(key + 8, id);
}

/*
 * A savepoint (savepoint.c): a nested transaction, and what the parts of
 * the transaction keep in memory as they were when it began.
 */
struct savepoint {
	struct kv_txn *parent;
	struct meta m;
	int meta_dirty, flushed;
	struct ring_save ring, idle;
	struct ring_save limit[AR_CLASSES_MAX + 1];     /* as in ar_txn, */
	struct ring_save pool[AR_POOLS_MAX];    /* ... the pools' (t->npools
						   > 1): npools saved */
	struct ring_save pool_idle[AR_POOLS_MAX];       /* ... and their idle
							   rings, from 1 */
	uint32_t npools;
	uint32_t nlimits;       /* ... 2 to this many saved */
	struct ring_save *prings;       /* ... the partitions' limit rings,
					   nprings of them */
	uint32_t nprings;
	size_t ngranted, nmoved;        /* ar_add's lists */
	struct ar_placed *moved;
};

/* What several admissions did, gathered: the reservations granted, in
 * order, and those moved, each once, from where it was first. */
struct gathered {
	struct ar_placed *g, *m;
	size_t ng, nm, gcap, mcap;
};

/* slices.c */
/* EINVAL unless rq, a split request, is one that may be split (struct
 * ar_request). */
int split_check(const struct ar_request *rq);
/* Into *one, split request rq as the request of one interval it is
 * first tried as: ORR's its whole window, TARR's its first start only
 * (rq's earliest, or the clock if later). */
void split_whole(const ar_txn *t, const struct ar_request *rq,
    struct ar_request *one);
/* The slices split request rq, reduced to slots in sp (its reason none),
 * would take in [sp->first, sp->last + sp->slots), as its rule chooses
 * them, into t->slices (their free counts too); none if there is no
 * set of them.  Errors: ENOMEM, those of the rings. */
int slices_choose(ar_txn *t, const struct ar_request *rq,
    const struct span *sp);

/* search.c */
/* Reduce a request to slots (together: its copies at once), and say in
 * ans->reason why it cannot be considered at all, if so; EINVAL if it is
 * malformed. */
int to_span(ar_txn *t, const struct ar_request *rq, int together,
    struct span *sp, struct ar_answer *ans);
/* Fill in ans with the interval at slot s and the least free count over
 * it. */
int place(ar_txn *t, const struct span *sp, int64_t s, struct ar_answer *ans);
/* From start *s, which fits by the rings, up to hi: the first start where
 * the request also maps (where it names hosts or pins are in the plan),
 * or -1 with *conflict the first reservation in the way.  Where it maps
 * by holding tracked hosts, they are left for track_hold (t->ntake). */
int fit_mapped(ar_txn *t, const struct ar_request *rq, const struct span *sp,
    int64_t hi, int64_t *s, uint64_t *conflict);

/* savepoint.c */
/* Begin a nested transaction: what t does next can be undone as a whole.
 * Savepoints nest; each ends with txn_undo() or txn_keep(). */
int txn_save(ar_txn *t, struct savepoint *sp);
/* Undo everything since the savepoint. */
void txn_undo(ar_txn *t, struct savepoint *sp);
/* Keep what was done since the savepoint; undo it if that fails. */
int txn_keep(ar_txn *t, struct savepoint *sp);

/* added.c */
/* Add what the last admission did to acc. */
int gathered_add(ar_txn *t, struct gathered *acc);
/* Make what acc gathered what ar_added() tells. */
int gathered_put(ar_txn *t, struct gathered *acc);
/* Free what acc holds. */
void gathered_free(struct gathered *acc);

/* hold.c */
/* Enter hold r in, or (add == 0) take it out of, the hold index. */
int hold_index(ar_txn *t, const struct ar_resv *r, int add);
/* Release the holds that expired by the clock (ar_txn_begin). */
int holds_expire(ar_txn *t);

/* cancel.c */
/* Live reservation r leaving the plan before it retires: its pin, if it
 * named its hosts, and its hold entry, if held, go (r->expires 0). */
int unpin_unhold(ar_txn *t, struct ar_resv *r);

/* reclaim.c */
/* Reclaim the started reservations past their grace that have not
 * reported use (ar_txn_begin, after holds_expire). */
int reclaim_due(ar_txn *t);
/* Make p the store's reclaim policy in write transaction t, the graces
 * of the partitions as they are: the index made again from the live
 * reservations, and those past their grace reclaimed. */
int reclaim_reset(ar_txn *t, const struct ar_reclaim *p);

/* flex.c */
/* ar_add of one request (not a series), without its client key and
 * without the demand log. */
int admit_request(ar_txn *t, const struct ar_request *rq,
    struct ar_answer *ans);
/* Record the outcome of an admission of rq in the demand log. */
int admit_logged(ar_txn *t, const struct ar_request *rq,
    const struct ar_answer *ans, uint32_t granted);
/* Admit rq, reduced to slots in sp (its reason none), as ar_add does
 * after the client key, the plan's mapping included; with was, as the
 * new shape of that reservation, which is out of the rings and lists
 * (ar_modify). */
int admit_span(ar_txn *t, const struct ar_request *rq, const struct span *sp,
    const struct ar_resv *was, struct ar_answer *ans);

/* mold.c */
/* EINVAL unless rq's levels are well formed (struct ar_request). */
int levels_check(const struct ar_request *rq);
/* Are nodes and jobs a size rq asks for (one of its levels, or its
 * nodes and jobs)?  And *benefit that level's benefit (0 for a rigid
 * request). */
int level_of(const struct ar_request *rq, uint32_t nodes, uint32_t jobs,
    uint32_t *benefit);
/* Try one level of a moldable request: *fits if it does. */
typedef int level_fn(ar_txn *t, const struct ar_request *one, void *arg,
    int *fits);
/*
 * fn on rq's levels, as rigid requests (one), in ar_levels_order's
 * order, up to the first that fits: *got is that level and one that
 * request (its jobs the level's copies); or, if none fits, *got is all
 * zero and one the last level's.
 * Errors: EINVAL (levels malformed), those of fn.
 */
int levels_try(ar_txn *t, const struct ar_request *rq, level_fn *fn,
    void *arg, struct ar_request *one, struct ar_level *got);

/* series.c */
/* ar_add of a series, without its client key, the demand log included. */
int admit_series(ar_txn *t, const struct ar_request *rq,
    const struct ar_repeat *rep, struct ar_answer *ans);
/* The occurrences rq repeated as rep says are, in *count; EINVAL if
 * they are malformed. */
int series_size(const struct ar_request *rq, const struct ar_repeat *rep,
    uint64_t *count);

/* split.c */
/* ar_add of a split request, without its client key, the demand log
 * included. */
int admit_split(ar_txn *t, const struct ar_request *rq,
    struct ar_answer *ans);
/* ar_modify of was, a piece of a split request live and owned by who:
 * the whole request, changed to rq (ar_modify). */
int modify_split(ar_txn *t, const struct ar_resv *was, uint32_t who,
    const struct ar_request *rq, struct ar_answer *ans);

/* drain.c */
/* Stretch every drain to the end of the horizon (ar_txn_begin, for a
 * writer, before anything is admitted). */
int drains_extend(ar_txn *t);
/* For a reader whose horizon reaches past the last writer's: every drain
 * stretched to its horizon's end in the rings it holds in memory, and
 * remembered (t->stretched), as the next writer will stretch it
 * (ar_txn_begin, for a reader). */
int drains_view(ar_txn *t);
/* The end of live reservation r as t sees it: a drain drains_view
 * stretched, at the horizon's end; any other, its own. */
int64_t drain_end_seen(const ar_txn *t, const struct ar_resv *r);

/* --- 5. reports ------------------------------------------------------- */

/* price.c */
double normal_quantile(double p);

#endif
