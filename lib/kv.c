/*
 * kv.c - what the backends share: the tables' names, and which backend
 * a store's address names.
 */
#include <string.h>

#include "kv.h"
#include "pg/pg.h"

const char *const kv_table_names[KV_TABLES] = {
	"meta", "ring", "resv", "ends", "labels", "flex", "keys", "pricing",
	"demand", "map", "pins", "exported", "holds"
};

const struct kv_backend *
kv_backend_of(const char *where)
{
	return pg_is_uri(where) ? &kv_postgresql : &kv_lmdb;
}
