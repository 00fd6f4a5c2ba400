/*
 * pq.h - libpq, loaded when a PostgreSQL store is first used.  The
 * commands are linked statically and libpq's own dependencies (GSSAPI,
 * LDAP) have no static libraries, so it cannot be linked in: pq_load
 * opens libpq.so.5 and fills pq with the functions the backend calls.
 */
#ifndef AR_PG_PQ_H
#define AR_PG_PQ_H

#include <libpq-fe.h>

/* The functions of libpq in use, each under its own name. */
#define PQ_FUNCTIONS(X) \
	X(PQconnectdb) X(PQfinish) X(PQstatus) X(PQreset) \
	X(PQerrorMessage) X(PQtransactionStatus) \
	X(PQexec) X(PQprepare) X(PQexecPrepared) \
	X(PQresultStatus) X(PQresultErrorField) X(PQcmdStatus) \
	X(PQcmdTuples) X(PQntuples) X(PQgetvalue) X(PQgetlength) \
	X(PQgetisnull) X(PQclear) X(PQsetNoticeProcessor) \
	X(PQenterPipelineMode) X(PQexitPipelineMode) X(PQpipelineSync) \
	X(PQsendQueryPrepared) X(PQgetResult)

#define PQ_MEMBER(f) __typeof__(f) *f;
struct pq {
	PQ_FUNCTIONS(PQ_MEMBER)
};
#undef PQ_MEMBER

extern struct pq pq;

/* Load libpq once; 0, or -1 if it cannot be loaded (pq is then empty
 * and the next call tries again). */
int pq_load(void);

#endif
