/*
 * run.h - what the command fuzz targets share: the commands' mains,
 * compiled under other names (ar-add's main is ar_add_main, see the
 * Makefile), and running one with given bytes as its standard input.
 */
#ifndef AR_FUZZ_RUN_H
#define AR_FUZZ_RUN_H

#include <stddef.h>

struct command {
	const char *name;
	int (*main)(int, char **);
};

/* ar-search, ar-add, ar-del, ar-suggest, ar-report, ar-price */
#define NCOMMANDS 7
extern const struct command commands[NCOMMANDS];

/* Run a command's main with argv and in[0 .. len) as its standard input
 * (at most what a pipe holds without blocking); its exit status. */
int run_command(const struct command *c, int argc, char **argv,
    const void *in, size_t len);

#endif
