/*
 * kv.h - what a backend provides: the store as ordered tables of bytes,
 * with transactions.
 *
 * The algorithms (the ring, the slot lists, the records and their
 * indexes, the price classes, the mapping) are written once, outside
 * every backend, against this interface.  A backend lives in a folder
 * of its own under lib/ (lmdb/, pg/, mem/) and fills a struct
 * kv_backend, providing exactly what this file names, no more.
 *
 * Its model is LMDB's: a store holds the tables of enum kv_table; a
 * table maps keys to values in the byte order of their keys (memcmp,
 * a shorter key first when one is a prefix of the other); KV_LABELS
 * alone holds several values under one key, sorted the same way, each a
 * (key, value) pair of its own.  A transaction sees one consistent
 * state of the store; a write transaction is the only writer of its
 * store while it lives, sees what it wrote, and makes all of it durable
 * at commit or none of it.  Transactions nest: a child's writes become
 * the parent's when it commits and vanish when it aborts.
 *
 * Keys and values a backend returns are its memory: those of get are
 * valid until the transaction ends, those of a cursor until that cursor
 * moves again (a move that fails too) or closes, so a caller keeping
 * one longer copies it; a move may be given the key or value the cursor
 * returned last.  And after the transaction has written a value, values
 * it read may move at its next write (LMDB moves a page it spills), so
 * a caller keeping one across writes checks that first (internal.h,
 * txn_wrote).
 */
#ifndef AR_KV_H
#define AR_KV_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ar.h"

struct kv_val {
	size_t size;
	void *data;
};

/* The tables of a store; format/SCHEMA.md says what each holds. */
enum kv_table {
	KV_META, KV_RING, KV_RESV, KV_ENDS, KV_LABELS, KV_FLEX,
	KV_KEYS, KV_PRICING, KV_DEMAND,         /* format 4 */
	KV_MAP, KV_PINS, KV_EXPORTED,           /* format 5 */
	KV_HOLDS,                               /* format 6 */
	KV_UNUSED,                              /* format 8 */
	KV_TRACKED, KV_EXPLICIT,                /* format 8 */
	KV_TABLES
};

/* The tables' names, as LMDB's databases and dumps name them. */
extern const char *const kv_table_names[KV_TABLES];

/* Where a cursor goes (kv_backend.cursor_get). */
enum kv_op {
	KV_FIRST,       /* the first entry */
	KV_LAST,        /* the last entry */
	KV_NEXT,        /* the entry after the cursor's */
	KV_PREV,        /* the entry before it */
	KV_SET_KEY,     /* the (first) entry of exactly key */
	KV_SET_RANGE,   /* the first entry whose key is key or after it */
	KV_GET_BOTH,    /* KV_LABELS: exactly the pair (key, val) */
	KV_NEXT_DUP     /* KV_LABELS: the next value of the cursor's key */
};

/* kv_backend.put's flags */
#define KV_NOOVERWRITE 0x1      /* KV_KEYEXIST if the key has a value */
#define KV_APPEND 0x2           /* a hint: the key is after every other */

/* Results besides 0, errno values and the AR_E* codes of ar.h (of
 * which AR_EFULL says there is no room: kv_backend.grow, then retry);
 * they have LMDB's numbers, so its backend passes them on unchanged. */
#define KV_KEYEXIST (-30799)    /* KV_NOOVERWRITE, and the key is there */
#define KV_NOTFOUND (-30798)    /* no such key, or the cursor's end */

/* The room a new store starts with, and the least maximum size. */
#define KV_SIZE_INITIAL (1UL << 20)

struct kv_backend;

/*
 * An open store, a transaction on one, a position in one of its tables:
 * each backend's own begins with one of these, which names it, so that
 * stores of several backends can be open in one process.
 */
struct kv_store {
	const struct kv_backend *be;
};

struct kv_txn {
	const struct kv_backend *be;
	uint64_t writes;        /* puts and deletes made through the calls
				   below: the backend's txn_begin sets 0 */
};

struct kv_cursor {
	const struct kv_backend *be;
	struct kv_txn *txn;     /* its transaction: kv_cursor_open sets it */
};

/* A new store's first content: the backend makes the store, calls fill
 * in the write transaction that makes it, and shows the store only
 * when that commits. */
struct kv_init {
	int (*fill)(struct kv_txn *txn, const void *arg);
	const void *arg;
	uint64_t size;          /* the bytes fill writes at most, if more
				   than KV_SIZE_INITIAL (LMDB's first map) */
	long group;             /* LMDB: the group the files are shared
				   with, or -1 */
};

struct kv_backend {
	const char *name;       /* "lmdb", "postgresql", "memory" */
	/* Does the address where name a store of this backend?  The last
	 * backend of kv.c's table takes every address the others leave. */
	int (*claims)(const char *where);

	/*
	 * Make the store where names, with init's content, in one
	 * transaction: a creation cut short leaves no store or a whole
	 * one.  EEXIST if a store is already there (its content is the
	 * caller's to compare; LMDB shares it with init's group first).
	 */
	int (*create)(const char *where, const struct kv_init *init);
	/*
	 * Open the store where names (AR_RDONLY: for reading only);
	 * AR_ENOSTORE if there is none.  Tables a store of an older
	 * format lacks read as empty and are created by upgrade.
	 */
	int (*open)(const char *where, unsigned flags, struct kv_store **ks);
	/* Close ks; its transactions have ended. */
	void (*close)(struct kv_store *ks);
	/* Does the store hold every table of enum kv_table (format 6)? */
	int (*complete)(struct kv_store *ks);

	/*
	 * Begin a transaction: a child of parent if that is not NULL (a
	 * write transaction, and write is then 1), else a read one or,
	 * with write, the store's only writer, waiting at most wait_ms
	 * milliseconds for the one before it to end (AR_ETIMEDOUT); its
	 * writes count from 0.
	 */
	int (*txn_begin)(struct kv_store *ks, struct kv_txn *parent, int write,
	    long wait_ms, struct kv_txn **txn);
	/* Commit txn and free it, whatever the result.  Durable at 0. */
	int (*txn_commit)(struct kv_txn *txn);
	/* Abort txn and free it. */
	void (*txn_abort)(struct kv_txn *txn);
	/* Make the tables a store of an older format lacks, in write
	 * transaction txn (ar_upgrade). */
	int (*upgrade)(struct kv_txn *txn);

	/* The value of key in *val; KV_NOTFOUND. */
	int (*get)(struct kv_txn *txn, enum kv_table tb,
	    const struct kv_val *key, struct kv_val *val);
	/* Store val under key, replacing its value (KV_LABELS: adding it to
	 * the key's values; KV_KEYEXIST if it is one already). */
	int (*put)(struct kv_txn *txn, enum kv_table tb,
	    const struct kv_val *key, const struct kv_val *val, unsigned flags);
	/* Delete key, or in KV_LABELS the pair (key, *val) when val is not
	 * NULL; KV_NOTFOUND. */
	int (*del)(struct kv_txn *txn, enum kv_table tb,
	    const struct kv_val *key, const struct kv_val *val);
	/* The number of entries of tb. */
	int (*count)(struct kv_txn *txn, enum kv_table tb, uint64_t *n);

	/* A cursor on tb, not yet at an entry. */
	int (*cursor_open)(struct kv_txn *txn, enum kv_table tb,
	    struct kv_cursor **cur);
	/* Close cur; a transaction's cursors close before it ends. */
	void (*cursor_close)(struct kv_cursor *cur);
	/* Move as op says, with key (and for KV_GET_BOTH val) as given,
	 * and set *key and *val to the entry there; KV_NOTFOUND, and the
	 * cursor's position is then undefined. */
	int (*cursor_get)(struct kv_cursor *cur, struct kv_val *key,
	    struct kv_val *val, enum kv_op op);
	/* Delete the entry at the cursor; KV_NEXT then goes to the one
	 * that followed it. */
	int (*cursor_del)(struct kv_cursor *cur);

	/* AR_EFULL was returned: make room up to limit bytes (AR_EFULL if
	 * it is reached), for the next transaction.  A backend that never
	 * returns AR_EFULL has nothing to grow: 0. */
	int (*grow)(struct kv_store *ks, uint64_t limit);
	/* The bytes the store may hold now without growing; 0 for a
	 * backend with no such bound. */
	int (*size)(struct kv_store *ks, uint64_t *bytes);
	/*
	 * The system clock, in seconds since the epoch, as txn sees it
	 * (a live store's clock: ar.h, ar_txn_begin): for a write
	 * transaction, read once it is the only writer.  One clock for
	 * every process that uses the store: LMDB's is its host's,
	 * PostgreSQL's the server's, so that a client whose clock is
	 * wrong cannot move a store that others share.
	 */
	int (*clock)(struct kv_txn *txn, int64_t *now);
	/*
	 * The database role the store's session acts as, for a store
	 * whose owners are roles: its id in *role, and *admin set if it
	 * may act for every owner.  NULL for a backend without roles.
	 */
	int (*role)(struct kv_store *ks, uint32_t *role, int *admin);
	/* The process holding the writer lock, or 0 if none or not known. */
	long (*lock_holder)(struct kv_store *ks);
	/* The store will not be used for a while: let go of what a reader
	 * keeps between transactions. */
	void (*idle)(struct kv_store *ks);
	/* A message for a result of this backend's own, or NULL. */
	const char *(*strerror)(int code);
	/*
	 * A store's files, for a backend whose stores have them (LMDB's),
	 * else NULL: share the store where is with group, as create does
	 * with a group (ar_share); and after a permission error, which of
	 * its files this process may not use as flags asks (ar_denied).
	 */
	int (*share)(const char *where, long group);
	int (*denied)(const char *where, unsigned flags, char *path,
	    size_t size);
};

extern const struct kv_backend kv_lmdb;         /* lmdb/ */
extern const struct kv_backend kv_postgresql;   /* pg/ */
extern const struct kv_backend kv_memory;       /* mem/ */

/* Do a and b hold the same bytes? */
static inline int
kv_same(const struct kv_val *a, const struct kv_val *b)
{
	return a->size == b->size &&
	    (a->size == 0 || memcmp(a->data, b->data, a->size) == 0);
}

/* The calls the algorithms make, to the backend of their transaction. */
static inline int
kv_get(struct kv_txn *txn, enum kv_table tb, const struct kv_val *key,
    struct kv_val *val)
{
	return txn->be->get(txn, tb, key, val);
}

static inline int
kv_put(struct kv_txn *txn, enum kv_table tb, const struct kv_val *key,
    const struct kv_val *val, unsigned flags)
{
	txn->writes++;
	return txn->be->put(txn, tb, key, val, flags);
}

static inline int
kv_del(struct kv_txn *txn, enum kv_table tb, const struct kv_val *key,
    const struct kv_val *val)
{
	txn->writes++;
	return txn->be->del(txn, tb, key, val);
}

static inline int
kv_count(struct kv_txn *txn, enum kv_table tb, uint64_t *n)
{
	return txn->be->count(txn, tb, n);
}

static inline int
kv_cursor_open(struct kv_txn *txn, enum kv_table tb, struct kv_cursor **cur)
{
	int rc = txn->be->cursor_open(txn, tb, cur);

	if (rc == 0)
		(*cur)->txn = txn;
	return rc;
}

static inline void
kv_cursor_close(struct kv_cursor *cur)
{
	cur->be->cursor_close(cur);
}

static inline int
kv_cursor_get(struct kv_cursor *cur, struct kv_val *key, struct kv_val *val,
    enum kv_op op)
{
	return cur->be->cursor_get(cur, key, val, op);
}

static inline int
kv_cursor_del(struct kv_cursor *cur)
{
	cur->txn->writes++;
	return cur->be->cursor_del(cur);
}

/* What a walk's visitor may return to end it early, not for an error:
 * the walk returns it, and its caller takes it for 0. */
#define KV_STOP (-1)

/*
 * Call visit with each entry of table tb in key order, from the first
 * whose key is from or after it (from NULL: the first of all), and cur,
 * the cursor at it (which visit may delete the entry at: the walk goes
 * on with the entry that followed), until visit returns nonzero, which
 * is returned (KV_STOP, say).  What visit is given lasts until it
 * returns.  Inline, so that the compiler may call visit directly.
 */
static inline int
kv_walk(struct kv_txn *txn, enum kv_table tb, const struct kv_val *from,
    int (*visit)(struct kv_cursor *cur, const struct kv_val *key,
    const struct kv_val *val, void *arg), void *arg)
{
	struct kv_cursor *cur;
	struct kv_val k = { 0, NULL }, v;
	int rc;

	if ((rc = kv_cursor_open(txn, tb, &cur)) != 0)
		return rc;
	if (from != NULL)
		k = *from;
	for (rc = kv_cursor_get(cur, &k, &v, from != NULL ? KV_SET_RANGE :
	    KV_FIRST); rc == 0; rc = kv_cursor_get(cur, &k, &v, KV_NEXT))
		if ((rc = visit(cur, &k, &v, arg)) != 0)
			break;
	kv_cursor_close(cur);
	return rc == KV_NOTFOUND ? 0 : rc;
}

/* A backend's clock when it is its host's: the system clock, time(2). */
int kv_host_clock(struct kv_txn *txn, int64_t *now);

/* The backend of the store where names, from the table of backends
 * (kv.c): PostgreSQL for a postgresql:// or postgres:// URI, memory for
 * mem:NAME, else LMDB for a directory. */
const struct kv_backend *kv_backend_of(const char *where);

/* A backend's message for code, one of its own results, or NULL. */
const char *kv_strerror(int code);

/* Mask every copy of each password of address where (see
 * ar_where_masked) in text, a string in size bytes, which it may cut
 * short: for what a backend's server said about the address. */
void where_mask_text(const char *where, char *text, size_t size);

#endif
