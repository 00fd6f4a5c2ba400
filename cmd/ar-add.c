/*
 * ar-add - admit reservations atomically: GarQ Algorithm 3, with start
 * windows, parametric copies and FCFS-LRH / FCFS-EDS rearrangement, as
 * holds if asked; with --modify, change reservations by id, and with
 * --confirm, confirm holds by id.  A line with used= is a use report on
 * a reservation by id (ar_use).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "cmd.h"

struct opts {
	unsigned flags;         /* the request's */
	int modify;             /* --modify */
	int confirm;            /* --confirm */
};

/* What a line of ar-add keeps from prepare to emit. */
struct add_line {
	uint64_t id;            /* --confirm, --modify, a use report: the
				   one named */
	enum ar_use use;        /* a use report: what it says; else
				   AR_USE_UNKNOWN */
	uint64_t series;        /* --modify: the series named, or 0 */
	int piece;              /* --modify: the one named is a piece of a
				   split request, which is asked again */
	struct ar_repeat rep;   /* how the request repeats (every 0: it
				   does not) */
	struct ar_placed *placed;       /* copies granted, then moves */
	size_t ngranted, nplaced, placedcap;
	struct ar_resv *moved;  /* the moved reservations, and a replay's
				   copies, as now; --modify: first the one
				   changed, as it was */
	size_t movedcap;
	int refusal;            /* --confirm, --modify: AR_ENOTFOUND,
				   AR_EPERM, AR_EDONE, AR_ENOTHOLD, or 0 */
	uint64_t *ids;          /* --modify series=N: its reservations ... */
	struct ar_resv *was;    /* ... as they were before the change */
	size_t nids, idcap, wascap;
	struct ar_resv *displaced;      /* maintenance: what it displaced
					   (or would have), as now */
	size_t ndisplaced, dispcap;
};

/* The fields a modify reads; the others pass through. */
struct shape {
	int64_t start, earliest, latest, end;   /* -1: not given */
	int64_t duration;       /* 0: not given */
	uint64_t nodes;         /* 0: not given */
};

static const struct option longopts[] = {
	{ "confirm", no_argument, NULL, 'c' },
	{ "modify", no_argument, NULL, 'm' },
	{ "no-move", no_argument, NULL, 'n' },
	{ "later", no_argument, NULL, 'e' },
	{ "partial", no_argument, NULL, 'p' },
	{ "force", no_argument, NULL, 'f' },
	{ NULL, 0, NULL, 0 }
};

static int
option(struct ctx *x, int opt, const char *arg)
{
	struct opts *o = x->data;

	(void)arg;
	switch (opt) {
	case 'c':
	case 'm':
		*(opt == 'c' ? &o->confirm : &o->modify) = 1;
		if (o->confirm && o->modify) {
			fprintf(stderr, "%s: --confirm and --modify do not go "
			    "together\n", x->cmd->name);
			return -1;
		}
		return 0;
	case 'n':
		o->flags |= AR_NOMOVE;
		return 0;
	case 'e':
		o->flags |= AR_LATER;
		return 0;
	case 'p':
		o->flags |= AR_PARTIAL;
		x->answers = 2;         /* room for the copies refused */
		return 0;
	case 'f':
		o->flags |= AR_FORCE;
		return 0;
	}
	return -1;
}

/* The id of the reservation a line names, into the line's id; -1 with err. */
static int
id_field(struct ctx *x, struct item *it, char *err)
{
	struct add_line *l = it->own;
	int rc;

	if ((rc = cmd_id_field(x, it, "id", &l->id, err)) == 0)
		snprintf(err, AR_ERRMAX, "missing field 'id'");
	return rc == 1 ? 0 : -1;
}

/*
 * The fields of a modify: the reservation's id, and those of start,
 * earliest, latest, end, duration and nodes that are given, checked
 * against each other as a request's are.  -1 with err if bad.
 */
static int
shape_fields(struct ctx *x, struct item *it, struct shape *sh, char *err)
{
	struct add_line *l = it->own;
	const char *v;
	char msg[AR_ERRMAX];
	int64_t from;
	int rc;

	sh->start = sh->earliest = sh->latest = sh->end = -1;
	sh->duration = 0;
	sh->nodes = 0;
	l->series = 0;
	if ((rc = cmd_id_field(x, it, "id", &l->id, err)) == 0 &&
	    (rc = cmd_id_field(x, it, "series", &l->series, err)) == 0)
		snprintf(err, AR_ERRMAX, "missing field 'id' (or 'series')");
	if (rc != 1)
		return -1;
	if (cmd_time_field(x, it, "start", &sh->start, err) < 0 ||
	    cmd_time_field(x, it, "earliest", &sh->earliest, err) < 0 ||
	    cmd_time_field(x, it, "latest", &sh->latest, err) < 0 ||
	    cmd_time_field(x, it, "end", &sh->end, err) < 0)
		return -1;
	if ((v = cmd_get(x, &it->rec, "duration")) != NULL &&
	    ar_duration_parse(v, &sh->duration, msg) != 0) {
		snprintf(err, AR_ERRMAX, "field 'duration': %.200s", msg);
		return -1;
	}
	if ((v = cmd_get(x, &it->rec, "nodes")) != NULL &&
	    ar_uint_parse(v, 1, 1000000, &sh->nodes, msg) != 0) {
		snprintf(err, AR_ERRMAX, "field 'nodes': %.200s", msg);
		return -1;
	}
	if (sh->start >= 0 && sh->earliest >= 0 && sh->start < sh->earliest) {
		snprintf(err, AR_ERRMAX, "field 'start': before 'earliest'");
		return -1;
	}
	from = sh->start >= 0 ? sh->start : sh->earliest;
	if (sh->latest >= 0 && from >= 0 && sh->latest < from) {
		snprintf(err, AR_ERRMAX, "field 'latest': before '%s'",
		    sh->start >= 0 ? "start" : "earliest");
		return -1;
	}
	if (sh->duration == 0 && sh->end >= 0 && from >= 0 &&
	    sh->end <= from) {
		snprintf(err, AR_ERRMAX, "field 'end': not after '%s'",
		    sh->start >= 0 ? "start" : "earliest");
		return -1;
	}
	return 0;
}

/*
 * The request a modify makes of reservation was: the fields given, the
 * reservation's own for the rest.  A start given fixes the start (up to
 * latest, if given); earliest or latest alone moves that end of the
 * window, the other following if it is passed; an end alone is taken
 * from the start given, or else the earliest, or else the start the
 * reservation has.  -1 with err if the end is not after that.
 */
static int
shape_request(const struct shape *sh, const struct ar_resv *was,
    struct ar_request *rq, char *err)
{
	int64_t from;

	memset(rq, 0, sizeof(*rq));
	rq->jobs = 1;
	rq->owner = was->owner;
	rq->earliest = sh->start >= 0 ? sh->start : sh->earliest >= 0 ?
	    sh->earliest : sh->latest >= 0 && sh->latest < was->earliest ?
	    sh->latest : was->earliest;
	rq->latest = sh->latest >= 0 ? sh->latest : sh->start >= 0 ?
	    sh->start : was->latest > rq->earliest ? was->latest :
	    rq->earliest;
	from = sh->start >= 0 || sh->earliest >= 0 ? rq->earliest :
	    was->start;
	rq->duration = sh->duration > 0 ? sh->duration : sh->end >= 0 ?
	    sh->end - from : was->duration;
	rq->nodes = sh->nodes > 0 ? (uint32_t)sh->nodes : was->nodes;
	if (rq->duration <= 0) {
		snprintf(err, AR_ERRMAX, "field 'end': not after the start of "
		    "reservation %llu", (unsigned long long)was->id);
		return -1;
	}
	if (rq->duration > AR_DURATION_MAX) {
		snprintf(err, AR_ERRMAX, "field '%s': more than 100 years "
		    "long", sh->duration > 0 ? "duration" : "end");
		return -1;
	}
	return 0;
}

/*
 * A use report: id= and used=yes or no, and none of a request's fields
 * (those ar-add reads besides these two).  -1 with err if bad.
 */
static int
use_fields(struct ctx *x, struct item *it, const char *used, char *err)
{
	struct add_line *l = it->own;
	const char *k;
	int rc;

	if (strcmp(used, "yes") != 0 && strcmp(used, "no") != 0) {
		snprintf(err, AR_ERRMAX, "field 'used': not yes or no: '%.40s'",
		    used);
		return -1;
	}
	l->use = *used == 'y' ? AR_USE_YES : AR_USE_NO;
	for (size_t i = 0; i < it->rec.nfields; i++) {
		k = it->rec.fields[i].key;
		if (strcmp(k, "id") != 0 && strcmp(k, "used") != 0 &&
		    cmd_reads(x->cmd, k)) {
			snprintf(err, AR_ERRMAX, "field '%s': not in a use "
			    "report", k);
			return -1;
		}
	}
	if ((rc = cmd_id_field(x, it, "id", &l->id, err)) == 0)
		snprintf(err, AR_ERRMAX, "field 'id': missing (a use report "
		    "names the reservation)");
	return rc == 1 ? 0 : -1;
}

static int
prepare(struct ctx *x, struct item *it, char *err)
{
	struct add_line *l = it->own;
	struct opts *o = x->data;
	struct shape sh;
	const char *used;

	l->use = AR_USE_UNKNOWN;
	if (o->confirm)
		return id_field(x, it, err);
	if (!o->modify && (used = cmd_get(x, &it->rec, "used")) != NULL)
		return use_fields(x, it, used, err);
	if (o->modify)
		return shape_fields(x, it, &sh, err);
	if (cmd_request(x, it, err) != 0 || cmd_repeat(x, it, &l->rep, err) != 0 ||
	    cmd_hold(x, it, err) != 0)
		return -1;
	if (it->rq.hold != 0 && l->rep.every != 0) {
		snprintf(err, AR_ERRMAX, "field 'hold': not for a series");
		return -1;
	}
	if (it->rq.split != 0 && (it->rq.hold != 0 || l->rep.every != 0 ||
	    (o->flags & AR_PARTIAL))) {
		snprintf(err, AR_ERRMAX, "field 'split': %s", it->rq.hold ?
		    "a split request is not a hold" : l->rep.every ?
		    "a split request is not a series" : "does not go with "
		    "--partial");
		return -1;
	}
	it->rq.flags = o->flags;
	if (it->rq.nlevels > 0 && (o->flags & AR_PARTIAL)) {
		snprintf(err, AR_ERRMAX, "field '%s': levels do not go with "
		    "--partial", cmd_levels_key(it));
		return -1;
	}
	if (it->rq.nlevels > 0 && l->rep.every != 0) {
		snprintf(err, AR_ERRMAX, "field 'every': a series has one size, "
		    "not levels");
		return -1;
	}
	return 0;
}

/*
 * Keep what the library did while its transaction is open: the
 * reservations placed, and the records of those moved, or (all) of
 * every one, as they are now.
 */
static int
keep_placed(ar_txn *t, struct item *it, int all)
{
	struct add_line *l = it->own;
	const struct ar_placed *g, *m;
	size_t ng, nm;
	int rc;

	ar_added(t, &g, &ng, &m, &nm);
	if (array_room(&l->placed, &l->placedcap, ng + nm,
	    sizeof(*l->placed)) != 0 || array_room(&l->moved,
	    &l->movedcap, ng + nm, sizeof(*l->moved)) != 0)
		return ENOMEM;
	if (ng > 0)             /* a refusal lists nothing, maybe no array */
		memcpy(l->placed, g, ng * sizeof(*g));
	if (nm > 0)
		memcpy(l->placed + ng, m, nm * sizeof(*m));
	l->ngranted = ng;
	l->nplaced = ng + nm;
	for (size_t i = all ? 0 : ng; i < l->nplaced; i++)
		if ((rc = ar_get(t, l->placed[i].id, &l->moved[i])) != 0)
			return rc;
	return 0;
}

/* What maintenance displaced (or would have), as the records are now. */
static int
keep_displaced(ar_txn *t, struct item *it)
{
	struct add_line *l = it->own;
	const uint64_t *ids;
	size_t n;
	int rc;

	ar_displaced(t, &ids, &n);
	l->ndisplaced = 0;
	if (array_room(&l->displaced, &l->dispcap, n,
	    sizeof(*l->displaced)) != 0)
		return ENOMEM;
	for (size_t i = 0; i < n; i++)
		if ((rc = ar_get(t, ids[i], &l->displaced[l->ndisplaced++])) !=
		    0)
			return rc;
	return 0;
}

/* Refused by the library as ar-del is: the reservation named by id;
 * state is what it is now, for AR_EDONE. */
static const char *
refusal(int rc, enum ar_status state)
{
	return rc == AR_ENOTFOUND ? "not-found" : rc == AR_EPERM ?
	    "not-owner" : rc == AR_ENOTHOLD ? "not-a-hold" :
	    state == AR_EXPIRED ? "expired" : state == AR_RECLAIMED ?
	    "reclaimed" : "done";
}

/*
 * --confirm: ar_confirm on the reservation named; a use report: ar_use.
 * Its status after goes to alts[0].status; a use report's record says
 * what the reservation reported in the end.
 */
static int
confirm(struct ctx *x, ar_txn *t, struct item *it)
{
	struct add_line *l = it->own;
	struct ar_resv r;
	int rc;

	it->nalts = 1;
	it->alts[0].status = 0;
	if (l->use != AR_USE_UNKNOWN)
		rc = ar_use(t, l->id, x->uid, l->use, &r);
	else
		rc = ar_confirm(t, l->id, x->uid, &r);
	if (rc == 0 || rc == AR_EDONE)
		it->alts[0].status = r.state;
	if (rc == AR_ENOTFOUND || rc == AR_EPERM || rc == AR_EDONE ||
	    rc == AR_ENOTHOLD) {
		cmd_warn(x, it->line, "reservation %llu: %s",
		    (unsigned long long)l->id, rc == AR_EDONE &&
		    r.state == AR_EXPIRED ? "the hold expired" :
		    rc == AR_EDONE && r.state == AR_RECLAIMED ? "it was "
		    "reclaimed: it reported no use within the grace period" :
		    ar_strerror(rc));
		l->refusal = rc;
		return 0;
	}
	l->refusal = 0;
	it->wrote = rc == 0;
	if (rc == 0 && l->use != AR_USE_UNKNOWN &&
	    ar_record_set(&it->rec, "used", r.used == AR_USE_YES ? "yes" :
	    "no") != 0)
		return ENOMEM;
	return rc;
}

/* --confirm: the line, granted, or refused and why. */
static int
emit_confirm(struct ctx *x, struct item *it)
{
	struct add_line *l = it->own;
	struct ar_record *r = &it->rec;

	if (l->refusal != 0)
		return ar_record_set(r, "status", "refused") != 0 ||
		    ar_record_set(r, "reason", refusal(l->refusal,
		    it->alts[0].status)) != 0 || cmd_print(x, r) != 0 ? -1 :
		    EXIT_REFUSED;
	ar_record_del(r, "reason");
	ar_record_del(r, "expires");
	return ar_record_set(r, "status", "granted") != 0 ||
	    cmd_print(x, r) != 0 ? -1 : 0;
}

/*
 * --modify series=N: every live occurrence, all or none (ar_modify_all),
 * each to the fields given, the times shifted from the first one's by
 * as much as its earliest start is from the first one's.
 */
static int
modify_series(struct ctx *x, ar_txn *t, struct item *it,
    const struct shape *sh)
{
	struct add_line *l = it->own;
	struct opts *o = x->data;
	struct ar_request *rqs;
	struct shape one;
	char err[AR_ERRMAX];
	size_t n, failed;
	int64_t off;
	int rc;

	if ((rc = ar_series(t, l->series, l->ids, l->idcap, &n)) != 0)
		return rc;
	if (array_room(&l->ids, &l->idcap, n, sizeof(*l->ids)) != 0 ||
	    array_room(&l->was, &l->wascap, n, sizeof(*l->was)) != 0 ||
	    array_room(&it->alts, &it->altcap, n, sizeof(*it->alts)) != 0)
		return ENOMEM;
	if (n > 0 && (rc = ar_series(t, l->series, l->ids, n, &n)) != 0)
		return rc;
	if (n == 0) {
		cmd_warn(x, it->line, "series %llu: no live reservation",
		    (unsigned long long)l->series);
		l->refusal = AR_ENOTFOUND;
		return 0;
	}
	if ((rqs = calloc(n, sizeof(*rqs))) == NULL)
		return ENOMEM;
	for (size_t i = 0; i < n; i++) {
		if ((rc = ar_get(t, l->ids[i], &l->was[i])) != 0)
			goto out;
		one = *sh;
		off = l->was[i].earliest - l->was[0].earliest;
		one.start += one.start >= 0 ? off : 0;
		one.earliest += one.earliest >= 0 ? off : 0;
		one.latest += one.latest >= 0 ? off : 0;
		one.end += one.end >= 0 ? off : 0;
		if (shape_request(&one, &l->was[i], &rqs[i], err) != 0) {
			cmd_warn(x, it->line, "%s", err);
			it->nalts = 0;
			goto out;
		}
		rqs[i].flags = o->flags;
	}
	rc = ar_modify_all(t, l->ids, n, x->uid, rqs, it->alts, &failed);
	if (rc == AR_ENOTFOUND || rc == AR_EPERM || rc == AR_EDONE) {
		cmd_warn(x, it->line, "reservation %llu: %s",
		    (unsigned long long)l->ids[failed], ar_strerror(rc));
		l->refusal = rc;
		rc = 0;
		goto out;
	}
	if (rc != 0 || (rc = keep_placed(t, it, 1)) != 0)
		goto out;
	l->nids = n;
	it->nalts = failed < n ? failed + 1 : n;
	it->wrote = failed == n;
out:
	free(rqs);
	return rc;
}

/*
 * --modify: the reservation as it is, the request made of it with the
 * fields given, then ar_modify.  Messages are made here, so that they
 * come in the order of the lines.
 */
static int
modify(struct ctx *x, ar_txn *t, struct item *it)
{
	struct add_line *l = it->own;
	struct opts *o = x->data;
	struct shape sh;
	struct ar_resv was;
	char err[AR_ERRMAX];
	int rc;

	it->nalts = 1;
	l->ngranted = l->nplaced = 0;
	l->refusal = 0;
	it->earliest = it->latest = -1;
	/* As prepare read them, on the same clock. */
	if (shape_fields(x, it, &sh, err) != 0)
		return EINVAL;
	l->piece = 0;
	/* A split request's series is its first piece: the request. */
	if (l->series != 0 && ((rc = ar_get(t, l->series, &was)) != 0 ||
	    was.pieces == 0))
		return modify_series(x, t, it, &sh);
	if (l->series != 0) {
		l->id = l->series;
		l->series = 0;
	}
	if ((rc = ar_get(t, l->id, &was)) == 0) {
		/* A piece's request may change its rule and deadline too. */
		l->piece = was.pieces != 0;
		if (shape_request(&sh, &was, &it->rq, err) != 0 ||
		    (l->piece && cmd_split_fields(x, it, sh.latest >= 0,
		    err) != 0)) {
			cmd_warn(x, it->line, "%s", err);
			it->nalts = 0;
			return 0;
		}
		it->rq.flags = o->flags;
		rc = ar_modify(t, l->id, x->uid, &it->rq, &it->alts[0]);
	}
	if (rc == AR_ENOTFOUND || rc == AR_EPERM || rc == AR_EDONE) {
		cmd_warn(x, it->line, "reservation %llu: %s",
		    (unsigned long long)l->id, ar_strerror(rc));
		l->refusal = rc;
		return 0;
	}
	if (rc != 0 || (rc = keep_placed(t, it, l->piece)) != 0)
		return rc;
	it->wrote = it->alts[0].status == AR_GRANTED;
	if (l->piece) {
		if (sh.earliest >= 0 || sh.latest >= 0) {
			it->earliest = it->rq.earliest;
			it->latest = it->rq.latest;
		}
	} else if (l->ngranted == 1) {
		l->moved[0] = was;
		/* The window is told when it is one, or was given. */
		if (it->rq.latest != it->rq.earliest || sh.earliest >= 0 ||
		    sh.latest >= 0) {
			it->earliest = it->rq.earliest;
			it->latest = it->rq.latest;
		}
	}
	return 0;
}

/*
 * A series: every occurrence's answer, and the records of those granted
 * (their series, occurrence, class and price; a replay's state now).
 */
static int
apply_series(struct ctx *x, ar_txn *t, struct item *it)
{
	struct add_line *l = it->own;
	const struct ar_answer *occ;
	struct ar_info info;
	size_t n;
	int rc;

	/* The slot's length is known now: the store's. */
	if (l->rep.every < 0) {
		if ((rc = ar_info(t, &info)) != 0)
			return rc;
		if (-l->rep.every > AR_DURATION_MAX / info.config.slot) {
			cmd_warn(x, it->line, "field 'every': longer than 100 "
			    "years");
			it->nalts = 0;
			return 0;
		}
		l->rep.every *= -info.config.slot;
	}
	if ((rc = ar_add_series(t, &it->rq, &l->rep, &it->alts[0])) != 0 ||
	    (rc = keep_placed(t, it, 1)) != 0)
		return rc;
	it->wrote = !it->alts[0].replayed;
	ar_occurrences(t, &occ, &n);
	if (n == 0)
		return 0;
	if (array_room(&it->alts, &it->altcap, n, sizeof(*it->alts)) != 0)
		return ENOMEM;
	memcpy(it->alts, occ, n * sizeof(*occ));
	it->nalts = n;
	return 0;
}

static int
apply(struct ctx *x, ar_txn *t, struct item *it)
{
	struct add_line *l = it->own;
	struct opts *o = x->data;
	int rc;

	if (o->modify)
		return modify(x, t, it);
	if (o->confirm || l->use != AR_USE_UNKNOWN)
		return confirm(x, t, it);
	if (l->rep.every != 0) {
		it->nalts = 1;
		l->ngranted = l->nplaced = 0;
		return apply_series(x, t, it);
	}
	it->nalts = 1;
	l->ngranted = l->nplaced = 0;
	if ((rc = ar_add(t, &it->rq, &it->alts[0])) != 0)
		return rc;
	/* A replay's copies are told in the state they are in now, and
	 * pieces each with its own price and the copy it is of. */
	if ((rc = keep_placed(t, it, it->alts[0].replayed ||
	    it->rq.split != 0)) != 0 ||
	    (rc = keep_displaced(t, it)) != 0)
		return rc;
	/* A refusal is written too, in the demand log. */
	it->wrote = !it->alts[0].replayed;
	/* Copies refused after others were granted (--partial) are told the
	 * room left at the window's first start, as one copy alone would. */
	if (l->ngranted > 0 && l->ngranted < it->rq.jobs &&
	    !it->alts[0].replayed) {
		struct ar_request one = it->rq;

		one.jobs = 1;
		if ((rc = ar_search(t, &one, &it->alts[1])) != 0)
			return rc;
		it->alts[1].status = AR_REFUSED;
		it->nalts = 2;
	}
	return 0;
}

/* One line per reservation moved, from the first after the granted. */
static int
emit_moved(struct ctx *x, struct item *it)
{
	struct add_line *l = it->own;
	for (size_t i = l->ngranted; i < l->nplaced; i++) {
		struct ar_record moved;
		int rc;

		ar_record_init(&moved);
		rc = cmd_resv(&moved, &l->moved[i]) != 0 ||
		    ar_record_set_time(&moved, "old_start",
		    l->placed[i].from) != 0 ||
		    ar_record_set(&moved, "status", "moved") != 0 ||
		    cmd_print(x, &moved) != 0;
		ar_record_free(&moved);
		if (rc)
			return -1;
	}
	return 0;
}

/* One line per reservation maintenance displaced: cancelled (--force)
 * or still granted, the maintenance refused. */
static int
emit_displaced(struct ctx *x, struct item *it)
{
	struct add_line *l = it->own;

	for (size_t i = 0; i < l->ndisplaced; i++) {
		struct ar_record d;
		int rc;

		ar_record_init(&d);
		rc = cmd_resv(&d, &l->displaced[i]) != 0 ||
		    ar_record_set(&d, "reason", "displaced") != 0 ||
		    cmd_print(x, &d) != 0;
		ar_record_free(&d);
		if (rc)
			return -1;
	}
	return 0;
}

/*
 * What a modify and a modify of a series print first: nothing (0) when
 * the library answered, else the line refused with its reason or, for
 * bad input, nothing more: the exit status, or -1 if memory ran out.
 */
static int
modify_refused(struct ctx *x, struct item *it)
{
	struct add_line *l = it->own;
	struct ar_record *r = &it->rec;

	if (it->nalts == 0)
		return EXIT_USAGE;
	ar_record_del(r, "old_start");
	ar_record_del(r, "old_end");
	ar_record_del(r, "old_nodes");
	if (l->refusal == 0)
		return 0;
	return ar_record_set(r, "status", "refused") != 0 ||
	    ar_record_set(r, "reason", refusal(l->refusal, 0)) != 0 ||
	    cmd_print(x, r) != 0 ? -1 : EXIT_REFUSED;
}

/*
 * --modify: the record with the reservation's new shape and the start,
 * end and nodes it had (old_start, old_end, old_nodes), then one line
 * per reservation moved; or the record refused, and why.
 */
static int
emit_modify(struct ctx *x, struct item *it)
{
	struct add_line *l = it->own;
	struct ar_record *r = &it->rec;
	const struct ar_resv *was;
	int st;

	if ((st = modify_refused(x, it)) != 0)
		return st > 0 ? st : -1;
	if (cmd_answer(it, &it->alts[0]) != 0 ||
	    ar_record_set_uint(r, "nodes", it->rq.nodes) != 0)
		return -1;
	if (l->ngranted == 0)
		return cmd_print(x, r) != 0 ? -1 : EXIT_REFUSED;
	was = &l->moved[0];
	if (cmd_held(r, l->placed[0].expires) != 0 ||
	    ar_record_set_time(r, "old_start", was->start) != 0 ||
	    ar_record_set_time(r, "old_end", was->end) != 0 ||
	    ar_record_set_uint(r, "old_nodes", was->nodes) != 0 ||
	    cmd_print(x, r) != 0 || emit_moved(x, it) != 0)
		return -1;
	return 0;
}

/*
 * --modify of a piece: one line per piece its request is granted in now,
 * as a split request's grant prints them (or one, if it fits in one
 * interval), then one per reservation moved; or the line refused, and
 * why.
 */
static int
emit_modify_pieces(struct ctx *x, struct item *it)
{
	struct add_line *l = it->own;
	struct ar_record *r = &it->rec;
	struct ar_answer a = it->alts[0];
	const struct ar_resv *v;
	int st;

	if ((st = modify_refused(x, it)) != 0)
		return st > 0 ? st : -1;
	if (l->ngranted == 0)
		return cmd_answer(it, &a) != 0 || cmd_print(x, r) != 0 ? -1 :
		    EXIT_REFUSED;
	for (size_t i = 0; i < l->ngranted; i++) {
		v = &l->moved[i];
		a.start = l->placed[i].start;
		a.end = l->placed[i].end;
		a.free = l->placed[i].free;
		a.price = v->price;
		if (v->pieces == 0)
			ar_record_del(r, "series");
		if (ar_record_set_uint(r, "id", v->id) != 0 ||
		    cmd_pieces(r, v->series, v->occurrence, v->pieces) != 0 ||
		    cmd_answer(it, &a) != 0 || cmd_print(x, r) != 0)
			return -1;
	}
	return emit_moved(x, it) != 0 ? -1 : 0;
}

/*
 * --modify series=N: one line per occurrence changed, as for one
 * reservation, with its occurrence number, then one per reservation
 * moved; or the line of the occurrence refused, and why.
 */
static int
emit_modify_series(struct ctx *x, struct item *it)
{
	struct add_line *l = it->own;
	struct ar_record *r = &it->rec;
	const struct ar_resv *now, *was;
	size_t last = it->nalts - 1;
	int st;

	if ((st = modify_refused(x, it)) != 0)
		return st > 0 ? st : -1;
	if (l->ngranted == 0) {
		was = &l->was[last];
		return cmd_occurrence(r, was->id, was->series,
		    was->occurrence) != 0 ||
		    cmd_answer(it, &it->alts[last]) != 0 ||
		    cmd_print(x, r) != 0 ? -1 : EXIT_REFUSED;
	}
	for (size_t i = 0; i < l->ngranted; i++) {
		now = &l->moved[i];
		was = &l->was[i];
		it->earliest = now->latest != now->earliest ? now->earliest : -1;
		it->latest = now->latest != now->earliest ? now->latest : -1;
		if (cmd_occurrence(r, now->id, now->series,
		    now->occurrence) != 0 ||
		    cmd_answer(it, &it->alts[i]) != 0 ||
		    ar_record_set_uint(r, "nodes", now->nodes) != 0 ||
		    ar_record_set_time(r, "old_start", was->start) != 0 ||
		    ar_record_set_time(r, "old_end", was->end) != 0 ||
		    ar_record_set_uint(r, "old_nodes", was->nodes) != 0 ||
		    cmd_print(x, r) != 0)
			return -1;
	}
	return emit_moved(x, it) != 0 ? -1 : 0;
}

/*
 * A series: one line per occurrence told (each granted, and with
 * --partial each refused; or the one that refused the series), its
 * window shifted to its own; then one per reservation moved.  A replay
 * prints the occurrences granted before, each in its state now.
 */
static int
emit_series(struct ctx *x, struct item *it)
{
	struct add_line *l = it->own;
	struct ar_record *r = &it->rec;
	struct ar_answer a;
	const struct ar_resv *v;
	int64_t earliest = it->earliest, latest = it->latest, shift;
	uint64_t series = l->ngranted > 0 ? l->moved[0].series : 0;
	int refused = 0;

	if (!it->alts[0].replayed)
		ar_record_del(r, "replayed");
	for (size_t i = 0; it->alts[0].replayed && i < l->ngranted; i++) {
		v = &l->moved[i];
		a = it->alts[0];
		a.start = v->start;
		a.end = v->end;
		a.status = v->state;
		a.cls = v->cls;
		a.price = v->price;
		shift = (int64_t)(v->occurrence - 1) * l->rep.every;
		it->earliest = earliest >= 0 ? earliest + shift : -1;
		it->latest = latest >= 0 ? latest + shift : -1;
		if (cmd_occurrence(r, v->id, v->series, v->occurrence) != 0 ||
		    cmd_answer(it, &a) != 0)
			return -1;
		ar_record_del(r, "free");
		if (ar_record_set(r, "replayed", "yes") != 0 ||
		    cmd_print(x, r) != 0)
			return -1;
	}
	for (size_t i = 0; !it->alts[0].replayed && i < it->nalts; i++) {
		a = it->alts[i];
		refused |= a.status != AR_GRANTED;
		shift = a.occurrence > 0 ? (int64_t)(a.occurrence - 1) *
		    l->rep.every : 0;
		it->earliest = earliest >= 0 ? earliest + shift : -1;
		it->latest = latest >= 0 ? latest + shift : -1;
		if (cmd_occurrence(r, a.status == AR_GRANTED ? a.id : 0,
		    series, a.occurrence) != 0 || cmd_answer(it, &a) != 0 ||
		    cmd_print(x, r) != 0)
			return -1;
	}
	it->earliest = earliest;
	it->latest = latest;
	if (emit_moved(x, it) != 0)
		return -1;
	return refused ? EXIT_REFUSED : 0;
}

/*
 * One line per copy granted, then one per copy refused (with --partial;
 * else one for the request refused), then one per reservation moved.  A
 * replay prints the copies granted before under the client key, each in
 * its state now, with replayed=yes and no free count (nothing was added).
 */
static int
emit(struct ctx *x, struct item *it)
{
	struct add_line *l = it->own;
	struct ar_answer a = it->alts[0];
	struct ar_record *r = &it->rec;
	/* The copies asked: a moldable request's on copies, its level's. */
	uint32_t jobs = a.jobs != 0 ? a.jobs : it->rq.jobs;
	/* A split request's copies are granted all or none, in as many
	 * pieces as they are. */
	size_t refused = l->ngranted < jobs ? jobs - l->ngranted : 0;

	if (((struct opts *)x->data)->modify)
		return l->series != 0 ? emit_modify_series(x, it) :
		    l->piece ? emit_modify_pieces(x, it) : emit_modify(x, it);
	if (((struct opts *)x->data)->confirm || l->use != AR_USE_UNKNOWN)
		return emit_confirm(x, it);
	if (it->nalts == 0)
		return EXIT_USAGE;
	if (a.reason == AR_R_KEY) {
		cmd_warn(x, it->line, "field 'client_key': already used by "
		    "reservation %llu for a different request",
		    (unsigned long long)a.id);
		return EXIT_USAGE;
	}
	if (l->rep.every != 0)
		return emit_series(x, it);
	if (a.replayed)
		refused = 0;    /* why copies were refused then is not kept */
	else
		ar_record_del(r, "replayed");
	if (refused > 0 && !(it->rq.flags & AR_PARTIAL))
		refused = 1;
	for (size_t i = 0, copy = 0; i < l->ngranted; i++) {
		const struct ar_resv *v = &l->moved[i];

		a.start = l->placed[i].start;
		a.end = l->placed[i].end;
		a.free = l->placed[i].free;
		if (a.replayed)
			a.status = ar_resv_status(v);
		/* A split request's lines are its copies' pieces, each told
		 * by its record: a copy may be in one piece, the next in
		 * several. */
		if (it->rq.split != 0) {
			a.price = v->price;
			copy += v->pieces == 0 || v->occurrence == 1;
			if (v->pieces == 0)
				ar_record_del(r, "series");
		} else
			copy = i + 1;
		if (ar_record_set_uint(r, "id", l->placed[i].id) != 0 ||
		    (it->rq.split != 0 ? cmd_pieces(r, v->series,
		    v->occurrence, v->pieces) : cmd_pieces(r,
		    l->placed[0].id, (uint32_t)i + 1, a.pieces)) != 0 ||
		    (jobs > 1 &&
		    ar_record_set_int(r, "copy", (int64_t)copy) != 0) ||
		    cmd_answer(it, &a) != 0 || cmd_held(r, !a.replayed ?
		    l->placed[i].expires : a.status == AR_HELD ?
		    l->moved[i].expires : 0) != 0)
			return -1;
		if (a.replayed) {
			ar_record_del(r, "free");
			if (ar_record_set(r, "replayed", "yes") != 0)
				return -1;
		}
		if (cmd_print(x, r) != 0)
			return -1;
	}
	if (refused > 0) {
		ar_record_del(r, "id");
		if (cmd_pieces(r, 0, 0, 0) != 0)
			return -1;
	}
	for (size_t i = l->ngranted; i < l->ngranted + refused; i++)
		if ((jobs > 1 && (it->rq.flags & AR_PARTIAL) &&
		    ar_record_set_int(r, "copy", (int64_t)i + 1) != 0) ||
		    cmd_answer(it, &it->alts[it->nalts - 1]) != 0 ||
		    cmd_print(x, r) != 0)
			return -1;
	if (emit_moved(x, it) != 0 || emit_displaced(x, it) != 0)
		return -1;
	return l->ngranted < jobs ? EXIT_REFUSED : 0;
}

static void
line_free(void *own)
{
	struct add_line *l = own;

	free(l->placed);
	free(l->moved);
	free(l->ids);
	free(l->was);
	free(l->displaced);
}

static const struct cmd add = {
	.name = "ar-add",
	.bit = CMD_ADD,
	.usage = "[-cmenpf] [key=value ...]",
	.write = AR_WRITE,
	.shortopts = "cmenpf",
	.longopts = longopts,
	.option = option,
	.prepare = prepare,
	.apply = apply,
	.emit = emit,
	.line_size = sizeof(struct add_line),
	.line_free = line_free,
};

int
main(int argc, char **argv)
{
	struct opts o = { 0, 0, 0 };

	return cmd_main(&add, argc, argv, &o);
}
