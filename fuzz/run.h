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

/* ar-search, ar-add, ar-del, ar-suggest, ar-report, ar-price, ar-map */
#define NCOMMANDS 7
extern const struct command commands[NCOMMANDS];

/* Run a command's main with argv and in[0 .. len) as its standard input
 * (a file in memory, rewound: stdin's stream starts afresh); its exit
 * status. */
int run_command(const struct command *c, int argc, char **argv,
    const void *in, size_t len);

/* 2026-11-21T00:00:00Z, the targets' now and the clock of those that
 * run commands: time() returns it (run.c). */
#define RUN_NOW 1795219200

/* fuzz_store's AR_SCONTROL: no Slurm, so that ar-map --slurm reads
 * nothing and says so, and no program an input names is ever run
 * (fuzz_cmd runs a stand-in of its own). */
#define RUN_NO_SLURM "/nonexistent/scontrol"

/* nss_name (cmd/cmd.h) for the targets linked with --wrap=nss_name: the
 * name the C library's getpwuid_r or getgrgid_r gives, with no getent
 * child (a fork and an exec an execution where an owner is named). */
int __wrap_nss_name(const char *db, long id, char *buf, size_t size);

/* The targets' stores: 8 nodes, 5-minute slots and a horizon of one
 * day, short, so that checking a store (a walk over every slot) is. */
struct ar_config;
void run_config(struct ar_config *cfg);

/*
 * Make the memory store where (run_config) and fill it as ar_write's
 * function: reservations of every shape (flexible, parametric, keyed,
 * named hosts, holds, a series), a plan mapped and exported, and with
 * priced, two price classes and the demand they log.  Aborts on
 * failure.
 */
void run_store(const char *where, int priced);

#endif
