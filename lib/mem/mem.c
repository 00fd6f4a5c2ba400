/*
 * mem.c - the memory backend: a store lives in the memory of the
 * process that made it, under a name (mem:NAME), until the process
 * ends or mem_remove(); it is for tests and fuzzing, never for data
 * that must outlive the process.
 *
 * Why persistent trees: a table is an AVL tree whose nodes are never
 * changed once another version can see them.  A write copies the path
 * from the root to what it changes and shares everything else, so a
 * committed state (a version: one root per table) is never touched
 * again.  A reader takes the last version with one reference count, a
 * child transaction starts from its parent's roots the same way, an
 * abort drops the roots it made, and mem_copy is one more reference:
 * each is constant time, and what is shared costs nothing.
 *
 * Node and entry lifetimes are reference counts.  A writer changes a
 * node in place only if that node has one reference: the writer reaches
 * it down a path of nodes that are its alone, so nothing else can see
 * it.  A version's roots have a reference from the version and one from
 * each transaction begun from it, so a writer copies them, and then the
 * nodes below, before it changes anything.  The nodes of the version a
 * transaction began from are held by that version, so values read from
 * them stay put until the transaction ends; what a transaction wrote
 * itself may be freed by its next write, which kv.h allows (LMDB moves
 * dirty pages too).
 *
 * An entry (a key and its value, or in KV_LABELS one pair) is shared by
 * the copies of its node, and a cursor holds a reference to the entry
 * it stands at: what it returned stays valid until it moves, and it
 * moves from that entry by searching the transaction's current tree, so
 * writes between two moves need no fixing up.
 *
 * A store has one writer at a time.  It is used by one thread: a
 * second writer could only wait for itself, so it gets AR_ETIMEDOUT at
 * once.  Nothing of it is ever written to disk.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kv.h"
#include "mem/mem.h"

#define PREFIX "mem:"

/* A key and its value, the value aligned for the records read in
 * place; shared by the nodes that hold it and the cursors at it. */
struct entry {
	uint32_t refs;
	uint32_t ksize;
	size_t vsize;
	unsigned char *val;
	unsigned char key[];
};

struct node {
	struct node *left, *right;
	struct entry *e;
	uint64_t count;         /* entries in this subtree */
	uint32_t refs;
	int height;
};

/* A committed state: one tree per table. */
struct version {
	uint32_t refs;
	struct node *root[KV_TABLES];
};

struct mem_store {
	struct mem_store *next;         /* the process's stores */
	struct version *current;        /* the last commit */
	struct mem_txn *writer;         /* the top-level writer, or NULL */
	unsigned handles;               /* open kv_stores */
	char name[];
};

struct mem_handle {
	struct kv_store base;
	struct mem_store *ms;
	int rdonly;
};

struct mem_txn {
	struct kv_txn base;
	struct mem_store *ms;
	struct mem_txn *parent;
	struct version *v;              /* a reader's snapshot */
	struct node *root[KV_TABLES];   /* a writer's trees */
	struct node **roots;            /* v->root or root */
	int write;
};

struct mem_cursor {
	struct kv_cursor base;
	struct mem_txn *t;
	enum kv_table tb;
	struct entry *at;               /* where it stands (an entry it
					   deleted, even), or NULL */
};

static const struct kv_backend *const self = &kv_memory;
static struct mem_store *stores;

/* --- entries and nodes ----------------------------------------------- */

static struct entry *
entry_new(const struct kv_val *key, const struct kv_val *val)
{
	size_t off = (offsetof(struct entry, key) + key->size + 15) & ~(size_t)15;
	struct entry *e;

	if (key->size > UINT32_MAX || val->size > SIZE_MAX - off ||
	    (e = malloc(off + val->size)) == NULL)
		return NULL;
	e->refs = 1;
	e->ksize = (uint32_t)key->size;
	e->vsize = val->size;
	e->val = (unsigned char *)e + off;
	if (key->size > 0)
		memcpy(e->key, key->data, key->size);
	if (val->size > 0)
		memcpy(e->val, val->data, val->size);
	return e;
}

static void
entry_release(struct entry *e)
{
	if (e != NULL && --e->refs == 0)
		free(e);
}

static void
node_release(struct node *n)
{
	while (n != NULL && --n->refs == 0) {
		struct node *right = n->right;

		node_release(n->left);
		entry_release(n->e);
		free(n);
		n = right;      /* a loop on one side keeps the stack short */
	}
}

static struct node *
node_retain(struct node *n)
{
	if (n != NULL)
		n->refs++;
	return n;
}

static int
height(const struct node *n)
{
	return n != NULL ? n->height : 0;
}

static uint64_t
count(const struct node *n)
{
	return n != NULL ? n->count : 0;
}

/* Height and count of n from its children's. */
static void
fix(struct node *n)
{
	int l = height(n->left), r = height(n->right);

	n->height = 1 + (l > r ? l : r);
	n->count = 1 + count(n->left) + count(n->right);
}

/*
 * Make the node at *np, which the writer reached down nodes of its own,
 * one it may change: itself if nothing else refers to it, else a copy,
 * which takes *np's place.
 */
static int
node_own(struct node **np)
{
	struct node *n = *np, *c;

	if (n->refs == 1)
		return 0;
	if ((c = malloc(sizeof(*c))) == NULL)
		return ENOMEM;
	*c = *n;
	c->refs = 1;
	node_retain(c->left);
	node_retain(c->right);
	c->e->refs++;
	node_release(n);
	*np = c;
	return 0;
}

/* Rotate the subtree at *np, the writer's own, to its right (dir 0) or
 * left. */
static int
rotate(struct node **np, int dir)
{
	struct node *n = *np, **side = dir == 0 ? &n->left : &n->right, *s;
	int rc;

	if ((rc = node_own(side)) != 0)
		return rc;
	s = *side;
	if (dir == 0) {
		n->left = s->right;
		s->right = n;
	} else {
		n->right = s->left;
		s->left = n;
	}
	fix(n);
	fix(s);
	*np = s;
	return 0;
}

/* Restore the AVL balance at *np, the writer's own, after a change
 * below. */
static int
rebalance(struct node **np)
{
	struct node *n = *np;
	int b = height(n->left) - height(n->right), rc;

	fix(n);
	if (b > 1) {
		if (height(n->left->left) < height(n->left->right) &&
		    ((rc = node_own(&n->left)) != 0 ||
		    (rc = rotate(&n->left, 1)) != 0))
			return rc;
		return rotate(np, 0);
	}
	if (b < -1) {
		if (height(n->right->right) < height(n->right->left) &&
		    ((rc = node_own(&n->right)) != 0 ||
		    (rc = rotate(&n->right, 0)) != 0))
			return rc;
		return rotate(np, 1);
	}
	return 0;
}

/* --- order ------------------------------------------------------------ */

/* memcmp's order, the shorter first on a tie.  A loop: keys are a few
 * bytes, and a search makes no library call a sanitizer would watch. */
static int
bytes_cmp(const void *a, size_t na, const void *b, size_t nb)
{
	const unsigned char *x = a, *y = b;

	for (size_t i = 0, n = na < nb ? na : nb; i < n; i++)
		if (x[i] != y[i])
			return x[i] < y[i] ? -1 : 1;
	return na < nb ? -1 : na > nb;
}

/*
 * Where a probe, a key and with dup a value, stands against entry e: a
 * probe without a value (val NULL) comes before every value of its key.
 */
static int
probe_cmp(const struct kv_val *key, const struct kv_val *val, int dup,
    const struct entry *e)
{
	int c = bytes_cmp(key->data, key->size, e->key, e->ksize);

	if (c != 0 || !dup)
		return c;
	if (val == NULL)
		return -1;
	return bytes_cmp(val->data, val->size, e->val, e->vsize);
}

static int
dup_table(enum kv_table tb)
{
	return tb == KV_LABELS;
}

/* The first entry after the probe (strict), or at it or after it. */
static struct entry *
find_after(const struct node *n, const struct kv_val *key,
    const struct kv_val *val, int dup, int strict)
{
	struct entry *best = NULL;

	while (n != NULL) {
		int c = probe_cmp(key, val, dup, n->e);

		if (c < 0 || (c == 0 && !strict)) {
			best = n->e;
			n = n->left;
		} else
			n = n->right;
	}
	return best;
}

/* The last entry before the probe. */
static struct entry *
find_before(const struct node *n, const struct kv_val *key,
    const struct kv_val *val, int dup)
{
	struct entry *best = NULL;

	while (n != NULL) {
		if (probe_cmp(key, val, dup, n->e) > 0) {
			best = n->e;
			n = n->right;
		} else
			n = n->left;
	}
	return best;
}

static struct entry *
find_end(const struct node *n, int last)
{
	if (n == NULL)
		return NULL;
	while ((last ? n->right : n->left) != NULL)
		n = last ? n->right : n->left;
	return n->e;
}

/* The entry of exactly this key (and with dup, value), or NULL. */
static struct entry *
find_exact(const struct node *n, const struct kv_val *key,
    const struct kv_val *val, int dup)
{
	struct entry *e = find_after(n, key, val, dup, 0);

	if (e == NULL || bytes_cmp(key->data, key->size, e->key, e->ksize) != 0)
		return NULL;
	if (val != NULL && bytes_cmp(val->data, val->size, e->val,
	    e->vsize) != 0)
		return NULL;
	return e;
}

/* --- changes ---------------------------------------------------------- */

/*
 * Put entry e (a reference the tree takes over) into the tree at *np:
 * in its place if an entry of its key is there (dup tables: the caller
 * made sure the pair is new).
 */
static int
tree_put(struct node **np, struct entry *e, int dup)
{
	struct kv_val k = { e->ksize, e->key }, v = { e->vsize, e->val };
	struct node *n;
	int c, rc;

	if (*np == NULL) {
		if ((n = malloc(sizeof(*n))) == NULL)
			return ENOMEM;
		n->left = n->right = NULL;
		n->e = e;
		n->refs = 1;
		fix(n);
		*np = n;
		return 0;
	}
	if ((rc = node_own(np)) != 0)
		return rc;
	n = *np;
	if ((c = probe_cmp(&k, &v, dup, n->e)) == 0) {
		entry_release(n->e);
		n->e = e;
		return 0;
	}
	if ((rc = tree_put(c < 0 ? &n->left : &n->right, e, dup)) != 0)
		return rc;
	return rebalance(np);
}

/* Take the least entry out of the tree at *np (not empty) into *e. */
static int
tree_take_first(struct node **np, struct entry **e)
{
	struct node *n;
	int rc;

	if ((rc = node_own(np)) != 0)
		return rc;
	n = *np;
	if (n->left == NULL) {
		*e = n->e;
		n->e->refs++;
		*np = node_retain(n->right);
		node_release(n);
		return 0;
	}
	if ((rc = tree_take_first(&n->left, e)) != 0)
		return rc;
	return rebalance(np);
}

/* Delete the entry of key (with dup, the pair of key and val);
 * KV_NOTFOUND. */
static int
tree_del(struct node **np, const struct kv_val *key,
    const struct kv_val *val, int dup)
{
	struct node *n = *np;
	struct entry *e;
	int c, rc;

	if (n == NULL)
		return KV_NOTFOUND;
	if ((c = probe_cmp(key, val, dup, n->e)) != 0) {
		if ((c < 0 ? n->left : n->right) == NULL)
			return KV_NOTFOUND;
		if ((rc = node_own(np)) != 0)
			return rc;
		n = *np;
		if ((rc = tree_del(c < 0 ? &n->left : &n->right, key, val,
		    dup)) != 0)
			return rc;
		return rebalance(np);
	}
	if ((rc = node_own(np)) != 0)
		return rc;
	n = *np;
	if (n->left == NULL || n->right == NULL) {
		*np = node_retain(n->left != NULL ? n->left : n->right);
		node_release(n);
		return 0;
	}
	if ((rc = tree_take_first(&n->right, &e)) != 0)
		return rc;
	entry_release(n->e);
	n->e = e;
	return rebalance(np);
}

/* --- stores -------------------------------------------------------------- */

int
mem_is_address(const char *where)
{
	return strncmp(where, PREFIX, strlen(PREFIX)) == 0;
}

static struct mem_store *
store_find(const char *where)
{
	struct mem_store *ms;

	for (ms = stores; ms != NULL; ms = ms->next)
		if (strcmp(ms->name, where + strlen(PREFIX)) == 0)
			return ms;
	return NULL;
}

static void
version_release(struct version *v)
{
	if (v != NULL && --v->refs == 0) {
		for (int i = 0; i < KV_TABLES; i++)
			node_release(v->root[i]);
		free(v);
	}
}

/* A store of version v (which it takes), known to the process. */
static int
store_add(const char *where, struct version *v)
{
	const char *name = where + strlen(PREFIX);
	struct mem_store *ms;

	if ((ms = calloc(1, sizeof(*ms) + strlen(name) + 1)) == NULL)
		return ENOMEM;
	strcpy(ms->name, name);
	ms->current = v;
	ms->next = stores;
	stores = ms;
	return 0;
}

int
mem_copy(const char *from, const char *to)
{
	struct mem_store *ms;
	int rc;

	if (!mem_is_address(from) || !mem_is_address(to))
		return EINVAL;
	if ((ms = store_find(from)) == NULL)
		return AR_ENOSTORE;
	if (store_find(to) != NULL)
		return EEXIST;
	if ((rc = store_add(to, ms->current)) == 0)
		ms->current->refs++;
	return rc;
}

int
mem_same(const char *a, const char *b)
{
	struct mem_store *x, *y;

	if (!mem_is_address(a) || !mem_is_address(b) ||
	    (x = store_find(a)) == NULL || (y = store_find(b)) == NULL)
		return 0;
	return x->current == y->current;
}

int
mem_remove(const char *where)
{
	struct mem_store **p, *ms;

	if (!mem_is_address(where))
		return EINVAL;
	if ((ms = store_find(where)) == NULL)
		return AR_ENOSTORE;
	if (ms->handles > 0)
		return EBUSY;
	for (p = &stores; *p != ms; p = &(*p)->next)
		;
	*p = ms->next;
	version_release(ms->current);
	free(ms);
	return 0;
}

/* --- transactions ------------------------------------------------------ */

static struct mem_txn *
txn_new(struct mem_store *ms, struct mem_txn *parent, int write)
{
	struct mem_txn *t;

	if ((t = calloc(1, sizeof(*t))) == NULL)
		return NULL;
	t->base.be = self;
	t->ms = ms;
	t->parent = parent;
	t->write = write;
	if (!write) {
		t->v = ms->current;
		t->v->refs++;
		t->roots = t->v->root;
		return t;
	}
	for (int i = 0; i < KV_TABLES; i++)
		t->root[i] = node_retain(parent != NULL ? parent->root[i] :
		    ms->current->root[i]);
	t->roots = t->root;
	return t;
}

/* End t: its trees (what it did not commit) and its snapshot go. */
static void
txn_free(struct mem_txn *t)
{
	for (int i = 0; i < KV_TABLES; i++)
		node_release(t->root[i]);
	version_release(t->v);
	if (t->write && t->parent == NULL)
		t->ms->writer = NULL;
	free(t);
}

/*
 * Make the store where with init's content: the store is known to
 * the process only once fill has succeeded.
 */
static int
mem_create(const char *where, const struct kv_init *init)
{
	struct mem_store scratch = { .next = NULL };
	struct version *v;
	struct mem_txn *t;
	int rc;

	if (store_find(where) != NULL)
		return EEXIST;
	if ((v = calloc(1, sizeof(*v))) == NULL)
		return ENOMEM;
	v->refs = 1;
	scratch.current = v;
	if ((t = txn_new(&scratch, NULL, 1)) == NULL) {
		version_release(v);
		return ENOMEM;
	}
	if ((rc = init->fill(&t->base, init->arg)) == 0) {
		/* The writer's trees become the first version. */
		for (int i = 0; i < KV_TABLES; i++) {
			v->root[i] = t->root[i];
			t->root[i] = NULL;
		}
		rc = store_add(where, v);
	}
	txn_free(t);
	if (rc != 0)
		version_release(v);
	return rc;
}

static int
mem_open(const char *where, unsigned flags, struct kv_store **ks)
{
	struct mem_store *ms = store_find(where);
	struct mem_handle *h;

	if (ms == NULL)
		return AR_ENOSTORE;
	if ((h = calloc(1, sizeof(*h))) == NULL)
		return ENOMEM;
	h->base.be = self;
	h->ms = ms;
	h->rdonly = (flags & AR_RDONLY) != 0;
	ms->handles++;
	*ks = &h->base;
	return 0;
}

static void
mem_close(struct kv_store *ks)
{
	struct mem_handle *h = (struct mem_handle *)ks;

	h->ms->handles--;
	free(h);
}

static int
mem_complete(struct kv_store *ks)
{
	(void)ks;
	return 1;
}

static int
mem_txn_begin(struct kv_store *ks, struct kv_txn *parent, int write,
    long wait_ms, struct kv_txn **txn)
{
	struct mem_handle *h = (struct mem_handle *)ks;
	struct mem_txn *t, *up = (struct mem_txn *)parent;

	(void)wait_ms;
	if (write && h->rdonly)
		return EACCES;
	if (write && up == NULL && h->ms->writer != NULL)
		return AR_ETIMEDOUT;
	if ((t = txn_new(h->ms, up, write)) == NULL)
		return ENOMEM;
	if (write && up == NULL)
		h->ms->writer = t;
	*txn = &t->base;
	return 0;
}

static int
mem_txn_commit(struct kv_txn *txn)
{
	struct mem_txn *t = (struct mem_txn *)txn;
	struct node **to;
	struct version *v = NULL;

	if (!t->write) {
		txn_free(t);
		return 0;
	}
	if (t->parent == NULL) {
		if ((v = malloc(sizeof(*v))) == NULL) {
			txn_free(t);
			return ENOMEM;
		}
		v->refs = 1;
		to = v->root;
	} else
		to = t->parent->root;
	for (int i = 0; i < KV_TABLES; i++) {
		if (t->parent != NULL)
			node_release(to[i]);
		to[i] = t->root[i];
		t->root[i] = NULL;
	}
	if (v != NULL) {
		version_release(t->ms->current);
		t->ms->current = v;
	}
	txn_free(t);
	return 0;
}

static void
mem_txn_abort(struct kv_txn *txn)
{
	txn_free((struct mem_txn *)txn);
}

/* Every table is there from the start: nothing to make. */
static int
mem_upgrade(struct kv_txn *txn)
{
	(void)txn;
	return 0;
}

/* --- calls --------------------------------------------------------------- */

static void
val_of(const struct entry *e, struct kv_val *key, struct kv_val *val)
{
	if (key != NULL) {
		key->size = e->ksize;
		key->data = (void *)e->key;
	}
	val->size = e->vsize;
	val->data = e->val;
}

static int
mem_get(struct kv_txn *txn, enum kv_table tb, const struct kv_val *key,
    struct kv_val *val)
{
	struct mem_txn *t = (struct mem_txn *)txn;
	struct entry *e = find_exact(t->roots[tb], key, NULL, dup_table(tb));

	if (e == NULL)
		return KV_NOTFOUND;
	val_of(e, NULL, val);
	return 0;
}

static int
mem_put(struct kv_txn *txn, enum kv_table tb, const struct kv_val *key,
    const struct kv_val *val, unsigned flags)
{
	struct mem_txn *t = (struct mem_txn *)txn;
	int dup = dup_table(tb), rc;
	struct entry *e;

	if (!t->write)
		return EACCES;
	if (((flags & KV_NOOVERWRITE) &&
	    find_exact(t->root[tb], key, NULL, dup) != NULL) ||
	    (dup && find_exact(t->root[tb], key, val, dup) != NULL))
		return KV_KEYEXIST;
	if ((e = entry_new(key, val)) == NULL)
		return ENOMEM;
	if ((rc = tree_put(&t->root[tb], e, dup)) != 0)
		entry_release(e);
	return rc;
}

static int
mem_del(struct kv_txn *txn, enum kv_table tb, const struct kv_val *key,
    const struct kv_val *val)
{
	struct mem_txn *t = (struct mem_txn *)txn;
	struct kv_val k, v;
	struct entry *first, *e;
	int rc = 0;

	if (!t->write)
		return EACCES;
	if (!dup_table(tb))
		return tree_del(&t->root[tb], key, NULL, 0);
	if (val != NULL)
		return tree_del(&t->root[tb], key, val, 1);
	/* All of the key's values, the first each time.  The key may be
	 * the bytes of one of them: the first is held, and its key used. */
	if ((first = find_exact(t->root[tb], key, NULL, 1)) == NULL)
		return KV_NOTFOUND;
	first->refs++;
	val_of(first, &k, &v);
	while (rc == 0 && (e = find_exact(t->root[tb], &k, NULL, 1)) != NULL) {
		e->refs++;
		val_of(e, NULL, &v);
		rc = tree_del(&t->root[tb], &k, &v, 1);
		entry_release(e);
	}
	entry_release(first);
	return rc;
}

static int
mem_count(struct kv_txn *txn, enum kv_table tb, uint64_t *n)
{
	*n = count(((struct mem_txn *)txn)->roots[tb]);
	return 0;
}

static int
mem_cursor_open(struct kv_txn *txn, enum kv_table tb, struct kv_cursor **cur)
{
	struct mem_cursor *c;

	if ((c = calloc(1, sizeof(*c))) == NULL)
		return ENOMEM;
	c->base.be = self;
	c->t = (struct mem_txn *)txn;
	c->tb = tb;
	*cur = &c->base;
	return 0;
}

static void
mem_cursor_close(struct kv_cursor *cur)
{
	struct mem_cursor *c = (struct mem_cursor *)cur;

	entry_release(c->at);
	free(c);
}

/* Stand at e (or nowhere), holding it; KV_NOTFOUND for nowhere. */
static int
cursor_at(struct mem_cursor *c, struct entry *e, struct kv_val *key,
    struct kv_val *val)
{
	if (e != NULL)
		e->refs++;
	entry_release(c->at);
	c->at = e;
	if (e == NULL)
		return KV_NOTFOUND;
	val_of(e, key, val);
	return 0;
}

static int
mem_cursor_get(struct kv_cursor *cur, struct kv_val *key, struct kv_val *val,
    enum kv_op op)
{
	struct mem_cursor *c = (struct mem_cursor *)cur;
	const struct node *root = c->t->roots[c->tb];
	int dup = dup_table(c->tb);
	struct entry *at = c->at, *e = NULL;
	struct kv_val ak, av;

	if (at != NULL)
		val_of(at, &ak, &av);
	/* Unplaced, a step goes to an end, as in LMDB. */
	if (at == NULL && op == KV_NEXT)
		op = KV_FIRST;
	else if (at == NULL && op == KV_PREV)
		op = KV_LAST;
	switch (op) {
	case KV_FIRST:
	case KV_LAST:
		e = find_end(root, op == KV_LAST);
		break;
	case KV_NEXT:
	case KV_NEXT_DUP:
		/* After a deletion, the entry that followed the gap. */
		if (at == NULL)
			break;
		e = find_after(root, &ak, &av, dup, 1);
		if (e != NULL && op == KV_NEXT_DUP &&
		    bytes_cmp(e->key, e->ksize, at->key, at->ksize) != 0)
			e = NULL;
		break;
	case KV_PREV:
		e = find_before(root, &ak, &av, dup);
		break;
	case KV_SET_KEY:
		e = find_exact(root, key, NULL, dup);
		break;
	case KV_SET_RANGE:
		e = find_after(root, key, NULL, dup, 0);
		break;
	case KV_GET_BOTH:
		e = find_exact(root, key, val, 1);
		break;
	}
	return cursor_at(c, e, key, val);
}

static int
mem_cursor_del(struct kv_cursor *cur)
{
	struct mem_cursor *c = (struct mem_cursor *)cur;
	struct kv_val k, v;

	if (c->at == NULL)
		return EINVAL;
	if (!c->t->write)
		return EACCES;
	/* Deleted twice: KV_NOTFOUND, as nothing is at the cursor. */
	val_of(c->at, &k, &v);
	return tree_del(&c->t->root[c->tb], &k, &v, dup_table(c->tb));
}

/* Nothing bounds a memory store but the process's memory. */
static int
mem_grow(struct kv_store *ks, uint64_t limit)
{
	(void)ks;
	(void)limit;
	return 0;
}

static int
mem_size(struct kv_store *ks, uint64_t *bytes)
{
	(void)ks;
	*bytes = 0;
	return 0;
}

/* The writer is this process, if there is one. */
static long
mem_lock_holder(struct kv_store *ks)
{
	return ((struct mem_handle *)ks)->ms->writer != NULL ?
	    (long)getpid() : 0;
}

/* A reader keeps nothing between transactions. */
static void
mem_idle(struct kv_store *ks)
{
	(void)ks;
}

static const char *
mem_strerror(int code)
{
	(void)code;
	return NULL;
}

const struct kv_backend kv_memory = {
	.name = "memory",
	.claims = mem_is_address,
	.create = mem_create,
	.open = mem_open,
	.close = mem_close,
	.complete = mem_complete,
	.txn_begin = mem_txn_begin,
	.txn_commit = mem_txn_commit,
	.txn_abort = mem_txn_abort,
	.upgrade = mem_upgrade,
	.get = mem_get,
	.put = mem_put,
	.del = mem_del,
	.count = mem_count,
	.cursor_open = mem_cursor_open,
	.cursor_close = mem_cursor_close,
	.cursor_get = mem_cursor_get,
	.cursor_del = mem_cursor_del,
	.grow = mem_grow,
	.size = mem_size,
	.lock_holder = mem_lock_holder,
	.idle = mem_idle,
	.strerror = mem_strerror,
	.clock = kv_host_clock,
	.role = NULL,           /* no roles: owners are uids */
	.share = NULL,          /* no files: the process's alone */
	.denied = NULL,
};
