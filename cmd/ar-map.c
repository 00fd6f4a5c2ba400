/*
 * ar-map - the plan on named hosts: which hosts each reservation holds,
 * kept in the store so that they stay put; as records, as the commands
 * that put the plan into Slurm, or as a Gantt chart.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "chart.h"
#include "cmd.h"
#include "slurm.h"

enum mode { IDS, PLAN, SLURM, SVG };
enum {
	OPT_FROM = 300, OPT_TO, OPT_SLURM, OPT_SVG, OPT_FIRST_FIT, OPT_APPLY,
	OPT_DIFF, OPT_PREFIX, OPT_SCONTROL, OPT_LEAD
};

struct opts {
	enum mode mode;
	const char *from, *to;  /* the range, as given */
	const char *svg;        /* --svg: the file */
	unsigned flags;         /* AR_MAP_FIRST_FIT */
	int64_t lo, hi;         /* the range */
	uint64_t *ids;          /* IDS: the reservations asked about */
	struct item **asked;    /* ... and the lines that asked */
	size_t nids;
	size_t next;            /* the next of them to answer */
	int refused;            /* an id was not found */
	struct gantt *chart;
	struct slurm_opts slurm;
	const char *lead;       /* --lead, as given */
};

/* What a line of ar-map keeps: the reservation it asks about, or 0
 * (another command's refusal, passed on). */
struct map_line {
	uint64_t id;
};

static const struct option longopts[] = {
	{ "plan", no_argument, NULL, 'p' },
	{ "from", required_argument, NULL, OPT_FROM },
	{ "to", required_argument, NULL, OPT_TO },
	{ "slurm", no_argument, NULL, OPT_SLURM },
	{ "svg", required_argument, NULL, OPT_SVG },
	{ "first-fit", no_argument, NULL, OPT_FIRST_FIT },
	{ "apply", no_argument, NULL, OPT_APPLY },
	{ "diff", no_argument, NULL, OPT_DIFF },
	{ "prefix", required_argument, NULL, OPT_PREFIX },
	{ "scontrol", required_argument, NULL, OPT_SCONTROL },
	{ "lead", required_argument, NULL, OPT_LEAD },
	{ NULL, 0, NULL, 0 }
};

static int
option(struct ctx *x, int opt, const char *arg)
{
	struct opts *o = x->data;

	switch (opt) {
	case 'p':
		o->mode = PLAN;
		x->write = AR_WRITE;
		x->store_wide = 0;
		break;
	case OPT_FROM:
		o->from = arg;
		break;
	case OPT_TO:
		o->to = arg;
		break;
	case OPT_SLURM:
		o->mode = SLURM;
		x->write = AR_WRITE;
		x->store_wide = 1;
		break;
	case OPT_SVG:
		/* A chart keeps nothing: a reader, which may ask what if. */
		o->mode = SVG;
		o->svg = arg;
		x->write = 0;
		x->store_wide = 0;
		break;
	case OPT_FIRST_FIT:
		o->flags |= AR_MAP_FIRST_FIT;
		break;
	case OPT_APPLY:
	case OPT_DIFF:
		o->slurm.mode = opt == OPT_APPLY ? SLURM_APPLY : SLURM_DIFF;
		break;
	case OPT_PREFIX:
		o->slurm.prefix = arg;
		break;
	case OPT_SCONTROL:
		o->slurm.scontrol = arg;
		break;
	case OPT_LEAD:
		o->lead = arg;
		break;
	default:
		return -1;
	}
	return 0;
}

static const char *
map_status(const struct ar_mapped *m)
{
	static const char *const names[] = {
		"unmapped", "new", "kept", "remapped", "refused"
	};

	/* What ended, or was cancelled, says so. */
	if (m->status != AR_MAP_NOTFOUND && m->r.state != AR_GRANTED)
		return ar_status_name(m->r.state);
	return names[m->status];
}

/* The mapping's fields on a record. */
static int
mapped_fields(struct ctx *x, struct ar_record *r, const struct ar_mapped *m)
{
	if (m->status == AR_MAP_NOTFOUND)
		return ar_record_set(r, "status", "refused") != 0 ||
		    ar_record_set(r, "reason", "not-found") != 0 ? -1 : 0;
	if (cmd_set_hosts(x, r, "hosts", m->hosts, m->nhosts) != 0 ||
	    cmd_set_hosts(x, r, "old_hosts", m->old, m->nold) != 0 ||
	    ar_record_set(r, "status", map_status(m)) != 0)
		return -1;
	ar_record_del(r, "reason");
	return 0;
}

/* The plan over the range, one record per reservation. */
static int
plan_record(const struct ar_mapped *m, void *arg)
{
	struct ctx *x = arg;
	struct ar_record r;
	int rc;

	ar_record_init(&r);
	rc = cmd_resv(&r, &m->r) != 0 || mapped_fields(x, &r, m) != 0 ||
	    cmd_print(x, &r) != 0 ? ENOMEM : 0;
	ar_record_free(&r);
	return rc;
}

/* IDS: the line that asked, with the mapping's fields. */
static int
id_record(const struct ar_mapped *m, void *arg)
{
	struct ctx *x = arg;
	struct opts *o = x->data;
	struct item *it = o->asked[o->next++];

	if (m->status == AR_MAP_NOTFOUND) {
		cmd_warn(x, it->line, "reservation %llu: %s",
		    (unsigned long long)m->r.id, ar_strerror(AR_ENOTFOUND));
		o->refused = 1;
	}
	return mapped_fields(x, &it->rec, m) != 0 ? ENOMEM : 0;
}

/*
 * A Gantt chart: hosts down the side, time across, a labelled bar per
 * reservation and run of hosts (the thesis's Figure 3.13), coloured by
 * its user label, with a legend of them under the time axis.  In a store
 * of several partitions the hosts are grouped by partition, each group
 * named beside its hosts and ruled off from the next.
 */
#define GANTT_USERS 7           /* users with a colour of their own */

struct gantt {
	struct ctx *x;
	struct textbuf b;        /* the chart, drawn in memory */
	struct chart_time a;    /* the time drawn, across */
	int64_t now;            /* the clock's line */
	size_t hosts;
	uint32_t *row_of;       /* each host's row; NULL: its index */
	uint32_t *host_at;      /* ... and each row's host */
	double row;             /* pixels per host */
	double left;            /* room for the names beside the rows */
	char users[GANTT_USERS][AR_LABEL_MAX + 1];      /* in order of */
	size_t nusers;          /* first appearance */
	int others;             /* users beyond them were drawn */
};

#define GANTT_LEFT 90.0         /* room for host names */
#define GANTT_PART 80.0         /* ... and for partition names, left of them */
#define GANTT_TOP 50.0          /* room for the title and "now" */
#define GANTT_WIDTH 900.0

/* The users' colours; the last for those beyond GANTT_USERS. */
static const char *const user_fill[GANTT_USERS + 1] = {
	"#4477aa", "#ee6677", "#228833", "#ccbb44", "#66ccee", "#aa3377",
	"#997700", "#bbbbbb"
};

static double
gantt_bottom(const struct gantt *g)
{
	return GANTT_TOP + g->row * (double)g->hosts;
}

/* The row of host i. */
static uint32_t
gantt_row(const struct gantt *g, uint32_t i)
{
	return g->row_of != NULL ? g->row_of[i] : i;
}

/*
 * In a store of several partitions: the rows, partition by partition
 * (each partition's pools in order, a pool's hosts in the store's
 * order), each partition named beside its first row and ruled off from
 * the one before.
 */
static int
gantt_partitions(struct gantt *g, ar_txn *t, const struct ar_partition *parts,
    size_t nparts, const struct ar_pool *pools, size_t npools)
{
	uint32_t next = 0, first, *pool_of;
	int rc;

	if (nparts < 2 || cmd_hosts(g->x) == NULL)
		return 0;
	if ((pool_of = calloc(g->hosts, sizeof(*pool_of))) == NULL ||
	    (g->row_of = calloc(g->hosts, sizeof(*g->row_of))) == NULL ||
	    (g->host_at = calloc(g->hosts, sizeof(*g->host_at))) == NULL) {
		free(pool_of);
		return ENOMEM;
	}
	if ((rc = ar_host_pools(t, pool_of)) != 0) {
		free(pool_of);
		return rc;
	}
	for (size_t p = 0; p < nparts; p++) {
		first = next;
		for (size_t k = 0; k < npools; k++) {
			if (pools[k].partition != p)
				continue;
			for (uint32_t h = 0; h < g->hosts; h++)
				if (pool_of[h] == k) {
					g->row_of[h] = next;
					g->host_at[next++] = h;
				}
		}
		textbuf_printf(&g->b, "<text class=\"partition\" x=\"%.0f\" "
		    "y=\"%.1f\" font-weight=\"bold\">", 4.0, GANTT_TOP +
		    g->row * (double)first + 12.0);
		textbuf_xml(&g->b, parts[p].name);
		textbuf_printf(&g->b, "</text>\n");
		if (first > 0)
			textbuf_printf(&g->b, "<line x1=\"%.0f\" y1=\"%.1f\" "
			    "x2=\"%.0f\" y2=\"%.1f\" stroke=\"#444\"/>\n", 2.0,
			    GANTT_TOP + g->row * (double)first, g->left +
			    GANTT_WIDTH, GANTT_TOP + g->row * (double)first);
	}
	free(pool_of);
	return next == g->hosts ? 0 : AR_ECORRUPT;
}

static int
gantt_begin(struct gantt *g, ar_txn *t)
{
	const struct ar_hostlist *h = cmd_hosts(g->x);
	const struct ar_partition *parts;
	const struct ar_pool *pools;
	char name[AR_HOSTNAME_MAX + 1];
	size_t step, nparts, npools;
	int rc;

	if ((rc = ar_layout(t, &parts, &nparts, &pools, &npools)) != 0)
		return rc;
	g->row = g->hosts > 200 ? 2.0 : g->hosts > 50 ? 6.0 : 16.0;
	g->left = GANTT_LEFT + (nparts > 1 ? GANTT_PART : 0.0);
	g->a.x = g->left;
	g->a.w = GANTT_WIDTH;
	g->nusers = 0;
	g->others = 0;
	chart_begin(&g->b, (int)(g->left + GANTT_WIDTH + 20.0),
	    (int)(gantt_bottom(g) + 56.0));
	chart_title(&g->b, g->left, 16, "The plan on hosts (time in UTC "
	    "across, hosts down)", g->x->dir, &g->a);
	if ((rc = gantt_partitions(g, t, parts, nparts, pools, npools)) != 0)
		return rc;
	/* Host names, as many as fit. */
	step = g->row >= 12.0 ? 1 : (size_t)(12.0 / g->row) + 1;
	for (size_t i = 0; h != NULL && i < g->hosts; i += step) {
		textbuf_printf(&g->b, "<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">",
		    g->left - 6.0, GANTT_TOP + g->row * ((double)i + 0.5) +
		    4.0);
		textbuf_xml(&g->b, ar_hostlist_name(h, g->host_at != NULL ?
		    g->host_at[i] : (uint32_t)i, name));
		textbuf_printf(&g->b, "</text>\n");
	}
	chart_time_axis(&g->b, &g->a, GANTT_TOP, gantt_bottom(g));
	textbuf_printf(&g->b, "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" "
	    "height=\"%.1f\" fill=\"none\" stroke=\"#888\"/>\n", g->left,
	    GANTT_TOP, GANTT_WIDTH, g->row * (double)g->hosts);
	return g->b.nomem ? ENOMEM : 0;
}

/* The colour of user's bars: the next free one when first met. */
static const char *
gantt_fill(struct gantt *g, const char *user)
{
	size_t i;

	for (i = 0; i < g->nusers; i++)
		if (strcmp(g->users[i], user) == 0)
			return user_fill[i];
	if (g->nusers == GANTT_USERS) {
		g->others = 1;
		return user_fill[GANTT_USERS];
	}
	snprintf(g->users[g->nusers], sizeof(g->users[0]), "%s", user);
	return user_fill[g->nusers++];
}

static int
gantt_bar(const struct ar_mapped *m, void *arg)
{
	struct gantt *g = arg;
	double x0 = chart_x(&g->a, m->r.start), x1 = chart_x(&g->a, m->r.end);
	const char *fill = gantt_fill(g, m->r.user);
	double y, h;
	char label[64];

	snprintf(label, sizeof(label), "%llu", (unsigned long long)m->r.id);
	for (size_t i = 0, j; i < m->nhosts; i = j) {
		/* One bar per run of consecutive rows. */
		for (j = i + 1; j < m->nhosts && gantt_row(g, m->hosts[j]) ==
		    gantt_row(g, m->hosts[j - 1]) + 1; j++)
			;
		y = GANTT_TOP + g->row * (double)gantt_row(g, m->hosts[i]);
		h = g->row * (double)(j - i);
		textbuf_printf(&g->b, "<g><title>reservation %s", label);
		if (*m->r.user) {
			textbuf_printf(&g->b, " user ");
			textbuf_xml(&g->b, m->r.user);
		}
		textbuf_printf(&g->b, "</title><rect class=\"resv\" data-id=\"%s\" "
		    "x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" "
		    "fill=\"%s\" stroke=\"white\" stroke-width=\"0.5\"/>", label,
		    x0, y, x1 - x0, h, fill);
		if (h >= 10.0 && x1 - x0 >= 7.0 * (double)strlen(label))
			textbuf_printf(&g->b, "<text x=\"%.2f\" y=\"%.2f\" "
			    "text-anchor=\"middle\" fill=\"white\">%s</text>",
			    (x0 + x1) / 2.0, y + h / 2.0 + 4.0, label);
		textbuf_printf(&g->b, "</g>\n");
	}
	return g->b.nomem ? ENOMEM : 0;
}

/* The clock's line over the bars, and the users' legend. */
static void
gantt_end(struct gantt *g)
{
	double y = gantt_bottom(g) + 30.0;
	size_t i;

	chart_now(&g->b, &g->a, g->now, GANTT_TOP, gantt_bottom(g));
	for (i = 0; i < g->nusers; i++)
		chart_legend(&g->b, g->left + 110.0 * (double)i, y,
		    user_fill[i], g->users[i][0] ? g->users[i] : "(no user)");
	if (g->others)
		chart_legend(&g->b, g->left + 110.0 * (double)i, y,
		    user_fill[GANTT_USERS], "other users");
	textbuf_printf(&g->b, "</svg>\n");
}

/* The work of one write transaction, from the start each time. */
static int
map_txn(ar_txn *t, void *arg)
{
	struct ctx *x = arg;
	struct opts *o = x->data;
	int rc;

	x->outlen = 0;
	/* Hosts may have been added since the command began. */
	if ((rc = cmd_hosts_read(x, t, NULL)) != 0)
		return rc;
	o->next = 0;
	o->refused = 0;
	switch (o->mode) {
	case IDS:
		return ar_map(t, o->flags, 0, 0, o->ids, o->nids, id_record, x);
	case SVG:
		/* Drawn in memory, written to the file once committed. */
		textbuf_free(&o->chart->b);
		o->chart->now = ar_txn_now(t);
		free(o->chart->row_of);
		free(o->chart->host_at);
		o->chart->row_of = o->chart->host_at = NULL;
		if ((rc = gantt_begin(o->chart, t)) != 0)
			return rc;
		return ar_map(t, o->flags, o->lo, o->hi, NULL, 0, gantt_bar,
		    o->chart);
	default:
		return ar_map(t, o->flags, o->lo, o->hi, NULL, 0, plan_record,
		    x);
	}
}

static int
map_store(struct ctx *x, ar_store *s)
{
	struct opts *o = x->data;
	ar_txn *t;
	int rc;

	/* A chart only looks: it maps in a read transaction, keeps nothing. */
	if (o->mode != SVG)
		rc = ar_write(s, 0, x->now, map_txn, x);
	else if ((rc = ar_txn_begin(s, 0, x->now, &t)) == 0) {
		rc = map_txn(t, x);
		ar_txn_abort(t);
	}

	if (rc == ENOMEM || rc == EIO) {
		fprintf(stderr, "%s: %s\n", x->cmd->name, rc == EIO ?
		    "write error" : "out of memory");
		return EXIT_STORE;
	}
	return rc != 0 ? cmd_store_error(x, rc) : 0;
}

static int
prepare_id(struct ctx *x, struct item *it, char *err)
{
	struct map_line *l = it->own;
	int rc;

	/* Another command's refusal passes through untouched. */
	if ((rc = cmd_id_field(x, it, "id", &l->id, err)) == 0 &&
	    cmd_get(x, &it->rec, "status") == NULL)
		snprintf(err, AR_ERRMAX, "missing field 'id'");
	return rc == 1 || (rc == 0 &&
	    cmd_get(x, &it->rec, "status") != NULL) ? 0 : -1;
}

static int
map_ids(struct ctx *x, struct item *items, size_t n)
{
	struct opts *o = x->data;
	int status;

	if ((o->ids = malloc((n + 1) * sizeof(*o->ids))) == NULL ||
	    (o->asked = malloc((n + 1) * sizeof(*o->asked))) == NULL) {
		fprintf(stderr, "%s: out of memory\n", x->cmd->name);
		return EXIT_STORE;
	}
	for (size_t i = 0; i < n; i++) {
		const struct map_line *l = items[i].own;

		if (l->id != 0) {
			o->ids[o->nids] = l->id;
			o->asked[o->nids++] = &items[i];
		}
	}
	if ((status = map_store(x, x->store)) != 0)
		return status;
	for (size_t i = 0; i < n; i++)
		if (cmd_print(x, &items[i].rec) != 0) {
			fprintf(stderr, "%s: out of memory\n", x->cmd->name);
			return EXIT_STORE;
		}
	return o->refused ? EXIT_REFUSED : 0;
}

/* --slurm: its options checked, the work is slurm.c's. */
static int
slurm(struct ctx *x, ar_store *s, struct opts *o)
{
	const char *why;

	if (o->lead != NULL && cmd_duration_opt(x, "option '--lead'", o->lead,
	    &o->slurm.lead) != 0)
		return EXIT_USAGE;
	if (o->slurm.scontrol == NULL &&
	    (o->slurm.scontrol = getenv("AR_SCONTROL")) == NULL)
		o->slurm.scontrol = "scontrol";
	if (*o->slurm.scontrol == '\0') {
		fprintf(stderr, "%s: option '--scontrol': empty\n",
		    x->cmd->name);
		return EXIT_USAGE;
	}
	/* The names ar owns: a prefix Slurm reads as part of one name. */
	if ((why = slurm_name_problem(o->slurm.prefix)) != NULL ||
	    strlen(o->slurm.prefix) > 64) {
		fprintf(stderr, "%s: option '--prefix': %s\n", x->cmd->name,
		    why != NULL ? why : "longer than 64 bytes");
		return EXIT_USAGE;
	}
	/* What was done is told even when Slurm could not be read after. */
	x->keep_output = o->slurm.mode == SLURM_APPLY;
	return slurm_sync(x, s, &o->slurm);
}

static int
whole(struct ctx *x, ar_store *s)
{
	struct opts *o = x->data;
	struct gantt g = { .x = x };
	int status;

	if (o->mode == IDS && (o->from != NULL || o->to != NULL))
		o->mode = PLAN;
	if (o->mode != SLURM && (o->slurm.mode != SLURM_DRY || o->lead ||
	    o->slurm.scontrol || strcmp(o->slurm.prefix, "ar-") != 0)) {
		fprintf(stderr, "%s: --apply, --diff, --lead, --prefix and "
		    "--scontrol go with --slurm\n", x->cmd->name);
		return EXIT_USAGE;
	}
	if (o->mode == IDS) {
		status = cmd_read_all(x, x->argc, x->argv, prepare_id, map_ids);
		free(o->ids);
		free(o->asked);
		return status;
	}
	if (x->argc > 0) {
		fprintf(stderr, "%s: takes no records as arguments with "
		    "--plan, --from, --to, --slurm or --svg\n", x->cmd->name);
		return EXIT_USAGE;
	}
	if (o->mode == SLURM)
		return slurm(x, s, o);
	if ((status = cmd_range(x, s, o->from, o->to, &o->lo, &o->hi)) !=
	    0)
		return status;
	if (o->mode != SVG)
		return map_store(x, s);
	g.a.lo = o->lo;
	g.a.hi = o->hi;
	g.hosts = cmd_hosts(x) != NULL ? cmd_hosts(x)->count : 0;
	o->chart = &g;
	if ((status = map_store(x, s)) == 0) {
		gantt_end(&g);
		if (textbuf_save(&g.b, o->svg) != 0) {
			fprintf(stderr, "%s: %s: %s\n", x->cmd->name, o->svg,
			    strerror(errno));
			status = errno == ENOMEM ? EXIT_STORE : EXIT_USAGE;
		}
	}
	textbuf_free(&g.b);
	free(g.row_of);
	free(g.host_at);
	return status;
}

static const struct cmd map = {
	.name = "ar-map",
	.bit = CMD_MAP,
	.usage = "[--first-fit] [-p | --slurm [--apply | --diff] "
	    "[--lead duration] [--prefix name] [--scontrol program] | "
	    "--svg file] [--from time] [--to time] [key=value ...]",
	.write = AR_WRITE,
	.shortopts = "p",
	.longopts = longopts,
	.option = option,
	.whole = whole,
	.whole_reads = 1,
	.line_size = sizeof(struct map_line),
};

int
main(int argc, char **argv)
{
	struct opts o = { .mode = IDS, .slurm.prefix = "ar-" };

	return cmd_main(&map, argc, argv, &o);
}
