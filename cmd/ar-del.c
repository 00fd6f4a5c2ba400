/*
 * ar-del - cancel reservations by id or by user and job; purge what has
 * ended; forget history older than a time.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "cmd.h"

struct opts {
	int quiet;
	const char *forget;     /* --forget: the time, as given */
};

enum { OPT_FORGET = 300 };

/* What a line of ar-del keeps: the reservation or series it names, the
 * reservations it found and the library's answer for each. */
struct del_line {
	uint64_t id;            /* named by id, or 0 */
	uint64_t series;        /* named by series, or 0 */
	int pieces;             /* id named a piece of a split request:
				   the ids are its live pieces */
	uint64_t *ids;          /* the reservations found, ... */
	int *rcs;               /* ... the library's answer for each, ... */
	struct ar_resv *was;    /* ... and those of a series as cancelled */
	size_t nids, idcap, rcscap, wascap;
};

static const struct option longopts[] = {
	{ "forget", required_argument, NULL, OPT_FORGET },
	{ "purge", no_argument, NULL, 'p' },
	{ "quiet", no_argument, NULL, 'q' },
	{ NULL, 0, NULL, 0 }
};

static int
option(struct ctx *x, int opt, const char *arg)
{
	struct opts *o = x->data;

	if (opt == 'p')
		x->whole = 1;
	else if (opt == OPT_FORGET) {
		o->forget = arg;
		x->whole = 1;
		x->store_wide = 1;
	}
	else if (opt == 'q')
		o->quiet = 1;
	else
		return -1;
	return 0;
}

/* Room for n reservations found, and (was) their records; -1 if memory
 * ran out. */
static int
room(struct del_line *l, size_t n, int was)
{
	return array_room(&l->ids, &l->idcap, n, sizeof(*l->ids)) != 0 ||
	    array_room(&l->rcs, &l->rcscap, n, sizeof(*l->rcs)) != 0 ||
	    (was && array_room(&l->was, &l->wascap, n,
	    sizeof(*l->was)) != 0) ? -1 : 0;
}

static void
line_free(void *own)
{
	struct del_line *l = own;

	free(l->ids);
	free(l->rcs);
	free(l->was);
}

static int
prepare(struct ctx *x, struct item *it, char *err)
{
	struct del_line *l = it->own;
	const char *v;
	int rc;

	l->series = 0;
	if ((rc = cmd_id_field(x, it, "id", &l->id, err)) != 0 ||
	    (rc = cmd_id_field(x, it, "series", &l->series, err)) != 0)
		return rc == 1 ? 0 : -1;
	v = cmd_get(x, &it->rec, "user");
	if (v == NULL || strlen(v) > AR_LABEL_MAX ||
	    (v = cmd_get(x, &it->rec, "job")) == NULL ||
	    strlen(v) > AR_LABEL_MAX) {
		snprintf(err, AR_ERRMAX, "missing field 'id' (or 'series', "
		    "or 'user' and 'job' of at most %d bytes)", AR_LABEL_MAX);
		return -1;
	}
	return 0;
}

/* Refusals are per reservation; only store errors end the batch. */
static int
apply(struct ctx *x, ar_txn *t, struct item *it)
{
	struct del_line *l = it->own;
	const char *user = cmd_get(x, &it->rec, "user");
	const char *job = cmd_get(x, &it->rec, "job");
	struct ar_resv r;
	uint64_t series;
	size_t found;
	int rc;

	/* A piece names its request: every piece of it still live. */
	series = l->series;
	l->pieces = 0;
	if (l->id != 0 && (rc = ar_get(t, l->id, &r)) != 0 &&
	    rc != AR_ENOTFOUND)
		return rc;
	if (l->id != 0 && rc == 0 && r.pieces != 0) {
		if ((rc = ar_series(t, r.series, l->ids, l->idcap,
		    &found)) != 0)
			return rc;
		l->pieces = found > 0;
		series = r.series;
	}
	if (l->id != 0 && !l->pieces) {
		if (room(l, 1, 0) != 0)
			return ENOMEM;
		l->ids[0] = l->id;
		l->nids = 1;
	} else if (series != 0) {
		if ((rc = ar_series(t, series, l->ids, l->idcap,
		    &found)) != 0)
			return rc;
		if (room(l, found, 1) != 0 || (found > 0 &&
		    (rc = ar_series(t, series, l->ids, found,
		    &found)) != 0))
			return rc ? rc : ENOMEM;
		l->nids = found;
	} else {
		/* Learn how many match, then fetch them all. */
		if ((rc = ar_find(t, user, job, l->ids, l->idcap, &found)) != 0)
			return rc;
		if (found > l->idcap && (room(l, found, 0) != 0 ||
		    (rc = ar_find(t, user, job, l->ids, found, &found)) != 0))
			return rc ? rc : ENOMEM;
		l->nids = found;
	}
	for (size_t i = 0; i < l->nids; i++) {
		struct ar_resv *was = series != 0 && (l->series != 0 ||
		    l->pieces) ? &l->was[i] : &r;

		rc = ar_cancel(t, l->ids[i], x->uid, was);
		/* Cancelling a piece cancelled the others of its request. */
		if (rc == AR_EDONE && was != &r && i > 0 && l->rcs[0] == 0 &&
		    was->pieces != 0 && was->state == AR_CANCELLED &&
		    was->series == l->was[0].series)
			rc = 0;
		if (rc != 0 && rc != AR_ENOTFOUND && rc != AR_EPERM &&
		    rc != AR_EDONE)
			return rc;
		l->rcs[i] = rc;
		it->wrote |= rc == 0;
	}
	return 0;
}

static const char *
refusal(int rc)
{
	return rc == AR_ENOTFOUND ? "not-found" : rc == AR_EPERM ?
	    "not-owner" : "done";
}

static int
emit(struct ctx *x, struct item *it)
{
	struct del_line *l = it->own;
	struct ar_record *r = &it->rec;
	int status = 0;

	if (l->nids == 0) {
		cmd_warn(x, it->line, l->series != 0 ? "no live reservation "
		    "in that series" : "no live reservation with that user "
		    "and job");
		return ar_record_set(r, "status", "refused") != 0 ||
		    ar_record_set(r, "reason", "not-found") != 0 ||
		    cmd_print(x, r) != 0 ? -1 : EXIT_REFUSED;
	}
	for (size_t i = 0; i < l->nids; i++) {
		int rc = l->rcs[i];

		if (rc != 0) {
			cmd_warn(x, it->line, "reservation %llu: %s",
			    (unsigned long long)l->ids[i], ar_strerror(rc));
			status = EXIT_REFUSED;
		}
		if (ar_record_set_uint(r, "id", l->ids[i]) != 0 ||
		    (l->series != 0 && rc == 0 && l->was[i].pieces == 0 &&
		    ar_record_set_uint(r, "occurrence",
		    l->was[i].occurrence) != 0) ||
		    ((l->series != 0 || l->pieces) && rc == 0 &&
		    cmd_pieces(r, l->was[i].series, l->was[i].occurrence,
		    l->was[i].pieces) != 0) ||
		    ar_record_set(r, "status", rc ? "refused" : "cancelled"))
			return -1;
		if (rc == 0)
			ar_record_del(r, "reason");
		else if (ar_record_set(r, "reason", refusal(rc)) != 0)
			return -1;
		if (cmd_print(x, r) != 0)
			return -1;
	}
	return status;
}

struct purge {
	struct ctx *x;
	struct ar_record rec;
	int nomem;
	int64_t before;         /* --forget */
	uint64_t records, entries;      /* ... what it forgot */
};

static int
purged(const struct ar_resv *v, void *arg)
{
	struct purge *p = arg;

	if (cmd_resv(&p->rec, v) != 0 || cmd_print(p->x, &p->rec) != 0) {
		p->nomem = 1;
		return -1;
	}
	return 0;
}

static int
purge_txn(ar_txn *t, void *arg)
{
	struct purge *p = arg;
	struct opts *o = p->x->data;

	int rc;

	p->x->outlen = 0;       /* a retry after growing starts over */
	if ((rc = ar_purge(t, o->quiet ? NULL : purged, p)) != 0 ||
	    o->forget == NULL)
		return rc;
	/* What ended before the time goes, once it is out of the indexes. */
	if ((rc = ar_forget(t, p->before, &p->records, &p->entries)) != 0)
		return rc;
	ar_record_clear(&p->rec);
	if (ar_record_set_time(&p->rec, "forgot_before", p->before) != 0 ||
	    ar_record_set_uint(&p->rec, "records", p->records) != 0 ||
	    ar_record_set_uint(&p->rec, "demand", p->entries) != 0 ||
	    cmd_print(p->x, &p->rec) != 0) {
		p->nomem = 1;
		return ENOMEM;
	}
	return 0;
}

static int
whole(struct ctx *x, ar_store *s)
{
	struct opts *o = x->data;
	struct purge p = { x, { NULL, 0, 0, NULL }, 0, 0, 0, 0 };
	char err[AR_ERRMAX];
	int rc;

	if (o->forget != NULL &&
	    ar_time_parse(o->forget, x->now, &p.before, err) != 0) {
		fprintf(stderr, "%s: option '--forget': %s\n", x->cmd->name, err);
		return EXIT_USAGE;
	}
	ar_record_init(&p.rec);
	rc = ar_write(s, AR_FREEING, x->now, purge_txn, &p);
	ar_record_free(&p.rec);
	if (rc == 0)
		return 0;
	if (!p.nomem)
		return cmd_store_error(x, rc);
	fprintf(stderr, "%s: purge: out of memory\n", x->cmd->name);
	return EXIT_STORE;
}

static const struct cmd del = {
	.name = "ar-del",
	.bit = CMD_DEL,
	.usage = "[-pq] [--forget time] [key=value ...]",
	.write = AR_WRITE | AR_FREEING,
	.shortopts = "pq",
	.longopts = longopts,
	.option = option,
	.prepare = prepare,
	.apply = apply,
	.emit = emit,
	.whole = whole,
	.line_size = sizeof(struct del_line),
	.line_free = line_free,
};

int
main(int argc, char **argv)
{
	struct opts o = { 0, NULL };

	return cmd_main(&del, argc, argv, &o);
}
