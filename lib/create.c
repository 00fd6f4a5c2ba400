/*
 * create.c - a store made (ar_create) or converted to this format
 * (ar_upgrade): its first content, the meta, the nodes' names and the
 * demand log's first entry, in the one transaction that makes it, so
 * that a creation cut short leaves no store or a whole one.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define MAP_MAX_DEFAULT (16ULL << 30)

void
ar_config_default(struct ar_config *cfg)
{
	cfg->nodes = 64;
	cfg->slot = 300;
	cfg->horizon = 30 * 86400;
	cfg->map_max = 0;
	cfg->group = -1;
	cfg->hosts = NULL;
	cfg->flags = 0;
	cfg->layout = NULL;
}

static int
config_valid(const struct ar_config *cfg)
{
	/* Peaks are kept in PEAK_BITS bits in the ring's summary. */
	if (cfg->nodes == 0 || cfg->nodes > 1000000 || cfg->slot < 1 ||
	    cfg->slot > 86400)
		return 0;
	if (cfg->horizon < cfg->slot || cfg->horizon % cfg->slot != 0 ||
	    cfg->horizon / cfg->slot > HORIZON_MAX_SLOTS ||
	    (cfg->flags & ~(unsigned)(AR_SIMULATED | AR_ROLE_OWNERS)) != 0)
		return 0;
	return cfg->map_max == 0 || cfg->map_max >= KV_SIZE_INITIAL;
}

/* The meta's mode for a configuration's flags, and back. */
static uint32_t
mode_of(unsigned flags)
{
	return ((flags & AR_SIMULATED) ? META_SIMULATED : 0) |
	    ((flags & AR_ROLE_OWNERS) ? META_ROLE_OWNERS : 0);
}

/*
 * The host list naming a store's nodes, as stored: given, compacted, or
 * by default node[1-N] zero-padded to N's digits.  EINVAL if given is
 * not a host list of exactly nodes hosts.
 */
static int
hosts_text(const char *given, uint32_t nodes, char **text)
{
	char deflt[64], err[AR_ERRMAX];
	struct ar_hostlist h;
	size_t len = 0, cap = 0;
	int rc = 0;

	*text = NULL;
	if (given == NULL) {
		snprintf(deflt, sizeof(deflt), "node[%0*d-%u]",
		    snprintf(NULL, 0, "%u", nodes), 1, nodes);
		given = deflt;
	}
	ar_hostlist_init(&h);
	if ((rc = ar_hostlist_parse_max(given, AR_HOSTS_MAX, &h, err)) != 0)
		rc = rc == -2 ? ENOMEM : EINVAL;
	else if (h.count != nodes)
		rc = EINVAL;
	else if (ar_hostlist_format(&h, text, &len, &cap) != 0)
		rc = ENOMEM;
	ar_hostlist_free(&h);
	if (rc != 0) {
		free(*text);
		*text = NULL;
	}
	return rc;
}

/* What a new store holds first, in its creating transaction: a live
 * one's clock is the system clock then. */
struct first {
	const struct meta *m;
	const char *names;
	const char *layout;     /* the description's canonical text, or NULL */
};

static int
store_fill(struct kv_txn *txn, const void *arg)
{
	const struct first *f = arg;
	struct meta m = *f->m;
	struct kv_val v = { sizeof(m), &m };
	int64_t system;
	int rc;

	if (!(m.mode & META_SIMULATED) &&
	    (rc = live_clock(txn, 1, m.clock, 0, &system, &m.clock)) != 0)
		return rc;
	if ((rc = kv_put(txn, KV_META, &meta_key, &v, 0)) != 0 ||
	    (rc = hosts_put(txn, f->names)) != 0 ||
	    (f->layout != NULL && (rc = layout_put(txn, f->layout)) != 0))
		return rc;
	return demand_begin(txn, m.clock);
}

/*
 * Give the store an older ar's interrupted creation left (its databases
 * or some of them, no meta, no records) its first content, as its only
 * writer.  Another creation may have finished it meanwhile.
 */
static int
store_finish(const char *where, const struct first *f, long wait_ms)
{
	const struct kv_backend *be = kv_backend_of(where);
	struct kv_store *ks;
	struct kv_txn *txn;
	struct kv_val v;
	uint64_t n;
	int rc;

	if ((rc = be->open(where, 0, &ks)) != 0)
		return rc;
	if ((rc = be->txn_begin(ks, NULL, 1, wait_ms, &txn)) != 0)
		goto out;
	if ((rc = be->upgrade(txn)) == 0 &&
	    (rc = kv_get(txn, KV_META, &meta_key, &v)) == KV_NOTFOUND &&
	    (rc = kv_count(txn, KV_RESV, &n)) == 0) {
		rc = n > 0 ? AR_ECORRUPT : store_fill(txn, f);
		if (rc == 0)
			rc = be->txn_commit(txn);
		else
			be->txn_abort(txn);
	} else
		be->txn_abort(txn);
out:
	be->close(ks);
	return rc;
}

/* A store is there already: fine if it is the same one. */
static int
create_again(const char *where, const struct first *f,
    const struct ar_config *cfg)
{
	const char *have;
	ar_store *s;
	ar_txn *t;
	const struct meta *m = f->m;
	int rc;

	if ((rc = ar_open(where, AR_RDONLY, &s)) == AR_EHALF)
		return store_finish(where, f, WAIT_DEFAULT_MS);
	if (rc != 0)
		return rc;
	if ((rc = ar_txn_begin(s, 0, 0, &t)) == 0) {
		if (t->m.nodes != m->nodes || t->m.slot != m->slot ||
		    t->m.horizon != m->horizon || t->m.mode != m->mode)
			rc = AR_EEXIST;
		/* Names given must be the ones it has. */
		if (rc == 0 && cfg->hosts != NULL &&
		    (rc = ar_hosts(t, &have)) == 0 &&
		    strcmp(have, f->names) != 0)
			rc = AR_EEXIST;
		/* So must a description. */
		if (rc == 0 && f->layout != NULL &&
		    (rc = layout_need(t)) == 0 &&
		    strcmp(t->lay.text, f->layout) != 0)
			rc = AR_EEXIST;
		ar_txn_abort(t);
	}
	ar_close(s);
	return rc;
}

int
ar_create(const char *where, const struct ar_config *cfg, int64_t now)
{
	struct kv_init init = { store_fill, NULL, 0, cfg->group };
	struct ar_config given = *cfg;
	struct layout lay;
	struct first f;
	char *names, err[AR_ERRMAX];
	struct meta m;
	int rc;

	memset(&lay, 0, sizeof(lay));
	/* A description gives the nodes and their names. */
	if (cfg->layout != NULL) {
		if (cfg->hosts != NULL)
			return EINVAL;
		if ((rc = layout_parse(cfg->layout, &lay, err)) != 0)
			return rc;
		given.nodes = lay.nodes;
		given.hosts = lay.all;
	}
	cfg = &given;
	if (!config_valid(cfg) || now < 0 || now > TIME_MAX ||
	    ((cfg->flags & AR_ROLE_OWNERS) && kv_backend_of(where)->role ==
	    NULL)) {
		layout_free(&lay);
		return EINVAL;
	}
	if ((rc = hosts_text(cfg->hosts, cfg->nodes, &names)) != 0) {
		layout_free(&lay);
		return rc;
	}
	memset(&m, 0, sizeof(m));
	m.magic = META_MAGIC;
	m.format = AR_FORMAT_VERSION;
	m.nodes = cfg->nodes;
	m.slot = cfg->slot;
	m.horizon = cfg->horizon / cfg->slot;
	m.chunks = (uint32_t)((m.horizon + CHUNK_SLOTS - 1) / CHUNK_SLOTS + 1);
	m.clock = now;
	m.next_id = 1;
	m.map_max = cfg->map_max ? cfg->map_max : MAP_MAX_DEFAULT;
	m.mode = mode_of(cfg->flags) | (lay.text != NULL ? META_LAYOUT : 0);
	f.m = &m;
	f.names = names;
	f.layout = lay.text;
	init.arg = &f;
	if ((rc = kv_backend_of(where)->create(where, &init)) == EEXIST)
		rc = create_again(where, &f, cfg);
	free(names);
	layout_free(&lay);
	return rc;
}

/*
 * Format 3 to 9 to 10 in one transaction, so that a crash leaves the
 * store as it was or converted: the tables it lacks are created, the
 * nodes of a store older than 5 get the default names, the clock of one
 * older than 7 becomes live unless flags holds AR_SIMULATED (its owners
 * stay uids; a store of format 7 keeps its mode), and meta says 8, with
 * no reclaim policy (its word was spare, 0), so `unused`, new, is rightly
 * empty.  Records need no rewrite: a format 3 record's key length was a
 * spare field, 0, only format 5 sets the named bit of a record's state,
 * only 6 its series and hold bits, only 7 its scheduler bit (a record
 * without it has no flags and no account) and its confirmed bit (a hold
 * confirmed before kept no sign of it), and only 8 its use bits (none:
 * no use reported) and a series link's pieces, which format 6 and 7
 * wrote 0 (no record is a piece).  The classes' floors of a store
 * older than 7 are set 0: older formats left those bytes unused,
 * copied from their callers; format 7 and 8 set them, and 8 the
 * reclaim word, which stay.
 * Format 9 adds nothing to rewrite: a store without a host description
 * (meta's mode without META_LAYOUT, as every older store) has all its
 * hosts in the one pool of partition "default", and a record's pool,
 * the word format 7 and 8 wrote 0 after its account's length, is that
 * pool.  Format 10 adds nothing to rewrite either: no older store has
 * the key `partitions` in `pricing`, so no partition has a policy of
 * its own.  *from is the format found; one that is current is left
 * alone.
 */
static int
upgrade_txn(ar_store *s, unsigned flags, int *from)
{
	char *names = NULL;
	struct kv_txn *txn;
	struct meta m;
	struct kv_val v = { sizeof(m), &m };
	int rc;

	if ((rc = s->be->txn_begin(s->ks, NULL, 1, s->wait_ms, &txn)) != 0)
		return rc;
	rc = meta_read(txn, &m);
	*from = rc == 0 || rc == AR_EUPGRADE ? (int)m.format : 0;
	if (rc == AR_EUPGRADE) {
		m.format = AR_FORMAT_VERSION;
		/* Format 7 gave a store its mode: it stays. */
		if (*from < 7)
			m.mode = mode_of(flags & AR_SIMULATED);
		/* Format 8 set the reclaim word, 7 the floors: they stay. */
		if (*from < 8)
			m.reclaim = 0;
		if ((rc = s->be->upgrade(txn)) == 0 &&
		    (*from >= 5 ||
		    ((rc = hosts_text(NULL, m.nodes, &names)) == 0 &&
		    (rc = hosts_put(txn, names)) == 0)) &&
		    (*from >= 7 || (rc = classes_upgrade(txn)) == 0) &&
		    (rc = kv_put(txn, KV_META, &meta_key, &v, 0)) == 0) {
			free(names);
			return s->be->txn_commit(txn);
		}
	}
	free(names);
	s->be->txn_abort(txn);
	return rc;
}

/* Format 8: the hosts that the pins in the plan name become tracked,
 * from a mapping of the whole plan (map.c), kept. */
static int
track_pins(ar_txn *t, void *arg)
{
	uint64_t conflict;
	int rc, pinned, built, ok;

	(void)arg;
	if ((rc = map_pinned(t, &pinned)) != 0 || !pinned ||
	    (rc = track_built(t, &built)) != 0 || built)
		return rc;
	/* A plan that does not map stays untracked, swept as before. */
	return map_after_admission(t, &ok, &conflict);
}

int
ar_upgrade(const char *where, unsigned flags, long wait_ms, int *from)
{
	ar_store s = { .be = kv_backend_of(where), .wait_ms = wait_ms };
	ar_store *up;
	int rc;

	*from = 0;
	if ((rc = s.be->open(where, 0, &s.ks)) != 0)
		return rc;
	/* Like ar_write: this one may have to grow the store. */
	while ((rc = upgrade_txn(&s, flags, from)) == AR_EFULL &&
	    (rc = ar_grow(&s, 0)) == 0)
		;
	s.be->close(s.ks);
	/* A transaction of its own, once the store reads as format 8: until
	 * it commits, admission sweeps the plan as format 7 did. */
	if (rc != 0 || *from == 0 || *from >= 8 ||
	    (rc = ar_open(where, 0, &up)) != 0)
		return rc;
	up->wait_ms = wait_ms;
	rc = ar_write(up, 0, 0, track_pins, NULL);
	ar_close(up);
	return rc;
}
