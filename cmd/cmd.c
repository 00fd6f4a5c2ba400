/*
 * cmd.c - the driver every ar command runs: options, store, input,
 * batches, output.
 *
 * Input lines are read in batches: a batch ends when no further line is
 * waiting, or at BATCH_MAX lines, so an interactive user gets an answer
 * per line while a pipe full of requests shares one commit (and one
 * fsync, 1-10 ms here) per batch.  The output of a write batch is made
 * inside its transaction, so that nothing which can fail (memory) is
 * left for after the commit, and printed only after the commit.
 */
#define _GNU_SOURCE             /* setresgid, getresgid */
#include <sys/statvfs.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "array.h"
#include "cmd.h"
#include "child.h"

#define BATCH_MAX 4096  /* about 20 ms of work: the fsync is the lesser part */
#define DEFAULT_STORE "/var/lib/ar"

enum {
	OPT_NOW = 256, OPT_WAIT, OPT_CREATE, OPT_NODES, OPT_SLOT, OPT_HORIZON,
	OPT_MAX_SIZE, OPT_GROUP, OPT_UPGRADE, OPT_HOSTS, OPT_SIMULATED,
	OPT_OWNERS, OPT_HOSTS_FROM
};

static const struct option common_opts[] = {
	{ "store", required_argument, NULL, 's' },
	{ "json", no_argument, NULL, 'j' },
	{ "now", required_argument, NULL, OPT_NOW },
	{ "wait", required_argument, NULL, OPT_WAIT },
	{ "create", no_argument, NULL, OPT_CREATE },
	{ "nodes", required_argument, NULL, OPT_NODES },
	{ "slot", required_argument, NULL, OPT_SLOT },
	{ "horizon", required_argument, NULL, OPT_HORIZON },
	{ "max-size", required_argument, NULL, OPT_MAX_SIZE },
	{ "group", required_argument, NULL, OPT_GROUP },
	{ "hosts", required_argument, NULL, OPT_HOSTS },
	{ "hosts-from", required_argument, NULL, OPT_HOSTS_FROM },
	{ "upgrade", no_argument, NULL, OPT_UPGRADE },
	{ "simulated", no_argument, NULL, OPT_SIMULATED },
	{ "owners", required_argument, NULL, OPT_OWNERS },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
};
#define NCOMMON (sizeof(common_opts) / sizeof(common_opts[0]))

/* Buffered line input from a descriptor, binary safe. */
struct reader {
	int fd;
	char *buf;
	size_t off, len, cap;
	int eof;
	int unterminated;       /* the last line came without its newline */
	long line;
};

static void
usage(const struct cmd *c, FILE *f)
{
	int pad = (int)strlen(c->name);

	fprintf(f, "usage: %s [-jV] [-s store] [--now time] [--wait duration] "
	    "[--upgrade]\n"
	    "       %*s [--create [--nodes n | --hosts list | --hosts-from "
	    "file]\n"
	    "       %*s   [--slot duration] [--horizon duration] "
	    "[--max-size mib]\n"
	    "       %*s   [--group group] [--owners uid | role]] "
	    "[--simulated]\n"
	    "       %*s %s\n", c->name, pad, "", pad, "", pad, "", pad, "",
	    c->usage);
}

void
cmd_warn(struct ctx *x, long line, const char *fmt, ...)
{
	char msg[AR_ERRMAX + 128];
	size_t n;
	va_list ap;

	if (line > 0)
		n = (size_t)snprintf(msg, sizeof(msg), "%s: line %ld: ",
		    x->cmd->name, line);
	else
		n = (size_t)snprintf(msg, sizeof(msg), "%s: arguments: ",
		    x->cmd->name);
	va_start(ap, fmt);
	vsnprintf(msg + n, sizeof(msg) - n, fmt, ap);
	va_end(ap);
	n = strlen(msg);
	/* Inside a write batch, messages wait for its commit as output does. */
	if (x->hold) {
		if (array_room(&x->err, &x->errcap, x->errlen + n + 1, 1) != 0) {
			x->nomem = 1;
			return;
		}
		memcpy(x->err + x->errlen, msg, n);
		x->err[x->errlen + n] = '\n';
		x->errlen += n + 1;
		return;
	}
	fprintf(stderr, "%s\n", msg);
}

/*
 * The next line, without its newline, in *line and *len; 1 if there is
 * one, 0 at the end, -1 on a read error.  A line longer than AR_LINE_MAX
 * comes back with *len = AR_LINE_MAX + 1 and its rest skipped.
 */
static int
reader_next(struct reader *r, char **line, size_t *len)
{
	int toolong = 0;
	char *nl;
	ssize_t n;

	for (;;) {
		nl = memchr(r->buf + r->off, '\n', r->len - r->off);
		if (nl != NULL || (r->eof && r->off < r->len)) {
			size_t end = nl ? (size_t)(nl - r->buf) : r->len;

			r->line++;
			*line = r->buf + r->off;
			*len = toolong ? AR_LINE_MAX + 1 : end - r->off;
			r->off = nl ? end + 1 : end;
			r->unterminated = nl == NULL;
			return 1;
		}
		if (r->eof)
			return 0;
		if (r->len - r->off > AR_LINE_MAX) {
			toolong = 1;    /* keep only the tail while skipping */
			r->off = r->len;
		}
		if (r->off > 0) {
			memmove(r->buf, r->buf + r->off, r->len - r->off);
			r->len -= r->off;
			r->off = 0;
		}
		if (array_room(&r->buf, &r->cap, r->len + 4096, 1) != 0)
			return -1;
		n = read(r->fd, r->buf + r->len, r->cap - r->len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			r->eof = 1;
		r->len += (size_t)n;
	}
}

/* Is another line there without waiting? */
static int
reader_ready(struct reader *r)
{
	struct pollfd p = { r->fd, POLLIN, 0 };

	if (r->eof || memchr(r->buf + r->off, '\n', r->len - r->off) != NULL)
		return 1;
	return poll(&p, 1, 0) == 1;
}

/* Wait until input is there (or its end). */
static void
reader_wait(struct reader *r)
{
	struct pollfd p = { r->fd, POLLIN, 0 };

	while (poll(&p, 1, -1) == -1 && errno == EINTR)
		;
}

/* Make one record of the key=value arguments, quoting each value. */
static int
args_line(struct ctx *x, int argc, char **argv, char **line, size_t *len)
{
	char *buf = NULL;
	size_t cap = 0, n = 0;

	for (int i = 0; i < argc; i++) {
		const char *eq = strchr(argv[i], '='), *p;
		size_t need = strlen(argv[i]) * 2 + 4;

		/* Nor a comment, which would hide the arguments after it. */
		if (eq == NULL || argv[i][strspn(argv[i], " \t")] == '#') {
			cmd_warn(x, 0, "expected key=value, got '%.40s'", argv[i]);
			free(buf);
			return -1;
		}
		if (array_room(&buf, &cap, n + need, 1) != 0) {
			free(buf);
			return -2;
		}
		if (n > 0)
			buf[n++] = ' ';
		memcpy(buf + n, argv[i], (size_t)(eq - argv[i]) + 1);
		n += (size_t)(eq - argv[i]) + 1;
		buf[n++] = '"';
		for (p = eq + 1; *p != '\0'; p++) {
			if (*p == '"' || *p == '\\')
				buf[n++] = '\\';
			buf[n++] = *p;
		}
		buf[n++] = '"';
	}
	*line = buf;
	*len = n;
	return 0;
}

int
cmd_print(struct ctx *x, const struct ar_record *r)
{
	return ar_record_print(r, x->json, &x->out, &x->outlen, &x->outcap);
}

int
cmd_write(struct ctx *x, const char *text, size_t n)
{
	if (array_room(&x->out, &x->outcap, x->outlen + n, 1) != 0)
		return -1;
	memcpy(x->out + x->outlen, text, n);
	x->outlen += n;
	return 0;
}

int
cmd_flush(struct ctx *x)
{
	if (x->errlen > 0) {
		fwrite(x->err, 1, x->errlen, stderr);
		x->errlen = 0;
	}
	if (x->outlen > 0 && fwrite(x->out, 1, x->outlen, stdout) != x->outlen)
		return -1;
	x->outlen = 0;
	return fflush(stdout) == 0 ? 0 : -1;
}

/* Is the file system holding dir full (LMDB may say EIO for it)? */
static int
disk_full(const char *dir)
{
	struct statvfs sv;

	return statvfs(dir, &sv) == 0 &&
	    (uint64_t)sv.f_bavail * sv.f_bsize < 65536;
}

int
cmd_store_error(struct ctx *x, int rc)
{
	char path[4096], shown[sizeof(x->shown)];
	long pid;

	/* Which file it was, for the one who must change its mode. */
	if ((rc == EACCES || rc == EPERM) && ar_denied(x->dir, x->write ? 0 :
	    AR_RDONLY, path, sizeof(path)) == 0) {
		ar_where_masked(path, shown, sizeof(shown));
		fprintf(stderr, "%s: %s: %s\n", x->cmd->name, shown,
		    ar_strerror(rc));
	} else if (rc == AR_ETIMEDOUT && x->store != NULL &&
	    (pid = ar_lock_holder(x->store)) > 0)
		fprintf(stderr, "%s: %s: %s (pid %ld)\n", x->cmd->name,
		    x->shown, ar_strerror(rc), pid);
	else if ((rc == EIO || rc == ENOSPC) && disk_full(x->dir))
		fprintf(stderr, "%s: %s: no space left on the disk\n",
		    x->cmd->name, x->shown);
	else
		fprintf(stderr, "%s: %s: %s\n", x->cmd->name, x->shown,
		    ar_strerror(rc));
	/* A store named wrong is bad usage, as a bad option is. */
	return rc == AR_EWHERE ? EXIT_USAGE : EXIT_STORE;
}

struct batch {
	struct ctx *x;
	struct item *items;
	size_t n;
	int status;             /* the exit status of its lines */
};

/*
 * Apply every good line, then make the output: in a write transaction
 * this all happens before the commit.  A batch that changed nothing is
 * not committed, so the store is not written at all.
 */
static int
batch_run(ar_txn *t, void *arg)
{
	struct batch *b = arg;
	struct ctx *x = b->x;
	char err[AR_ERRMAX];
	uint32_t *to;
	int rc, st, wrote = 0, usage = 0;

	x->outlen = x->errlen = 0;      /* a retry after growing starts over */
	x->nomem = 0;
	b->status = 0;
	/* The lines were prepared with the host names read before this
	 * transaction: hosts added since renumber what they named. */
	if ((rc = cmd_hosts_read(x, t, &to)) != 0)
		return rc;
	for (size_t i = 0; to != NULL && i < b->n; i++)
		for (uint32_t h = 0; !b->items[i].bad &&
		    h < b->items[i].rq.nhosts; h++)
			b->items[i].hosts[h] = to[b->items[i].hosts[h]];
	free(to);
	/* Partitions and features that the layout read with the lines did
	 * not have: as this transaction has them (a retry asks again). */
	for (size_t i = 0; i < b->n; i++) {
		struct item *it = &b->items[i];

		if (!it->unresolved)
			continue;
		it->bad = cmd_pool_resolve(x, it, err) != 0;
		if (it->bad)
			cmd_warn(x, it->line, "%s", err);
		usage |= it->bad;
	}
	for (size_t i = 0; i < b->n; i++) {
		struct item *it = &b->items[i];

		if (it->bad)
			continue;
		it->wrote = 0;
		if ((rc = x->cmd->apply(x, t, it)) != 0)
			return rc;
		wrote |= it->wrote;
	}
	for (size_t i = 0; i < b->n; i++) {
		if (b->items[i].bad)
			continue;
		if ((st = x->cmd->emit(x, &b->items[i])) < 0 || x->nomem)
			return ENOMEM;
		if (st > b->status)
			b->status = st;
	}
	if (usage && b->status < EXIT_USAGE)
		b->status = EXIT_USAGE;
	return x->write && !wrote ? AR_UNCHANGED : 0;
}

/* Is rc a lack of room: in the store, on its disk, or in memory? */
static int
no_room(int rc)
{
	return rc == AR_EFULL || rc == ENOSPC || rc == EIO || rc == EDQUOT ||
	    rc == ENOMEM;
}

/*
 * Run a batch in one transaction, then print it; an exit status.  A
 * write batch that finds no room is run again in halves, so that what
 * fits is committed and printed, up to the line that does not.
 */
static int
run_batch(struct ctx *x, struct batch *b)
{
	int rc, status;
	size_t good = 0;
	ar_txn *t;

	for (size_t i = 0; i < b->n; i++)
		good += !b->items[i].bad;
	if (good == 0)
		return 0;       /* no transaction: nothing is written */
	if (x->write) {
		x->hold = 1;
		rc = ar_write(x->store, x->write & AR_FREEING, x->now,
		    batch_run, b);
		x->hold = 0;
	} else if ((rc = ar_txn_begin(x->store, 0, x->now, &t)) == 0) {
		rc = batch_run(t, b);
		ar_txn_abort(t);
	}
	if (rc != 0 && x->write && no_room(rc) && b->n > 1) {
		struct batch lo = { b->x, b->items, b->n / 2, 0 };
		struct batch hi = { b->x, b->items + lo.n, b->n - lo.n, 0 };

		x->outlen = x->errlen = 0;
		if ((status = run_batch(x, &lo)) == EXIT_STORE)
			return status;
		if ((rc = run_batch(x, &hi)) > status)
			status = rc;
		return status;
	}
	if (rc == ENOMEM) {
		x->outlen = x->errlen = 0;
		fprintf(stderr, "%s: out of memory\n", x->cmd->name);
		return EXIT_STORE;
	}
	if (rc != 0) {
		x->outlen = x->errlen = 0;
		return cmd_store_error(x, rc);
	}
	if (cmd_flush(x) != 0) {
		fprintf(stderr, "%s: write error: %s\n", x->cmd->name,
		    strerror(errno));
		return EXIT_STORE;
	}
	return b->status;
}

/* Parse one line into it and prepare it; 0, or EXIT_USAGE. */
static int
take_line(struct ctx *x, struct item *it, const char *line, size_t len,
    long lineno, int flags,
    int (*prepare)(struct ctx *, struct item *, char *))
{
	const char *const *names;
	char err[AR_ERRMAX];
	size_t nnames;
	int rc;

	it->line = lineno;
	it->bad = 1;
	it->nalts = 0;
	if (array_room(&it->alts, &it->altcap, x->answers,
	    sizeof(*it->alts)) != 0) {
		cmd_warn(x, lineno, "out of memory");
		return EXIT_STORE;
	}
	if (len > AR_LINE_MAX) {
		cmd_warn(x, lineno, "line longer than %d bytes", AR_LINE_MAX);
		return EXIT_USAGE;
	}
	if ((rc = ar_record_parse(&it->rec, line, len, flags, err)) != 0) {
		cmd_warn(x, lineno, "%s", rc == -2 ? "out of memory" : err);
		return EXIT_USAGE;
	}
	/* A typo of a field would pass as a label, and book the wrong
	 * thing: node=32 one node. */
	names = cmd_field_names(&nnames);
	for (size_t i = 0; i < it->rec.nfields; i++)
		if (ar_field_check(it->rec.fields[i].key, names, nnames,
		    err) != 0) {
			cmd_warn(x, lineno, "%s", err);
			return EXIT_USAGE;
		}
	ar_record_numbers(&it->rec, cmd_numeric_fields());
	if (prepare(x, it, err) != 0) {
		cmd_warn(x, lineno, "%s", err);
		return EXIT_USAGE;
	}
	it->bad = 0;
	return 0;
}

static int64_t
wall_clock(void)
{
	return (int64_t)time(NULL);
}

/*
 * Relative times in records ("now", "+1h") count from the store's clock,
 * which never runs back: --now, if given, or else a live store's, the
 * system clock as the library reads it (on PostgreSQL the server's, which
 * ours may not match), or a simulated store's, the later of ours and
 * the one it kept.  Whether the store is live is learnt here.
 */
static int
store_clock(struct ctx *x)
{
	struct ar_info i;
	ar_txn *t;
	int rc;

	if ((rc = ar_txn_begin(x->store, 0, x->fixed_now ? x->now : 0,
	    &t)) != 0)
		return rc;
	if ((rc = ar_info(t, &i)) != 0) {
		ar_txn_abort(t);
		return rc;
	}
	x->live = !(i.config.flags & AR_SIMULATED);
	x->now = ar_txn_now(t);
	if (!x->fixed_now && !x->live && wall_clock() > x->now)
		x->now = wall_clock();
	rc = cmd_hosts_read(x, t, NULL);
	ar_txn_abort(t);
	return rc;
}

int
cmd_hosts_read(struct ctx *x, ar_txn *t, uint32_t **to)
{
	struct ar_hostlist now;
	struct ar_info info;
	char err[AR_ERRMAX];
	const char *names;
	char *copy;
	int rc;

	if (to != NULL)
		*to = NULL;
	if ((rc = ar_hosts(t, &names)) != 0)
		return rc;
	if (x->host_names != NULL && strcmp(x->host_names, names) == 0)
		return cmd_layout_read(x, t);
	if ((rc = ar_info(t, &info)) != 0)
		return rc;
	/* Hosts were added (ar-report --add-hosts): every old name is
	 * among the new ones, which stay sorted. */
	if ((copy = strdup(names)) == NULL)
		return ENOMEM;
	ar_hostlist_init(&now);
	if (to != NULL && x->host_names != NULL) {
		const struct ar_hostlist *was = cmd_hosts(x);

		if (was == NULL || ar_hostlist_parse_max(copy,
		    info.config.nodes, &now, err) != 0 ||
		    (*to = malloc((was->count + 1) * sizeof(**to))) == NULL ||
		    ar_hostlist_find_all(&now, was, *to, err) != 0) {
			ar_hostlist_free(&now);
			free(copy);
			free(*to);
			*to = NULL;
			return ENOMEM;
		}
	}
	ar_hostlist_free(&now);
	free(x->host_names);
	x->host_names = copy;
	x->host_count = info.config.nodes;
	if (x->hosts_parsed) {
		ar_hostlist_free(&x->hosts);
		ar_hostlist_init(&x->hosts);
		x->hosts_parsed = 0;
	}
	cmd_layout_free(x);
	return cmd_layout_read(x, t);
}

const struct ar_hostlist *
cmd_hosts(struct ctx *x)
{
	char err[AR_ERRMAX];
	int rc;

	if (x->hosts_parsed)
		return x->hosts_parsed > 0 ? &x->hosts : NULL;
	/* A sound list names the store's nodes, and no more: a damaged one
	 * of a million names is refused at once, and once. */
	if ((rc = ar_hostlist_parse_max(x->host_names, x->host_count,
	    &x->hosts, err)) != 0) {
		fprintf(stderr, "%s: %s: the store's host list: %s\n",
		    x->cmd->name, x->shown, rc == -2 ? "out of memory" : err);
		x->hosts_parsed = -1;
		return NULL;
	}
	x->hosts_parsed = 1;
	return &x->hosts;
}

/* Room in the batch for one item more: the items added are empty, and
 * so is what the command keeps of each.  *cap counts only whole items. */
static int
grow_items(struct batch *b, size_t *cap)
{
	size_t had = *cap, room = *cap, size = b->x->cmd->line_size;

	if (array_room(&b->items, &room, b->n + 1, sizeof(*b->items)) != 0)
		return -1;
	memset(b->items + had, 0, (room - had) * sizeof(*b->items));
	for (; *cap < room; ++*cap) {
		ar_record_init(&b->items[*cap].rec);
		if (size > 0 && (b->items[*cap].own = calloc(1, size)) == NULL)
			return -1;
	}
	return 0;
}

/* The arguments as one record, the first item of b; a status. */
static int
read_args(struct ctx *x, int argc, char **argv, struct batch *b,
    int (*prepare)(struct ctx *, struct item *, char *))
{
	char *line;
	size_t len;
	int st;

	if ((st = args_line(x, argc, argv, &line, &len)) != 0)
		return st == -1 ? EXIT_USAGE : EXIT_STORE;
	/* Arguments are key=value, whatever --json says. */
	st = take_line(x, &b->items[0], line, len, 0, 0, prepare);
	free(line);
	b->n = 1;
	return st;
}

/*
 * Read lines into b from b->n on, each through take_line with prepare,
 * skipping blank lines and comments: to the end of the input, or with
 * batch set, up to BATCH_MAX lines and while further lines are waiting.
 * The worst status of the lines, or -1 after a message if the input
 * could not be read.
 */
static int
read_lines(struct ctx *x, struct reader *r, struct batch *b, size_t *cap,
    int (*prepare)(struct ctx *, struct item *, char *), int batch)
{
	int status = 0, st, more;
	char *line;
	size_t len;

	while ((more = reader_next(r, &line, &len)) == 1) {
		/* Blank lines and comments hold no request; a line cut
		 * short might have, and is refused below. */
		if (!r->unterminated && len <= AR_LINE_MAX &&
		    ar_record_skip(line, len)) {
			if (batch && b->n > 0 && !reader_ready(r))
				break;
			continue;
		}
		if (b->n == *cap && grow_items(b, cap) != 0) {
			more = -1;
			errno = ENOMEM;
			break;
		}
		if (r->unterminated && len <= AR_LINE_MAX) {
			/* Its producer may have died mid-line. */
			b->items[b->n].bad = 1;
			cmd_warn(x, r->line, "no newline at the end: the "
			    "line may be cut short");
			st = EXIT_USAGE;
		} else
			st = take_line(x, &b->items[b->n], line, len, r->line,
			    x->json, prepare);
		if (st > status)
			status = st;
		b->n++;
		if (batch && (b->n == BATCH_MAX || !reader_ready(r)))
			break;
	}
	if (more == -1) {
		fprintf(stderr, "%s: read error: %s\n", x->cmd->name,
		    strerror(errno));
		return -1;
	}
	return status;
}

/* Room to read into: the reader's buffer and the first items. */
static int
input_begin(struct ctx *x, struct reader *r, struct batch *b, size_t *cap)
{
	/* Items are made as lines come: a single request touches little
	 * memory, which is most of what starting a command costs. */
	if ((r->buf = malloc(r->cap)) == NULL || grow_items(b, cap) != 0) {
		fprintf(stderr, "%s: out of memory\n", x->cmd->name);
		return -1;
	}
	return 0;
}

static void
input_end(struct reader *r, struct batch *b, size_t cap)
{
	for (size_t i = 0; i < cap; i++) {
		ar_record_free(&b->items[i].rec);
		free(b->items[i].hosts);
		free(b->items[i].levels);
		free(b->items[i].alts);
		if (b->items[i].own != NULL && b->x->cmd->line_free != NULL)
			b->x->cmd->line_free(b->items[i].own);
		free(b->items[i].own);
	}
	free(b->items);
	free(r->buf);
}

/* The records from stdin (or the arguments), batch by batch. */
static int
run_records(struct ctx *x, int argc, char **argv)
{
	struct reader r = { 0, NULL, 0, 0, 65536, 0, 0, 0 };
	struct batch b = { x, NULL, 0, 0 };
	size_t cap = 0;
	int status = 0, st;

	if (input_begin(x, &r, &b, &cap) != 0) {
		input_end(&r, &b, cap);
		return EXIT_STORE;
	}
	if (argc > 0) {
		status = read_args(x, argc, argv, &b, x->cmd->prepare);
		if (status == 0)
			status = run_batch(x, &b);
		goto out;
	}
	for (;;) {
		/* Waiting for input holds no reader slot of the store, and
		 * relative times count from when the input came. */
		if (!reader_ready(&r)) {
			ar_idle(x->store);
			reader_wait(&r);
		}
		if ((st = store_clock(x)) != 0) {
			status = cmd_store_error(x, st);
			break;
		}
		b.n = 0;
		st = read_lines(x, &r, &b, &cap, x->cmd->prepare, 1);
		if (st < 0) {
			status = EXIT_STORE;
			break;
		}
		if (st > status)
			status = st;
		if (b.n == 0)
			break;
		if ((st = run_batch(x, &b)) > status)
			status = st;
		if (st == EXIT_STORE)
			break;
	}
out:
	input_end(&r, &b, cap);
	return status;
}

int
cmd_read_all(struct ctx *x, int argc, char **argv,
    int (*prepare)(struct ctx *, struct item *, char *),
    int (*all)(struct ctx *, struct item *, size_t))
{
	struct reader r = { 0, NULL, 0, 0, 65536, 0, 0, 0 };
	struct batch b = { x, NULL, 0, 0 };
	size_t cap = 0;
	int status = EXIT_STORE;

	if (input_begin(x, &r, &b, &cap) == 0) {
		status = argc > 0 ? read_args(x, argc, argv, &b, prepare) :
		    read_lines(x, &r, &b, &cap, prepare, 0);
		if (status < 0)
			status = EXIT_STORE;
		else if (status == 0)
			status = all(x, b.items, b.n);
	}
	input_end(&r, &b, cap);
	return status;
}

int
cmd_duration_opt(struct ctx *x, const char *what, const char *arg, int64_t *d)
{
	char err[AR_ERRMAX];

	if (ar_duration_parse(arg, d, err) == 0)
		return 0;
	fprintf(stderr, "%s: %s: %s\n", x->cmd->name, what, err);
	return -1;
}

int
cmd_range(struct ctx *x, ar_store *s, const char *from, const char *to,
    int64_t *lo, int64_t *hi)
{
	struct ar_info i;
	char err[AR_ERRMAX];
	ar_txn *t;
	int rc;

	if ((rc = ar_txn_begin(s, 0, x->now, &t)) != 0)
		return cmd_store_error(x, rc);
	rc = ar_info(t, &i);
	ar_txn_abort(t);
	if (rc != 0)
		return cmd_store_error(x, rc);
	*lo = i.clock;
	*hi = i.clock + i.config.horizon;
	if (from != NULL && ar_time_parse(from, x->now, lo, err) != 0) {
		fprintf(stderr, "%s: option '--from': %s\n", x->cmd->name, err);
		return EXIT_USAGE;
	}
	if (to != NULL && ar_time_parse(to, x->now, hi, err) != 0) {
		fprintf(stderr, "%s: option '--to': %s\n", x->cmd->name, err);
		return EXIT_USAGE;
	}
	if (*hi <= *lo) {
		fprintf(stderr, "%s: option '--to': not after '--from'\n",
		    x->cmd->name);
		return EXIT_USAGE;
	}
	return 0;
}

/* Merge the common options with the command's own for getopt_long. */
static int
options(const struct cmd *c, struct option **lo, char **so)
{
	size_t n = 0, i;

	while (c->longopts != NULL && c->longopts[n].name != NULL)
		n++;
	if ((*lo = calloc(NCOMMON + n + 1, sizeof(**lo))) == NULL ||
	    (*so = malloc(strlen(c->shortopts) + 8)) == NULL) {
		free(*lo);
		return -1;
	}
	memcpy(*lo, common_opts, sizeof(common_opts));
	for (i = 0; i < n; i++)
		(*lo)[NCOMMON + i] = c->longopts[i];
	strcpy(*so, "s:jhV");
	strcat(*so, c->shortopts);
	return 0;
}

/*
 * A closed standard descriptor would be handed to the store's files when
 * they are opened, and input or output would land in them: put /dev/null
 * there, opened the wrong way round so that using it fails with EBADF.
 */
static void
guard_std_fds(void)
{
	for (int fd = 0; fd <= 2; fd++)
		if (fcntl(fd, F_GETFD) == -1 && errno == EBADF &&
		    open("/dev/null", fd == 0 ? O_WRONLY : O_RDONLY) != fd)
			_exit(EXIT_STORE);
}

/* --group: a group's name or number. */
static int
group_parse(const char *name, long *gid)
{
	char *end;
	long n;

	n = strtol(name, &end, 10);
	if (*name != '\0' && *end == '\0' && n >= 0 && n <= 0x7fffffffL) {
		*gid = n;
		return 0;
	}
	/* Through the name service: a group of LDAP or SSSD too. */
	return nss_id("group", name, gid) == 0 ? 0 : -1;
}

static int
set_max_size(ar_txn *t, void *arg)
{
	const uint64_t *max = arg;
	struct ar_info i;
	int rc;

	if ((rc = ar_info(t, &i)) != 0)
		return rc;
	return i.config.map_max == *max ? AR_UNCHANGED :
	    ar_set_max_size(t, *max);
}

const char *
cmd_clock_mode(unsigned flags)
{
	return (flags & AR_SIMULATED) ? "simulated" : "live";
}

const char *
cmd_owners(unsigned flags)
{
	return (flags & AR_ROLE_OWNERS) ? "role" : "uid";
}

/* Say which of the store's settings differ from those asked. */
static void
config_differs(struct ctx *x, const struct ar_config *cfg)
{
	struct ar_info i;
	ar_txn *t;
	const char *names;
	char have[AR_ERRMAX], want[AR_ERRMAX];

	if (ar_open(x->dir, AR_RDONLY, &x->store) != 0 ||
	    ar_txn_begin(x->store, 0, 0, &t) != 0) {
		cmd_store_error(x, AR_EEXIST);
		return;
	}
	ar_info(t, &i);
	fprintf(stderr, "%s: %s: %s:", x->cmd->name, x->shown,
	    ar_strerror(AR_EEXIST));
	if (cfg->hosts != NULL && ar_hosts(t, &names) == 0 &&
	    i.config.nodes == cfg->nodes)
		fprintf(stderr, " hosts %.200s there, not %.200s", names,
		    cfg->hosts);
	if (cfg->layout != NULL && i.config.nodes == cfg->nodes)
		fprintf(stderr, " another host description there (ar-report "
		    "--info tells it)");
	ar_txn_abort(t);
	if (i.config.nodes != cfg->nodes)
		fprintf(stderr, " nodes %lu there, not %lu",
		    (unsigned long)i.config.nodes, (unsigned long)cfg->nodes);
	if (i.config.slot != cfg->slot)
		fprintf(stderr, " slot %s there, not %s",
		    ar_duration_format(i.config.slot, have),
		    ar_duration_format(cfg->slot, want));
	if (i.config.horizon != cfg->horizon)
		fprintf(stderr, " horizon %s there, not %s",
		    ar_duration_format(i.config.horizon, have),
		    ar_duration_format(cfg->horizon, want));
	if ((i.config.flags ^ cfg->flags) & AR_SIMULATED)
		fprintf(stderr, " clock %s there, not %s",
		    cmd_clock_mode(i.config.flags), cmd_clock_mode(cfg->flags));
	if ((i.config.flags ^ cfg->flags) & AR_ROLE_OWNERS)
		fprintf(stderr, " owners %s there, not %s",
		    cmd_owners(i.config.flags), cmd_owners(cfg->flags));
	fputc('\n', stderr);
	ar_close(x->store);
	x->store = NULL;
}

/*
 * --create: make the store, or find it there with the same settings.
 * An explicit --max-size is applied to a store that was there, in a
 * write transaction of its own.  An exit status.
 */
static int
create_store(struct ctx *x, const struct ar_config *cfg)
{
	/* A live store's clock is the library's to read (0). */
	int64_t now = (cfg->flags & AR_SIMULATED) ? x->now : 0;
	int rc;

	if ((rc = ar_create(x->dir, cfg, now)) == EINVAL) {
		fprintf(stderr, "%s: invalid store configuration: the slot must "
		    "be 1s..1d and divide the horizon, at most 10000000 "
		    "slots\n", x->cmd->name);
		return EXIT_USAGE;
	}
	if (rc == AR_EEXIST) {
		config_differs(x, cfg);
		return EXIT_STORE;
	}
	if (rc != 0)
		return cmd_store_error(x, rc);
	if (cfg->map_max == 0)
		return 0;
	if ((rc = ar_open(x->dir, 0, &x->store)) == 0) {
		ar_set_wait(x->store, x->wait_ms);
		rc = ar_write(x->store, 0, now, set_max_size,
		    (void *)&cfg->map_max);
	}
	if (rc == EINVAL)
		fprintf(stderr, "%s: option '--max-size': below the store's "
		    "size now\n", x->cmd->name);
	else if (rc != 0)
		cmd_store_error(x, rc);
	ar_close(x->store);
	x->store = NULL;
	return rc == EINVAL ? EXIT_USAGE : rc != 0 ? EXIT_STORE : 0;
}

/* --hosts: the nodes' names; their number is the nodes'. */
static int
hosts_option(const struct cmd *c, const char *arg, struct ar_config *cfg,
    uint64_t *count)
{
	struct ar_hostlist h;
	char err[AR_ERRMAX];
	int rc;

	ar_hostlist_init(&h);
	if ((rc = ar_hostlist_parse(arg, &h, err)) != 0)
		fprintf(stderr, "%s: option '--hosts': %s\n", c->name,
		    rc == -2 ? "out of memory" : err);
	else {
		cfg->hosts = arg;
		*count = h.count;
	}
	ar_hostlist_free(&h);
	return rc;
}

/* --now or AR_NOW for a writer of a live store: refused. */
static int
live_refusal(const struct cmd *c, int now_opt)
{
	fprintf(stderr, "%s: %s: the store is live: its writers follow the "
	    "system clock (--now is for readers, and for stores created with "
	    "--simulated)\n", c->name, now_opt ? "option '--now'" : "AR_NOW");
	return EXIT_USAGE;
}

/*
 * Installed setgid to a group that owns the shared stores and has no
 * user in it (README, "A shared store"), a command is the users' only
 * way into those stores, so it lends the group's rights to nothing else:
 * it serves only the stores the administrator's list names
 * (AR_STORES_FILE, fixed when it was built), opens their files with
 * those rights, then gives them up for good before it opens anything
 * else (its input, charts, dumps, a store it makes, a server it
 * connects to), and takes no clock from the environment.  The same
 * holds when it is installed setuid to an account.
 */
#ifndef AR_STORES_FILE
#error "AR_STORES_FILE must name the list of the stores setgid commands serve"
#endif

static int
elevated(void)
{
	return getegid() != getgid() || geteuid() != getuid();
}

/*
 * Is where, an absolute directory or a URI, a whole line of the list?
 * Nothing is resolved: a path the caller controls could lead elsewhere
 * between this check and the open.  (So a blank line or a # comment
 * names no store.)
 */
static int
store_listed(const char *where)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	FILE *f;
	int found = 0;

	if ((*where != '/' &&
	    strcmp(ar_backend_name(where), "postgresql") != 0) ||
	    (f = fopen(AR_STORES_FILE, "re")) == NULL)
		return 0;
	while (!found && (n = getline(&line, &cap, f)) > 0) {
		if (line[n - 1] == '\n')
			line[n - 1] = '\0';
		found = strcmp(line, where) == 0;
	}
	free(line);
	fclose(f);
	return found;
}

/*
 * Give up the group (and account) the command was installed with, for
 * good: the saved ids too, so nothing can take them back.  The store's
 * descriptors stay open, so the process also stays out of reach of the
 * caller's debugger and of /proc/PID/fd (not dumpable).  -1 after a
 * message.
 */
static int
drop_rights(const struct cmd *c)
{
	gid_t g = getgid(), rg, eg, sg;
	uid_t u = getuid(), ru, eu, su;

	errno = EPERM;          /* if the calls succeed but an id stays */
	if (setresgid(g, g, g) != 0 || setresuid(u, u, u) != 0 ||
	    getresgid(&rg, &eg, &sg) != 0 || getresuid(&ru, &eu, &su) != 0 ||
#ifdef __linux__
	    prctl(PR_SET_DUMPABLE, 0) != 0 ||
#endif
	    rg != g || eg != g || sg != g || ru != u || eu != u || su != u) {
		fprintf(stderr, "%s: cannot give up the rights it was "
		    "installed with: %s\n", c->name, strerror(errno));
		return -1;
	}
	return 0;
}

/* What the command line asks beside the context: the store, its clock,
 * and what --create, --upgrade and --group would make of it. */
struct invocation {
	struct ar_config cfg;
	const char *dir, *now, *wait;
	uint64_t host_count;
	const char *hosts_from; /* --hosts-from: a file, or - */
	char *layout;           /* ... what it holds */
	int create, config, upgrade, simulated, group;
	int now_opt, wait_opt, nodes_opt;       /* given as options */
};

/* An option of --create, a store's configuration, else the command's
 * own: 0, or -1 for a usage error (said). */
static int
config_option(const struct cmd *c, struct ctx *x, struct invocation *v,
    int opt, char *arg)
{
	char err[AR_ERRMAX];
	uint64_t n;
	int64_t d;

	switch (opt) {
	case OPT_OWNERS:
		if (strcmp(arg, "role") == 0)
			v->cfg.flags |= AR_ROLE_OWNERS;
		else if (strcmp(arg, "uid") != 0) {
			fprintf(stderr, "%s: option '--owners': uid or "
			    "role, not '%.64s'\n", c->name, arg);
			return -1;
		}
		v->config = 1;
		break;
	case OPT_NODES:
		if (ar_uint_parse(arg, 1, 1000000, &n, err) != 0) {
			fprintf(stderr, "%s: option '--nodes': %s\n",
			    c->name, err);
			return -1;
		}
		v->cfg.nodes = (uint32_t)n;
		v->nodes_opt = v->config = 1;
		break;
	case OPT_HOSTS:
		if (hosts_option(c, arg, &v->cfg, &v->host_count) != 0)
			return -1;
		v->config = 1;
		break;
	case OPT_HOSTS_FROM:
		v->hosts_from = arg;
		v->config = 1;
		break;
	case OPT_MAX_SIZE:
		/* In MiB: the largest the store's map may grow to. */
		if (ar_uint_parse(arg, 1, 1 << 24, &n, err) != 0) {
			fprintf(stderr, "%s: option '--max-size': %s\n",
			    c->name, err);
			return -1;
		}
		v->cfg.map_max = n << 20;
		v->config = 1;
		break;
	case OPT_SLOT:
	case OPT_HORIZON:
		if (cmd_duration_opt(x, opt == OPT_SLOT ?
		    "option '--slot'" : "option '--horizon'", arg, &d) != 0)
			return -1;
		*(opt == OPT_SLOT ? &v->cfg.slot : &v->cfg.horizon) = d;
		v->config = 1;
		break;
	default:
		if (c->option == NULL || c->option(x, opt, arg) != 0)
			return -1;
	}
	return 0;
}

/* One option every command takes, else config_option's: 0, or -1 for
 * a usage error (said). */
static int
common_option(const struct cmd *c, struct ctx *x, struct invocation *v,
    int opt, char *arg)
{
	switch (opt) {
	case 's':
		if (*arg == '\0') {
			fprintf(stderr, "%s: option '--store': empty\n",
			    c->name);
			return -1;
		}
		v->dir = arg;
		break;
	case OPT_GROUP:
		if (group_parse(arg, &v->cfg.group) != 0) {
			fprintf(stderr, "%s: option '--group': no group "
			    "'%.64s'\n", c->name, arg);
			return -1;
		}
		v->group = 1;
		break;
	case 'j':
		x->json = AR_REC_JSON;
		break;
	case OPT_NOW:
		v->now = arg;
		v->now_opt = 1;
		break;
	case OPT_WAIT:
		v->wait = arg;
		v->wait_opt = 1;
		break;
	case OPT_CREATE:
		v->create = 1;
		break;
	case OPT_UPGRADE:
		v->upgrade = 1;
		break;
	case OPT_SIMULATED:
		v->simulated = 1;
		break;
	default:
		return config_option(c, x, v, opt, arg);
	}
	return 0;
}

/* Read the options into x and v: -1 to go on with the operands left in
 * *argc and *argv, else the exit status (--help and --version are done,
 * a usage error is said). */
static int
parse_options(const struct cmd *c, struct ctx *x, struct invocation *v,
    int *argc, char ***argv)
{
	struct option *lo;
	char *so;
	int opt, status = -1;

	if (options(c, &lo, &so) != 0) {
		fprintf(stderr, "%s: out of memory\n", c->name);
		return EXIT_STORE;
	}
	while (status < 0 &&
	    (opt = getopt_long(*argc, *argv, so, lo, NULL)) != -1) {
		switch (opt) {
		case 'h':
			usage(c, stdout);
			cmd_fields_help(stdout, c);
			status = fflush(stdout) == 0 ? 0 : EXIT_STORE;
			break;
		case 'V':
			printf("%s (ar) %s\n", c->name, AR_VERSION);
			status = fflush(stdout) == 0 ? 0 : EXIT_STORE;
			break;
		default:
			if (common_option(c, x, v, opt, optarg) != 0)
				status = EXIT_USAGE;
		}
	}
	if (status < 0 && c->options_end != NULL && c->options_end(x) != 0)
		status = EXIT_USAGE;
	free(lo);
	free(so);
	if (status == EXIT_USAGE)
		usage(c, stderr);
	*argc -= optind;
	*argv += optind;
	return status;
}

/* The options taken together, the clock and the wait read: -1 to go on,
 * else the exit status (the error said). */
static int
settle_options(const struct cmd *c, struct ctx *x, struct invocation *v,
    int rights)
{
	char err[AR_ERRMAX];
	int64_t d;

	/* The caller's environment is not the store's to follow. */
	if (rights && getenv("AR_NOW") != NULL) {
		fprintf(stderr, "%s: AR_NOW: a command installed setgid takes "
		    "no clock from the environment (--now, for readers)\n",
		    c->name);
		return EXIT_USAGE;
	}
	if (v->now != NULL) {
		if (ar_time_parse(v->now, x->now, &x->now, err) != 0) {
			fprintf(stderr, "%s: %s: %s\n", c->name, v->now_opt ?
			    "option '--now'" : "AR_NOW", err);
			return EXIT_USAGE;
		}
		x->fixed_now = 1;
	}
	if (v->wait != NULL) {
		if (strcmp(v->wait, "0") == 0)
			d = 0;
		else if (cmd_duration_opt(x, v->wait_opt ? "option '--wait'" :
		    "AR_WAIT", v->wait, &d) != 0)
			return EXIT_USAGE;
		x->wait_ms = (long)(d * 1000);
	}
	if (v->config && !v->create) {
		fprintf(stderr, "%s: --nodes, --hosts, --slot, --horizon, "
		    "--max-size and --owners go with --create\n",
		    c->name);
		return EXIT_USAGE;
	}
	if (v->simulated && !v->create && !v->upgrade) {
		fprintf(stderr, "%s: --simulated goes with --create or "
		    "--upgrade\n", c->name);
		return EXIT_USAGE;
	}
	if (v->simulated)
		v->cfg.flags |= AR_SIMULATED;
	if ((v->cfg.flags & AR_ROLE_OWNERS) &&
	    strcmp(ar_backend_name(v->dir), "postgresql") != 0) {
		fprintf(stderr, "%s: option '--owners': role is for a "
		    "PostgreSQL store (an LMDB store's owners are uids)\n",
		    c->name);
		return EXIT_USAGE;
	}
	if (v->hosts_from != NULL && (v->cfg.hosts != NULL || v->nodes_opt)) {
		fprintf(stderr, "%s: option '--hosts-from': the description "
		    "gives the hosts (not with --nodes or --hosts)\n", c->name);
		return EXIT_USAGE;
	}
	if (v->cfg.hosts != NULL) {
		if (v->nodes_opt && v->cfg.nodes != v->host_count) {
			fprintf(stderr, "%s: option '--nodes': %lu, but '--hosts' "
			    "names %lu\n", c->name, (unsigned long)v->cfg.nodes,
			    (unsigned long)v->host_count);
			return EXIT_USAGE;
		}
		v->cfg.nodes = (uint32_t)v->host_count;
	}
	return -1;
}

/*
 * With the rights of a setgid install: only a listed store; and what
 * needs no store's files, or makes or converts a store, or talks to
 * a server, runs with the caller's own rights from the start.  -1 to go
 * on, else the exit status.
 */
static int
setgid_rules(const struct cmd *c, const struct ctx *x,
    const struct invocation *v)
{
	if (!x->standalone && !store_listed(v->dir)) {
		fprintf(stderr, "%s: %s: not a store that this command, "
		    "installed setgid, serves (see %s)\n", c->name, v->dir,
		    AR_STORES_FILE);
		return EXIT_USAGE;
	}
	if (x->store_wide && getuid() != 0) {
		fprintf(stderr, "%s: %s: only root changes a shared store for "
		    "every user this way (the command is installed setgid)\n",
		    c->name, v->dir);
		return EXIT_USAGE;
	}
	if ((x->standalone || v->create || v->upgrade || v->group ||
	    strcmp(ar_backend_name(v->dir), "postgresql") == 0) &&
	    drop_rights(c) != 0)
		return EXIT_STORE;
	return -1;
}

int
cmd_read_text(const char *name, const char *opt, const char *path,
    char **textp)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "re");
	char *text = NULL;
	size_t len = 0, cap = 0, n;

	if (f == NULL) {
		fprintf(stderr, "%s: option '--%s': %s: %s\n", name, opt, path,
		    strerror(errno));
		return EXIT_USAGE;
	}
	do {
		if (len + 4096 + 1 > cap) {
			char *more = realloc(text, cap = 2 * cap + 4096 + 1);

			if (more == NULL) {
				fprintf(stderr, "%s: out of memory\n", name);
				free(text);
				if (f != stdin)
					fclose(f);
				return EXIT_STORE;
			}
			text = more;
		}
		len += n = fread(text + len, 1, 4096, f);
	} while (n > 0);
	text[len] = '\0';
	if (f != stdin)
		fclose(f);
	if (memchr(text, '\0', len) != NULL) {
		fprintf(stderr, "%s: %s: a NUL byte\n", name, path);
		free(text);
		return EXIT_USAGE;
	}
	*textp = text;
	return 0;
}

/*
 * --hosts-from: the host description a store is created from, read
 * (with the caller's own rights: a creation has no others) and checked,
 * into v->cfg.layout; its number of hosts is the nodes.  0, or the exit
 * status after a message naming the line and the field.
 */
static int
read_description(const struct cmd *c, struct invocation *v)
{
	char err[AR_ERRMAX], *text;
	int rc;

	if ((rc = cmd_read_text(c->name, "hosts-from", v->hosts_from,
	    &text)) != 0)
		return rc;
	if ((rc = ar_layout_check(text, &v->cfg.nodes, err)) != 0) {
		fprintf(stderr, "%s: %s: %s\n", c->name, v->hosts_from,
		    rc == EINVAL ? err : ar_strerror(rc));
		free(text);
		return rc == EINVAL ? EXIT_USAGE : EXIT_STORE;
	}
	v->layout = text;
	v->cfg.layout = text;
	return 0;
}

/* Upgrade, create or share the store as asked, then open it into
 * x->store and read its clock: -1 to go on, else the exit status (the
 * store closed). */
static int
open_store(const struct cmd *c, struct ctx *x, struct invocation *v,
    int rights)
{
	int from, rc, status;

	/* Before anything is made: the store would be live. */
	if (v->create && x->fixed_now && !v->simulated)
		return live_refusal(c, v->now_opt);
	/* An old store is converted before --create compares it; a
	 * missing one is for --create to make. */
	if (v->upgrade && (rc = ar_upgrade(v->dir, v->cfg.flags &
	    AR_SIMULATED, x->wait_ms, &from)) != 0 &&
	    !(v->create && rc == AR_ENOSTORE))
		return cmd_store_error(x, rc);
	/* A store of format 7 or later keeps its clock's mode. */
	if (v->upgrade && rc == 0 && from < AR_FORMAT_VERSION)
		fprintf(stderr, "%s: %s: upgraded from format %d to %d%s%s\n",
		    c->name, v->dir, from, AR_FORMAT_VERSION, from >= 7 ? "" :
		    "; its clock ", from >= 7 ? "" : v->simulated ?
		    "stays simulated" : "is now live, the system clock "
		    "(--upgrade --simulated keeps a simulated one)");
	if (v->create && v->hosts_from != NULL &&
	    (status = read_description(c, v)) != 0)
		return status;
	if (v->create && (status = create_store(x, &v->cfg)) != 0)
		return status;
	/* --group alone shares the store that is there (a PostgreSQL
	 * store's users are its database's roles: nothing to do). */
	if (v->group && !v->create && (rc = ar_share(v->dir,
	    v->cfg.group)) != 0 && rc != EOPNOTSUPP)
		return cmd_store_error(x, rc);
	/* Every file of the store is open: the rights go for good. */
	rc = ar_open(v->dir, x->write ? 0 : AR_RDONLY, &x->store);
	if (rights && drop_rights(c) != 0) {
		ar_close(x->store);
		x->store = NULL;
		return EXIT_STORE;
	}
	if (rc != 0)
		return cmd_store_error(x, rc);
	ar_set_wait(x->store, x->wait_ms);
	if ((rc = store_clock(x)) != 0)
		status = (cmd_store_error(x, rc), EXIT_STORE);
	else if (x->fixed_now && x->write && x->live)
		status = live_refusal(c, v->now_opt);
	else
		return -1;
	ar_close(x->store);
	x->store = NULL;
	return status;
}

/* The command, from its options to its exit status. */
static int
command(const struct cmd *c, int argc, char **argv, void *data)
{
	struct ctx x = { .cmd = c, .data = data, .answers = 1, .write = c->write,
	    .wait_ms = 30000 };
	struct invocation v = { .now = getenv("AR_NOW"),
	    .wait = getenv("AR_WAIT") };
	int rights = elevated(), status;

	guard_std_fds();
	ar_hostlist_init(&x.hosts);
	/* getopt's own messages name the command, not the path run. */
	if (argc > 0)
		argv[0] = (char *)c->name;
	ar_config_default(&v.cfg);
	x.uid = (uint32_t)getuid();
	x.now = wall_clock();
	if ((v.dir = getenv("AR_STORE")) == NULL || *v.dir == '\0')
		v.dir = DEFAULT_STORE;
	if ((status = parse_options(c, &x, &v, &argc, &argv)) >= 0 ||
	    (status = settle_options(c, &x, &v, rights)) >= 0)
		goto done;
	if (c->prepare == NULL && c->whole == NULL)
		x.standalone = 1;
	x.dir = v.dir;
	ar_where_masked(v.dir, x.shown, sizeof(x.shown));
	if (rights && (status = setgid_rules(c, &x, &v)) >= 0)
		goto done;
	if (x.standalone) {
		if (v.create || v.upgrade || v.group) {
			fprintf(stderr, "%s: %s: this mode uses no store\n",
			    c->name, v.create ? "--create" : v.upgrade ?
			    "--upgrade" : "--group");
			status = EXIT_USAGE;
			goto done;
		}
		status = c->standalone(&x, argc, argv);
		goto flush;
	}
	if (c->prepare == NULL)
		x.whole = 1;
	x.argc = argc;
	x.argv = argv;
	if (argc > 0 && x.whole && !c->whole_reads) {
		fprintf(stderr, "%s: takes no records as arguments\n", c->name);
		status = EXIT_USAGE;
		goto done;
	}
	if ((status = open_store(c, &x, &v, rights)) >= 0)
		goto done;
	status = x.whole ? c->whole(&x, x.store) :
	    run_records(&x, argc, argv);
flush:
	/* A whole-store or standalone job that failed prints nothing, not a
	 * part (but what it said it found, as --check's violations, it
	 * prints). */
	if ((x.whole || x.standalone) &&
	    (status < EXIT_USAGE || x.keep_output) &&
	    cmd_flush(&x) != 0) {
		fprintf(stderr, "%s: write error: %s\n", c->name,
		    strerror(errno));
		status = EXIT_STORE;
	}
done:
	ar_close(x.store);
	free(x.out);
	free(x.err);
	free(x.host_names);
	free(v.layout);
	cmd_layout_free(&x);
	ar_hostlist_free(&x.hosts);
	return status;
}

/*
 * Whichever way the command ends, it ends without the rights of a
 * setgid install: a run refused before it opened the store has them
 * still, and a leak checker (make san) cannot look into a process that
 * holds them.
 */
int
cmd_main(const struct cmd *c, int argc, char **argv, void *data)
{
	int status = command(c, argc, argv, data);

	if (elevated())
		(void)drop_rights(c);
	return status;
}

