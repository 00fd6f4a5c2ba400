/*
 * fuzz_store.c - libFuzzer target: commands on a store whose contents were
 * damaged.  A copy of a small valid store gets one value replaced, or
 * deleted, through LMDB itself (so LMDB's own page structure stays sound:
 * what is damaged is ar's meta, ring chunks, summary, records and
 * indexes), then a command runs on it.  Whatever the damage, a command
 * must answer or fail with a message; ar-report --check must not crash.
 *
 * Input: byte 0 picks the database, byte 1 the entry (or a new key),
 * byte 2 the command, the rest is the new value (empty: delete).
 */
#include <sys/stat.h>

#include <fcntl.h>
#include <lmdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ar.h"
#include "run.h"

#define NOW 1795219200          /* 2026-11-21T00:00:00Z */

static char top[64], pristine[96], work[96];
static const char *const dbs[] = { "meta", "ring", "resv", "ends",
    "labels", "flex", "keys", "map", "pins", "exported" };
#define NDBS (sizeof(dbs) / sizeof(dbs[0]))

static void
copy(const char *from, const char *to)
{
	char buf[65536];
	ssize_t n;
	int in = open(from, O_RDONLY), out = open(to,
	    O_WRONLY | O_CREAT | O_TRUNC, 0600);

	if (in == -1 || out == -1)
		abort();
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n)
			abort();
	close(in);
	close(out);
}

static int
mapped(const struct ar_mapped *m, void *arg)
{
	(void)m;
	(void)arg;
	return 0;
}

/* The first reservation mapped goes into the export ledger. */
static int
mapped_acked(const struct ar_mapped *m, void *arg)
{
	struct ar_acked a = { m->r.id, m->r.start, m->r.end, m->hosts,
	    m->nhosts };
	int *done = ((void **)arg)[1];

	if (*done)
		return 0;
	*done = 1;
	return ar_export_record(((void **)arg)[0], &a, 1);
}

static int
fill(ar_txn *t, void *arg)
{
	struct ar_answer a;
	int rc;

	(void)arg;
	for (int i = 0; i < 40; i++) {
		char key[8];
		struct ar_request rq = { NOW + 300 * (i % 13), NOW + 300 *
		    (i % 13) + 600 * (i % 2), 300 * (1 + i % 5), 1 + i % 3,
		    1 + i % 2, 0, i % 3 ? "u" : NULL, i % 3 ? "j" : NULL, 0,
		    i % 4 ? NULL : key, NULL, 0, 0, 0, NULL };

		snprintf(key, sizeof(key), "k%d", i);

		if ((rc = ar_add(t, &rq, &a)) != 0)
			return rc;
	}
	/* Named hosts, a mapping kept, and one exported. */
	for (uint32_t i = 0; i < 3; i++) {
		uint32_t hosts[2] = { 2 * i, 2 * i + 1 };
		struct ar_request rq = { NOW + 3600 * (i + 1), NOW + 3600 *
		    (i + 1), 1800, 2, 1, 0, "m", NULL, 0, NULL, hosts, 2, 0, 0, NULL };

		if ((rc = ar_add(t, &rq, &a)) != 0)
			return rc;
	}
	if ((rc = ar_map(t, 0, NOW, NOW + 86400, NULL, 0, mapped, NULL)) != 0)
		return rc;
	{
		int done = 0;
		void *args[2] = { t, &done };

		return ar_map(t, 0, NOW, NOW + 86400, NULL, 0, mapped_acked,
		    args);
	}
}

static void
setup(void)
{
	struct ar_config cfg;
	ar_store *s;
	char path[128];

	strcpy(top, "/tmp/ar-fuzz-store-XXXXXX");
	if (mkdtemp(top) == NULL)
		abort();
	snprintf(pristine, sizeof(pristine), "%s/pristine", top);
	snprintf(work, sizeof(work), "%s/work", top);
	ar_config_default(&cfg);
	cfg.flags = AR_SIMULATED;
	cfg.nodes = 8;
	if (ar_create(pristine, &cfg, NOW) != 0 ||
	    ar_open(pristine, 0, &s) != 0 || ar_write(s, 0, NOW, fill, NULL) != 0)
		abort();
	ar_close(s);
	if (mkdir(work, 0700) != 0)
		abort();
	snprintf(path, sizeof(path), "%s/lock.mdb", pristine);
	unlink(path);
}

/* Replace (or delete) one value of the work copy. */
static void
damage(const uint8_t *data, size_t size)
{
	MDB_env *env;
	MDB_txn *txn;
	MDB_dbi dbi;
	MDB_cursor *cur;
	MDB_val k, v, nk;
	unsigned char key[16] = { 0 };
	int steps = data[1] & 0x7f, rc;

	if (mdb_env_create(&env) != 0 || mdb_env_set_maxdbs(env, 16) != 0 ||
	    mdb_env_open(env, work, MDB_NOLOCK, 0600) != 0)
		abort();
	if (mdb_txn_begin(env, NULL, 0, &txn) != 0 ||
	    mdb_dbi_open(txn, dbs[data[0] % NDBS], 0, &dbi) != 0 ||
	    mdb_cursor_open(txn, dbi, &cur) != 0)
		abort();
	rc = mdb_cursor_get(cur, &k, &v, MDB_FIRST);
	while (rc == 0 && steps-- > 0)
		rc = mdb_cursor_get(cur, &k, &v, MDB_NEXT);
	if (rc != 0 || (data[1] & 0x80)) {
		/* A new key: its bytes from the input's end. */
		memcpy(key, data + size - (size < 11 ? size - 3 : 8),
		    size < 11 ? size - 3 : 8);
		/* ring: u32 positions; slot lists: (slot, id) bounds,
		 * pins: (end, id); others (keys: an owner and 4 bytes) 8. */
		k.mv_size = data[0] % NDBS == 1 ? 4 :
		    data[0] % NDBS == 3 || data[0] % NDBS == 5 ||
		    data[0] % NDBS == 8 ? 16 : 8;
		k.mv_data = key;
	}
	nk = k;
	v.mv_size = size - 3;
	v.mv_data = (void *)(data + 3);
	if (v.mv_size == 0)
		rc = mdb_del(txn, dbi, &nk, NULL);
	else if (data[0] % NDBS == 4)
		/* The label index takes values of one fixed size: LMDB
		 * copies that many bytes whatever it is given. */
		rc = v.mv_size == 8 ? mdb_put(txn, dbi, &nk, &v, 0) : 0;
	else
		rc = mdb_put(txn, dbi, &nk, &v, 0);
	mdb_cursor_close(cur);
	if (rc == 0)
		mdb_txn_commit(txn);
	else
		mdb_txn_abort(txn);
	mdb_env_close(env);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const lines[] = {
		"start=+10m duration=30m nodes=3",
		"earliest=+5m latest=+1h duration=20m nodes=2 jobs=3",
		"id=3",
		"start=+10m duration=5m nodes=1 client_key=k0",
		"start=+50m duration=1h hosts=node[2-3]",
	};
	char from[128], to[128], store[128], *argv[8];
	const char *line;
	int argc = 0, c, cmd, rc;

	if (top[0] == '\0')
		setup();
	if (size < 3)
		return 0;
	snprintf(from, sizeof(from), "%s/data.mdb", pristine);
	snprintf(to, sizeof(to), "%s/data.mdb", work);
	copy(from, to);
	snprintf(to, sizeof(to), "%s/lock.mdb", work);
	unlink(to);
	damage(data, size);
	c = data[2] % 8;
	snprintf(store, sizeof(store), "--store=%s", work);
	/* ar-report runs twice as often: --check and --all; ar-map maps
	 * the plan and exports it. */
	cmd = c < 4 ? c : c < 6 ? 4 : 6;
	argv[argc++] = (char *)commands[cmd].name;
	argv[argc++] = store;
	argv[argc++] = "--now=2026-11-21T00:00:00Z";
	argv[argc++] = "--wait=0";
	if (c == 4)
		argv[argc++] = "--check";
	else if (c == 5)
		argv[argc++] = "--all";
	else if (c == 6)
		argv[argc++] = "--plan";
	else if (c == 7)
		argv[argc++] = "--slurm";
	argv[argc] = NULL;
	/* An add is a keyed one, replayed, every other time; a search
	 * names hosts every other time. */
	line = c < 4 ? lines[c == 2 ? 2 : c == 1 && (data[1] & 1) ? 3 :
	    c == 0 && (data[1] & 1) ? 4 : c % 2] : "";
	rc = run_command(&commands[cmd], argc, argv, line, strlen(line));
	if (rc < 0 || rc > 3)
		abort();
	return 0;
}
