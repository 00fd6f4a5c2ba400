/*
 * pg.h - the PostgreSQL backend (kv_postgresql in kv.h): what the rest
 * of the library may ask it besides struct kv_backend.
 */
#ifndef AR_PG_PG_H
#define AR_PG_PG_H

/* Does where name a PostgreSQL store: a postgresql:// or postgres://
 * URI?  1 or 0. */
int pg_is_uri(const char *where);

#endif
