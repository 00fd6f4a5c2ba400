/*
 * client.c - a program built against the installed library the way its
 * users build theirs: <ar/ar.h> and <ar/format.h>, with the flags that
 * pkg-config gives for ar.  tests/packaging.sh builds it as C and as C++,
 * so it keeps to what both languages accept.
 *
 *   client DIR    create a store of 4 nodes in DIR, open it, reserve 2
 *                 nodes for an hour from 01:00 and print the answer as a
 *                 record; exit 0 if it was granted
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ar/ar.h>
#include <ar/format.h>

static int
fail(const char *what, const char *why)
{
	fprintf(stderr, "client: %s: %s\n", what, why);
	return 3;
}

int
main(int argc, char **argv)
{
	struct ar_config cfg;
	struct ar_request rq;
	struct ar_answer ans;
	struct ar_record rec;
	ar_store *s;
	ar_txn *t;
	char err[AR_ERRMAX];
	char *buf = NULL;
	size_t len = 0, cap = 0;
	int64_t now;
	int rc;

	if (argc != 2)
		return fail("usage", "client dir");
	if (ar_time_parse("2026-11-21T00:00Z", 0, &now, err) != 0)
		return fail("time", err);
	ar_config_default(&cfg);
	cfg.flags = AR_SIMULATED;
	cfg.nodes = 4;
	if ((rc = ar_create(argv[1], &cfg, now)) != 0 ||
	    (rc = ar_open(argv[1], 0, &s)) != 0)
		return fail(argv[1], ar_strerror(rc));

	memset(&rq, 0, sizeof rq);
	rq.earliest = rq.latest = now + 3600;
	rq.duration = 3600;
	rq.nodes = 2;
	rq.jobs = 1;
	if ((rc = ar_txn_begin(s, AR_WRITE, now, &t)) != 0)
		return fail("begin", ar_strerror(rc));
	if ((rc = ar_add(t, &rq, &ans)) != 0) {
		ar_txn_abort(t);
		return fail("add", ar_strerror(rc));
	}
	if ((rc = ar_txn_commit(t)) != 0)
		return fail("commit", ar_strerror(rc));
	ar_close(s);

	ar_record_init(&rec);
	if (ar_record_set_uint(&rec, "id", ans.id) != 0 ||
	    ar_record_set_time(&rec, "start", ans.start) != 0 ||
	    ar_record_set_time(&rec, "end", ans.end) != 0 ||
	    ar_record_set_uint(&rec, "free", ans.free) != 0 ||
	    ar_record_set(&rec, "status", ar_status_name(ans.status)) != 0 ||
	    ar_record_print(&rec, 0, &buf, &len, &cap) != 0)
		return fail("record", "out of memory");
	fwrite(buf, 1, len, stdout);
	free(buf);
	ar_record_free(&rec);
	return ans.status == AR_GRANTED ? 0 : 1;
}
