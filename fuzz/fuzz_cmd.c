/*
 * fuzz_cmd.c - libFuzzer target for whole command invocations: the first
 * byte picks the command, the first line holds its arguments (split at
 * blanks), the rest is its standard input.  Every run uses one scratch
 * store, checked for its invariants after each write command.
 *
 * Each command's main is compiled under another name (see the Makefile).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ar.h"

int ar_search_main(int, char **);
int ar_add_main(int, char **);
int ar_del_main(int, char **);
int ar_suggest_main(int, char **);
int ar_report_main(int, char **);

static const struct {
	const char *name;
	int (*main)(int, char **);
} cmds[] = {
	{ "ar-search", ar_search_main },
	{ "ar-add", ar_add_main },
	{ "ar-del", ar_del_main },
	{ "ar-suggest", ar_suggest_main },
	{ "ar-report", ar_report_main },
};

#define NOW 1795219200          /* 2026-11-21T00:00:00Z */
#define MAXARGS 32

static char dir[64];
static int runs;

static void
setup(void)
{
	struct ar_config cfg;

	if (dir[0] != '\0')
		return;
	strcpy(dir, "/tmp/ar-fuzz-XXXXXX");
	if (mkdtemp(dir) == NULL)
		abort();
	strcat(dir, "/store");
	ar_config_default(&cfg);
	cfg.nodes = 8;
	if (ar_create(dir, &cfg, NOW) != 0)
		abort();
	setenv("AR_STORE", dir, 1);
	unsetenv("AR_NOW");
}

/* Is this argument one that could name another store? */
static int
names_store(const char *w)
{
	return w[0] == '-' && strchr(w, 's') != NULL;
}

static void
check_store(void)
{
	ar_store *s;
	ar_txn *t;
	uint64_t bad = 1;

	if (ar_open(dir, AR_RDONLY, &s) != 0)
		abort();
	if (ar_txn_begin(s, 0, NOW, &t) != 0 ||
	    ar_check(t, NULL, NULL, &bad) != 0 || bad != 0)
		abort();
	ar_txn_abort(t);
	ar_close(s);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf, *argv[MAXARGS + 8], *nl, *w;
	int argc = 0, pipefd[2], in, c, rc;
	size_t len;

	setup();
	if (size < 1)
		return 0;
	c = data[0] % 5;
	if ((buf = malloc(size)) == NULL)
		return 0;
	memcpy(buf, data + 1, size - 1);
	buf[size - 1] = '\0';
	len = size - 1;
	nl = memchr(buf, '\n', len);
	argv[argc++] = (char *)cmds[c].name;
	argv[argc++] = "--now";
	argv[argc++] = "2026-11-21T00:00:00Z";
	argv[argc++] = "--wait";
	argv[argc++] = "0";
	if (nl != NULL)
		*nl = '\0';
	for (w = strtok(buf, " \t"); w != NULL && argc < MAXARGS;
	    w = strtok(NULL, " \t"))
		if (!names_store(w) && strcmp(w, "--create") != 0)
			argv[argc++] = w;
	argv[argc] = NULL;
	/* Standard input: the bytes after the first line, through a pipe. */
	if (pipe(pipefd) != 0)
		abort();
	if (nl != NULL) {
		size_t off = (size_t)(nl - buf) + 1, n = len - off;

		if (n > 60000)
			n = 60000;      /* the pipe must not block */
		if (write(pipefd[1], data + 1 + off, n) != (ssize_t)n)
			abort();
	}
	close(pipefd[1]);
	if ((in = dup(0)) == -1 || dup2(pipefd[0], 0) == -1)
		abort();
	close(pipefd[0]);
	optind = 0;
	rc = cmds[c].main(argc, argv);
	dup2(in, 0);
	close(in);
	if (rc < 0 || rc > 3)
		abort();
	if (++runs % 64 == 0 || c == 1 || c == 2)
		check_store();
	free(buf);
	return 0;
}
