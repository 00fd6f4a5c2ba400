/*
 * fuzz_cmd.c - libFuzzer target for whole command invocations, one after
 * another on a fresh memory store.
 *
 * The input is up to MAXRUNS invocations separated by the byte 0x1e
 * (ASCII's record separator).  In each, the first byte picks the command,
 * the first line holds its arguments (split at blanks), the rest is its
 * standard input.  The first invocation's first byte also picks the
 * store it starts from: none (so --create and --load make it, with the
 * options they are given), an empty one, one holding reservations of
 * every shape, or that with price classes; a copy, which costs nothing
 * on the memory backend, and is removed after the input, so every input
 * runs alone.  The store is checked for its invariants after the last
 * invocation (what one breaks stays broken for the next to trip on), if
 * any of them changed it, unless one loaded it: a dump's bytes make a
 * store as sound as they are (ar-report(1): run --check on it after),
 * and the commands must only cope with it.
 *
 * Options that name a store are dropped (AR_STORE names the store), and
 * --svg writes to a scratch file.  ar-map --slurm runs a stand-in for
 * scontrol in this process (--scontrol, naming another program, is
 * dropped): it shows reservations of the full store's in step, out of
 * step and orphaned, and an operator's, and takes every change, so that
 * --diff, the dry run and --apply do all they do with Slurm.  Each
 * command's main is compiled under another name (see the Makefile).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ar.h"
#include "child.h"
#include "mem/mem.h"
#include "run.h"

#define MAXARGS 32
#define MAXRUNS 4
#define SEPARATOR 0x1e
#define STORE "mem:cmd"
#define HOSTS_SHORT 4096        /* hosts in a list, once set up */
#define USAGE_SHORT 4096        /* windows in a usage report */

static const char *const bases[] = { NULL, "mem:cmd-empty", "mem:cmd-full",
    "mem:cmd-priced" };
#define NBASES (sizeof(bases) / sizeof(bases[0]))

static char scratch[32];        /* a directory of this process's own */
static char svg[64];            /* --svg's file, in scratch */
static int loaded;              /* an invocation of this input has --load */
static size_t hosts_max = AR_HOSTS_MAX;        /* setup's, then
							   HOSTS_SHORT */

/* At exit: the scratch directory goes, so that a campaign of many
 * processes leaves nothing in /tmp (a crash leaves it, beside the
 * reproducer). */
static void
remove_scratch(void)
{
	unlink(svg);
	rmdir(scratch);
}

/*
 * The stand-in for scontrol, in this process: ar-map --slurm's children
 * (cmd/child.h) are ours, not programs, as the Makefile links fuzz_cmd
 * with --wrap=child_run,--wrap=nss_name.  A child each would cost a fork
 * and an exec of the shell, about 30 ms of an input that applies, where
 * the rest of an execution is under one.  AR_SCONTROL names a program
 * that does not exist, so that without the wrapping nothing would run.
 *
 * What it shows (show reservation --oneliner, in UTC; the blanks as the
 * shell script that stood in before printed them): the full store's
 * reservations as its plan has them, but ar-13, missing; ar-16 with
 * another user, ar-17 without its account, ar-18 started early on other
 * hosts, ar-99 that no reservation of the store owns, and the
 * operator's own.  Every other subcommand succeeds and changes nothing.
 */
#define SCONTROL "/nonexistent/fuzz-scontrol"

static const char *const held[][7] = {
	/* name, start, end, nodes, users, flags, state */
	{ "ar-1", "00:00", "00:05", "node1", "root", "SPEC_NODES", "ACTIVE" },
	{ "ar-2", "00:05", "00:15", "node[1-2]", "u", "SPEC_NODES",
	    "INACTIVE" },
	{ "ar-3", "00:05", "00:15", "node[3-4]", "u", "SPEC_NODES",
	    "INACTIVE" },
	{ "ar-4", "00:10", "00:25", "node[5-7]", "u", "SPEC_NODES",
	    "INACTIVE" },
	{ "ar-5", "00:15", "00:35", "node8", "root", "SPEC_NODES",
	    "INACTIVE" },
	{ "ar-6", "00:15", "00:35", "node1", "root", "SPEC_NODES",
	    "INACTIVE" },
	{ "ar-7", "00:20", "00:45", "node[2-3]", "u", "SPEC_NODES",
	    "INACTIVE" },
	{ "ar-8", "00:25", "00:30", "node[4-6]", "u", "SPEC_NODES",
	    "INACTIVE" },
	{ "ar-9", "00:30", "00:35", "node[4-6]", "u", "SPEC_NODES",
	    "INACTIVE" },
	{ "ar-10", "00:30", "00:40", "node7", "root", "SPEC_NODES",
	    "INACTIVE" },
	{ "ar-11", "00:35", "00:50", "node[4-5]", "u", "SPEC_NODES",
	    "INACTIVE" },
	{ "ar-12", "00:35", "00:50", "node[1,6]", "u", "SPEC_NODES",
	    "INACTIVE" },
	{ "ar-14", "07:00", "07:10", "node1", "s", "SPEC_NODES", "INACTIVE" },
	{ "ar-15", "09:00", "09:10", "node1", "s", "SPEC_NODES", "INACTIVE" },
	{ "ar-16", "01:00", "01:30", "node[1-2]", "root", "MAINT,IGNORE_JOBS",
	    "INACTIVE" },
	{ "ar-17", "02:00", "02:30", "node[3-4]", "m", "SPEC_NODES",
	    "INACTIVE" },
	{ "ar-18", "00:00", "03:30", "node[5-7]", "m", "SPEC_NODES",
	    "ACTIVE" },
	{ "ar-99", "04:00", "05:00", "node8", "root", "SPEC_NODES",
	    "INACTIVE" },
	{ "site-maint", "06:00", "07:00", "node[1-8]", "root", "MAINT",
	    "INACTIVE" },
};
#define NHELD (sizeof(held) / sizeof(held[0]))

static char shown[4096];        /* show reservation's output, made once */

static void
make_shown(void)
{
	size_t n = 0;

	for (size_t i = 0; i < NHELD; i++) {
		n += (size_t)snprintf(shown + n, sizeof(shown) - n,
		    "ReservationName=%s StartTime=2026-11-21T%s:00  "
		    "EndTime=2026-11-21T%s:00 Nodes=%s Users=%s "
		    "Accounts=(null)  Flags=%s State=%s\n", held[i][0],
		    held[i][1], held[i][2], held[i][3], held[i][4],
		    held[i][5], held[i][6]);
		if (n >= sizeof(shown))
			abort();
	}
}

int __real_child_run(char *const argv[], char *const env[], struct child *c);
int __wrap_child_run(char *const argv[], char *const env[], struct child *c);

/* child_run, for scontrol: the stand-in's answer, as its child would. */
int
__wrap_child_run(char *const argv[], char *const env[], struct child *c)
{
	int show = argv[1] != NULL && strcmp(argv[1], "show") == 0;

	if (strcmp(argv[0], SCONTROL) != 0)
		return __real_child_run(argv, env, c);
	memset(c, 0, sizeof(*c));
	c->out = strdup(show ? shown : "");
	c->err = strdup("");
	if (c->out == NULL || c->err == NULL) {
		child_free(c);
		errno = ENOMEM;
		return -1;
	}
	c->outlen = strlen(c->out);
	return 0;
}

int __real_ar_hostlist_parse_max(const char *s, size_t max,
    struct ar_hostlist *h, char *err);
int __wrap_ar_hostlist_parse_max(const char *s, size_t max,
    struct ar_hostlist *h, char *err);

/*
 * Host lists of at most HOSTS_SHORT hosts (the Makefile links fuzz_cmd
 * with --wrap=ar_hostlist_parse_max; the stores it starts from are made
 * with AR_HOSTS_MAX).  A store of up to a million hosts is allowed, and
 * a campaign's corpus filled with inputs that create one or add ranges
 * of hundreds of thousands (a digit changed is enough), each laid out
 * again by every transaction: by its 35th minute 44% of fuzz_cmd's time
 * went to parsing them, for the branches a short list takes too, and
 * its rate fell from 3,600 a second to 700; one input kept took 10.5 s.
 * Letting one input in eight keep the full bound was not enough: with
 * that input among the seeds, an eighth of its mutants took seconds
 * each, and the rate was 580 a second from the first minute.  A longer
 * list is refused as one over AR_HOSTS_MAX is, with a message;
 * fuzz_hostlist and the unit tests take long lists apart.
 */
int
__wrap_ar_hostlist_parse_max(const char *s, size_t max,
    struct ar_hostlist *h, char *err)
{
	return __real_ar_hostlist_parse_max(s, max < hosts_max ? max :
	    hosts_max, h, err);
}

int __real_ar_usage(ar_txn *t, int64_t from, int64_t to, int64_t window,
    enum ar_usage_by by, int (*fn)(const struct ar_usage *, void *),
    void *arg);
int __wrap_ar_usage(ar_txn *t, int64_t from, int64_t to, int64_t window,
    enum ar_usage_by by, int (*fn)(const struct ar_usage *, void *),
    void *arg);

/*
 * Usage reports of fewer than USAGE_SHORT windows (the Makefile links
 * fuzz_cmd with --wrap=ar_usage).  ar-report allows a million, and the
 * next campaign's corpus filled with reports of hundreds of thousands,
 * as records and as charts: by its 40th minute 35% of fuzz_cmd's time
 * went to printing them and 12% to drawing them (perf), and its rate
 * fell from 3,400 a second to 600.  A longer report is refused as
 * ar-report refuses one of AR_USAGE_MAX windows, with its message.
 */
int
__wrap_ar_usage(ar_txn *t, int64_t from, int64_t to, int64_t window,
    enum ar_usage_by by, int (*fn)(const struct ar_usage *, void *),
    void *arg)
{
	if (window > 0 && to > from && (to - from) / window >= USAGE_SHORT) {
		fprintf(stderr, "ar-report: option '--window': more than %d "
		    "windows\n", USAGE_SHORT);
		return EINVAL;
	}
	return __real_ar_usage(t, from, to, window, by, fn, arg);
}

static void
setup(void)
{
	struct ar_config cfg;

	if (svg[0] != '\0')
		return;
	strcpy(scratch, "/tmp/ar-fuzz-XXXXXX");
	if (mkdtemp(scratch) == NULL || atexit(remove_scratch) != 0)
		abort();
	snprintf(svg, sizeof(svg), "%s/chart.svg", scratch);
	make_shown();
	run_config(&cfg);
	if (ar_create(bases[1], &cfg, RUN_NOW) != 0)
		abort();
	run_store(bases[2], 0);
	run_store(bases[3], 1);
	setenv("AR_STORE", STORE, 1);
	setenv("AR_SCONTROL", SCONTROL, 1);
	unsetenv("AR_NOW");
	unsetenv("AR_WAIT");
	hosts_max = HOSTS_SHORT;
}

/* Is w, before any '=', a long option name of at least 2 letters that
 * abbreviates option (getopt_long takes any unambiguous prefix)? */
static int
abbreviates(const char *w, const char *option)
{
	size_t n = strcspn(w, "=");

	return n >= 4 && strncmp(w, option, n) == 0 && n <= strlen(option);
}

/*
 * Add word w to argv as the command will see it; *skip says the next
 * word was the argument of an option dropped or rewritten.  A store is
 * named by -s (alone or in a cluster of short options, its argument
 * the rest or the next word) or --store; --svg's file is the scratch
 * one.
 */
static void
add_word(char *w, char **argv, int *argc, int *skip)
{
	if (*skip) {
		*skip = 0;
		return;
	}
	if (w[0] == '-' && w[1] != '-' && strchr(w, 's') != NULL) {
		*skip = w[strlen(w) - 1] == 's';
		return;
	}
	if (abbreviates(w, "--store")) {
		*skip = strchr(w, '=') == NULL;
		return;
	}
	if (abbreviates(w, "--scontrol")) {     /* no program an input names */
		*skip = strchr(w, '=') == NULL;
		return;
	}
	if (abbreviates(w, "--load"))
		loaded = 1;
	if (abbreviates(w, "--svg")) {
		*skip = strchr(w, '=') == NULL;
		argv[(*argc)++] = "--svg";
		argv[(*argc)++] = svg;
		return;
	}
	argv[(*argc)++] = w;
}

static void
say_violation(const char *msg, void *arg)
{
	(void)arg;
	fprintf(stderr, "violation: %s\n", msg);
}

/* The store's invariants, unless it is still the copy of base or it was
 * loaded; a violation is told, then aborts. */
static void
check_store(const char *base)
{
	ar_store *s;
	ar_txn *t;
	uint64_t bad = 1;
	int rc;

	if ((base != NULL && mem_same(base, STORE)) || loaded)
		return;
	if ((rc = ar_open(STORE, AR_RDONLY, &s)) == AR_ENOSTORE)
		return;
	if (rc != 0)
		abort();
	if (ar_txn_begin(s, 0, RUN_NOW, &t) != 0 ||
	    ar_check(t, say_violation, NULL, &bad) != 0 || bad != 0)
		abort();
	ar_txn_abort(t);
	ar_close(s);
}

/* Run the invocation in buf[0 .. len), which it may change. */
static void
invoke(char *buf, size_t len)
{
	char *argv[MAXARGS + 8], *nl, *w, *in;
	int argc = 0, c, rc, skip = 0;
	size_t inlen;

	c = (unsigned char)buf[0] % NCOMMANDS;
	in = buf + len;
	inlen = 0;
	if ((nl = memchr(buf + 1, '\n', len - 1)) != NULL) {
		*nl = '\0';
		in = nl + 1;
		inlen = len - (size_t)(in - buf);
	} else
		buf[len] = '\0';
	argv[argc++] = (char *)commands[c].name;
	argv[argc++] = "--now";
	argv[argc++] = "2026-11-21T00:00:00Z";
	argv[argc++] = "--wait";
	argv[argc++] = "0";
	for (w = strtok(buf + 1, " \t"); w != NULL && argc < MAXARGS;
	    w = strtok(NULL, " \t"))
		add_word(w, argv, &argc, &skip);
	argv[argc] = NULL;
	rc = run_command(&commands[c], argc, argv, in, inlen);
	if (rc < 0 || rc > 3)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *base;
	char *buf, *p, *end, *sep;
	int runs = 0, rc;

	setup();
	if (size < 1)
		return 0;
	/* One byte more: each invocation's arguments end with a '\0'. */
	if ((buf = malloc(size + 1)) == NULL)
		return 0;
	memcpy(buf, data, size);
	loaded = 0;
	base = bases[data[0] / NCOMMANDS % NBASES];
	if (base != NULL && mem_copy(base, STORE) != 0)
		abort();
	for (p = buf, end = buf + size; p < end && runs < MAXRUNS; runs++) {
		sep = memchr(p, SEPARATOR, (size_t)(end - p));
		if (sep == NULL)
			sep = end;
		if (sep > p)
			invoke(p, (size_t)(sep - p));
		p = sep + 1;
	}
	check_store(base);
	/* Every handle a command opened is closed: the store goes. */
	if ((rc = mem_remove(STORE)) != 0 && rc != AR_ENOSTORE)
		abort();
	free(buf);
	return 0;
}
