/*
 * kv.c - what the backends share: the tables' names, and which backend
 * a store's address names.
 */
#include <string.h>
#include <time.h>

#include "kv.h"
#include "mem/mem.h"
#include "pg/pg.h"

const char *const kv_table_names[KV_TABLES] = {
	"meta", "ring", "resv", "ends", "labels", "flex", "keys", "pricing",
	"demand", "map", "pins", "exported", "holds"
};

const struct kv_backend *
kv_backend_of(const char *where)
{
	if (pg_is_uri(where))
		return &kv_postgresql;
	return mem_is_address(where) ? &kv_memory : &kv_lmdb;
}

int
kv_host_clock(struct kv_txn *txn, int64_t *now)
{
	(void)txn;
	*now = (int64_t)time(NULL);
	return 0;
}
