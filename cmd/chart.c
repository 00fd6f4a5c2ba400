/*
 * chart.c - the commands' presentation: text made in memory before it
 * goes out whole (a table, a chart, a command line), and the parts of
 * the SVG charts that the commands share.  A
 * reader of a chart wants to know at a glance what it shows and when:
 * so the title names the store and the time drawn, time ticks fall on
 * round hours or days (a window of any length is drawn to scale between
 * them), the clock is a line of its own, and a value axis counts in
 * round steps of its unit.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "array.h"
#include "chart.h"
#include "cmd.h"

void
textbuf_printf(struct textbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->nomem)
		return;
	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(b->p != NULL ? b->p + b->n : NULL,
		    b->p != NULL ? b->cap - b->n : 0, fmt, ap);
		va_end(ap);
		if (n < 0) {
			b->nomem = 1;
			return;
		}
		if (b->p != NULL && b->n + (size_t)n < b->cap) {
			b->n += (size_t)n;
			return;
		}
		/* Room for what did not fit, and the NUL vsnprintf ends it
		 * with. */
		if (array_room(&b->p, &b->cap, b->n + (size_t)n + 1, 1) != 0) {
			b->nomem = 1;
			return;
		}
	}
}

void
textbuf_xml(struct textbuf *b, const char *s)
{
	for (; *s != '\0'; s++)
		switch (*s) {
		case '<':
			textbuf_printf(b, "&lt;");
			break;
		case '>':
			textbuf_printf(b, "&gt;");
			break;
		case '&':
			textbuf_printf(b, "&amp;");
			break;
		case '"':
			textbuf_printf(b, "&quot;");
			break;
		default:
			textbuf_printf(b, "%c", *s);
		}
}

void
chart_begin(struct textbuf *b, int width, int height)
{
	textbuf_printf(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
	    "height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" "
	    "font-size=\"11\">\n"
	    "<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n",
	    width, height, width, height);
}

int
textbuf_save(const struct textbuf *b, const char *path)
{
	char tmp[4096];
	FILE *f;
	int e;

	if (b->nomem) {
		errno = ENOMEM;
		return -1;
	}
	if (snprintf(tmp, sizeof(tmp), "%s.%ld~", path, (long)getpid()) >=
	    (int)sizeof(tmp)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if ((f = fopen(tmp, "w")) == NULL)
		return -1;
	if (fwrite(b->p, 1, b->n, f) != b->n) {
		e = errno ? errno : EIO;
		fclose(f);
		remove(tmp);
		errno = e;
		return -1;
	}
	if (fclose(f) != 0 || rename(tmp, path) != 0) {
		e = errno;
		remove(tmp);
		errno = e;
		return -1;
	}
	return 0;
}

void
textbuf_free(struct textbuf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

#define DAY 86400
#define WEEK (7 * DAY)
#define MONDAY (4 * DAY)        /* 1970-01-05, the first Monday */
#define TICK_PX 60.0            /* the least room for a time label */

double
chart_x(const struct chart_time *a, int64_t t)
{
	if (t < a->lo)
		t = a->lo;
	if (t > a->hi)
		t = a->hi;
	return a->x + a->w * (double)(t - a->lo) / (double)(a->hi - a->lo);
}

/* "2026-11-21 06:30" (seconds only when there are some) into buf. */
static const char *
when(int64_t t, char *buf)
{
	ar_time_format(t, buf);
	buf[10] = ' ';
	buf[strcmp(buf + 17, "00Z") == 0 ? 16 : 19] = '\0';
	return buf;
}

void
chart_title(struct textbuf *b, double x, double y, const char *title,
    const char *where, const struct chart_time *a)
{
	char lo[AR_TIMEBUF], hi[AR_TIMEBUF], name[64];
	const char *s;
	size_t n;

	textbuf_printf(b, "<text x=\"%.0f\" y=\"%.0f\" font-size=\"15\">",
	    x, y);
	textbuf_xml(b, title);
	textbuf_printf(b, "</text>\n<text x=\"%.0f\" y=\"%.0f\" "
	    "font-size=\"11\" fill=\"#444\">store ", x, y + 15);
	if (strncmp(where, "postgresql://", 13) == 0 ||
	    strncmp(where, "postgres://", 11) == 0) {
		s = strstr(where, "store=");
		n = s != NULL ? strcspn(s + 6, "&#") : 0;
		snprintf(name, sizeof(name), "%.*s", (int)n, n ? s + 6 : "");
		textbuf_xml(b, n ? name : "default");
		textbuf_printf(b, " (PostgreSQL)");
	} else
		textbuf_xml(b, where);
	textbuf_printf(b, ", %s to %s UTC</text>\n", when(a->lo, lo),
	    when(a->hi, hi));
}

/*
 * The step between time ticks: the shortest of these that leaves
 * TICK_PX between labels, or whole weeks beyond them.  Ticks fall on
 * multiples of the step since the epoch (midnight UTC for days), weeks
 * on Mondays.
 */
static int64_t
time_step(const struct chart_time *a)
{
	static const int64_t steps[] = { 60, 300, 600, 900, 1800, 3600,
	    7200, 10800, 21600, 43200, DAY, 2 * DAY };
	double most = a->w / TICK_PX;
	int64_t span = a->hi - a->lo, step = WEEK;

	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++)
		if ((double)span / (double)steps[i] <= most)
			return steps[i];
	while ((double)span / (double)step > most)
		step *= 2;
	return step;
}

void
chart_time_axis(struct textbuf *b, const struct chart_time *a, double top,
    double y)
{
	int64_t step = time_step(a), origin = step >= WEEK ? MONDAY : 0;
	int64_t t = a->lo - ((a->lo - origin) % step + step) % step;
	char label[AR_TIMEBUF];
	double x;

	for (; t <= a->hi; t += step) {
		if (t < a->lo)
			continue;
		x = chart_x(a, t);
		ar_time_format(t, label);
		/* "HH:MM", or the date "MM-DD" at midnight. */
		if (t % DAY == 0)
			label[10] = '\0';
		else
			label[16] = '\0';
		textbuf_printf(b, "<path d=\"M%.2f %.2fV%.2f\" stroke=\"#ddd\"/>\n"
		    "<path d=\"M%.2f %.2fV%.2f\" stroke=\"" CHART_INK "\" "
		    "stroke-width=\"2\"/>\n<text x=\"%.2f\" y=\"%.2f\" "
		    "text-anchor=\"middle\">%s</text>\n", x, top, y, x, y,
		    y + 6, x, y + 18, label + (t % DAY == 0 ? 5 : 11));
	}
	textbuf_printf(b, "<path d=\"M%.2f %.2fH%.2f\" stroke=\"" CHART_INK
	    "\"/>\n", a->x, y, a->x + a->w);
}

void
chart_now(struct textbuf *b, const struct chart_time *a, int64_t now,
    double top, double y)
{
	double x;

	if (now < a->lo || now > a->hi)
		return;
	x = chart_x(a, now);
	textbuf_printf(b, "<path d=\"M%.2f %.2fV%.2f\" stroke=\"" CHART_INK
	    "\" stroke-width=\"2\"/>\n<text x=\"%.2f\" y=\"%.2f\" "
	    "text-anchor=\"middle\">now</text>\n", x, top - 4, y, x, top - 7);
}

double
chart_value_axis(struct textbuf *b, double max, double x, double y,
    double h, const char *unit)
{
	static const double nice[] = { 1, 2, 2.5, 5, 10 };
	double want, power = 1, step = 0, top;

	if (max <= 0)
		max = 1;
	want = max / 5;

	while (power * 10 <= want)
		power *= 10;
	while (power > want)
		power /= 10;
	for (size_t i = 0; step == 0; i++)
		if (nice[i] * power >= want)
			step = nice[i] * power;
	for (top = step; top < max; top += step)
		;
	for (double v = 0; v <= top + step / 2; v += step) {
		double at = y - h * v / top;

		textbuf_printf(b, "<path d=\"M%.2f %.2fH%.2f\" stroke=\""
		    CHART_INK "\" stroke-width=\"2\"/>\n<text x=\"%.2f\" y=\"%.2f\" "
		    "text-anchor=\"end\">%.10g</text>\n", x - 5, at, x, x - 8,
		    at + 4, v);
	}
	textbuf_printf(b, "<path d=\"M%.2f %.2fV%.2f\" stroke=\"" CHART_INK
	    "\"/>\n<text x=\"%.2f\" y=\"%.2f\" transform=\"rotate(-90 %.2f "
	    "%.2f)\" text-anchor=\"middle\">", x, y - h, y, x - 52, y - h / 2,
	    x - 52, y - h / 2);
	textbuf_xml(b, unit);
	textbuf_printf(b, "</text>\n");
	return top;
}

/* name cut to fit size bytes with its NUL, at a character's start, so
 * that UTF-8 stays whole, into shown. */
static const char *
shortened(const char *name, char *shown, size_t size)
{
	size_t n = strlen(name);

	if (n >= size)
		for (n = size - 1; n > 0 &&
		    ((unsigned char)name[n] & 0xc0) == 0x80; n--)
			;
	snprintf(shown, size, "%.*s", (int)n, name);
	return shown;
}

void
chart_legend(struct textbuf *b, double x, double y, const char *colour,
    const char *name)
{
	char shown[25];

	textbuf_printf(b, "<rect x=\"%.0f\" y=\"%.0f\" width=\"12\" "
	    "height=\"12\" fill=\"%s\"/>\n<text x=\"%.0f\" y=\"%.0f\">", x, y,
	    colour, x + 16, y + 11);
	textbuf_xml(b, shortened(name, shown, sizeof(shown)));
	textbuf_printf(b, "</text>\n");
}

/* --- ar-report --usage: a table and charts of its figures ------------ */

/* The columns of --table: a record's field, its heading with its unit,
 * whether it is a fraction shown as a percentage, and when it is shown:
 * always, with price classes, or with a reclaim policy. */
enum { ALWAYS, CLASSES, RECLAIM };
static const struct column {
	const char *key, *head;
	int percent;
	int when;
} columns[] = {
	{ "utilisation", "utilisation(%)", 1, ALWAYS },
	{ "idle", "idle(node-slots)", 0, ALWAYS },
	{ "granted", "granted", 0, ALWAYS },
	{ "refused", "refused", 0, ALWAYS },
	{ "acceptance", "acceptance(%)", 1, ALWAYS },
	{ "awt", "awt(s)", 0, ALWAYS },
	{ "awt_max", "awt_max(s)", 0, ALWAYS },
	{ "moved", "moved", 0, ALWAYS },
	{ "reserved_used", "used(node-slots)", 0, RECLAIM },
	{ "reserved_idle", "reserved_idle(node-slots)", 0, RECLAIM },
	{ "reserved_unreported", "unreported(node-slots)", 0, RECLAIM },
	{ "revenue", "revenue", 0, CLASSES },
};
#define NCOLUMNS (sizeof(columns) / sizeof(columns[0]))
#define NCELLS (NCOLUMNS + 2)

/* The cells of one row of the table: the window or label, then the
 * columns' values. */
static int
table_row(const struct usage_kept *k, size_t i, struct ar_record *r,
    char cells[NCELLS][AR_TIMEBUF + AR_LABEL_MAX])
{
	const struct ar_usage *u = &k->u[i];
	const char *v;
	char *end;
	double d;

	if (cmd_usage_record(r, u, k->labels[i], k->by, &k->pr, 0) != 0)
		return -1;
	if (k->by == AR_BY_WINDOW) {
		ar_time_format(u->from, cells[0]);
		if (u->total)
			snprintf(cells[1], sizeof(cells[1]), "%s", "total");
		else
			ar_time_format(u->to, cells[1]);
	} else {
		snprintf(cells[0], sizeof(cells[0]), "%s", u->total ? "total" :
		    ar_record_get(r, k->by == AR_BY_CLASS && ar_record_get(r,
		    "name") ? "name" : cmd_usage_by_name(k->by)));
		cells[1][0] = '\0';
	}
	for (size_t c = 0; c < NCOLUMNS; c++) {
		v = ar_record_get(r, columns[c].key);
		if (v == NULL)
			v = "";
		d = strtod(v, &end);
		if (columns[c].percent && *v != '\0' && *end == '\0')
			snprintf(cells[c + 2], sizeof(cells[0]), "%.1f", 100 * d);
		else
			snprintf(cells[c + 2], sizeof(cells[0]), "%s", v);
	}
	return 0;
}

int
chart_usage_table(const struct usage_kept *k, struct textbuf *b)
{
	char cells[NCELLS][AR_TIMEBUF + AR_LABEL_MAX];
	const char *head[NCELLS];
	int width[NCELLS] = { 0 };
	size_t shown[NCELLS], ncells = 0;      /* the cells printed */
	struct ar_record r;
	int rc = 0;

	head[0] = k->by == AR_BY_WINDOW ? "from" : cmd_usage_by_name(k->by);
	head[1] = k->by == AR_BY_WINDOW ? "to" : "";
	shown[ncells++] = 0;
	shown[ncells++] = 1;
	for (size_t c = 0; c < NCOLUMNS; c++) {
		head[c + 2] = columns[c].head;
		if (columns[c].when == ALWAYS ||
		    (columns[c].when == CLASSES && k->u[0].classes) ||
		    (columns[c].when == RECLAIM && k->u[0].reclaim))
			shown[ncells++] = c + 2;
	}
	for (size_t c = 0; c < NCELLS; c++)
		width[c] = (int)strlen(head[c]);
	ar_record_init(&r);
	/* Twice over the rows: the widths, then the text. */
	for (int pass = 0; pass < 2 && rc == 0; pass++) {
		for (size_t j = 0, c; pass == 1 && j < ncells; j++)
			if ((c = shown[j]) != 1 || width[1] > 0)
				textbuf_printf(b, j + 1 < ncells ? (c < 2 ? "%-*s  " :
				    "%*s  ") : "%*s\n", width[c], head[c]);
		for (size_t i = 0; i < k->n && rc == 0; i++) {
			if ((rc = table_row(k, i, &r, cells)) != 0)
				break;
			for (size_t j = 0, c; j < ncells; j++) {
				int w = (int)strlen(cells[c = shown[j]]);

				if (pass == 0 && w > width[c])
					width[c] = w;
				if (pass == 1 && (c != 1 || width[1] > 0))
					textbuf_printf(b, j + 1 < ncells ? (c < 2 ?
					    "%-*s  " : "%*s  ") : "%*s\n",
					    width[c], cells[c]);
			}
		}
	}
	ar_record_free(&r);
	return rc != 0 || b->nomem ? -1 : 0;
}

/*
 * --svg: charts of the windows, as SVG.  The layout is fixed so that a
 * test can find a value where it is drawn: each chart's plot is PLOT_W
 * by PLOT_H pixels, its top left corner PLOT_X across and PLOT_Y below
 * the chart's top; time runs across it from the first window's start to
 * the last one's end, so that a window is as wide as it is long; a value
 * v of the axis's top m is drawn up to PLOT_Y + PLOT_H (1 - v / m).
 */
#define SVG_W 800
#define CHART_H 320
#define PLOT_X 70
#define PLOT_Y 52
#define PLOT_W 600
#define PLOT_H 200
#define LEGEND_Y (PLOT_Y + PLOT_H + 30)

/* The classes' colours, first class first; the windows' utilisation in
 * one colour before the clock (what was used) and another after it
 * (what is booked). */
static const char *const palette[] = { "#4477aa", "#ee6677", "#228833",
    "#ccbb44", "#66ccee", "#aa3377", "#bbbbbb", "#000000" };
#define COLOUR_USED "#777777"
#define COLOUR_BOOKED "#4477aa"
#define COLOUR_ACCEPT "#ee6677"
#define COLOUR_USE "#228833"
#define COLOUR_IDLE "#ee6677"
#define COLOUR_UNREPORTED "#bbbbbb"
#define COLOUR_FREE "#99ddff"

/* A chart's frame at top: title, store and range, value and time axes. */
static struct chart_time
frame(struct textbuf *b, const struct usage_kept *k, size_t n, int top,
    const char *what, double *max, const char *unit)
{
	struct chart_time a = { k->u[0].from, k->u[n - 1].to, PLOT_X,
	    PLOT_W };
	char title[128], w[AR_TIMEBUF];

	snprintf(title, sizeof(title), "%s per %s window", what,
	    ar_duration_format(k->window, w));
	chart_title(b, PLOT_X, top + 18, title, k->where, &a);
	chart_time_axis(b, &a, top + PLOT_Y, top + PLOT_Y + PLOT_H);
	*max = chart_value_axis(b, *max, PLOT_X, top + PLOT_Y + PLOT_H,
	    PLOT_H, unit);
	return a;
}

/* Window i's column on axis a: its left edge and width, a tenth in from
 * each side. */
static void
column_of(const struct chart_time *a, const struct ar_usage *u, double *x,
    double *w)
{
	double left = chart_x(a, u->from), right = chart_x(a, u->to);

	*x = left + (right - left) / 10;
	*w = (right - left) * 8 / 10;
}

/* Window u's bar from x, w wide, h high on a chart at top: the part
 * before the clock in the colour of use, the rest in that of bookings. */
static void
bar(struct textbuf *b, const struct chart_time *a, int64_t now, double x,
    double w, double h, int top)
{
	double split = chart_x(a, now), y = top + PLOT_Y + PLOT_H - h;

	if (split > x)
		textbuf_printf(b, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" "
		    "height=\"%.2f\" fill=\"" COLOUR_USED "\"/>\n", x, y,
		    (split < x + w ? split : x + w) - x, h);
	if (split < x + w)
		textbuf_printf(b, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" "
		    "height=\"%.2f\" fill=\"" COLOUR_BOOKED "\"/>\n",
		    split > x ? split : x, y, x + w - (split > x ? split : x),
		    h);
}

/* The windows' utilisation as bars, their acceptance as a line with a
 * dot per window, both as percentages, on the chart at top; a window not
 * known is left empty.  n: the windows, without the total. */
static void
utilisation_chart(const struct usage_kept *k, struct textbuf *b, size_t n,
    int top)
{
	double x, w, max = 100, mid, y;
	struct chart_time a;

	a = frame(b, k, n, top, "Utilisation and acceptance", &max,
	    "utilisation, acceptance (%)");
	for (size_t i = 0; i < n; i++) {
		const struct ar_usage *u = &k->u[i];
		double h = u->capacity ? (double)PLOT_H * (double)u->reserved /
		    (double)u->capacity : 0;

		if (!u->known)
			continue;
		column_of(&a, u, &x, &w);
		bar(b, &a, k->now, x, w, h, top);
	}
	textbuf_printf(b, "<polyline fill=\"none\" stroke=\"" COLOUR_ACCEPT
	    "\" stroke-width=\"2\" points=\"");
	for (int dots = 0; dots < 2; dots++) {
		for (size_t i = 0; i < n; i++) {
			const struct ar_usage *u = &k->u[i];

			if (!u->known || !u->demand_known ||
			    u->granted + u->refused == 0)
				continue;
			mid = (chart_x(&a, u->from) + chart_x(&a, u->to)) / 2;
			y = top + PLOT_Y + PLOT_H - (double)PLOT_H *
			    (double)u->granted / (double)(u->granted +
			    u->refused);
			textbuf_printf(b, dots ? "<circle cx=\"%.2f\" "
			    "cy=\"%.2f\" r=\"4\" fill=\"" COLOUR_ACCEPT
			    "\"/>\n" : "%.2f,%.2f ", mid, y);
		}
		/* The line's points, then a dot at each. */
		if (!dots)
			textbuf_printf(b, "\"/>\n");
	}
	chart_now(b, &a, k->now, top + PLOT_Y, top + PLOT_Y + PLOT_H);
	chart_legend(b, PLOT_X, top + LEGEND_Y, COLOUR_USED,
	    "used (before now)");
	chart_legend(b, PLOT_X + 150, top + LEGEND_Y, COLOUR_BOOKED,
	    "booked (after now)");
	chart_legend(b, PLOT_X + 300, top + LEGEND_Y, COLOUR_ACCEPT,
	    "acceptance");
}

/* The parts a window's column of a stacked chart is made of, into part;
 * how many. */
typedef size_t parts_fn(const struct ar_usage *u, double *part);

/* A chart at top of every window's column of parts stacked, the first at
 * the bottom, each in its colour, under title and unit, its axis up to
 * the largest column; a window not known is left empty.  n: the windows,
 * without the total.  The legend is the caller's. */
static void
stacked_chart(const struct usage_kept *k, struct textbuf *b, size_t n,
    int top, const char *title, const char *unit, parts_fn *parts,
    const char *const *colour)
{
	double part[AR_CLASSES_MAX], x, w, y, h, max = 0, sum;
	struct chart_time a;
	size_t np;

	for (size_t i = 0; i < n; i++) {
		np = parts(&k->u[i], part);
		sum = 0;
		for (size_t c = 0; c < np; c++)
			sum += part[c];
		if (sum > max)
			max = sum;
	}
	a = frame(b, k, n, top, title, &max, unit);
	for (size_t i = 0; i < n; i++) {
		if (!k->u[i].known)
			continue;
		column_of(&a, &k->u[i], &x, &w);
		np = parts(&k->u[i], part);
		y = top + PLOT_Y + PLOT_H;
		for (size_t c = 0; c < np; c++) {
			h = (double)PLOT_H * part[c] / max;
			y -= h;
			textbuf_printf(b, "<rect x=\"%.2f\" y=\"%.2f\" "
			    "width=\"%.2f\" height=\"%.2f\" fill=\"%s\"/>\n",
			    x, y, w, h, colour[c]);
		}
	}
	chart_now(b, &a, k->now, top + PLOT_Y, top + PLOT_Y + PLOT_H);
}

/* A window's revenue per class, the first class first. */
static size_t
revenue_parts(const struct ar_usage *u, double *part)
{
	for (size_t c = 0; c < u->classes; c++)
		part[c] = (double)u->class_revenue[c];
	return u->classes;
}

/* The windows' revenue per class, stacked, the first class at the
 * bottom, on the chart at top.  n: the windows, without the total. */
static void
revenue_chart(const struct usage_kept *k, struct textbuf *b, size_t n,
    int top)
{
	stacked_chart(k, b, n, top, "Revenue per class",
	    "revenue (minor units)", revenue_parts, palette);
	for (size_t c = 0; c < k->u[0].classes; c++) {
		char name[AR_CLASS_NAME_MAX + 16];

		if (k->pr.c[c].name[0])
			snprintf(name, sizeof(name), "%s", k->pr.c[c].name);
		else
			snprintf(name, sizeof(name), "class %zu", c + 1);
		chart_legend(b, PLOT_X + 150 * (double)c, top + LEGEND_Y,
		    palette[c], name);
	}
}

/* A window's reserved node-slots by what was reported of their use:
 * used, idle, not reported. */
static size_t
use_parts(const struct ar_usage *u, double *part)
{
	part[0] = (double)u->reserved_used;
	part[1] = (double)u->reserved_idle;
	part[2] = (double)u->reserved_unreported;
	return 3;
}

/* With a reclaim policy: the windows' reserved node-slots by what was
 * reported of their use, stacked, used at the bottom, then idle (what a
 * site charges for unused), then not reported, on the chart at top.
 * n: the windows, without the total. */
static void
reclaim_chart(const struct usage_kept *k, struct textbuf *b, size_t n,
    int top)
{
	static const char *const colour[3] = { COLOUR_USE, COLOUR_IDLE,
	    COLOUR_UNREPORTED };
	static const char *const name[3] = { "used", "reserved idle",
	    "not reported" };

	stacked_chart(k, b, n, top, "Reserved: used, idle, not reported",
	    "node-slots", use_parts, colour);
	for (size_t c = 0; c < 3; c++)
		chart_legend(b, PLOT_X + 150 * (double)c, top + LEGEND_Y,
		    colour[c], name[c]);
}

/*
 * --by: one column per group (the total left out), as wide as PLOT_W
 * shares among them, a tenth in from each side, labelled under the
 * axis, its node-slots stacked from the bottom: with a reclaim policy
 * the reserved ones used, idle and not reported, else those reserved;
 * by partition then the partition's free ones (idle: its hosts less
 * what was reserved), so that a column is its hosts' node-slots.
 */
static void
groups_chart(const struct usage_kept *k, struct textbuf *b, size_t n)
{
	static const char *const name[5] = { "used", "reserved idle",
	    "not reported", "reserved", "free" };
	static const char *const colour[5] = { COLOUR_USE, COLOUR_IDLE,
	    COLOUR_UNREPORTED, COLOUR_BOOKED, COLOUR_FREE };
	struct chart_time a = { k->u[0].from, k->u[0].to, PLOT_X, PLOT_W };
	int reclaim = k->u[0].reclaim, free = k->by == AR_BY_PARTITION;
	double max = 0, part[5], x, y, h;
	double w = (double)PLOT_W / (double)(n > 0 ? n : 1);
	char title[128], shown[16], label[AR_CLASS_NAME_MAX + 16];
	size_t c;

	for (size_t i = 0; i < n; i++) {
		double sum = (double)(free ? k->u[i].capacity :
		    k->u[i].reserved);

		if (sum > max)
			max = sum;
	}
	snprintf(title, sizeof(title), "Node-slots per %s: %s%s",
	    cmd_usage_by_name(k->by), reclaim ? "used, idle and not "
	    "reported" : "reserved", free ? ", and free" : "");
	chart_title(b, PLOT_X, 18, title, k->where, &a);
	max = chart_value_axis(b, max, PLOT_X, PLOT_Y + PLOT_H, PLOT_H,
	    "node-slots");
	textbuf_printf(b, "<path d=\"M%.2f %.2fH%.2f\" stroke=\"" CHART_INK
	    "\"/>\n", a.x, (double)(PLOT_Y + PLOT_H), a.x + a.w);
	for (size_t i = 0; i < n; i++) {
		const struct ar_usage *u = &k->u[i];

		part[0] = reclaim ? (double)u->reserved_used : 0;
		part[1] = reclaim ? (double)u->reserved_idle : 0;
		part[2] = reclaim ? (double)u->reserved_unreported : 0;
		part[3] = reclaim ? 0 : (double)u->reserved;
		part[4] = free ? (double)(u->capacity - u->reserved) : 0;
		x = PLOT_X + w * (double)i + w / 10;
		y = PLOT_Y + PLOT_H;
		for (c = 0; u->known && c < 5; c++) {
			h = (double)PLOT_H * part[c] / max;
			y -= h;
			if (h > 0)
				textbuf_printf(b, "<rect x=\"%.2f\" y=\"%.2f\" "
				    "width=\"%.2f\" height=\"%.2f\" "
				    "fill=\"%s\"/>\n", x, y, w * 8 / 10, h,
				    colour[c]);
		}
		/* A class by its name, if it has one. */
		c = (size_t)atoi(k->labels[i] != NULL ? k->labels[i] : "0");
		if (k->by == AR_BY_CLASS && c >= 1 && c <= k->pr.n &&
		    k->pr.c[c - 1].name[0])
			snprintf(label, sizeof(label), "%s",
			    k->pr.c[c - 1].name);
		else
			snprintf(label, sizeof(label), "%s",
			    k->labels[i] != NULL ? k->labels[i] : "none");
		textbuf_printf(b, "<text x=\"%.2f\" y=\"%d\" "
		    "text-anchor=\"middle\">", x + w * 4 / 10,
		    PLOT_Y + PLOT_H + 16);
		textbuf_xml(b, shortened(label, shown, sizeof(shown)));
		textbuf_printf(b, "</text>\n");
	}
	x = PLOT_X;
	for (c = 0; c < 5; c++)
		if ((c < 3 && reclaim) || (c == 3 && !reclaim) ||
		    (c == 4 && free)) {
			chart_legend(b, x, LEGEND_Y, colour[c], name[c]);
			x += 150;
		}
}

void
chart_usage_svg(const struct usage_kept *k, struct textbuf *b)
{
	size_t n = k->n - 1;    /* the windows, without the total */
	int classes = k->u[0].classes != 0, reclaim = k->u[0].reclaim;
	int charts = 1 + classes + reclaim;

	if (k->by != AR_BY_WINDOW) {
		chart_begin(b, SVG_W, CHART_H);
		groups_chart(k, b, n);
		textbuf_printf(b, "</svg>\n");
		return;
	}
	chart_begin(b, SVG_W, charts * CHART_H);
	utilisation_chart(k, b, n, 0);
	if (classes)
		revenue_chart(k, b, n, CHART_H);
	if (reclaim)
		reclaim_chart(k, b, n, (1 + classes) * CHART_H);
	textbuf_printf(b, "</svg>\n");
}
