/*
 * cmd.c - the driver every ar command runs: options, store, input,
 * batches, output.
 *
 * Input lines are read in batches: a batch ends when no further line is
 * waiting, or at BATCH_MAX lines, so an interactive user gets an answer
 * per line while a pipe full of requests shares one commit (and one
 * fsync, 1-10 ms here) per batch.  Output of a write batch is printed
 * only after its transaction committed.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"

#define BATCH_MAX 4096  /* about 20 ms of work: the fsync is the lesser part */
#define DEFAULT_STORE "/var/lib/ar"

enum {
	OPT_NOW = 256, OPT_WAIT, OPT_CREATE, OPT_NODES, OPT_SLOT, OPT_HORIZON,
	OPT_MAX_SIZE, OPT_UPGRADE
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
	{ "upgrade", no_argument, NULL, OPT_UPGRADE },
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
	long line;
};

static void
usage(const struct cmd *c, FILE *f)
{
	fprintf(f, "usage: %s [-jV] [-s dir] [--now time] [--wait duration] "
	    "[--upgrade]\n"
	    "       %*s [--create [--nodes n] [--slot duration] "
	    "[--horizon duration] [--max-size mib]]\n"
	    "       %*s %s\n", c->name, (int)strlen(c->name), "",
	    (int)strlen(c->name), "", c->usage);
}

void
cmd_warn(struct ctx *x, long line, const char *fmt, ...)
{
	va_list ap;

	if (line > 0)
		fprintf(stderr, "%s: line %ld: ", x->cmd->name, line);
	else
		fprintf(stderr, "%s: arguments: ", x->cmd->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
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
	char *nl, *p;
	ssize_t n;

	for (;;) {
		nl = memchr(r->buf + r->off, '\n', r->len - r->off);
		if (nl != NULL || (r->eof && r->off < r->len)) {
			size_t end = nl ? (size_t)(nl - r->buf) : r->len;

			r->line++;
			*line = r->buf + r->off;
			*len = toolong ? AR_LINE_MAX + 1 : end - r->off;
			r->off = nl ? end + 1 : end;
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
		if (r->cap - r->len < 4096) {
			if ((p = realloc(r->buf, r->cap * 2)) == NULL)
				return -1;
			r->buf = p;
			r->cap *= 2;
		}
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

/* Make one record of the key=value arguments, quoting each value. */
static int
args_line(struct ctx *x, int argc, char **argv, char **line, size_t *len)
{
	char *buf = NULL;
	size_t cap = 0, n = 0;

	for (int i = 0; i < argc; i++) {
		const char *eq = strchr(argv[i], '='), *p;
		size_t need = strlen(argv[i]) * 2 + 4;

		if (eq == NULL) {
			cmd_warn(x, 0, "expected key=value, got '%.40s'", argv[i]);
			free(buf);
			return -1;
		}
		if (n + need > cap) {
			char *nb;

			cap = (n + need) * 2;
			if ((nb = realloc(buf, cap)) == NULL) {
				free(buf);
				return -2;
			}
			buf = nb;
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

/* Write the batch's output; a full disk or a closed pipe is an error. */
static int
flush_out(struct ctx *x)
{
	if (x->outlen > 0 && fwrite(x->out, 1, x->outlen, stdout) != x->outlen)
		return -1;
	x->outlen = 0;
	return fflush(stdout) == 0 ? 0 : -1;
}

static int
store_error(struct ctx *x, const char *dir, int rc)
{
	fprintf(stderr, "%s: %s: %s\n", x->cmd->name, dir, ar_strerror(rc));
	return EXIT_STORE;
}

struct batch {
	struct ctx *x;
	struct item *items;
	size_t n;
};

static int
apply_all(ar_txn *t, void *arg)
{
	struct batch *b = arg;
	int rc;

	for (size_t i = 0; i < b->n; i++) {
		struct item *it = &b->items[i];

		if (it->bad)
			continue;
		if ((rc = b->x->cmd->apply(b->x, t, it)) != 0)
			return rc;
	}
	return 0;
}

/* Is rc the store or its disk having no room left? */
static int
full(int rc)
{
	return rc == AR_EFULL || rc == ENOSPC || rc == EIO || rc == EDQUOT;
}

/*
 * Run a batch in one transaction, then print it; an exit status.  A
 * write batch that finds no room is run again in halves, so that what
 * fits is committed and printed, up to the line that does not.
 */
static int
run_batch(struct ctx *x, struct batch *b, const char *dir)
{
	int rc, status = 0;
	ar_txn *t;

	if (x->cmd->write)
		rc = ar_write(x->store, x->now, apply_all, b);
	else if ((rc = ar_txn_begin(x->store, 0, x->now, &t)) == 0) {
		rc = apply_all(t, b);
		ar_txn_abort(t);
	}
	if (rc != 0 && x->cmd->write && full(rc) && b->n > 1) {
		struct batch lo = { b->x, b->items, b->n / 2 };
		struct batch hi = { b->x, b->items + lo.n, b->n - lo.n };

		if ((status = run_batch(x, &lo, dir)) == EXIT_STORE)
			return status;
		if ((rc = run_batch(x, &hi, dir)) > status)
			status = rc;
		return status;
	}
	if (rc != 0)
		return store_error(x, dir, rc);
	for (size_t i = 0; i < b->n; i++) {
		int st;

		if (b->items[i].bad)
			continue;
		if ((st = x->cmd->emit(x, &b->items[i])) < 0) {
			fprintf(stderr, "%s: out of memory\n", x->cmd->name);
			return EXIT_STORE;
		}
		if (st > status)
			status = st;
	}
	if (flush_out(x) != 0) {
		fprintf(stderr, "%s: write error: %s\n", x->cmd->name,
		    strerror(errno));
		return EXIT_STORE;
	}
	return status;
}

/* Parse one line into it and prepare its request; 0, or EXIT_USAGE. */
static int
take_line(struct ctx *x, struct item *it, const char *line, size_t len,
    long lineno, int flags)
{
	char err[AR_ERRMAX];
	int rc;

	it->line = lineno;
	it->bad = 1;
	it->nalts = 0;
	it->nids = 0;
	if (it->altcap < x->answers) {
		struct ar_answer *a = realloc(it->alts, x->answers * sizeof(*a));

		if (a == NULL) {
			cmd_warn(x, lineno, "out of memory");
			return EXIT_STORE;
		}
		it->alts = a;
		it->altcap = x->answers;
	}
	if (len > AR_LINE_MAX) {
		cmd_warn(x, lineno, "line longer than %d bytes", AR_LINE_MAX);
		return EXIT_USAGE;
	}
	if ((rc = ar_record_parse(&it->rec, line, len, flags, err)) != 0) {
		cmd_warn(x, lineno, "%s", rc == -2 ? "out of memory" : err);
		return EXIT_USAGE;
	}
	if (x->cmd->prepare(x, it, err) != 0) {
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
 * which never runs back: the later of ours and the store's.
 */
static int
store_clock(struct ctx *x)
{
	ar_txn *t;
	int rc;

	if ((rc = ar_txn_begin(x->store, 0, x->now, &t)) != 0)
		return rc;
	x->now = ar_txn_now(t);
	ar_txn_abort(t);
	return 0;
}

/* Double the batch's room for items, up to BATCH_MAX. */
static int
grow_items(struct batch *b, size_t *cap)
{
	size_t n = *cap ? 2 * *cap : 4;
	struct item *p;

	if (n > BATCH_MAX)
		n = BATCH_MAX;
	if ((p = realloc(b->items, n * sizeof(*p))) == NULL)
		return -1;
	memset(p + *cap, 0, (n - *cap) * sizeof(*p));
	for (size_t i = *cap; i < n; i++)
		ar_record_init(&p[i].rec);
	b->items = p;
	*cap = n;
	return 0;
}

/* The records from stdin (or the arguments), batch by batch. */
static int
run_records(struct ctx *x, int argc, char **argv, const char *dir)
{
	struct reader r = { 0, NULL, 0, 0, 65536, 0, 0 };
	struct batch b = { x, NULL, 0 };
	size_t cap = 0;
	int status = 0, st;
	char *line;
	size_t len;

	/* Items are made as lines come: a single request touches little
	 * memory, which is most of what starting a command costs. */
	if ((r.buf = malloc(r.cap)) == NULL || grow_items(&b, &cap) != 0) {
		free(r.buf);
		fprintf(stderr, "%s: out of memory\n", x->cmd->name);
		return EXIT_STORE;
	}
	if (argc > 0) {
		if ((st = args_line(x, argc, argv, &line, &len)) != 0)
			status = st == -1 ? EXIT_USAGE : EXIT_STORE;
		else {
			/* Arguments are key=value, whatever --json says. */
			st = take_line(x, &b.items[0], line, len, 0, 0);
			free(line);
			b.n = 1;
			status = st ? st : run_batch(x, &b, dir);
		}
		goto out;
	}
	for (;;) {
		int more;

		if (!x->fixed_now)
			x->now = wall_clock();
		if ((st = store_clock(x)) != 0) {
			status = store_error(x, dir, st);
			break;
		}
		b.n = 0;
		while ((more = reader_next(&r, &line, &len)) == 1) {
			if ((st = take_line(x, &b.items[b.n], line, len,
			    r.line, x->json)) > status)
				status = st;
			if (++b.n == BATCH_MAX || !reader_ready(&r))
				break;
			if (b.n == cap && grow_items(&b, &cap) != 0) {
				more = -1;
				errno = ENOMEM;
				break;
			}
		}
		if (more == -1) {
			fprintf(stderr, "%s: read error: %s\n", x->cmd->name,
			    strerror(errno));
			status = EXIT_STORE;
			break;
		}
		if (b.n == 0)
			break;
		if ((st = run_batch(x, &b, dir)) > status)
			status = st;
		if (st == EXIT_STORE)
			break;
	}
out:
	for (size_t i = 0; i < cap; i++) {
		ar_record_free(&b.items[i].rec);
		free(b.items[i].ids);
		free(b.items[i].rcs);
		free(b.items[i].placed);
		free(b.items[i].moved);
		free(b.items[i].alts);
	}
	free(b.items);
	free(r.buf);
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

int
cmd_main(const struct cmd *c, int argc, char **argv, void *data)
{
	struct ctx x = { .cmd = c, .data = data, .answers = 1 };
	struct ar_config cfg;
	struct option *lo;
	const char *dir, *now = getenv("AR_NOW"), *wait = getenv("AR_WAIT");
	char err[AR_ERRMAX], *so;
	int create = 0, config = 0, now_opt = 0, wait_opt = 0, opt, rc, status;
	int upgrade = 0, from;
	int64_t d, wait_ms = 30000;
	uint64_t nodes;

	guard_std_fds();
	ar_config_default(&cfg);
	x.uid = (uint32_t)getuid();
	x.now = wall_clock();
	if ((dir = getenv("AR_STORE")) == NULL || *dir == '\0')
		dir = DEFAULT_STORE;
	if (options(c, &lo, &so) != 0) {
		fprintf(stderr, "%s: out of memory\n", c->name);
		return EXIT_STORE;
	}
	while ((opt = getopt_long(argc, argv, so, lo, NULL)) != -1) {
		switch (opt) {
		case 's':
			dir = optarg;
			break;
		case 'j':
			x.json = AR_REC_JSON;
			break;
		case OPT_NOW:
			now = optarg;
			now_opt = 1;
			break;
		case OPT_WAIT:
			wait = optarg;
			wait_opt = 1;
			break;
		case OPT_CREATE:
			create = 1;
			break;
		case OPT_UPGRADE:
			upgrade = 1;
			break;
		case OPT_NODES:
			if (ar_uint_parse(optarg, 1, 1000000, &nodes, err) != 0) {
				fprintf(stderr, "%s: option '--nodes': %s\n",
				    c->name, err);
				goto usage;
			}
			cfg.nodes = (uint32_t)nodes;
			config = 1;
			break;
		case OPT_MAX_SIZE:
			/* In MiB: the largest the store's map may grow to. */
			if (ar_uint_parse(optarg, 1, 1 << 24, &nodes, err) != 0) {
				fprintf(stderr, "%s: option '--max-size': %s\n",
				    c->name, err);
				goto usage;
			}
			cfg.map_max = nodes << 20;
			config = 1;
			break;
		case OPT_SLOT:
		case OPT_HORIZON:
			if (cmd_duration_opt(&x, opt == OPT_SLOT ?
			    "option '--slot'" : "option '--horizon'", optarg,
			    &d) != 0)
				goto usage;
			*(opt == OPT_SLOT ? &cfg.slot : &cfg.horizon) = d;
			config = 1;
			break;
		case 'h':
			usage(c, stdout);
			free(lo);
			free(so);
			return fflush(stdout) == 0 ? 0 : EXIT_STORE;
		case 'V':
			printf("%s (ar) %s\n", c->name, AR_VERSION);
			free(lo);
			free(so);
			return fflush(stdout) == 0 ? 0 : EXIT_STORE;
		default:
			if (c->option == NULL || c->option(&x, opt, optarg) != 0)
				goto usage;
		}
	}
	free(lo);
	free(so);
	argc -= optind;
	argv += optind;
	if (now != NULL) {
		if (ar_time_parse(now, x.now, &x.now, err) != 0) {
			fprintf(stderr, "%s: %s: %s\n", c->name, now_opt ?
			    "option '--now'" : "AR_NOW", err);
			return EXIT_USAGE;
		}
		x.fixed_now = 1;
	}
	if (wait != NULL) {
		if (strcmp(wait, "0") == 0)
			d = 0;
		else if (cmd_duration_opt(&x, wait_opt ? "option '--wait'" :
		    "AR_WAIT", wait, &d) != 0)
			return EXIT_USAGE;
		wait_ms = d * 1000;
	}
	if (config && !create) {
		fprintf(stderr, "%s: --nodes, --slot, --horizon and --max-size "
		    "go with --create\n", c->name);
		return EXIT_USAGE;
	}
	if (c->prepare == NULL)
		x.whole = 1;
	if (argc > 0 && x.whole) {
		fprintf(stderr, "%s: takes no records as arguments\n", c->name);
		return EXIT_USAGE;
	}
	/* An old store is converted before --create compares it; a
	 * missing one is for --create to make. */
	if (upgrade && (rc = ar_upgrade(dir, (long)wait_ms, &from)) != 0 &&
	    !(create && rc == AR_ENOSTORE))
		return store_error(&x, dir, rc);
	if (create && (rc = ar_create(dir, &cfg, x.now)) != 0) {
		if (rc == EINVAL) {
			fprintf(stderr, "%s: invalid store configuration: the "
			    "slot must be 1s..1d and divide the horizon, at most "
			    "10000000 slots\n", c->name);
			return EXIT_USAGE;
		}
		return store_error(&x, dir, rc);
	}
	rc = ar_open(dir, c->write ? 0 : AR_RDONLY, &x.store);
	if (rc != 0)
		return store_error(&x, dir, rc);
	ar_set_wait(x.store, (long)wait_ms);
	if ((rc = store_clock(&x)) != 0) {
		ar_close(x.store);
		return store_error(&x, dir, rc);
	}
	status = x.whole ? c->whole(&x, x.store) :
	    run_records(&x, argc, argv, dir);
	/* A whole-store job that failed prints nothing, not a part. */
	if (x.whole && status < EXIT_USAGE && flush_out(&x) != 0) {
		fprintf(stderr, "%s: write error: %s\n", c->name,
		    strerror(errno));
		status = EXIT_STORE;
	}
	ar_close(x.store);
	free(x.out);
	return status;
usage:
	free(lo);
	free(so);
	usage(c, stderr);
	return EXIT_USAGE;
}

/* Parse a time field if present: 1 found, 0 absent, -1 bad. */
static int
time_field(struct ctx *x, struct item *it, const char *key, int64_t *t,
    char *err)
{
	const char *v = ar_record_get(&it->rec, key);
	char msg[AR_ERRMAX];

	if (v == NULL)
		return 0;
	if (ar_time_parse(v, x->now, t, msg) != 0) {
		snprintf(err, AR_ERRMAX, "field '%s': %.200s", key, msg);
		return -1;
	}
	return 1;
}

static int
count_field(struct item *it, const char *key, uint32_t *n, char *err)
{
	const char *v = ar_record_get(&it->rec, key);
	char msg[AR_ERRMAX];
	uint64_t u;

	*n = 1;
	if (v == NULL)
		return 0;
	if (ar_uint_parse(v, 1, 1000000, &u, msg) != 0) {
		snprintf(err, AR_ERRMAX, "field '%s': %.200s", key, msg);
		return -1;
	}
	*n = (uint32_t)u;
	return 0;
}

/* A label or key of at most max bytes: the record's text (which stays
 * put until the next line). */
static int
label_field(struct item *it, const char *key, int max, const char **dst,
    char *err)
{
	const char *v = ar_record_get(&it->rec, key);

	if (v != NULL && strlen(v) > (size_t)max) {
		snprintf(err, AR_ERRMAX, "field '%s': longer than %d bytes",
		    key, max);
		return -1;
	}
	*dst = v == NULL ? "" : v;
	return 0;
}

int
cmd_request(struct ctx *x, struct item *it, char *err)
{
	struct ar_request *rq = &it->rq;
	int64_t start, earliest, latest, end, dur;
	int hs, he, hl, hend, hd;
	const char *v;
	char msg[AR_ERRMAX];

	memset(rq, 0, sizeof(*rq));
	it->earliest = it->latest = -1;
	if ((hs = time_field(x, it, "start", &start, err)) < 0 ||
	    (he = time_field(x, it, "earliest", &earliest, err)) < 0 ||
	    (hl = time_field(x, it, "latest", &latest, err)) < 0 ||
	    (hend = time_field(x, it, "end", &end, err)) < 0)
		return -1;
	hd = (v = ar_record_get(&it->rec, "duration")) != NULL;
	if (hd && ar_duration_parse(v, &dur, msg) != 0) {
		snprintf(err, AR_ERRMAX, "field 'duration': %.200s", msg);
		return -1;
	}
	if (!hs && !he) {
		snprintf(err, AR_ERRMAX, "missing field 'start' (or 'earliest')");
		return -1;
	}
	if (he)
		it->earliest = earliest;
	if (hl)
		it->latest = latest;
	/* A start inside a window narrows it to [start, latest]. */
	rq->earliest = hs ? start : earliest;
	rq->latest = hl ? latest : rq->earliest;
	if (hs && he && start < earliest) {
		snprintf(err, AR_ERRMAX, "field 'start': before 'earliest'");
		return -1;
	}
	if (rq->latest < rq->earliest) {
		snprintf(err, AR_ERRMAX, "field 'latest': before '%s'",
		    hs ? "start" : "earliest");
		return -1;
	}
	if (!hend && !hd) {
		snprintf(err, AR_ERRMAX, "missing field 'duration' (or 'end')");
		return -1;
	}
	if (hend && end <= rq->earliest) {
		snprintf(err, AR_ERRMAX, "field 'end': not after '%s'",
		    hs ? "start" : "earliest");
		return -1;
	}
	/* Output records carry both, end rounded to slots: duration wins. */
	rq->duration = hd ? dur : end - rq->earliest;
	if (count_field(it, "nodes", &rq->nodes, err) != 0 ||
	    count_field(it, "jobs", &rq->jobs, err) != 0 ||
	    label_field(it, "user", AR_LABEL_MAX, &rq->user, err) != 0 ||
	    label_field(it, "job", AR_LABEL_MAX, &rq->job, err) != 0 ||
	    label_field(it, "client_key", AR_CLIENT_KEY_MAX, &rq->client_key,
	    err) != 0)
		return -1;
	rq->owner = x->uid;
	return 0;
}

int
cmd_answer(struct item *it, const struct ar_answer *a)
{
	struct ar_record *r = &it->rec;

	if (a->end < 0)
		ar_record_del(r, "end");        /* no time to print */
	if (ar_record_set_time(r, "start", a->start) != 0 ||
	    (a->end >= 0 && ar_record_set_time(r, "end", a->end) != 0) ||
	    (it->earliest >= 0 &&
	    ar_record_set_time(r, "earliest", it->earliest) != 0) ||
	    (it->latest >= 0 &&
	    ar_record_set_time(r, "latest", it->latest) != 0))
		return -1;
	if (a->reason == AR_R_NONE || a->reason == AR_R_FULL ||
	    a->reason == AR_R_LIMIT) {
		if (ar_record_set_int(r, "free", a->free) != 0)
			return -1;
	} else
		ar_record_del(r, "free");
	if (ar_record_set(r, "status", ar_status_name(a->status)) != 0)
		return -1;
	if (a->reason == AR_R_NONE)
		ar_record_del(r, "reason");
	else if (ar_record_set(r, "reason", ar_reason_name(a->reason)) != 0)
		return -1;
	return 0;
}

int
cmd_resv(struct ar_record *r, const struct ar_resv *v)
{
	ar_record_clear(r);
	if (ar_record_set_uint(r, "id", v->id) != 0 ||
	    (*v->user && ar_record_set(r, "user", v->user) != 0) ||
	    (*v->job && ar_record_set(r, "job", v->job) != 0) ||
	    (*v->client_key &&
	    ar_record_set(r, "client_key", v->client_key) != 0) ||
	    ar_record_set_time(r, "start", v->start) != 0 ||
	    ar_record_set_time(r, "end", v->end) != 0 ||
	    ar_record_set_int(r, "nodes", v->nodes) != 0 ||
	    (v->jobs > 1 && ar_record_set_int(r, "jobs", v->jobs) != 0) ||
	    (v->latest != v->earliest &&
	    (ar_record_set_time(r, "earliest", v->earliest) != 0 ||
	    ar_record_set_time(r, "latest", v->latest) != 0)) ||
	    ar_record_set_int(r, "owner", v->owner) != 0 ||
	    ar_record_set(r, "status", ar_status_name(v->state)) != 0)
		return -1;
	return 0;
}
