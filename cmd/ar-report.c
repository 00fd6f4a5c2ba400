/*
 * ar-report - what the store holds: reservations, free nodes per slot,
 * the store's description, and the invariant check.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"

enum mode { LIST, ALL, FREE, INFO, CHECK };
enum { OPT_FROM = 300, OPT_TO };

struct opts {
	enum mode mode;
	const char *from, *to;  /* --free: the interval, as given */
};

static const struct option longopts[] = {
	{ "all", no_argument, NULL, 'a' },
	{ "check", no_argument, NULL, 'c' },
	{ "free", no_argument, NULL, 'f' },
	{ "info", no_argument, NULL, 'i' },
	{ "list", no_argument, NULL, 'l' },
	{ "from", required_argument, NULL, OPT_FROM },
	{ "to", required_argument, NULL, OPT_TO },
	{ NULL, 0, NULL, 0 }
};

static int
option(struct ctx *x, int opt, const char *arg)
{
	struct opts *o = x->data;
	const char *modes = "aflic";
	const enum mode m[] = { ALL, FREE, LIST, INFO, CHECK };
	const char *p;

	if (opt == OPT_FROM)
		o->from = arg;
	else if (opt == OPT_TO)
		o->to = arg;
	else if (opt != 0 && (p = strchr(modes, opt)) != NULL)
		o->mode = m[p - modes];
	else
		return -1;
	return 0;
}

struct out {
	struct ctx *x;
	struct ar_record rec;
	int write_error;        /* errno of a failed write to stdout, or 0 */
};

/* Listings go out as they are made, 64 KiB at a time: a store of
 * millions of records is not held in memory. */
#define LIST_CHUNK 65536

static int
listed(const struct ar_resv *v, void *arg)
{
	struct out *o = arg;

	if (cmd_resv(&o->rec, v) != 0 || cmd_print(o->x, &o->rec) != 0)
		return ENOMEM;
	if (o->x->outlen >= LIST_CHUNK && cmd_flush(o->x) != 0) {
		o->write_error = errno ? errno : EIO;
		return o->write_error;
	}
	return 0;
}

static void
violation(const char *msg, void *arg)
{
	struct out *o = arg;

	ar_record_clear(&o->rec);
	if (ar_record_set(&o->rec, "violation", msg) != 0 ||
	    cmd_print(o->x, &o->rec) != 0)
		fprintf(stderr, "%s: violation: %s\n", o->x->cmd->name, msg);
}

static int
info(struct out *o, ar_txn *t)
{
	struct ar_info i;
	struct ar_record *r = &o->rec;
	int rc;

	if ((rc = ar_info(t, &i)) != 0)
		return rc;
	if (ar_record_set_int(r, "nodes", i.config.nodes) != 0 ||
	    ar_record_set(r, "hosts", o->x->host_names) != 0 ||
	    ar_record_set_duration(r, "slot", i.config.slot) != 0 ||
	    ar_record_set_duration(r, "horizon", i.config.horizon) != 0 ||
	    ar_record_set_time(r, "clock", i.clock) != 0 ||
	    ar_record_set_uint(r, "live", i.live) != 0 ||
	    ar_record_set_uint(r, "records", i.records) != 0 ||
	    ar_record_set_uint(r, "next_id", i.next_id) != 0 ||
	    ar_record_set_uint(r, "map_size", i.map_size) != 0 ||
	    ar_record_set_uint(r, "map_max", i.config.map_max) != 0 ||
	    ar_record_set_int(r, "format", i.format) != 0)
		return ENOMEM;
	return cmd_print(o->x, r) != 0 ? ENOMEM : 0;
}

/* One record per slot: its start and the nodes free in it. */
static int
free_slots(struct out *o, ar_txn *t)
{
	struct opts *op = o->x->data;
	struct ar_info i;
	char err[AR_ERRMAX];
	int64_t from, to;
	uint32_t nfree;
	int rc;

	if ((rc = ar_info(t, &i)) != 0)
		return rc;
	from = i.clock - i.clock % i.config.slot;
	if (op->from != NULL && ar_time_parse(op->from, o->x->now, &from,
	    err) != 0) {
		fprintf(stderr, "%s: option '--from': %s\n", o->x->cmd->name, err);
		return EINVAL;
	}
	if (op->to != NULL && ar_time_parse(op->to, o->x->now, &to, err) != 0) {
		fprintf(stderr, "%s: option '--to': %s\n", o->x->cmd->name, err);
		return EINVAL;
	}
	if (op->to != NULL && to <= from) {
		fprintf(stderr, "%s: option '--to': not after '--from'\n",
		    o->x->cmd->name);
		return EINVAL;
	}
	/* From the start of the slot holding from: 12 slots by default. */
	from -= from % i.config.slot;
	if (op->to == NULL)
		to = from + 12 * i.config.slot;
	for (int64_t s = from; s < to; s += i.config.slot) {
		if ((rc = ar_free(t, s, s + i.config.slot, &nfree)) == EINVAL)
			fprintf(stderr, "%s: option '--free': slot %s is outside "
			    "the ring (from the clock to the horizon)\n",
			    o->x->cmd->name, ar_time_format(s, err));
		if (rc != 0)
			return rc;
		ar_record_clear(&o->rec);
		if (ar_record_set_time(&o->rec, "start", s) != 0 ||
		    ar_record_set_int(&o->rec, "free", nfree) != 0 ||
		    cmd_print(o->x, &o->rec) != 0)
			return ENOMEM;
	}
	return 0;
}

static int
whole(struct ctx *x, ar_store *s)
{
	struct opts *op = x->data;
	struct out o = { x, { NULL, 0, 0, NULL }, 0 };
	uint64_t bad = 0;
	ar_txn *t;
	int rc;

	if ((rc = ar_txn_begin(s, 0, x->now, &t)) != 0) {
		fprintf(stderr, "%s: %s\n", x->cmd->name, ar_strerror(rc));
		return EXIT_STORE;
	}
	ar_record_init(&o.rec);
	switch (op->mode) {
	case LIST:
	case ALL:
		rc = ar_list(t, op->mode == LIST ? AR_LIVE : 0, listed, &o);
		break;
	case FREE:
		rc = free_slots(&o, t);
		break;
	case INFO:
		rc = info(&o, t);
		break;
	case CHECK:
		rc = ar_check(t, violation, &o, &bad);
		x->keep_output = 1;
		break;
	}
	ar_txn_abort(t);
	ar_record_free(&o.rec);
	if (rc == EINVAL && op->mode == FREE)
		return EXIT_USAGE;
	if (o.write_error) {
		fprintf(stderr, "%s: write error: %s\n", x->cmd->name,
		    strerror(o.write_error));
		return EXIT_STORE;
	}
	if (rc != 0) {
		fprintf(stderr, "%s: %s\n", x->cmd->name, ar_strerror(rc));
		return EXIT_STORE;
	}
	if (bad > 0) {
		fprintf(stderr, "%s: %llu invariant violations\n", x->cmd->name,
		    (unsigned long long)bad);
		return EXIT_STORE;
	}
	return 0;
}

static const struct cmd report = {
	.name = "ar-report",
	.usage = "[-a | -c | -i | -l | -f [--from time] [--to time]]",
	.shortopts = "acfil",
	.longopts = longopts,
	.option = option,
	.whole = whole,
};

int
main(int argc, char **argv)
{
	struct opts o = { LIST, NULL, NULL };

	return cmd_main(&report, argc, argv, &o);
}
