/*
 * run.c - run a command's main inside a fuzz target; see run.h.
 */
#include <stdlib.h>
#include <unistd.h>

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

#define PIPE_ROOM 60000         /* below the pipe's buffer: no blocking */

int
run_command(const struct command *c, int argc, char **argv, const void *in,
    size_t len)
{
	int pipefd[2], saved, rc;

	if (len > PIPE_ROOM)
		len = PIPE_ROOM;
	if (pipe(pipefd) != 0 ||
	    (len > 0 && write(pipefd[1], in, len) != (ssize_t)len))
		abort();
	close(pipefd[1]);
	if ((saved = dup(0)) == -1 || dup2(pipefd[0], 0) == -1)
		abort();
	close(pipefd[0]);
	optind = 0;             /* getopt starts afresh on every run */
	rc = c->main(argc, argv);
	dup2(saved, 0);
	close(saved);
	return rc;
}
