/*
 * kv.c - what the backends share: the tables' names, and the table of
 * backends, which an address picks from.
 */
#include <stddef.h>
#include <time.h>

#include "kv.h"

const char *const kv_table_names[KV_TABLES] = {
	"meta", "ring", "resv", "ends", "labels", "flex", "keys", "pricing",
	"demand", "map", "pins", "exported", "holds",
	"unused", "tracked", "explicit"
};

/* The backends, in the order an address is offered to them: the last,
 * LMDB's, takes what the others leave, a directory. */
static const struct kv_backend *const backends[] = {
	&kv_postgresql, &kv_memory, &kv_lmdb
};
#define NBACKENDS (sizeof(backends) / sizeof(backends[0]))

const struct kv_backend *
kv_backend_of(const char *where)
{
	size_t i;

	for (i = 0; i + 1 < NBACKENDS && !backends[i]->claims(where); i++)
		;
	return backends[i];
}

const char *
kv_strerror(int code)
{
	const char *msg;

	for (size_t i = 0; i < NBACKENDS; i++)
		if ((msg = backends[i]->strerror(code)) != NULL)
			return msg;
	return NULL;
}

int
kv_host_clock(struct kv_txn *txn, int64_t *now)
{
	(void)txn;
	*now = (int64_t)time(NULL);
	return 0;
}
