/*
 * kv.c - what the backends share: the tables' names, and the table of
 * backends, which an address picks from.
 */
#include <stddef.h>
#include <time.h>

#include "kv.h"

const char *const kv_table_names[KV_TABLES] = {
	"meta", "ring", "resv", "ends", "labels", "flex", "keys", "pricing",
	"demand", "map", "pins", "exported", "holds"
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
kv_walk(struct kv_txn *txn, enum kv_table tb, const struct kv_val *from,
    int (*visit)(struct kv_cursor *, const struct kv_val *,
    const struct kv_val *, void *), void *arg)
{
	struct kv_cursor *cur;
	struct kv_val k, v;
	int rc;

	if ((rc = kv_cursor_open(txn, tb, &cur)) != 0)
		return rc;
	if (from != NULL)
		k = *from;
	for (rc = kv_cursor_get(cur, &k, &v, from != NULL ? KV_SET_RANGE :
	    KV_FIRST); rc == 0; rc = kv_cursor_get(cur, &k, &v, KV_NEXT))
		if ((rc = visit(cur, &k, &v, arg)) != 0)
			break;
	kv_cursor_close(cur);
	return rc == KV_NOTFOUND ? 0 : rc;
}

int
kv_host_clock(struct kv_txn *txn, int64_t *now)
{
	(void)txn;
	*now = (int64_t)time(NULL);
	return 0;
}
