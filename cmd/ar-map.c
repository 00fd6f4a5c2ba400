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

#include "cmd.h"

enum mode { IDS, PLAN, SLURM, SVG };
enum { OPT_FROM = 300, OPT_TO, OPT_SLURM, OPT_SVG, OPT_FIRST_FIT };

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
};

static const struct option longopts[] = {
	{ "plan", no_argument, NULL, 'p' },
	{ "from", required_argument, NULL, OPT_FROM },
	{ "to", required_argument, NULL, OPT_TO },
	{ "slurm", no_argument, NULL, OPT_SLURM },
	{ "svg", required_argument, NULL, OPT_SVG },
	{ "first-fit", no_argument, NULL, OPT_FIRST_FIT },
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
	default:
		return -1;
	}
	return 0;
}

/* hosts= (and old_hosts= after a remapping) as host lists. */
static int
set_hosts(struct ctx *x, struct ar_record *r, const char *key,
    const uint32_t *idx, size_t n)
{
	const struct ar_hostlist *h = cmd_hosts(x);
	char *buf = NULL;
	size_t len = 0, cap = 0;
	int rc;

	if (h == NULL)
		return -1;
	if (n == 0) {
		ar_record_del(r, key);
		return 0;
	}
	rc = ar_hostlist_format_subset(h, idx, n, &buf, &len, &cap) != 0 ||
	    ar_record_set(r, key, buf) != 0 ? -1 : 0;
	free(buf);
	return rc;
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
	if (set_hosts(x, r, "hosts", m->hosts, m->nhosts) != 0 ||
	    set_hosts(x, r, "old_hosts", m->old, m->nold) != 0 ||
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

/* Slurm's times are the controller's local time. */
static void
slurm_time(int64_t t, char *buf, size_t size)
{
	time_t tt = (time_t)t;
	struct tm tm;

	strftime(buf, size, "%Y-%m-%dT%H:%M:%S", localtime_r(&tt, &tm));
}

/* days-hours:minutes:seconds */
static void
slurm_duration(int64_t d, char *buf, size_t size)
{
	snprintf(buf, size, "%lld-%02lld:%02lld:%02lld", (long long)(d / 86400),
	    (long long)(d % 86400 / 3600), (long long)(d % 3600 / 60),
	    (long long)(d % 60));
}

/* Names Slurm may take: letters, digits and a few marks. */
static int
slurm_word(const char *s)
{
	if (*s == '\0')
		return 0;
	for (; *s; s++)
		if (!(*s >= 'a' && *s <= 'z') && !(*s >= 'A' && *s <= 'Z') &&
		    !(*s >= '0' && *s <= '9') && strchr("._-", *s) == NULL)
			return 0;
	return 1;
}

static int
slurm_command(const struct ar_exported *e, void *arg)
{
	static const char *const verb[] = {
		"", "create reservation", "update", "delete"
	};
	struct ctx *x = arg;
	const struct ar_mapped *m = e->m;
	const struct ar_hostlist *h = cmd_hosts(x);
	char start[64], dur[64], line[1024], owner[256], *nodes = NULL;
	size_t len = 0, cap = 0;
	long uid = (long)m->r.owner;
	const char *user = m->r.user;
	int n, rc = 0;

	if (h == NULL)
		return ENOMEM;
	if (e->op == AR_EXPORT_DELETE)
		n = snprintf(line, sizeof(line), "scontrol delete "
		    "ReservationName=ar-%llu\n", (unsigned long long)m->r.id);
	else {
		if (ar_hostlist_format_subset(h, m->hosts, m->nhosts, &nodes,
		    &len, &cap) != 0)
			return ENOMEM;
		/* The label if Slurm can take it as a user, else the owner. */
		if (!slurm_word(user))
			user = cmd_account("/etc/passwd", NULL, &uid, owner,
			    sizeof(owner)) == 0 && slurm_word(owner) ? owner :
			    "root";
		slurm_time(m->r.start, start, sizeof(start));
		slurm_duration(m->r.end - m->r.start, dur, sizeof(dur));
		n = snprintf(line, sizeof(line), "scontrol %s "
		    "ReservationName=ar-%llu StartTime=%s Duration=%s "
		    "Nodes=%s%s%s\n", verb[e->op],
		    (unsigned long long)m->r.id, start, dur, nodes,
		    e->op == AR_EXPORT_CREATE ? " Users=" : "",
		    e->op == AR_EXPORT_CREATE ? user : "");
	}
	if (n < 0 || (size_t)n >= sizeof(line) ||
	    cmd_write(x, line, (size_t)n) != 0)
		rc = ENOMEM;
	free(nodes);
	return rc;
}

/*
 * A Gantt chart: hosts down the side, time across, a labelled bar per
 * reservation and run of hosts (the thesis's Figure 3.13).
 */
struct gantt {
	struct ctx *x;
	struct ar_buf b;        /* the chart, drawn in memory */
	int64_t lo, hi;         /* the time drawn */
	size_t hosts;
	double row, width;      /* pixels per host; of the time axis */
};

#define GANTT_LEFT 90.0         /* room for host names */
#define GANTT_TOP 30.0
#define GANTT_WIDTH 900.0

static double
gantt_x(const struct gantt *g, int64_t t)
{
	if (t < g->lo)
		t = g->lo;
	if (t > g->hi)
		t = g->hi;
	return GANTT_LEFT + g->width * (double)(t - g->lo) /
	    (double)(g->hi - g->lo);
}

static void
gantt_begin(struct gantt *g)
{
	const struct ar_hostlist *h = cmd_hosts(g->x);
	char name[AR_HOSTNAME_MAX + 1], when[32];
	double height;
	size_t step;

	g->row = g->hosts > 200 ? 2.0 : g->hosts > 50 ? 6.0 : 16.0;
	g->width = GANTT_WIDTH;
	height = GANTT_TOP + g->row * (double)g->hosts + 40.0;
	ar_svg_begin(&g->b, (int)(GANTT_LEFT + g->width + 20.0), (int)height);
	/* Host names, as many as fit. */
	step = g->row >= 12.0 ? 1 : (size_t)(12.0 / g->row) + 1;
	for (size_t i = 0; h != NULL && i < g->hosts; i += step) {
		ar_buf_printf(&g->b, "<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">",
		    GANTT_LEFT - 6.0, GANTT_TOP + g->row * ((double)i + 0.5) +
		    4.0);
		ar_buf_xml(&g->b, ar_hostlist_name(h, (uint32_t)i, name));
		ar_buf_printf(&g->b, "</text>\n");
	}
	ar_buf_printf(&g->b, "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" "
	    "height=\"%.1f\" fill=\"none\" stroke=\"#888\"/>\n", GANTT_LEFT,
	    GANTT_TOP, g->width, g->row * (double)g->hosts);
	/* The time axis: its ends and middle. */
	for (int k = 0; k <= 2; k++) {
		int64_t t = g->lo + (g->hi - g->lo) * k / 2;

		ar_buf_printf(&g->b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\""
		    "%s\">%s</text>\n", gantt_x(g, t), GANTT_TOP +
		    g->row * (double)g->hosts + 16.0, k == 0 ? "start" : k == 1 ?
		    "middle" : "end", ar_time_format(t, when));
	}
	ar_buf_printf(&g->b, "<text x=\"%.0f\" y=\"18\">time (UTC) &#8594;, "
	    "hosts &#8595;</text>\n", GANTT_LEFT);
}

static int
gantt_bar(const struct ar_mapped *m, void *arg)
{
	static const char *const fill[] = {
		"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2",
		"#edc948", "#b07aa1", "#9c755f"
	};
	struct gantt *g = arg;
	double x0 = gantt_x(g, m->r.start), x1 = gantt_x(g, m->r.end), y, h;
	char label[64];

	snprintf(label, sizeof(label), "%llu", (unsigned long long)m->r.id);
	for (size_t i = 0, j; i < m->nhosts; i = j) {
		/* One bar per run of consecutive hosts. */
		for (j = i + 1; j < m->nhosts && m->hosts[j] == m->hosts[j - 1] +
		    1; j++)
			;
		y = GANTT_TOP + g->row * (double)m->hosts[i];
		h = g->row * (double)(j - i);
		ar_buf_printf(&g->b, "<g><title>reservation %s", label);
		if (*m->r.user) {
			ar_buf_printf(&g->b, " user ");
			ar_buf_xml(&g->b, m->r.user);
		}
		ar_buf_printf(&g->b, "</title><rect class=\"resv\" data-id=\"%s\" "
		    "x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" "
		    "fill=\"%s\" stroke=\"white\" stroke-width=\"0.5\"/>", label,
		    x0, y, x1 - x0, h, fill[m->r.id % 8]);
		if (h >= 10.0 && x1 - x0 >= 7.0 * (double)strlen(label))
			ar_buf_printf(&g->b, "<text x=\"%.2f\" y=\"%.2f\" "
			    "text-anchor=\"middle\" fill=\"white\">%s</text>",
			    (x0 + x1) / 2.0, y + h / 2.0 + 4.0, label);
		ar_buf_printf(&g->b, "</g>\n");
	}
	return g->b.nomem ? ENOMEM : 0;
}

/* The range: from the clock to the horizon unless given. */
static int
range(struct ctx *x, ar_store *s, struct opts *o)
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
	o->lo = i.clock;
	o->hi = i.clock + i.config.horizon;
	if (o->from != NULL && ar_time_parse(o->from, x->now, &o->lo,
	    err) != 0) {
		fprintf(stderr, "%s: option '--from': %s\n", x->cmd->name, err);
		return EXIT_USAGE;
	}
	if (o->to != NULL && ar_time_parse(o->to, x->now, &o->hi, err) != 0) {
		fprintf(stderr, "%s: option '--to': %s\n", x->cmd->name, err);
		return EXIT_USAGE;
	}
	if (o->hi <= o->lo) {
		fprintf(stderr, "%s: option '--to': not after '--from'\n",
		    x->cmd->name);
		return EXIT_USAGE;
	}
	return 0;
}

/* The work of one write transaction, from the start each time. */
static int
map_txn(ar_txn *t, void *arg)
{
	struct ctx *x = arg;
	struct opts *o = x->data;

	x->outlen = 0;
	o->next = 0;
	o->refused = 0;
	switch (o->mode) {
	case IDS:
		return ar_map(t, o->flags, 0, 0, o->ids, o->nids, id_record, x);
	case SLURM:
		return ar_export(t, slurm_command, x);
	case SVG:
		/* Drawn in memory, written to the file once committed. */
		ar_buf_free(&o->chart->b);
		gantt_begin(o->chart);
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
	int rc;

	(void)x;
	/* Another command's refusal passes through untouched. */
	if ((rc = cmd_id_field(it, "id", &it->id, err)) == 0 &&
	    ar_record_get(&it->rec, "status") == NULL)
		snprintf(err, AR_ERRMAX, "missing field 'id'");
	return rc == 1 || (rc == 0 &&
	    ar_record_get(&it->rec, "status") != NULL) ? 0 : -1;
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
	for (size_t i = 0; i < n; i++)
		if (items[i].id != 0) {
			o->ids[o->nids] = items[i].id;
			o->asked[o->nids++] = &items[i];
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

static int
whole(struct ctx *x, ar_store *s)
{
	struct opts *o = x->data;
	struct gantt g = { .x = x };
	int status;

	if (o->mode == IDS && (o->from != NULL || o->to != NULL))
		o->mode = PLAN;
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
	if ((status = range(x, s, o)) != 0)
		return status;
	if (o->mode != SVG)
		return map_store(x, s);
	g.lo = o->lo;
	g.hi = o->hi;
	g.hosts = cmd_hosts(x) != NULL ? cmd_hosts(x)->count : 0;
	o->chart = &g;
	if ((status = map_store(x, s)) == 0) {
		ar_buf_printf(&g.b, "</svg>\n");
		if (ar_buf_save(&g.b, o->svg) != 0) {
			fprintf(stderr, "%s: %s: %s\n", x->cmd->name, o->svg,
			    strerror(errno));
			status = errno == ENOMEM ? EXIT_STORE : EXIT_USAGE;
		}
	}
	ar_buf_free(&g.b);
	return status;
}

static const struct cmd map = {
	.name = "ar-map",
	.usage = "[--first-fit] [-p | --slurm | --svg file] [--from time] "
	    "[--to time] [key=value ...]",
	.write = AR_WRITE,
	.shortopts = "p",
	.longopts = longopts,
	.option = option,
	.whole = whole,
	.whole_reads = 1,
};

int
main(int argc, char **argv)
{
	struct opts o = { .mode = IDS };

	return cmd_main(&map, argc, argv, &o);
}
