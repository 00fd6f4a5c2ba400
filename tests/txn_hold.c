/*
 * txn_hold.c - put a store in the states the end-to-end tests need and
 * no command makes: transactions held open, a damaged record, a store an
 * older ar's interrupted creation left.
 *
 *   txn_hold write STORE       begin a write transaction, say "held",
 *                              stop (SIGSTOP) inside it; when continued,
 *                              abort it and exit
 *   txn_hold add STORE FILE    the same, with the hosts FILE describes
 *                              added (ar_add_hosts) before it says
 *                              "held"; when continued, commit them
 *   txn_hold read STORE N      N processes, each holding a read
 *                              transaction; says "held N" when all do,
 *                              and ends them all at the end of stdin
 *   txn_hold readers STORE     print how many reader slots are taken
 *   txn_hold damage STORE ID   add one node to record ID, not to the ring
 *   txn_hold half STORE        make STORE as an older ar's creation left
 *                              it when killed between its two commits:
 *                              the databases, no meta
 *
 * Exit status 0, or 2 with a message.
 */
#include <sys/wait.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <lmdb.h>

#include "internal.h"

static void
die(const char *what, int rc)
{
	fprintf(stderr, "txn_hold: %s: %s\n", what, ar_strerror(rc));
	exit(2);
}

static ar_store *
store_open(const char *dir, unsigned flags)
{
	ar_store *s;
	int rc;

	if ((rc = ar_open(dir, flags, &s)) != 0)
		die(dir, rc);
	return s;
}

/* The text of file path, at most 64 KiB of it. */
static char *
slurp(const char *path)
{
	static char text[65537];
	FILE *f = fopen(path, "r");
	size_t n;

	if (f == NULL)
		die(path, errno);
	n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = '\0';
	return text;
}

/* A write transaction held, stopped; adding the hosts of text (or
 * NULL) to commit them when continued. */
static void
hold_write(const char *dir, const char *text)
{
	ar_store *s = store_open(dir, 0);
	char err[AR_ERRMAX];
	ar_txn *t;
	int rc;

	if ((rc = ar_txn_begin(s, AR_WRITE, 0, &t)) != 0)
		die("write transaction", rc);
	if (text != NULL && ar_add_hosts(t, text, err) != 0) {
		fprintf(stderr, "txn_hold: add hosts: %s\n", err);
		exit(2);
	}
	printf("held\n");
	fflush(stdout);
	raise(SIGSTOP);
	if (text == NULL)
		ar_txn_abort(t);
	else if ((rc = ar_txn_commit(t)) != 0)
		die("commit", rc);
	ar_close(s);
}

/* Children each hold a read transaction until their parent goes. */
static void
hold_read(const char *dir, long n)
{
	int ready[2], done[2];
	char c;
	long i, held;

	if (pipe(ready) == -1 || pipe(done) == -1)
		die("pipe", errno);
	for (i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid == -1)
			die("fork", errno);
		if (pid == 0) {
			ar_store *s;
			ar_txn *t;

			close(ready[0]);
			close(done[1]);
			/* A child that cannot read says so and goes. */
			if (ar_open(dir, AR_RDONLY, &s) != 0 ||
			    ar_txn_begin(s, 0, 0, &t) != 0) {
				if (write(ready[1], "f", 1) != 1)
					_exit(3);
				_exit(2);
			}
			if (write(ready[1], "r", 1) != 1)
				_exit(2);
			/* Until the parent closes its end. */
			while (read(done[0], &c, 1) == -1 && errno == EINTR)
				;
			ar_txn_abort(t);
			ar_close(s);
			_exit(0);
		}
	}
	close(ready[1]);
	close(done[0]);
	held = 0;
	for (i = 0; i < n && read(ready[0], &c, 1) == 1; i++)
		held += c == 'r';
	printf("held %ld\n", held);
	fflush(stdout);
	while (read(0, &c, 1) > 0)
		;
	close(done[1]);
	while (wait(NULL) > 0)
		;
}

static int
count_line(const char *msg, void *ctx)
{
	(void)msg;
	++*(long *)ctx;
	return 0;
}

/* mdb_reader_list prints a heading and then a line per taken slot. */
static void
readers(const char *dir)
{
	MDB_env *env;
	long lines = 0;
	int rc;

	if ((rc = mdb_env_create(&env)) != 0 ||
	    (rc = mdb_env_set_maxdbs(env, 16)) != 0 ||
	    (rc = mdb_env_open(env, dir, MDB_RDONLY, 0660)) != 0)
		die(dir, rc);
	mdb_reader_list(env, count_line, &lines);
	printf("%ld\n", lines > 0 ? lines - 1 : 0);
	mdb_env_close(env);
}

static void
damage(const char *dir, const char *id)
{
	ar_store *s = store_open(dir, 0);
	unsigned char key[8];
	struct kv_val k = { 8, key }, v;
	ar_txn *t;
	struct disk_resv d;
	char *copy;
	int rc;

	key_u64(key, strtoull(id, NULL, 10));
	if ((rc = ar_txn_begin(s, AR_WRITE, 0, &t)) != 0 ||
	    (rc = kv_get(t->txn, KV_RESV, &k, &v)) != 0)
		die("record", rc);
	if ((copy = malloc(v.size)) == NULL)
		die("malloc", ENOMEM);
	memcpy(copy, v.data, v.size);
	memcpy(&d, copy, sizeof(d));
	d.nodes++;
	memcpy(copy, &d, sizeof(d));
	v.data = copy;
	if ((rc = kv_put(t->txn, KV_RESV, &k, &v, 0)) != 0 ||
	    (rc = ar_txn_commit(t)) != 0)
		die("record", rc);
	free(copy);
	ar_close(s);
}

static void
half(const char *dir)
{
	static const char *const names[] = {
		"meta", "ring", "resv", "ends", "labels", "flex"
	};
	MDB_env *env;
	MDB_txn *txn;
	MDB_dbi dbi;
	int rc;

	if ((rc = mdb_env_create(&env)) != 0 ||
	    (rc = mdb_env_set_maxdbs(env, 8)) != 0 ||
	    (rc = mdb_env_open(env, dir, 0, 0660)) != 0 ||
	    (rc = mdb_txn_begin(env, NULL, 0, &txn)) != 0)
		die(dir, rc);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if ((rc = mdb_dbi_open(txn, names[i], MDB_CREATE |
		    (i == 4 ? MDB_DUPSORT | MDB_DUPFIXED : 0), &dbi)) != 0)
			die(names[i], rc);
	if ((rc = mdb_txn_commit(txn)) != 0)
		die(dir, rc);
	mdb_env_close(env);
}

int
main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "write") == 0)
		hold_write(argv[2], NULL);
	else if (argc == 4 && strcmp(argv[1], "add") == 0)
		hold_write(argv[2], slurp(argv[3]));
	else if (argc == 4 && strcmp(argv[1], "read") == 0)
		hold_read(argv[2], strtol(argv[3], NULL, 10));
	else if (argc == 3 && strcmp(argv[1], "readers") == 0)
		readers(argv[2]);
	else if (argc == 4 && strcmp(argv[1], "damage") == 0)
		damage(argv[2], argv[3]);
	else if (argc == 3 && strcmp(argv[1], "half") == 0)
		half(argv[2]);
	else {
		fprintf(stderr, "usage: txn_hold write|add|read|readers|damage|"
		    "half STORE [FILE|N|ID]\n");
		return 2;
	}
	return 0;
}
