/*
 * ar-search - is there room for a request?  (GarQ Algorithm 2)
 */
#include "cmd.h"

static const struct cmd search = {
	.name = "ar-search",
	.bit = CMD_SEARCH,
	.usage = "[key=value ...]",
	.shortopts = "",
	.prepare = cmd_request,
	.apply = cmd_search_apply,
	.emit = cmd_search_emit,
};

int
main(int argc, char **argv)
{
	return cmd_main(&search, argc, argv, NULL);
}
