/*
 * chart.h - the commands' presentation: text made in memory, to go out
 * whole; and what their SVG charts share (ar-report --usage
 * --svg, ar-map --svg): a title naming the store and the time drawn, a
 * time axis whose ticks fall on round hours or days, a line at the
 * clock, a value axis with round ticks and its unit, legend entries.
 * Everything is drawn into a textbuf, in pixels.
 */
#ifndef AR_CHART_H
#define AR_CHART_H

#include <stddef.h>
#include <stdint.h>

#include "format.h"

/*
 * Text made in memory, to go out whole: a table, an SVG image.  Start
 * from all zeros.  A failure to grow sets nomem and makes the rest no-ops.
 */
struct textbuf {
	char *p;                /* the text, n bytes (not NUL-terminated) */
	size_t n, cap;
	int nomem;              /* memory ran out: the text is incomplete */
};

/* Append, as printf does. */
void textbuf_printf(struct textbuf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Append s with XML's special characters escaped. */
void textbuf_xml(struct textbuf *b, const char *s);

/* Append the opening of an SVG image of width x height pixels, on
 * white; it ends with "</svg>\n". */
void chart_begin(struct textbuf *b, int width, int height);

/* Write the text to path whole: under a name of its own, then renamed
 * into place, so that nobody sees half of it.  0, or -1 with errno
 * (ENOMEM if the text is incomplete). */
int textbuf_save(const struct textbuf *b, const char *path);

/* Free the text; it is then empty. */
void textbuf_free(struct textbuf *b);

/* Time across: lo is drawn at pixel x, hi at x + w. */
struct chart_time {
	int64_t lo, hi;         /* seconds, lo < hi */
	double x, w;
};

/* The colour of the clock's line and of the axes. */
#define CHART_INK "#000000"

/* Where time t is drawn, clamped to the axis. */
double chart_x(const struct chart_time *a, int64_t t);

/* A title at (x, y), and under it "store WHERE, FROM to TO UTC" for the
 * time on axis a.  A PostgreSQL store is named by its store= name only,
 * so that no credential of its URI is drawn. */
void chart_title(struct textbuf *b, double x, double y, const char *title,
    const char *where, const struct chart_time *a);

/* Under the plot, whose top is at top and whose time axis is at y: a
 * faint line across the plot and a tick below y at every round time
 * (hours, or days, at most one per 60 pixels), labelled "HH:MM", or
 * "MM-DD" at midnight, and the axis line itself.  Drawn before the data,
 * which covers the faint lines. */
void chart_time_axis(struct textbuf *b, const struct chart_time *a,
    double top, double y);

/* A line from top to y at now, labelled "now" above it, if now is on
 * the axis.  Drawn after the data, over it. */
void chart_now(struct textbuf *b, const struct chart_time *a, int64_t now,
    double top, double y);

/* A value axis at pixel x, from 0 at y up h pixels: ticks at round
 * values (1, 2, 2.5 or 5 times a power of ten apart) from 0 to the
 * first at or above max (1 if max is not above 0), labelled, with
 * unit written along it.  Returns the top value: a value v is drawn at
 * y - h v / top. */
double chart_value_axis(struct textbuf *b, double max, double x, double y,
    double h, const char *unit);

/* A legend entry: a 12-pixel swatch of colour at (x, y), name beside it
 * (at most 24 characters of it). */
void chart_legend(struct textbuf *b, double x, double y, const char *colour,
    const char *name);

/* The figures of ar-report --usage, kept for a table or charts: a set
 * for each window or group, the total last. */
struct usage_kept {
	enum ar_usage_by by;
	struct ar_pricing pr;   /* the store's classes */
	struct ar_usage *u;     /* the figures, and their labels ... */
	char **labels;          /* ... here: NULL for a window's */
	size_t n, cap, labelcap;
	int64_t window;         /* --window, for the charts' titles */
	int64_t now;            /* the clock, for their line */
	const char *where;      /* the store, for their titles */
};

/* The figures as a table into b: the window or group, then one column
 * each, aligned under headings with their units.  -1 if memory ran
 * out. */
int chart_usage_table(const struct usage_kept *k, struct textbuf *b);

/* The figures of windows as SVG charts into b: utilisation and
 * acceptance, with classes revenue per class, with a reclaim policy the
 * reserved node-slots used, idle and not reported; or of groups (--by),
 * one chart of their node-slots, a column each.  The layout is
 * fixed, so that a test can find a value where it is drawn (chart.c
 * says where).  Memory running out sets b->nomem. */
void chart_usage_svg(const struct usage_kept *k, struct textbuf *b);

#endif
