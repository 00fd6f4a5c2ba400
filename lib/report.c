/*
 * report.c - what the cluster did and will do over a range of time:
 * utilisation, idle node-slots, the reserved ones used, idle and not
 * reported on, admissions granted and refused, waiting time, moves and
 * revenue, per window or per label (ar_usage); and the retention of
 * history (ar_forget).
 *
 * The records are read in id order from the first one made less than
 * two horizons before the range, to the first made after it: ids follow
 * the store clock, which never runs back, so a binary search over ids
 * finds where to begin and the cost grows with the records near the
 * range, not with the whole history.  The demand log, in the order
 * requests were asked, is read the same way for the refusals.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "internal.h"

/* What a reservation's site reported of its node-slots (ar_use): used,
 * idle (no use reported, or reclaimed), or nothing. */
enum use_kind { USE_USED, USE_IDLE, USE_UNREPORTED, USE_KINDS };

/* A window's sums, as they are gathered. */
struct acc {
	uint64_t reserved;      /* node-slots */
	uint64_t use[USE_KINDS];        /* ... of which, by enum use_kind */
	uint64_t granted, refused;
	uint64_t refused_by[AR_REASONS];
	int64_t wait_sum, wait_max;
	uint64_t moved;
	int64_t revenue;
};

/* A group of --by: its label and sums. */
struct group {
	char label[AR_LABEL_MAX + 1];
	struct acc a;
	uint64_t cls[3 * AR_CLASSES_MAX];       /* granted, refused, revenue */
};

struct usage {
	ar_txn *t;
	int64_t from, to, window;       /* seconds, slot aligned */
	enum ar_usage_by by;
	size_t nwin;
	struct acc *win;                /* per window */
	int64_t *full;                  /* per window: node-slots of whole
					   windows, as differences; then
					   the same for each use kind */
	uint64_t *cls;                  /* per window and class: granted,
					   refused, revenue */
	struct group *g;                /* --by: the groups, by label */
	size_t ng, gcap;
	uint32_t classes;
	int64_t records_from;           /* the records are whole from here */
	int64_t demand_from;            /* the log holds every request asked
					   from here on */
	const struct ar_partition *parts;       /* --by partition: the */
	const struct ar_pool *pools;            /* ... store's layout */
	size_t nparts, npools;
};

/* The first key at or after *k in dbi whose value's time (read by when)
 * is at or after at: a binary search over the keys [*k, end), which the
 * times follow.  *k becomes it, or end if none. */
static int
first_at(ar_txn *t, enum kv_table dbi, int64_t at, uint64_t *k, uint64_t end,
    int (*when)(ar_txn *, const struct kv_val *, int64_t *))
{
	unsigned char key[8];
	struct kv_val kv, v;
	struct kv_cursor *cur;
	uint64_t lo = *k, hi = end, mid, found;
	int64_t time;
	int rc = 0;

	if ((rc = kv_cursor_open(t->txn, dbi, &cur)) != 0)
		return rc;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		key_u64(key, mid);
		kv.size = 8;
		kv.data = key;
		if ((rc = kv_cursor_get(cur, &kv, &v, KV_SET_RANGE)) ==
		    KV_NOTFOUND) {
			hi = mid;
			rc = 0;
			continue;
		}
		if (rc != 0)
			break;
		if (kv.size != 8) {
			rc = AR_ECORRUPT;
			break;
		}
		found = u64_key(kv.data);
		if ((rc = when(t, &v, &time)) != 0)
			break;
		/* Keys in [mid, found) are missing: the answer is not there. */
		if (time < at)
			lo = found + 1;
		else
			hi = mid;
	}
	kv_cursor_close(cur);
	*k = lo;
	return rc;
}

/* A record's time: when it was made. */
static int
made(ar_txn *t, const struct kv_val *v, int64_t *time)
{
	struct ar_resv r;
	int rc;

	if ((rc = resv_decode(t, v, &r)) != 0)
		return rc;
	*time = r.created;
	return 0;
}

/* A demand entry's time: when it was asked. */
static int
asked_at(ar_txn *t, const struct kv_val *v, int64_t *time)
{
	struct disk_demand d;

	(void)t;
	if (v->size != sizeof(d))
		return AR_ECORRUPT;
	memcpy(&d, v->data, sizeof(d));
	*time = d.at;
	return 0;
}

/*
 * The first and last keys of dbi (both 0 if it is empty), and if fv is
 * not NULL the first value: its size in fv->size, and as much of it as
 * fits in fv->size bytes copied to fv->data (the cursor moves on).
 */
static int
key_bounds(ar_txn *t, enum kv_table dbi, uint64_t *first, uint64_t *last,
    struct kv_val *fv)
{
	struct kv_cursor *cur;
	struct kv_val k, v;
	int rc;

	*first = *last = 0;
	if ((rc = kv_cursor_open(t->txn, dbi, &cur)) != 0)
		return rc;
	if ((rc = kv_cursor_get(cur, &k, &v, KV_FIRST)) == 0 &&
	    k.size == 8) {
		*first = u64_key(k.data);
		if (fv != NULL) {
			memcpy(fv->data, v.data, v.size < fv->size ? v.size :
			    fv->size);
			fv->size = v.size;
		}
		if ((rc = kv_cursor_get(cur, &k, &v, KV_LAST)) == 0 &&
		    k.size == 8)
			*last = u64_key(k.data);
	}
	if (rc == 0 && k.size != 8)
		rc = AR_ECORRUPT;
	kv_cursor_close(cur);
	return rc == KV_NOTFOUND ? 0 : rc;
}

/*
 * What the history still tells.  The demand log is cut only from its
 * front (by a purge's retention, or ar_forget), so it holds every
 * refusal since its first entry; a store made by this ar begins its log
 * with an entry of no request (demand_begin), and while that is there
 * the log holds every refusal since the store began.  A store made by
 * an older ar logged nothing without price classes.  Records go only by
 * ar_forget, which also cuts the log at the same time or later: if any
 * record is gone, those from the log's first entry on are whole.
 */
static int
history(struct usage *u)
{
	ar_txn *t = u->t;
	uint64_t first, last;
	struct disk_demand d;
	struct kv_val fv = { sizeof(d), &d };
	int rc;

	if ((rc = key_bounds(t, KV_DEMAND, &first, &last, &fv)) != 0)
		return rc;
	u->demand_from = t->now;
	if (first != 0) {
		if (fv.size != sizeof(d))
			return AR_ECORRUPT;
		u->demand_from = first == 1 && d.jobs == 0 ? INT64_MIN : d.at;
	}
	u->records_from = t->m.records == t->m.next_id - 1 ? INT64_MIN :
	    first != 0 ? d.at : t->now;
	return 0;
}

/* The group of label, made if new; NULL if memory ran out. */
static struct group *
group_of(struct usage *u, const char *label)
{
	size_t lo = 0, hi = u->ng, mid;
	struct group *g;
	int c;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if ((c = strcmp(u->g[mid].label, label)) == 0)
			return &u->g[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (array_room(&u->g, &u->gcap, u->ng + 1, sizeof(*u->g)) != 0)
		return NULL;
	memmove(&u->g[lo + 1], &u->g[lo], (u->ng - lo) * sizeof(*g));
	u->ng++;
	g = &u->g[lo];
	memset(g, 0, sizeof(*g));
	snprintf(g->label, sizeof(g->label), "%s", label);
	return g;
}

/* The label a record or demand entry of class cls counts under. */
static const char *
label_of(struct usage *u, const struct ar_resv *r, uint32_t cls, char *buf)
{
	if (u->by == AR_BY_USER)
		return r != NULL ? r->user : NULL;
	if (u->by == AR_BY_JOB)
		return r != NULL ? r->job : NULL;
	if (u->by == AR_BY_PARTITION)
		return r != NULL && r->pool < u->npools ?
		    u->parts[u->pools[r->pool].partition].name : NULL;
	snprintf(buf, 16, "%u", (unsigned)cls);        /* 0 to 8 */
	return buf;
}

/* Where sums for a time go: the window holding it, or the group. */
static int
target(struct usage *u, int64_t when, const struct ar_resv *r, uint32_t cls,
    struct acc **a, uint64_t **c)
{
	char buf[16];
	const char *label;
	struct group *g;
	size_t w;

	*a = NULL;
	*c = NULL;
	if (when < u->from || when >= u->to)
		return 0;
	if (u->by == AR_BY_WINDOW) {
		w = (size_t)((when - u->from) / u->window);
		*a = &u->win[w];
		*c = u->cls != NULL ? &u->cls[w * 3 * AR_CLASSES_MAX] : NULL;
		return 0;
	}
	if ((label = label_of(u, r, cls, buf)) == NULL)
		return 0;
	if ((g = group_of(u, label)) == NULL)
		return ENOMEM;
	*a = &g->a;
	*c = g->cls;
	return 0;
}

/* Where kind's node-slots go in a: reserved (kind -1), or a use kind. */
static uint64_t *
slots_of(struct acc *a, int kind)
{
	return kind < 0 ? &a->reserved : &a->use[kind];
}

/* Add the node-slots of [s, e) (seconds, slot aligned) to the windows:
 * to what is reserved (kind -1) or to a use kind. */
static void
reserve_windows(struct usage *u, int64_t s, int64_t e, uint64_t nodes,
    int kind)
{
	int64_t slot = u->t->m.slot;
	int64_t *full = u->full + (size_t)(kind + 1) * (u->nwin + 1);
	size_t w, last;

	if (s < u->from)
		s = u->from;
	if (e > u->to)
		e = u->to;
	if (s >= e)
		return;
	w = (size_t)((s - u->from) / u->window);
	last = (size_t)((e - 1 - u->from) / u->window);
	if (w == last) {
		*slots_of(&u->win[w], kind) += nodes *
		    (uint64_t)((e - s) / slot);
		return;
	}
	/* The first and last windows in part, those between whole. */
	*slots_of(&u->win[w], kind) += nodes * (uint64_t)((u->from +
	    (int64_t)(w + 1) * u->window - s) / slot);
	*slots_of(&u->win[last], kind) += nodes * (uint64_t)((e - u->from -
	    (int64_t)last * u->window) / slot);
	full[w + 1] += (int64_t)nodes;
	full[last] -= (int64_t)nodes;
}

/* How a record's node-slots count by what was reported: one that
 * reported use, used; one that reported none or was reclaimed, idle;
 * one without a report, unreported. */
static int
use_kind(const struct ar_resv *r)
{
	return r->used == AR_USE_YES ? USE_USED : r->used == AR_USE_NO ||
	    r->state == AR_RECLAIMED ? USE_IDLE : USE_UNREPORTED;
}

/* The time a request counts at: its earliest start, but no earlier than
 * it was asked nor later than the horizon then, so that what counts in
 * a window was asked less than a horizon before it. */
static int64_t
asked_start(const ar_txn *t, int64_t earliest, int64_t at)
{
	int64_t reach = t->m.horizon * t->m.slot;

	if (earliest < at)
		return at;
	return earliest - at > reach ? at + reach : earliest;
}

/* One record: its node-slots, and its admission if asked for the range. */
static int
count_record(struct usage *u, const struct kv_val *v)
{
	ar_txn *t = u->t;
	struct disk_resv d;
	struct ar_resv r;
	struct acc *a;
	uint64_t *c;
	int64_t held, wait, slot = t->m.slot;
	int rc, gone, later;

	if ((rc = resv_decode(t, v, &r)) != 0)
		return rc;
	resv_as_of(&r, t->now);
	memcpy(&d, v->data, sizeof(d));
	/* A cancelled one held its slots until the slot it was cancelled
	 * in, an expired hold until it expired; a later move would have
	 * told in its changed time.  A later piece of a split request
	 * reclaimed with a started one before it began held nothing. */
	held = r.end;
	gone = r.state == AR_CANCELLED || r.state == AR_EXPIRED;
	if (gone) {
		held = d.changed - d.changed % slot;
		if (held > r.end)
			held = r.end;
	} else if (r.state == AR_RECLAIMED && d.changed <= r.start)
		held = r.start;
	if (held > r.start && held > u->from && r.start < u->to) {
		if (u->by == AR_BY_WINDOW) {
			reserve_windows(u, r.start, held,
			    (uint64_t)r.nodes * r.jobs, -1);
			reserve_windows(u, r.start, held,
			    (uint64_t)r.nodes * r.jobs, use_kind(&r));
		} else if ((rc = target(u, r.start < u->from ? u->from : r.start,
		    &r, r.cls, &a, &c)) != 0)
			return rc;
		else if (a != NULL) {
			int64_t s = r.start < u->from ? u->from : r.start;
			int64_t e = held > u->to ? u->to : held;

			uint64_t n = (uint64_t)r.nodes * r.jobs *
			    (uint64_t)((e - s) / slot);

			if (s < e) {
				a->reserved += n;
				a->use[use_kind(&r)] += n;
			}
		}
	}
	if ((rc = target(u, asked_start(t, r.earliest, r.created), &r, r.cls,
	    &a, &c)) != 0 || a == NULL)
		return rc;
	/* A split request is one admission, told by its first piece (seed
	 * 004: its start is the first piece's); the others are charged, as
	 * are pieces a modify replaced, whose request the new ones tell. */
	later = r.pieces != 0 && (r.occurrence != 1 || r.replaced);
	if (!later) {
		a->granted += r.jobs;
		wait = r.start - (r.earliest > r.created ? r.earliest :
		    r.created);
		if (wait < 0)
			wait = 0;
		a->wait_sum += wait;
		if (wait > a->wait_max)
			a->wait_max = wait;
	}
	/* Moved after it was made; a finished one reads as changed at its
	 * end, so its stored time is asked; a reclaimed one's is when it
	 * was reclaimed. */
	if (!gone && r.state != AR_RECLAIMED && d.changed != d.created)
		a->moved++;
	if (!gone)
		a->revenue += r.price;
	if (c != NULL && r.cls >= 1 && r.cls <= AR_CLASSES_MAX) {
		if (!later)
			c[3 * (r.cls - 1)] += r.jobs;
		if (!gone)
			c[3 * (r.cls - 1) + 2] += (uint64_t)r.price;
	}
	return 0;
}

/* One demand entry: the copies it was refused. */
static int
count_demand(struct usage *u, const struct disk_demand *d)
{
	struct acc *a;
	uint64_t *c;
	uint64_t n;
	int rc;

	if (d->granted >= d->jobs)
		return 0;
	if (u->by == AR_BY_USER || u->by == AR_BY_JOB)
		return 0;               /* the log has no labels */
	if ((rc = target(u, asked_start(u->t, d->earliest, d->at), NULL,
	    d->cls, &a, &c)) != 0 || a == NULL)
		return rc;
	n = d->jobs - d->granted;
	a->refused += n;
	if (d->reason < AR_REASONS)
		a->refused_by[d->reason] += n;
	if (c != NULL && d->cls >= 1 && d->cls <= AR_CLASSES_MAX)
		c[3 * (d->cls - 1) + 1] += n;
	return 0;
}

/* A record made before the range's end counts; the walk stops at the
 * first made after it, since ids follow the store clock. */
static int
record_in_range(struct kv_cursor *cur, const struct kv_val *k,
    const struct kv_val *v, void *arg)
{
	struct usage *u = arg;
	struct disk_resv d;

	(void)cur;
	(void)k;
	if (v->size < sizeof(d))
		return AR_ECORRUPT;
	memcpy(&d, v->data, sizeof(d));
	return d.created >= u->to ? KV_STOP : count_record(u, v);
}

/* A demand entry asked before the range's end counts; the log is in
 * the order requests were asked. */
static int
demand_in_range(struct kv_cursor *cur, const struct kv_val *k,
    const struct kv_val *v, void *arg)
{
	struct usage *u = arg;
	struct disk_demand d;

	(void)cur;
	(void)k;
	if (v->size != sizeof(d))
		return AR_ECORRUPT;
	memcpy(&d, v->data, sizeof(d));
	return d.at >= u->to ? KV_STOP : count_demand(u, &d);
}

/* Read the records and demand entries that count in the range. */
static int
gather(struct usage *u)
{
	ar_txn *t = u->t;
	int64_t reach = t->m.horizon * t->m.slot;
	unsigned char key[8];
	struct kv_val from = { 8, key };
	uint64_t first = 1, last, dfirst;
	int rc;

	/* A record overlaps the range or was asked for it only if it was
	 * made less than two horizons before it (see the man page). */
	if ((rc = first_at(t, KV_RESV, u->from - 2 * reach, &first,
	    t->m.next_id, made)) != 0)
		return rc;
	key_u64(key, first);
	if ((rc = kv_walk(t->txn, KV_RESV, &from, record_in_range, u)) != 0 &&
	    rc != KV_STOP)
		return rc;
	if ((rc = key_bounds(t, KV_DEMAND, &dfirst, &last, NULL)) != 0 ||
	    dfirst == 0)
		return rc;
	if ((rc = first_at(t, KV_DEMAND, u->from - reach, &dfirst,
	    last + 1, asked_at)) != 0)
		return rc;
	key_u64(key, dfirst);
	rc = kv_walk(t->txn, KV_DEMAND, &from, demand_in_range, u);
	return rc == KV_STOP ? 0 : rc;
}

/* Fill out from the sums of [from, to). */
static void
figures(const struct usage *u, const struct acc *a, const uint64_t *c,
    uint64_t nodes, int64_t from, int64_t to, struct ar_usage *out)
{
	int64_t reach = u->t->m.horizon * u->t->m.slot;

	out->from = from;
	out->to = to;
	out->known = from >= u->records_from;
	out->demand_known = (u->by == AR_BY_WINDOW || u->by == AR_BY_CLASS) &&
	    (u->demand_from == INT64_MIN || from - reach >= u->demand_from);
	out->capacity = (uint64_t)nodes * (uint64_t)((to - from) /
	    u->t->m.slot);
	out->reserved = a->reserved;
	out->reserved_used = a->use[USE_USED];
	out->reserved_idle = a->use[USE_IDLE];
	out->reserved_unreported = a->use[USE_UNREPORTED];
	out->granted = a->granted;
	out->refused = a->refused;
	memcpy(out->refused_by, a->refused_by, sizeof(out->refused_by));
	out->wait_sum = a->wait_sum;
	out->wait_max = a->wait_max;
	out->moved = a->moved;
	out->revenue = a->revenue;
	out->classes = u->classes;
	out->reclaim = u->t->m.reclaim != 0;
	for (uint32_t i = 0; i < AR_CLASSES_MAX; i++) {
		out->class_granted[i] = c != NULL ? c[3 * i] : 0;
		out->class_refused[i] = c != NULL ? c[3 * i + 1] : 0;
		out->class_revenue[i] = c != NULL ? (int64_t)c[3 * i + 2] : 0;
	}
}

/* Add b's sums to a's. */
static void
sum(struct acc *a, uint64_t *ac, const struct acc *b, const uint64_t *bc)
{
	a->reserved += b->reserved;
	for (int k = 0; k < USE_KINDS; k++)
		a->use[k] += b->use[k];
	a->granted += b->granted;
	a->refused += b->refused;
	for (int i = 0; i < AR_REASONS; i++)
		a->refused_by[i] += b->refused_by[i];
	a->wait_sum += b->wait_sum;
	if (b->wait_max > a->wait_max)
		a->wait_max = b->wait_max;
	a->moved += b->moved;
	a->revenue += b->revenue;
	for (size_t i = 0; bc != NULL && i < 3 * AR_CLASSES_MAX; i++)
		ac[i] += bc[i];
}

/* The nodes a group's figures are of: its partition's hosts by
 * partition, else the cluster's. */
static uint64_t
group_nodes(const struct usage *u, const char *label)
{
	for (size_t i = 0; u->by == AR_BY_PARTITION && i < u->nparts; i++)
		if (strcmp(u->parts[i].name, label) == 0)
			return u->parts[i].hosts;
	return u->t->m.nodes;
}

/* Call fn for every window or group, then for the total. */
static int
emit(struct usage *u, int (*fn)(const struct ar_usage *, void *), void *arg)
{
	struct ar_usage out;
	struct acc total;
	uint64_t tc[3 * AR_CLASSES_MAX];
	int64_t slot = u->t->m.slot, whole[1 + USE_KINDS] = { 0 };
	int known = 1, demand_known = 1, rc;

	memset(&total, 0, sizeof(total));
	memset(tc, 0, sizeof(tc));
	if (u->by == AR_BY_WINDOW)
		for (size_t w = 0; w < u->nwin; w++) {
			int64_t from = u->from + (int64_t)w * u->window;
			int64_t to = from + u->window > u->to ? u->to :
			    from + u->window;
			uint64_t *c = u->cls != NULL ?
			    &u->cls[w * 3 * AR_CLASSES_MAX] : NULL;

			for (int k = -1; k < USE_KINDS; k++) {
				whole[k + 1] += u->full[(size_t)(k + 1) *
				    (u->nwin + 1) + w];
				*slots_of(&u->win[w], k) += (uint64_t)whole[k + 1] *
				    (uint64_t)((to - from) / slot);
			}
			memset(&out, 0, sizeof(out));
			figures(u, &u->win[w], c, u->t->m.nodes, from, to,
			    &out);
			known &= out.known;
			demand_known &= out.demand_known;
			if ((rc = fn(&out, arg)) != 0)
				return rc;
			sum(&total, tc, &u->win[w], c);
		}
	else
		for (size_t i = 0; i < u->ng; i++) {
			memset(&out, 0, sizeof(out));
			figures(u, &u->g[i].a, u->g[i].cls, group_nodes(u,
			    u->g[i].label), u->from, u->to, &out);
			out.label = u->g[i].label;
			if ((rc = fn(&out, arg)) != 0)
				return rc;
			sum(&total, tc, &u->g[i].a, u->g[i].cls);
		}
	memset(&out, 0, sizeof(out));
	figures(u, &total, tc, u->t->m.nodes, u->from, u->to, &out);
	out.known &= known;
	out.demand_known &= demand_known;
	out.total = 1;
	return fn(&out, arg);
}

int
ar_usage(ar_txn *t, int64_t from, int64_t to, int64_t window,
    enum ar_usage_by by, int (*fn)(const struct ar_usage *, void *),
    void *arg)
{
	struct usage u;
	int64_t slot = t->m.slot;
	int rc;

	if (from < 0 || to > TIME_MAX || from >= to || window <= 0 ||
	    window % slot != 0 || by > AR_BY_PARTITION)
		return EINVAL;
	memset(&u, 0, sizeof(u));
	u.t = t;
	u.from = from - from % slot;
	u.to = slot_up(t, to) * slot;
	u.window = window;
	u.by = by;
	u.classes = t->pr.n;
	if (by == AR_BY_PARTITION && (rc = ar_layout(t, &u.parts, &u.nparts,
	    &u.pools, &u.npools)) != 0)
		return rc;
	if ((uint64_t)(u.to - u.from) / (uint64_t)window >= AR_USAGE_MAX)
		return EINVAL;
	u.nwin = (size_t)((u.to - u.from + window - 1) / window);
	if (by == AR_BY_WINDOW && ((u.win = calloc(u.nwin,
	    sizeof(*u.win))) == NULL || (u.full = calloc((1 + USE_KINDS) *
	    (u.nwin + 1), sizeof(*u.full))) == NULL || (u.classes > 0 && (u.cls =
	    calloc(u.nwin * 3 * AR_CLASSES_MAX, sizeof(*u.cls))) == NULL)))
		rc = ENOMEM;
	else if ((rc = history(&u)) == 0 && (rc = gather(&u)) == 0)
		rc = emit(&u, fn, arg);
	free(u.win);
	free(u.full);
	free(u.cls);
	free(u.g);
	return rc;
}

/* Take id out of its owner's key entry; the entry goes with its last. */
static int
forget_key(ar_txn *t, const struct ar_resv *r)
{
	unsigned char kbuf[KEYS_KEY_MAX];
	struct kv_val k = { keys_key(r->owner, r->client_key, kbuf), kbuf }, v;
	struct key_entry e;
	struct ar_placed *keep;
	size_t n, m = 0;
	int rc;

	if ((rc = key_get(t, r->owner, r->client_key, &v)) != 0)
		return rc == AR_ENOTFOUND ? AR_ECORRUPT : rc;
	if ((rc = key_decode(&v, &e, &n)) != 0)
		return rc;
	if ((keep = calloc(n, sizeof(*keep))) == NULL)
		return ENOMEM;
	for (size_t i = 0; i < n; i++)
		if (key_id(&v, i) != r->id)
			keep[m++].id = key_id(&v, i);
	txn_wrote(t);
	if (m == n)
		rc = AR_ECORRUPT;
	else if (m == 0)
		rc = kv_del(t->txn, KV_KEYS, &k, NULL);
	else
		rc = key_put(t, r->owner, r->client_key, e.jobs, keep, m);
	free(keep);
	return rc;
}

/*
 * Delete record r, at cur, and what names it: its client key's entry,
 * and what the mapping keeps of it.
 * Whatever else is kept per reservation id must go here too.
 */
static int
forget_record(ar_txn *t, struct kv_cursor *cur, const struct ar_resv *r)
{
	int rc;

	if ((r->client_key[0] != '\0' && (rc = forget_key(t, r)) != 0) ||
	    (rc = map_forget(t, r->id)) != 0)
		return rc;
	txn_wrote(t);
	if ((rc = kv_cursor_del(cur)) != 0)
		return rc;
	t->m.records--;
	t->meta_dirty = 1;
	return 0;
}

/* ar_forget's walk: the time, and the records forgotten. */
struct forget {
	ar_txn *t;
	int64_t before;
	uint64_t *records;
};

static int
forget_visit(struct kv_cursor *cur, const struct kv_val *k,
    const struct kv_val *v, void *arg)
{
	struct forget *f = arg;
	struct ar_resv r;
	int rc;

	(void)k;
	/* Records made at or after before end after it: they all stay. */
	if ((rc = resv_decode(f->t, v, &r)) != 0 || r.created >= f->before)
		return rc != 0 ? rc : KV_STOP;
	/* Still in the indexes (live, or ended since the last purge), or
	 * ending after before: kept. */
	if (r.end > f->before || r.state == AR_GRANTED)
		return 0;
	if ((rc = forget_record(f->t, cur, &r)) != 0)
		return rc;
	++*f->records;
	return 0;
}

int
ar_forget(ar_txn *t, int64_t before, uint64_t *records, uint64_t *entries)
{
	struct forget f = { t, before, records };
	int rc;

	*records = *entries = 0;
	if (!t->write)
		return EACCES;
	if (before < 0 || before > TIME_MAX)
		return EINVAL;
	resv_cursor_close(t);
	if ((rc = kv_walk(t->txn, KV_RESV, NULL, forget_visit, &f)) != 0 &&
	    rc != KV_STOP)
		return rc;
	return demand_drop(t, before, entries);
}
