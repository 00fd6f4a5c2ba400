/*
 * fuzz_store.c - libFuzzer target: commands on a store whose contents were
 * damaged.  A copy of a small valid memory store (run_store: records of
 * every shape, a plan mapped and exported) gets one value of one of its
 * tables replaced, or deleted, through lib/kv.h, then a command runs on
 * it.  Whatever the damage, a command must answer or fail with a
 * message; ar-report --check must not crash.  The copy costs nothing on
 * the memory backend and is removed after each input.
 *
 * Input: byte 0 picks the table, byte 1 the entry (or a new key),
 * byte 2 the command, the rest is the new value (empty: delete).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ar.h"
#include "child.h"
#include "kv.h"
#include "mem/mem.h"
#include "run.h"

#define PRISTINE "mem:store-pristine"
#define WORK "mem:store-work"

/* Replace (or delete) one value of the work copy. */
static void
damage(const uint8_t *data, size_t size)
{
	enum kv_table tb = (enum kv_table)(data[0] % KV_TABLES);
	struct kv_store *ks;
	struct kv_txn *txn;
	struct kv_cursor *cur;
	struct kv_val k, v;
	unsigned char key[16] = { 0 };
	int steps = data[1] & 0x7f, rc;

	if (kv_memory.open(WORK, 0, &ks) != 0 ||
	    kv_memory.txn_begin(ks, NULL, 1, 0, &txn) != 0 ||
	    kv_cursor_open(txn, tb, &cur) != 0)
		abort();
	rc = kv_cursor_get(cur, &k, &v, KV_FIRST);
	while (rc == 0 && steps-- > 0)
		rc = kv_cursor_get(cur, &k, &v, KV_NEXT);
	if (rc != 0 || (data[1] & 0x80)) {
		/* A new key: its bytes from the input's end. */
		memcpy(key, data + size - (size < 11 ? size - 3 : 8),
		    size < 11 ? size - 3 : 8);
		/* ring: u32 positions; slot lists: (slot, id) bounds,
		 * pins: (end, id); the others (keys: an owner and 4
		 * bytes) 8. */
		k.size = tb == KV_RING ? 4 : tb == KV_ENDS || tb == KV_FLEX ||
		    tb == KV_PINS ? 16 : 8;
		k.data = key;
	}
	/* The cursor stays where it is: its key is good until it moves. */
	v.size = size - 3;
	v.data = (void *)(data + 3);
	if (v.size == 0)
		rc = kv_del(txn, tb, &k, NULL);
	else if (tb == KV_LABELS)
		/* The label index holds values of one size (LMDB's
		 * MDB_DUPFIXED): replace the key's with one of them. */
		rc = v.size == 8 ? kv_put(txn, tb, &k, &v, 0) : 0;
	else
		rc = kv_put(txn, tb, &k, &v, 0);
	kv_cursor_close(cur);
	if (rc == 0)
		rc = kv_memory.txn_commit(txn);
	else
		kv_memory.txn_abort(txn);
	kv_memory.close(ks);
}

int __real_child_run(char *const argv[], char *const env[], struct child *c);
int __wrap_child_run(char *const argv[], char *const env[], struct child *c);

/* child_run, for RUN_NO_SLURM (the Makefile links this target with
 * --wrap=child_run): what child_run leaves of a program that does not
 * exist, with no child made, since that fork was most of an execution
 * of ar-map --slurm. */
int
__wrap_child_run(char *const argv[], char *const env[], struct child *c)
{
	char msg[256];

	if (strcmp(argv[0], RUN_NO_SLURM) != 0)
		return __real_child_run(argv, env, c);
	memset(c, 0, sizeof(*c));
	snprintf(msg, sizeof(msg), "%s: %s\n", argv[0], strerror(ENOENT));
	c->out = strdup("");
	c->err = strdup(msg);
	if (c->out == NULL || c->err == NULL) {
		child_free(c);
		errno = ENOMEM;
		return -1;
	}
	c->errlen = strlen(c->err);
	c->status = 127;
	return 0;
}

/* What runs on the damaged store: a command, its option, its input. */
static const struct run {
	int cmd;                /* in commands[] */
	const char *option;     /* or NULL */
	const char *line;
} runs[] = {
	{ 0, NULL, "start=+10m duration=30m nodes=3" },
	{ 1, NULL, "earliest=+5m latest=+1h duration=20m nodes=2 jobs=3" },
	{ 2, NULL, "id=3" },
	{ 3, NULL, "earliest=+5m latest=+1h duration=20m nodes=2 jobs=3" },
	{ 4, "--check", "" },
	{ 4, "--all", "" },
	{ 6, "--plan", "" },
	{ 6, "--slurm", "" },
	{ 4, "--dump", "" },
	{ 4, "--usage", "" },
	{ 5, "--show", "" },
	{ 2, "--purge", "" },
	{ 1, "--confirm", "id=1" },
	{ 1, "--modify", "id=2 nodes=1 duration=10m" },
	{ 4, "--info", "" },
	{ 1, NULL, "start=+2h duration=30m nodes=2 every=1h count=3" },
};
#define NRUNS (sizeof(runs) / sizeof(runs[0]))

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct run *r;
	char *argv[8];
	const char *line;
	int argc = 0, rc;

	if (size < 3)
		return 0;
	if (mem_copy(PRISTINE, WORK) != 0) {
		setenv("AR_SCONTROL", RUN_NO_SLURM, 1);
		run_store(PRISTINE, 0);
		if (mem_copy(PRISTINE, WORK) != 0)
			abort();
	}
	damage(data, size);
	r = &runs[data[2] % NRUNS];
	argv[argc++] = (char *)commands[r->cmd].name;
	argv[argc++] = "--store=" WORK;
	argv[argc++] = "--now=2026-11-21T00:00:00Z";
	argv[argc++] = "--wait=0";
	if (r->option != NULL)
		argv[argc++] = (char *)r->option;
	argv[argc] = NULL;
	/* An add is a keyed one, replayed, every other time; a search
	 * names hosts every other time. */
	line = r->line;
	if (r->cmd == 1 && r->option == NULL && (data[1] & 1))
		line = "start=+10m duration=5m nodes=1 client_key=k0";
	else if (r->cmd == 0 && (data[1] & 1))
		line = "start=+50m duration=1h hosts=node[2-3]";
	rc = run_command(&commands[r->cmd], argc, argv, line, strlen(line));
	if (rc < 0 || rc > 3 || mem_remove(WORK) != 0)
		abort();
	return 0;
}
