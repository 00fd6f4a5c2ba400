/*
 * chart.c - the parts of the commands' SVG charts that they share.  A
 * reader of a chart wants to know at a glance what it shows and when:
 * so the title names the store and the time drawn, time ticks fall on
 * round hours or days (a window of any length is drawn to scale between
 * them), the clock is a line of its own, and a value axis counts in
 * round steps of its unit.
 */
#include <stdio.h>
#include <string.h>

#include "chart.h"

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
chart_title(struct ar_buf *b, double x, double y, const char *title,
    const char *where, const struct chart_time *a)
{
	char lo[AR_TIMEBUF], hi[AR_TIMEBUF], name[64];
	const char *s;
	size_t n;

	ar_buf_printf(b, "<text x=\"%.0f\" y=\"%.0f\" font-size=\"15\">",
	    x, y);
	ar_buf_xml(b, title);
	ar_buf_printf(b, "</text>\n<text x=\"%.0f\" y=\"%.0f\" "
	    "font-size=\"11\" fill=\"#444\">store ", x, y + 15);
	if (strncmp(where, "postgresql://", 13) == 0 ||
	    strncmp(where, "postgres://", 11) == 0) {
		s = strstr(where, "store=");
		n = s != NULL ? strcspn(s + 6, "&#") : 0;
		snprintf(name, sizeof(name), "%.*s", (int)n, n ? s + 6 : "");
		ar_buf_xml(b, n ? name : "default");
		ar_buf_printf(b, " (PostgreSQL)");
	} else
		ar_buf_xml(b, where);
	ar_buf_printf(b, ", %s to %s UTC</text>\n", when(a->lo, lo),
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
chart_time_axis(struct ar_buf *b, const struct chart_time *a, double top,
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
		ar_buf_printf(b, "<path d=\"M%.2f %.2fV%.2f\" stroke=\"#ddd\"/>\n"
		    "<path d=\"M%.2f %.2fV%.2f\" stroke=\"" CHART_INK "\" "
		    "stroke-width=\"2\"/>\n<text x=\"%.2f\" y=\"%.2f\" "
		    "text-anchor=\"middle\">%s</text>\n", x, top, y, x, y,
		    y + 6, x, y + 18, label + (t % DAY == 0 ? 5 : 11));
	}
	ar_buf_printf(b, "<path d=\"M%.2f %.2fH%.2f\" stroke=\"" CHART_INK
	    "\"/>\n", a->x, y, a->x + a->w);
}

void
chart_now(struct ar_buf *b, const struct chart_time *a, int64_t now,
    double top, double y)
{
	double x;

	if (now < a->lo || now > a->hi)
		return;
	x = chart_x(a, now);
	ar_buf_printf(b, "<path d=\"M%.2f %.2fV%.2f\" stroke=\"" CHART_INK
	    "\" stroke-width=\"2\"/>\n<text x=\"%.2f\" y=\"%.2f\" "
	    "text-anchor=\"middle\">now</text>\n", x, top - 4, y, x, top - 7);
}

double
chart_value_axis(struct ar_buf *b, double max, double x, double y,
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

		ar_buf_printf(b, "<path d=\"M%.2f %.2fH%.2f\" stroke=\""
		    CHART_INK "\" stroke-width=\"2\"/>\n<text x=\"%.2f\" y=\"%.2f\" "
		    "text-anchor=\"end\">%.10g</text>\n", x - 5, at, x, x - 8,
		    at + 4, v);
	}
	ar_buf_printf(b, "<path d=\"M%.2f %.2fV%.2f\" stroke=\"" CHART_INK
	    "\"/>\n<text x=\"%.2f\" y=\"%.2f\" transform=\"rotate(-90 %.2f "
	    "%.2f)\" text-anchor=\"middle\">", x, y - h, y, x - 52, y - h / 2,
	    x - 52, y - h / 2);
	ar_buf_xml(b, unit);
	ar_buf_printf(b, "</text>\n");
	return top;
}

void
chart_legend(struct ar_buf *b, double x, double y, const char *colour,
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
	ar_buf_printf(b, "<rect x=\"%.0f\" y=\"%.0f\" width=\"12\" "
	    "height=\"12\" fill=\"%s\"/>\n<text x=\"%.0f\" y=\"%.0f\">", x, y,
	    colour, x + 16, y + 11);
	ar_buf_xml(b, shown);
	ar_buf_printf(b, "</text>\n");
}
