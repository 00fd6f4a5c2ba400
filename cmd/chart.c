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

void
chart_legend(struct textbuf *b, double x, double y, const char *colour,
    const char *name)
{
	char shown[25];
	size_t n = strlen(name);

	/* Cut at a character's start, so that UTF-8 stays whole. */
	if (n >= sizeof(shown))
		for (n = sizeof(shown) - 1; n > 0 &&
		    ((unsigned char)name[n] & 0xc0) == 0x80; n--)
			;
	snprintf(shown, sizeof(shown), "%.*s", (int)n, name);
	textbuf_printf(b, "<rect x=\"%.0f\" y=\"%.0f\" width=\"12\" "
	    "height=\"12\" fill=\"%s\"/>\n<text x=\"%.0f\" y=\"%.0f\">", x, y,
	    colour, x + 16, y + 11);
	textbuf_xml(b, shown);
	textbuf_printf(b, "</text>\n");
}
