/*
 * run.c - run a command's main inside a fuzz target; see run.h.
 */
#define _GNU_SOURCE             /* memfd_create */
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "ar.h"
#include "run.h"

int ar_search_main(int, char **);
int ar_add_main(int, char **);
int ar_del_main(int, char **);
int ar_suggest_main(int, char **);
int ar_report_main(int, char **);
int ar_price_main(int, char **);
int ar_map_main(int, char **);

const struct command commands[NCOMMANDS] = {
	{ "ar-search", ar_search_main },
	{ "ar-add", ar_add_main },
	{ "ar-del", ar_del_main },
	{ "ar-suggest", ar_suggest_main },
	{ "ar-report", ar_report_main },
	{ "ar-price", ar_price_main },
	{ "ar-map", ar_map_main },
};

/*
 * A command's standard input is a file in memory, made once and set as
 * fd 0 for the life of the target, refilled and rewound for each
 * command (a pipe had to be made for each, and held at most 64 KiB).
 * stdin's stream is emptied and its end of file cleared as well: in
 * glibc an end of file is sticky, so that before this, every --load
 * after a process's first read nothing, and what a command left in the
 * stream's buffer would have been the next one's input.
 */
static int
input_fd(void)
{
	static int fd = -1;

	if (fd == -1 && ((fd = memfd_create("stdin", 0)) == -1 ||
	    dup2(fd, 0) == -1))
		abort();
	return fd;
}

int
run_command(const struct command *c, int argc, char **argv, const void *in,
    size_t len)
{
	int fd = input_fd();

	if (ftruncate(fd, 0) != 0 ||
	    (len > 0 && pwrite(fd, in, len, 0) != (ssize_t)len) ||
	    lseek(0, 0, SEEK_SET) != 0)
		abort();
	__fpurge(stdin);
	clearerr(stdin);
	optind = 0;             /* getopt starts afresh on every run */
	return c->main(argc, argv);
}

/*
 * The targets' clock, for every reader of it (the library's for a live
 * store, the commands', ar-map --slurm's for Slurm): RUN_NOW, whatever
 * the date, so that an input does the same on any day, and the stores
 * the targets make, dated RUN_NOW, are not all in the past for ar-map
 * --slurm, which compares with the real clock.  (This definition takes
 * the place of the C library's in the whole target.)
 */
time_t
time(time_t *t)
{
	if (t != NULL)
		*t = RUN_NOW;
	return RUN_NOW;
}

void
run_config(struct ar_config *cfg)
{
	ar_config_default(cfg);
	cfg->nodes = 8;
	cfg->horizon = 86400;
	cfg->flags = AR_SIMULATED;      /* the inputs give --now */
}

static int
mapped(const struct ar_mapped *m, void *arg)
{
	(void)m;
	(void)arg;
	return 0;
}

/* The first reservation mapped goes into the export ledger, as if
 * Slurm had acknowledged it. */
static int
mapped_acked(const struct ar_mapped *m, void *arg)
{
	struct ar_acked a = { m->r.id, m->r.start, m->r.end, m->hosts,
	    m->nhosts };
	int *done = ((void **)arg)[1];

	if (*done)
		return 0;
	*done = 1;
	return ar_export_record(((void **)arg)[0], &a, 1);
}

/* Two classes: late bookings pay more, early ones have half the nodes. */
static int
price(ar_txn *t)
{
	static const struct ar_class classes[] = {
		{ .name = "late", .price = 30, .ahead_min = 0,
		    .ahead_max = 3600, .limit = 8 },
		{ .name = "early", .price = 10, .ahead_min = 3600,
		    .ahead_max = -1, .limit = 4, .min = 2 }
	};
	struct ar_pricing p = { .n = 2, .retention = 30 * 86400 };
	const char *field;
	size_t bad;

	memcpy(p.c, classes, sizeof(classes));
	return ar_set_pricing(t, &p, &bad, &field);
}

static int
fill(ar_txn *t, void *arg)
{
	const int *priced = arg;
	struct ar_answer a;
	int rc;

	if (*priced && (rc = price(t)) != 0)
		return rc;
	for (int i = 0; i < 8; i++) {
		char key[8];
		struct ar_request rq = { .earliest = RUN_NOW + 300 * (i % 13),
		    .latest = RUN_NOW + 300 * (i % 13) + 600 * (i % 2),
		    .duration = 300 * (1 + i % 5), .nodes = 1 + i % 3,
		    .jobs = 1 + i % 2, .user = i % 3 ? "u" : NULL,
		    .job = i % 3 ? "j" : NULL, .client_key = i % 4 ? NULL : key,
		    .hold = i % 7 == 0 ? 600 : 0 };

		snprintf(key, sizeof(key), "k%d", i);
		if ((rc = ar_add(t, &rq, &a)) != 0)
			return rc;
	}
	/* A series of three, two hours apart, after the rest. */
	{
		struct ar_request rq = { .earliest = RUN_NOW + 18000,
		    .latest = RUN_NOW + 18000, .duration = 600, .nodes = 1,
		    .jobs = 1, .user = "s" };
		struct ar_repeat rep = { 7200, 3, 0 };

		if ((rc = ar_add_series(t, &rq, &rep, &a)) != 0)
			return rc;
		if (a.status != AR_GRANTED)
			return AR_ECORRUPT;
	}
	/* Named hosts, a mapping kept, and one exported. */
	for (uint32_t i = 0; i < 3; i++) {
		uint32_t hosts[2] = { 2 * i, 2 * i + 1 };
		struct ar_request rq = { .earliest = RUN_NOW + 3600 * (i + 1),
		    .latest = RUN_NOW + 3600 * (i + 1), .duration = 1800,
		    .nodes = 2, .jobs = 1, .user = "m", .hosts = hosts,
		    .nhosts = 2, .resv_flags = i == 0 ? AR_RESV_MAINT : 0,
		    .account = i == 1 ? "ops" : NULL };

		if ((rc = ar_add(t, &rq, &a)) != 0)
			return rc;
	}
	if ((rc = ar_map(t, 0, RUN_NOW, RUN_NOW + 86400, NULL, 0, mapped,
	    NULL)) != 0)
		return rc;
	{
		int done = 0;
		void *args[2] = { t, &done };

		return ar_map(t, 0, RUN_NOW, RUN_NOW + 86400, NULL, 0,
		    mapped_acked, args);
	}
}

void
run_store(const char *where, int priced)
{
	struct ar_config cfg;
	ar_store *s;

	run_config(&cfg);
	if (ar_create(where, &cfg, RUN_NOW) != 0 ||
	    ar_open(where, 0, &s) != 0 ||
	    ar_write(s, 0, RUN_NOW, fill, &priced) != 0)
		abort();
	ar_close(s);
}

/* nss_name without getent's child, for the targets linked with
 * --wrap=nss_name (the Makefile): the C library asks the same name
 * service (the targets are linked dynamically).  As nss_name answers: 0
 * and the name, 1 for an id without one, -1 for a name too long for
 * buf or a failure. */
int
__wrap_nss_name(const char *db, long id, char *buf, size_t size)
{
	char space[4096];
	const char *name = NULL;
	struct passwd pw, *pwp = NULL;
	struct group gr, *grp = NULL;

	if (id < 0)
		return 1;
	if (strcmp(db, "passwd") == 0) {
		if (getpwuid_r((uid_t)id, &pw, space, sizeof(space), &pwp) != 0)
			return -1;
		name = pwp != NULL ? pwp->pw_name : NULL;
	} else if (strcmp(db, "group") == 0) {
		if (getgrgid_r((gid_t)id, &gr, space, sizeof(space), &grp) != 0)
			return -1;
		name = grp != NULL ? grp->gr_name : NULL;
	} else
		return -1;
	if (name == NULL)
		return 1;
	if (strlen(name) >= size)
		return -1;
	strcpy(buf, name);
	return 0;
}
