/*
 * slurm.c - ar-map --slurm: Slurm, through its own program (scontrol).
 *
 * ar-map --slurm reconciles: it reads what Slurm holds (scontrol show
 * reservation --oneliner), compares it with the plan for every
 * reservation ar owns (named with a prefix and the id), and makes only
 * the changes that differ.  Nothing of the comparison comes from what
 * ar printed or ran before, so a change that failed, a run killed
 * between scontrol and its record, or a controller that was down is
 * found again by the next run and made then: a change is never lost.
 * Slurm's own rules shape the changes:
 *
 * - a reservation Slurm has started keeps its start (Slurm refuses any
 *   StartTime then); its end, nodes, users, flags and accounts change;
 *   if ar has it start later than Slurm started it, it is deleted and
 *   made again;
 * - a reservation whose start has passed goes in starting now, with
 *   what remains of it (Slurm refuses a start more than 600 s ago);
 * - what ended is Slurm's to purge, and deleting what Slurm no longer
 *   has succeeded already;
 * - changes may wait for one another (a host one reservation leaves,
 *   another takes): deletes go first, the rest is tried again while
 *   some succeed, and an update that still cannot be made is made as a
 *   delete and a create.
 *
 * Times go to and from scontrol in UTC (TZ=UTC0 and the standard time
 * format in its environment), whatever the zone of the host.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "array.h"
#include "chart.h"
#include "slurm.h"

/* A reservation ending this close to the clock is left to end. */
#define END_MARGIN 10
#define ARGS_MAX 16

/* An owned reservation as Slurm holds it. */
struct held {
	uint64_t id;
	int64_t start, end;
	int started;
	char *nodes;            /* as Slurm writes them; "" for none */
	uint32_t *hosts;        /* ... as the store's indexes, if all are */
	size_t nhosts;
	int hosts_ok;
	char *users, *accounts; /* "" for none */
	char *partition;        /* PartitionName=, "" for none */
	char *features;         /* Features=, as Slurm writes them */
	int maint;
	int wanted;             /* the plan has it */
};

/* A reservation of the plan, as Slurm should hold it. */
struct want {
	uint64_t id;
	int64_t start, end;
	uint32_t *hosts;
	size_t nhosts;
	char *nodes;
	char user[AR_LABEL_MAX + 1];
	uint32_t owner;
	unsigned flags;
	char account[AR_LABEL_MAX + 1];
	char users[AR_LABEL_MAX + 1];   /* Users=, "" for none */
	char *partition;        /* PartitionName=: its pool's partition in
				   a store of several; else "" */
	char *features;         /* Features=: its pool's, joined by '&';
				   "" for none */
	char problem[200];      /* why it cannot go to Slurm, or "" */
	int acked;              /* the ledger says Slurm had it */
	struct held *h;
};

enum op_kind { OP_DELETE, OP_CREATE, OP_UPDATE };

struct op {
	enum op_kind kind;
	uint64_t id;
	struct want *w;         /* NULL for a delete of what ar has not */
	char *argv[ARGS_MAX];
	int argc;
	int done;
	int replaced;           /* an update made as a delete and a create */
	char *why;              /* Slurm's refusal */
};

struct sync {
	struct ctx *x;
	const struct slurm_opts *o;
	int64_t now;            /* the real clock: Slurm's */
	struct want *w;
	size_t nw, wcap;
	struct held *h;
	size_t nh, hcap;
	struct op *op;
	size_t nop, opcap;
	int nomem;
	/* The store's layout, while the plan is read. */
	const struct ar_partition *parts;
	const struct ar_pool *pools;
	size_t nparts, npools;
	/* The drains' reservations, which are not exported: a drained host
	 * is Slurm's to drain (scontrol update State=DRAIN). */
	uint64_t *drains;
	size_t ndrains, dcap;
};

static char *
fmt(const char *f, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, f);
	n = vsnprintf(NULL, 0, f, ap);
	va_end(ap);
	if (n < 0 || (s = malloc((size_t)n + 1)) == NULL)
		return NULL;
	va_start(ap, f);
	vsnprintf(s, (size_t)n + 1, f, ap);
	va_end(ap);
	return s;
}

/* Slurm's time, in UTC: 2026-11-21T10:00:00. */
static void
slurm_time(int64_t t, char *buf)
{
	ar_time_format(t, buf);
	buf[strlen(buf) - 1] = '\0';    /* the Z */
}

static int
slurm_time_parse(const char *s, int64_t *t)
{
	char buf[64], err[AR_ERRMAX];

	if (strlen(s) > 40)
		return -1;
	snprintf(buf, sizeof(buf), "%sZ", s);
	return ar_time_parse(buf, 0, t, err);
}

static int
sorted_ids(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* Slurm's node list as the store's host indexes: hosts_ok if all are. */
static int
held_hosts(struct sync *y, struct held *h)
{
	const struct ar_hostlist *all = cmd_hosts(y->x);
	struct ar_hostlist l;
	char err[AR_ERRMAX];
	int rc;

	if (all == NULL)
		return -1;
	if (*h->nodes == '\0')
		return 0;
	ar_hostlist_init(&l);
	if ((rc = ar_hostlist_parse_max(h->nodes, all->count, &l, err)) == -2)
		return -1;
	if (rc == 0 && (h->hosts = malloc((l.count + 1) *
	    sizeof(*h->hosts))) == NULL) {
		ar_hostlist_free(&l);
		return -1;
	}
	if (rc == 0 && ar_hostlist_find_all(all, &l, h->hosts, err) == 0) {
		h->nhosts = l.count;
		qsort(h->hosts, h->nhosts, sizeof(*h->hosts), sorted_ids);
		h->hosts_ok = 1;
	}
	ar_hostlist_free(&l);
	return 0;
}

/* The id of an owned name: the prefix, then a decimal id; else 0. */
static uint64_t
owned(const struct sync *y, const char *name)
{
	size_t n = strlen(y->o->prefix);
	char err[AR_ERRMAX];
	uint64_t id;

	if (strncmp(name, y->o->prefix, n) != 0 ||
	    ar_uint_parse(name + n, 1, UINT64_MAX, &id, err) != 0)
		return 0;
	return id;
}

/* One line of scontrol show reservation --oneliner. */
static int
held_parse(struct sync *y, char *line)
{
	struct held h;
	char *tok, *save, *v, *name = NULL, *start = NULL, *end = NULL;
	char *nodes = NULL, *users = NULL, *accounts = NULL, *flags = NULL;
	char *state = NULL, *partition = NULL, *features = NULL;

	memset(&h, 0, sizeof(h));
	for (tok = strtok_r(line, " ", &save); tok != NULL;
	    tok = strtok_r(NULL, " ", &save)) {
		if ((v = strchr(tok, '=')) == NULL)
			continue;
		*v++ = '\0';
		if (strcmp(v, "(null)") == 0)
			*v = '\0';
		if (strcmp(tok, "ReservationName") == 0)
			name = v;
		else if (strcmp(tok, "StartTime") == 0)
			start = v;
		else if (strcmp(tok, "EndTime") == 0)
			end = v;
		else if (strcmp(tok, "Nodes") == 0)
			nodes = v;
		else if (strcmp(tok, "Users") == 0)
			users = v;
		else if (strcmp(tok, "Accounts") == 0)
			accounts = v;
		else if (strcmp(tok, "Flags") == 0)
			flags = v;
		else if (strcmp(tok, "State") == 0)
			state = v;
		else if (strcmp(tok, "PartitionName") == 0)
			partition = v;
		else if (strcmp(tok, "Features") == 0)
			features = v;
	}
	if (name == NULL || (h.id = owned(y, name)) == 0)
		return 0;       /* not ours: the operator's */
	if (start == NULL || end == NULL ||
	    slurm_time_parse(start, &h.start) != 0 ||
	    slurm_time_parse(end, &h.end) != 0)
		return 1;
	if (h.end <= y->now + END_MARGIN)
		return 0;       /* ending: Slurm's to purge */
	h.started = (state != NULL && strcmp(state, "ACTIVE") == 0) ||
	    h.start <= y->now;
	if (flags != NULL)
		for (char *f = strtok_r(flags, ",", &v); f != NULL;
		    f = strtok_r(NULL, ",", &v))
			if (strcmp(f, "MAINT") == 0)
				h.maint = 1;
	if ((h.nodes = strdup(nodes ? nodes : "")) == NULL ||
	    (h.users = strdup(users ? users : "")) == NULL ||
	    (h.accounts = strdup(accounts ? accounts : "")) == NULL ||
	    (h.partition = strdup(partition ? partition : "")) == NULL ||
	    (h.features = strdup(features ? features : "")) == NULL ||
	    held_hosts(y, &h) != 0)
		goto nomem;
	if (array_room(&y->h, &y->hcap, y->nh + 1, sizeof(*y->h)) != 0)
		goto nomem;
	y->h[y->nh++] = h;
	return 0;
nomem:
	free(h.nodes);
	free(h.users);
	free(h.accounts);
	free(h.partition);
	free(h.features);
	free(h.hosts);
	return -1;
}

static void
helds_free(struct sync *y)
{
	for (size_t i = 0; i < y->nh; i++) {
		free(y->h[i].nodes);
		free(y->h[i].users);
		free(y->h[i].accounts);
		free(y->h[i].partition);
		free(y->h[i].features);
		free(y->h[i].hosts);
	}
	y->nh = 0;
}

/* The first line of a child's messages, for a one-line report. */
static const char *
first_line(struct child *c)
{
	char *s = c->errlen > 0 ? c->err : c->out, *nl;

	while (*s == '\n')
		s++;
	if ((nl = strchr(s, '\n')) != NULL)
		*nl = '\0';
	return *s ? s : "no message";
}

static char *scontrol_env[] = { "TZ=UTC0", "SLURM_TIME_FORMAT=standard",
    NULL };

/* What Slurm holds of ours, as scontrol shows it: 0, or an exit code. */
static int
slurm_read(struct sync *y)
{
	char *argv[] = { (char *)y->o->scontrol, "show", "reservation",
	    "--oneliner", NULL };
	struct child c;
	char *line, *save;
	int rc = 0;

	helds_free(y);
	if (child_run(argv, scontrol_env, &c) != 0) {
		fprintf(stderr, "%s: %s: %s\n", y->x->cmd->name,
		    y->o->scontrol, strerror(errno));
		return EXIT_STORE;
	}
	if (c.status != 0) {
		fprintf(stderr, "%s: %s show reservation: %s\n",
		    y->x->cmd->name, y->o->scontrol, first_line(&c));
		child_free(&c);
		return EXIT_STORE;
	}
	for (line = strtok_r(c.out, "\n", &save); line != NULL && rc == 0;
	    line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, "ReservationName=", 16) != 0)
			continue;       /* "No reservations in the system" */
		if ((rc = held_parse(y, line)) < 0)
			y->nomem = 1;
		else if (rc > 0) {
			fprintf(stderr, "%s: %s show reservation: a line "
			    "without its times: %.60s\n", y->x->cmd->name,
			    y->o->scontrol, line);
			rc = EXIT_STORE;
		}
	}
	child_free(&c);
	return y->nomem ? EXIT_STORE : rc;
}

static struct held *
held_find(struct sync *y, uint64_t id)
{
	for (size_t i = 0; i < y->nh; i++)
		if (y->h[i].id == id)
			return &y->h[i];
	return NULL;
}

/* Where w's hosts are: its pool's partition, in a store of several, and
 * the pool's features as Slurm joins those all required ('&'). */
static int
want_pool(struct sync *y, struct want *w, uint32_t pool)
{
	const struct ar_pool *p = pool < y->npools ? &y->pools[pool] : NULL;

	w->partition = strdup(p != NULL && y->nparts > 1 ?
	    y->parts[p->partition].name : "");
	w->features = strdup(p != NULL ? p->features : "");
	if (w->partition == NULL || w->features == NULL)
		return ENOMEM;
	for (char *c = w->features; *c; c++)
		if (*c == ',')
			*c = '&';
	return 0;
}

static int
drain_add(const struct ar_drain *d, void *arg)
{
	struct sync *y = arg;

	if (array_room(&y->drains, &y->dcap, y->ndrains + 1,
	    sizeof(*y->drains)) != 0)
		return ENOMEM;
	y->drains[y->ndrains++] = d->id;
	return 0;
}

/* The plan, read in the transaction that maps it. */
static int
want_add(const struct ar_mapped *m, void *arg)
{
	struct sync *y = arg;
	const struct ar_hostlist *all = cmd_hosts(y->x);
	struct want *w;
	size_t len = 0, cap = 0;

	if (m->r.state != AR_GRANTED || m->nhosts == 0 || all == NULL)
		return 0;
	for (size_t i = 0; i < y->ndrains; i++)
		if (y->drains[i] == m->r.id)
			return 0;
	if (y->o->lead > 0 && m->r.start >= y->now + y->o->lead)
		return 0;       /* not yet: Slurm would idle the nodes */
	if (m->r.end <= y->now + END_MARGIN)
		return 0;
	if (array_room(&y->w, &y->wcap, y->nw + 1, sizeof(*y->w)) != 0)
		return ENOMEM;
	w = &y->w[y->nw];
	memset(w, 0, sizeof(*w));
	w->id = m->r.id;
	w->start = m->r.start;
	w->end = m->r.end;
	w->owner = m->r.owner;
	w->flags = m->r.resv_flags;
	memcpy(w->user, m->r.user, sizeof(w->user));
	memcpy(w->account, m->r.account, sizeof(w->account));
	/* Counted first, so that wants_free frees what it got. */
	y->nw++;
	if ((w->hosts = malloc(m->nhosts * sizeof(*w->hosts))) == NULL)
		return ENOMEM;
	memcpy(w->hosts, m->hosts, m->nhosts * sizeof(*w->hosts));
	w->nhosts = m->nhosts;
	if (ar_hostlist_format_subset(all, m->hosts, m->nhosts, &w->nodes,
	    &len, &cap) != 0)
		return ENOMEM;
	return want_pool(y, w, m->r.pool);
}

static void
wants_free(struct sync *y)
{
	for (size_t i = 0; i < y->nw; i++) {
		free(y->w[i].hosts);
		free(y->w[i].nodes);
		free(y->w[i].partition);
		free(y->w[i].features);
	}
	y->nw = 0;
}

static int
plan_txn(ar_txn *t, void *arg)
{
	struct sync *y = arg;
	struct ar_info i;
	int rc;

	/* Hosts may have been added since the command began. */
	if ((rc = cmd_hosts_read(y->x, t, NULL)) != 0)
		return rc;
	wants_free(y);
	y->ndrains = 0;
	if ((rc = ar_info(t, &i)) != 0 ||
	    (rc = ar_drains(t, drain_add, y)) != 0 ||
	    (rc = ar_layout(t, &y->parts, &y->nparts, &y->pools,
	    &y->npools)) != 0 ||
	    (rc = ar_map(t, 0, i.clock, i.clock + i.config.horizon, NULL, 0,
	    want_add, y)) != 0)
		return rc;
	for (size_t k = 0; k < y->nw && rc == 0; k++)
		rc = ar_export_acked(t, y->w[k].id, &y->w[k].acked);
	return rc;
}

/* The plan: mapped and kept in a write transaction when applying (so
 * its hosts stay put), else only looked at. */
static int
plan_read(struct sync *y, ar_store *s)
{
	ar_txn *t;
	int rc;

	if (y->o->mode == SLURM_APPLY)
		rc = ar_write(s, 0, y->x->now, plan_txn, y);
	else if ((rc = ar_txn_begin(s, 0, y->x->now, &t)) == 0) {
		rc = plan_txn(t, y);
		ar_txn_abort(t);
	}
	return rc;
}

/* Users=: the user label, else the owner's name; or why neither. */
static void
want_users(struct want *w, long *cache_uid, char *cache_name)
{
	const char *why;
	int rc;

	if (*w->user != '\0') {
		if ((why = slurm_name_problem(w->user)) != NULL)
			snprintf(w->problem, sizeof(w->problem),
			    "field 'user': %s", why);
		else
			memcpy(w->users, w->user, sizeof(w->users));
		return;
	}
	if (*w->account != '\0')
		return;         /* the account's members use it */
	if (*cache_uid != (long)w->owner) {
		rc = nss_name("passwd", (long)w->owner, cache_name,
		    AR_LABEL_MAX + 1);
		if (rc != 0) {
			snprintf(w->problem, sizeof(w->problem), rc > 0 ?
			    "owner %lu has no name in the name service" :
			    "owner %lu: getent passwd failed",
			    (unsigned long)w->owner);
			return;
		}
		*cache_uid = (long)w->owner;
	}
	if ((why = slurm_name_problem(cache_name)) != NULL)
		snprintf(w->problem, sizeof(w->problem), "owner %lu's name: %s",
		    (unsigned long)w->owner, why);
	else
		memcpy(w->users, cache_name, AR_LABEL_MAX + 1);
}

/* Where Slurm's copy differs, as a comma list in buf; "" if nowhere. */
static void
differences(const struct sync *y, const struct want *w,
    const struct held *h, char *buf)
{
	int ar_started = w->start <= y->now;

	*buf = '\0';
	if (ar_started ? !h->started : h->start != w->start)
		strcat(buf, ",start");
	if (h->end != w->end)
		strcat(buf, ",end");
	if (!h->hosts_ok || h->nhosts != w->nhosts ||
	    memcmp(h->hosts, w->hosts, w->nhosts * sizeof(*w->hosts)) != 0)
		strcat(buf, ",hosts");
	if (strcmp(h->users, w->users) != 0)
		strcat(buf, ",users");
	if (h->maint != ((w->flags & AR_RESV_MAINT) != 0))
		strcat(buf, ",flags");
	if (strcmp(h->accounts, w->account) != 0)
		strcat(buf, ",account");
	if (strcmp(h->partition, w->partition) != 0)
		strcat(buf, ",partition");
	if (strcmp(h->features, w->features) != 0)
		strcat(buf, ",features");
	if (*buf)
		memmove(buf, buf + 1, strlen(buf));
}

static void
op_arg(struct sync *y, struct op *o, char *arg)
{
	if (arg == NULL)
		y->nomem = 1;
	if (o->argc < ARGS_MAX - 1)
		o->argv[o->argc++] = arg;
}

static struct op *
op_new(struct sync *y, enum op_kind kind, uint64_t id, struct want *w)
{
	static const char *const verb[] = { "delete", "create", "update" };
	struct op *o;

	if (array_room(&y->op, &y->opcap, y->nop + 1, sizeof(*y->op)) != 0) {
		y->nomem = 1;
		return NULL;
	}
	o = &y->op[y->nop++];
	memset(o, 0, sizeof(*o));
	o->kind = kind;
	o->id = id;
	o->w = w;
	op_arg(y, o, strdup(y->o->scontrol));
	op_arg(y, o, strdup(verb[kind]));
	if (kind == OP_CREATE)
		op_arg(y, o, strdup("reservation"));
	op_arg(y, o, fmt("ReservationName=%s%llu", y->o->prefix,
	    (unsigned long long)id));
	return o;
}

static void
op_times(struct sync *y, struct op *o, const struct want *w, int start)
{
	char buf[AR_TIMEBUF];

	if (start) {
		slurm_time(w->start > y->now ? w->start : y->now, buf);
		op_arg(y, o, fmt("StartTime=%s", buf));
	}
	slurm_time(w->end, buf);
	op_arg(y, o, fmt("EndTime=%s", buf));
}

static void
op_create(struct sync *y, struct want *w)
{
	struct op *o = op_new(y, OP_CREATE, w->id, w);

	if (o == NULL)
		return;
	op_times(y, o, w, 1);
	op_arg(y, o, fmt("Nodes=%s", w->nodes));
	if (*w->users)
		op_arg(y, o, fmt("Users=%s", w->users));
	if (*w->account)
		op_arg(y, o, fmt("Accounts=%s", w->account));
	if (*w->partition)
		op_arg(y, o, fmt("PartitionName=%s", w->partition));
	if (*w->features)
		op_arg(y, o, fmt("Features=%s", w->features));
	if (w->flags & AR_RESV_MAINT)
		op_arg(y, o, strdup("Flags=MAINT,IGNORE_JOBS"));
}

/* Pair the plan with what Slurm holds. */
static void
match(struct sync *y)
{
	for (size_t i = 0; i < y->nh; i++)
		y->h[i].wanted = 0;
	for (size_t i = 0; i < y->nw; i++)
		if ((y->w[i].h = held_find(y, y->w[i].id)) != NULL)
			y->w[i].h->wanted = 1;
}

/* The changes that make Slurm hold the plan. */
static void
plan_ops(struct sync *y)
{
	char diff[128];

	for (size_t i = 0; i < y->nw; i++) {
		struct want *w = &y->w[i];
		struct held *h = w->h;
		struct op *o;

		if (*w->problem)
			continue;
		if (h == NULL) {
			op_create(y, w);
			continue;
		}
		differences(y, w, h, diff);
		if (*diff == '\0')
			continue;
		/* Slurm started it, ar has it start later: only anew. */
		if (h->started && w->start > y->now) {
			op_new(y, OP_DELETE, w->id, w);
			op_create(y, w);
			continue;
		}
		if ((o = op_new(y, OP_UPDATE, w->id, w)) == NULL)
			return;
		if (strstr(diff, "start") || strstr(diff, "end"))
			op_times(y, o, w, !h->started);
		if (strstr(diff, "hosts"))
			op_arg(y, o, fmt("Nodes=%s", w->nodes));
		if (strstr(diff, "users"))
			op_arg(y, o, fmt("Users=%s", w->users));
		if (strstr(diff, "account"))
			op_arg(y, o, fmt("Accounts=%s", w->account));
		if (strstr(diff, "partition"))
			op_arg(y, o, fmt("PartitionName=%s", w->partition));
		if (strstr(diff, "features"))
			op_arg(y, o, fmt("Features=%s", w->features));
		if (strstr(diff, "flags"))
			op_arg(y, o, strdup(w->flags & AR_RESV_MAINT ?
			    "Flags=MAINT" : "Flags=-MAINT"));
	}
	for (size_t i = 0; i < y->nh; i++)
		if (!y->h[i].wanted)
			op_new(y, OP_DELETE, y->h[i].id, NULL);
}

static void
ops_free(struct sync *y)
{
	for (size_t i = 0; i < y->nop; i++) {
		for (int a = 0; a < y->op[i].argc; a++)
			free(y->op[i].argv[a]);
		free(y->op[i].why);
	}
	y->nop = 0;
}

/* A word for sh: quoted when it holds more than plain characters. */
static int
shell_word(struct textbuf *b, const char *s)
{
	if (strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	    "0123456789_-.,:/=@%+") == strlen(s) && *s) {
		textbuf_printf(b, "%s", s);
		return 0;
	}
	textbuf_printf(b, "'");
	for (; *s; s++)
		textbuf_printf(b, *s == '\'' ? "'\\''" : "%c", *s);
	textbuf_printf(b, "'");
	return 0;
}

static int
print_op(struct sync *y, const struct op *o)
{
	struct textbuf b = { 0 };
	int rc;

	textbuf_printf(&b, "TZ=UTC0");
	for (int a = 0; a < o->argc; a++) {
		textbuf_printf(&b, " ");
		shell_word(&b, o->argv[a]);
	}
	textbuf_printf(&b, "\n");
	rc = b.nomem ? -1 : cmd_write(y->x, b.p, b.n);
	textbuf_free(&b);
	return rc;
}

/* Run one change; 1 if Slurm took it. */
static int
run_op(struct op *o)
{
	struct child c;
	const char *msg;

	o->argv[o->argc] = NULL;
	if (child_run(o->argv, scontrol_env, &c) != 0) {
		free(o->why);
		o->why = strdup(strerror(errno));
		return 0;
	}
	msg = first_line(&c);
	/* What Slurm no longer has is deleted already. */
	o->done = c.status == 0 || (o->kind == OP_DELETE &&
	    strstr(msg, "Requested reservation is invalid") != NULL);
	free(o->why);
	o->why = o->done ? NULL : strdup(msg);
	child_free(&c);
	return o->done;
}

/* Run the changes that are not done, again while some succeed. */
static void
retry(struct sync *y)
{
	int progress;

	do {
		progress = 0;
		for (size_t i = 0; i < y->nop; i++)
			if (!y->op[i].done && y->op[i].kind != OP_DELETE &&
			    !y->op[i].replaced)
				progress |= run_op(&y->op[i]);
	} while (progress);
}

/* Run the changes: deletes first, then the rest while some succeed; an
 * update that still fails, of a reservation Slurm has not started, is
 * made a delete and a create. */
static void
apply_ops(struct sync *y)
{
	size_t n = y->nop, d;

	for (size_t i = 0; i < n; i++)
		if (y->op[i].kind == OP_DELETE)
			run_op(&y->op[i]);
	retry(y);
	for (size_t i = 0; i < n && !y->nomem; i++) {
		struct want *w = y->op[i].w;

		if (y->op[i].done || y->op[i].kind != OP_UPDATE ||
		    w->h->started)
			continue;
		d = y->nop;
		if (op_new(y, OP_DELETE, w->id, w) == NULL)
			break;
		if (!run_op(&y->op[d]))
			continue;       /* its record tells why */
		y->op[i].replaced = 1;
		op_create(y, w);
	}
	/* The hosts those deletes freed may be what others waited for. */
	retry(y);
}

/* The record of a change: what it was, and how Slurm took it. */
static int
op_record(struct sync *y, const struct op *o)
{
	static const char *const verb[] = { "delete", "create", "update" };
	struct ar_record r;
	char name[128];
	int rc;

	if (o->replaced)
		return 0;       /* its delete and create tell it */
	ar_record_init(&r);
	snprintf(name, sizeof(name), "%s%llu", y->o->prefix,
	    (unsigned long long)o->id);
	rc = ar_record_set_uint(&r, "id", o->id) != 0 ||
	    ar_record_set(&r, "name", name) != 0 ||
	    ar_record_set(&r, "op", verb[o->kind]) != 0 ||
	    (o->w != NULL && o->kind != OP_DELETE &&
	    (ar_record_set_time(&r, "start", o->w->start) != 0 ||
	    ar_record_set_time(&r, "end", o->w->end) != 0 ||
	    ar_record_set(&r, "hosts", o->w->nodes) != 0)) ||
	    ar_record_set(&r, "status", o->done ? "done" : "refused") != 0 ||
	    (!o->done && ar_record_set(&r, "reason", o->why ? o->why :
	    "unknown") != 0) || cmd_print(y->x, &r) != 0 ? -1 : 0;
	if (!o->done)
		fprintf(stderr, "%s: reservation %s: %s\n", y->x->cmd->name,
		    name, o->why ? o->why : "refused");
	ar_record_free(&r);
	return rc;
}

/* A reservation that cannot go to Slurm: a record and a message. */
static int
problem_record(struct sync *y, const struct want *w, const char *status)
{
	struct ar_record r;
	char name[128];
	int rc;

	ar_record_init(&r);
	snprintf(name, sizeof(name), "%s%llu", y->o->prefix,
	    (unsigned long long)w->id);
	rc = ar_record_set_uint(&r, "id", w->id) != 0 ||
	    ar_record_set(&r, "name", name) != 0 ||
	    ar_record_set(&r, "status", status) != 0 ||
	    ar_record_set(&r, "reason", w->problem) != 0 ||
	    cmd_print(y->x, &r) != 0 ? -1 : 0;
	fprintf(stderr, "%s: reservation %s: %s\n", y->x->cmd->name, name,
	    w->problem);
	ar_record_free(&r);
	return rc;
}

/* --diff: one record per disagreement; how many there were. */
static size_t
diff_records(struct sync *y)
{
	char diff[128], name[128];
	size_t n = 0;

	for (size_t i = 0; i < y->nw; i++) {
		struct want *w = &y->w[i];
		struct held *h = w->h;
		struct ar_record r;

		if (*w->problem) {
			n++;
			problem_record(y, w, "refused");
			continue;
		}
		if (h != NULL) {
			differences(y, w, h, diff);
			if (*diff == '\0')
				continue;
		}
		n++;
		ar_record_init(&r);
		snprintf(name, sizeof(name), "%s%llu", y->o->prefix,
		    (unsigned long long)w->id);
		if (ar_record_set_uint(&r, "id", w->id) != 0 ||
		    ar_record_set(&r, "name", name) != 0 ||
		    ar_record_set(&r, "status", h != NULL ? "differs" :
		    w->acked ? "lost" : "missing") != 0 ||
		    (h != NULL && ar_record_set(&r, "differs", diff) != 0) ||
		    ar_record_set_time(&r, "start", w->start) != 0 ||
		    ar_record_set_time(&r, "end", w->end) != 0 ||
		    ar_record_set(&r, "hosts", w->nodes) != 0 ||
		    (h != NULL && (ar_record_set_time(&r, "slurm_start",
		    h->start) != 0 ||
		    ar_record_set_time(&r, "slurm_end", h->end) != 0 ||
		    ar_record_set(&r, "slurm_hosts", h->nodes) != 0)) ||
		    cmd_print(y->x, &r) != 0)
			y->nomem = 1;
		ar_record_free(&r);
	}
	for (size_t i = 0; i < y->nh; i++) {
		struct ar_record r;

		if (y->h[i].wanted)
			continue;
		n++;
		ar_record_init(&r);
		snprintf(name, sizeof(name), "%s%llu", y->o->prefix,
		    (unsigned long long)y->h[i].id);
		if (ar_record_set_uint(&r, "id", y->h[i].id) != 0 ||
		    ar_record_set(&r, "name", name) != 0 ||
		    ar_record_set(&r, "status", "stale") != 0 ||
		    ar_record_set_time(&r, "slurm_end", y->h[i].end) != 0 ||
		    ar_record_set(&r, "slurm_hosts", y->h[i].nodes) != 0 ||
		    cmd_print(y->x, &r) != 0)
			y->nomem = 1;
		ar_record_free(&r);
	}
	return n;
}

/* The ledger: the reservations Slurm now holds as the plan has them. */
static int
ledger_txn(ar_txn *t, void *arg)
{
	struct sync *y = arg;
	struct ar_acked *a;
	char diff[128];
	size_t n = 0;
	int rc;

	if ((a = malloc((y->nw + 1) * sizeof(*a))) == NULL)
		return ENOMEM;
	for (size_t i = 0; i < y->nw; i++) {
		struct want *w = &y->w[i];
		struct ar_resv r;

		if (w->h == NULL)
			continue;
		differences(y, w, w->h, diff);
		/* One that went since the plan was read has no entry. */
		if (*diff != '\0' || ar_get(t, w->id, &r) != 0)
			continue;
		a[n++] = (struct ar_acked){ w->id, w->start, w->end, w->hosts,
		    w->nhosts };
	}
	rc = ar_export_record(t, a, n);
	free(a);
	return rc;
}

int
slurm_sync(struct ctx *x, ar_store *s, const struct slurm_opts *o)
{
	struct sync y = { .x = x, .o = o };
	long uid = -1;
	char name[AR_LABEL_MAX + 1];
	int rc, status = 0, refused = 0;

	y.now = (int64_t)time(NULL);
	if ((rc = plan_read(&y, s)) != 0) {
		status = rc == ENOMEM ? (fprintf(stderr, "%s: out of memory\n",
		    x->cmd->name), EXIT_STORE) : cmd_store_error(x, rc);
		goto out;
	}
	for (size_t i = 0; i < y.nw; i++)
		want_users(&y.w[i], &uid, name);
	if ((status = slurm_read(&y)) != 0)
		goto out;
	match(&y);
	if (o->mode == SLURM_DIFF) {
		status = diff_records(&y) > 0 ? EXIT_REFUSED : 0;
		goto out;
	}
	plan_ops(&y);
	if (o->mode == SLURM_DRY) {
		for (size_t i = 0; i < y.nw; i++)
			if (*y.w[i].problem)
				fprintf(stderr, "%s: reservation %s%llu: %s\n",
				    x->cmd->name, o->prefix,
				    (unsigned long long)y.w[i].id,
				    y.w[i].problem);
		for (size_t i = 0; i < y.nop && !y.nomem; i++)
			if (print_op(&y, &y.op[i]) != 0)
				y.nomem = 1;
		goto out;
	}
	for (size_t i = 0; i < y.nw; i++)
		if (*y.w[i].problem) {
			refused = 1;
			if (problem_record(&y, &y.w[i], "refused") != 0)
				y.nomem = 1;
		}
	apply_ops(&y);
	for (size_t i = 0; i < y.nop; i++) {
		refused |= !y.op[i].done && !y.op[i].replaced;
		if (op_record(&y, &y.op[i]) != 0)
			y.nomem = 1;
	}
	/* Slurm says what it holds now; only that is recorded. */
	if ((status = slurm_read(&y)) != 0)
		goto out;
	match(&y);
	if ((rc = ar_write(s, 0, x->now, ledger_txn, &y)) != 0)
		status = cmd_store_error(x, rc);
	else
		status = refused ? EXIT_REFUSED : 0;
out:
	if (y.nomem && status == 0) {
		fprintf(stderr, "%s: out of memory\n", x->cmd->name);
		status = EXIT_STORE;
	}
	ops_free(&y);
	helds_free(&y);
	wants_free(&y);
	free(y.op);
	free(y.h);
	free(y.w);
	free(y.drains);
	return status;
}
