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
#include "run.h"

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
	cfg.flags = AR_SIMULATED;
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
	int argc = 0, c, rc;
	size_t len;

	setup();
	if (size < 1)
		return 0;
	c = data[0] % NCOMMANDS;
	if ((buf = malloc(size)) == NULL)
		return 0;
	memcpy(buf, data + 1, size - 1);
	buf[size - 1] = '\0';
	len = size - 1;
	nl = memchr(buf, '\n', len);
	argv[argc++] = (char *)commands[c].name;
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
	/* Standard input: the bytes after the first line. */
	rc = nl == NULL ? run_command(&commands[c], argc, argv, "", 0) :
	    run_command(&commands[c], argc, argv,
	    data + 1 + (nl - buf) + 1, len - (size_t)(nl - buf) - 1);
	if (rc < 0 || rc > 3)
		abort();
	if (++runs % 64 == 0 || c == 1 || c == 2 || c == 5 || c == 6)
		check_store();
	free(buf);
	return 0;
}
