/*
 * hostlist.c - host lists as Slurm writes them: cn[001-064],gpu[1-4].
 *
 * A list is kept as runs, not as names.  A host name is a head, a
 * number and a tail: the number is its last run of digits, the head
 * what comes before and the tail what follows, so that a head never
 * ends with a digit and a tail holds none.  A run is the hosts
 * head + n + tail for n from lo to hi, each n written with the same
 * number of digits; cn[0000001-1000000] is one run.  The (head, tail)
 * pairs, the families, are kept once each.
 *
 * Runs are sorted into one order, hold no host twice and are merged
 * where they meet, so that a host's index is its rank in that order and
 * the list has a single form however it was written.  The order is
 * the family's head (runs of digits compared as numbers, by their
 * length first), its tail, then the number of digits and the number:
 * cn8, cn9, cn10 and rack2-n1 before rack10-n1.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ar.h"
#include "array.h"

#define DIGITS_MAX 18	/* a run of digits, so that it fits a uint64_t */
#define QUOTE_MAX 40	/* bytes of a host name in a message */

struct ar_hostfam {
	uint32_t at;		/* its head then its tail, in the text */
	unsigned char hlen, tlen;
};

struct ar_hostrun {
	uint64_t lo, hi;
	size_t first;		/* index of host lo */
	size_t pos;		/* while parsing: the byte that wrote it */
	uint32_t seq;		/* while parsing: runs made before it */
	uint32_t fam;
	unsigned char len;	/* digits of each n; 0: no number, lo = hi = 0 */
};

/* A range in brackets, as written. */
struct range {
	uint64_t lo, hi;
	const char *at;		/* its first byte */
	int width;		/* digits of lo, as written */
};

/* A part of a host name: literal text, or brackets (ranges r .. r+n). */
struct part {
	const char *lit;	/* NULL for brackets */
	size_t r, n;
};

/* The state of one ar_hostlist_parse. */
struct parse {
	const char *s;		/* byte positions in messages count from here */
	char *err;
	size_t max;		/* hosts the list may hold */
	struct ar_hostrun *runs;
	size_t nruns, runcap;
	struct ar_hostfam *fams;
	size_t nfams, famcap;
	char *text;
	size_t textlen, textcap;
	size_t count;
	/* the host name being read, its parts, and its expansion */
	struct part *parts;
	size_t nparts, partcap;
	struct range *ranges;
	size_t nranges, rangecap;
	const char *start;	/* its first byte */
	size_t last;		/* the brackets that become runs, or nparts */
	char name[AR_HOSTNAME_MAX + 1];
};

static const uint64_t tens[DIGITS_MAX + 1] = {
	1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000,
	1000000000, 10000000000, 100000000000, 1000000000000,
	10000000000000, 100000000000000, 1000000000000000,
	10000000000000000, 100000000000000000, 1000000000000000000
};

static int
isdig(int c)
{
	return c >= '0' && c <= '9';
}

static int
namechar(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    isdig(c) || c == '-' || c == '.' || c == '_';
}

/* The number of digits of v. */
static int
ndigits(uint64_t v)
{
	int n = 1;

	while (n < DIGITS_MAX + 1 && v >= tens[n])
		n++;
	return n;
}

/* Write v with at least width digits at o; the number written. */
static size_t
putnum(char *o, uint64_t v, int width)
{
	int i, n = ndigits(v);

	if (n < width)
		n = width;
	for (i = n - 1; i >= 0; i--, v /= 10)
		o[i] = '0' + v % 10;
	return n;
}

static int fail(struct parse *, const char *, const char *, ...)
    __attribute__((format(printf, 3, 4)));

/*
 * Fail the parse with a message, followed by the position of at unless
 * at is NULL.
 */
static int
fail(struct parse *ps, const char *at, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(ps->err, AR_ERRMAX, fmt, ap);
	va_end(ap);
	if (at != NULL && n >= 0 && n < AR_ERRMAX) {
		if (*at != '\0')
			snprintf(ps->err + n, AR_ERRMAX - n, " at byte %zu",
			    (size_t)(at - ps->s) + 1);
		else
			snprintf(ps->err + n, AR_ERRMAX - n,
			    " at end of host list");
	}
	return -1;
}

static int
nomem(struct parse *ps)
{
	snprintf(ps->err, AR_ERRMAX, "out of memory");
	return -2;
}

/* A byte that no host list may hold at all. */
static int
badchar(struct parse *ps, const char *p)
{
	unsigned char c = *p;

	if (c == ' ' || c == '\t')
		return fail(ps, p, "blank");
	if (c < 0x20 || c == 0x7f)
		return fail(ps, p, "control character");
	if (c >= 0x80)
		return fail(ps, p, "non-ASCII byte");
	return fail(ps, p, "invalid character '%c'", c);
}

/* Fail on what is at p inside the brackets opened at open, where the
 * message what says what was expected. */
static int
unexpected(struct parse *ps, const char *p, const char *open,
    const char *what)
{
	if (*p == '\0')
		return fail(ps, open, "unclosed '['");
	if (*p == '[')
		return fail(ps, p, "nested '['");
	if (!namechar(*p) && *p != ',' && *p != ']')
		return badchar(ps, p);
	return fail(ps, p, "%s", what);
}

/* Read a number at *pp into *v and the count of its digits into *n. */
static int
number(struct parse *ps, const char **pp, const char *open, uint64_t *v,
    int *n)
{
	const char *p = *pp;

	if (!isdig(*p))
		return unexpected(ps, p, open, "expected a number");
	for (*v = 0; isdig(*p); p++) {
		if (p - *pp == DIGITS_MAX)
			return fail(ps, *pp, "number longer than %d digits",
			    DIGITS_MAX);
		*v = *v * 10 + (*p - '0');
	}
	*n = p - *pp;
	*pp = p;
	return 0;
}

/*
 * Read brackets at *pp into a part: ranges lo or lo-hi, separated by
 * commas.  The high bound is written with the low bound's digits, or
 * more where it needs them: cn[8-10] and cn[098-100] but not cn[1-010]
 * or cn[001-10], which Slurm reads silently with the low bound's width.
 */
static int
brackets(struct parse *ps, const char **pp)
{
	const char *open = *pp, *p = open + 1;
	struct range *r;
	struct part *pt;
	int hn;

	if (array_room(&ps->parts, &ps->partcap, ps->nparts + 1,
	    sizeof(*pt)) != 0)
		return nomem(ps);
	pt = &ps->parts[ps->nparts++];
	pt->lit = NULL;
	pt->r = ps->nranges;
	pt->n = 0;
	for (;;) {
		if (*p == ',' || *p == ']')
			return fail(ps, p, "empty range");
		if (array_room(&ps->ranges, &ps->rangecap, ps->nranges + 1,
		    sizeof(*r)) != 0)
			return nomem(ps);
		r = &ps->ranges[ps->nranges];
		r->at = p;
		if (number(ps, &p, open, &r->lo, &r->width) != 0)
			return -1;
		r->hi = r->lo;
		hn = r->width;
		if (*p == '-') {
			p++;
			if (number(ps, &p, open, &r->hi, &hn) != 0)
				return -1;
		}
		if (r->lo > r->hi)
			return fail(ps, r->at, "reversed range '%.*s'",
			    (int)(p - r->at), r->at);
		if (hn != (r->width > ndigits(r->hi) ? r->width :
		    ndigits(r->hi)))
			return fail(ps, r->at, "mixed widths in range '%.*s'",
			    (int)(p - r->at), r->at);
		if (r->hi - r->lo >= ps->max)
			return fail(ps, r->at, "range of more than %zu host%s",
			    ps->max, ps->max == 1 ? "" : "s");
		ps->nranges++;
		pt->n++;
		if (*p == ']')
			break;
		if (*p != ',')
			return unexpected(ps, p, open, "expected ',' or ']'");
		p++;
	}
	*pp = p + 1;
	return 0;
}

/*
 * Check the name whose parts were read from start: no run of digits
 * longer than DIGITS_MAX, at most AR_HOSTNAME_MAX bytes expanded, and
 * not more hosts than the list may hold.  Then choose the brackets
 * that become runs: the last ones, if no digit follows them.
 */
static int
check_name(struct parse *ps, const char *start)
{
	const struct part *pt;
	const struct range *r;
	const char *c, *digit = NULL;
	size_t i, j, len = 0, run = 0, w;
	uint64_t hosts = 1, n;

	for (i = 0; i < ps->nparts; i++) {
		pt = &ps->parts[i];
		if (pt->lit != NULL) {
			for (c = pt->lit, j = 0; j < pt->n; c++, j++) {
				if (!isdig(*c))
					run = 0;
				else if (run++ == 0)
					digit = c;
				if (run > DIGITS_MAX)
					break;
			}
			len += pt->n;
		} else {
			r = &ps->ranges[pt->r];
			for (j = 0, w = 0, n = 0; j < pt->n; j++) {
				if ((size_t)ndigits(r[j].hi) > w)
					w = ndigits(r[j].hi);
				if ((size_t)r[j].width > w)
					w = r[j].width;
				n += r[j].hi - r[j].lo + 1;
			}
			if (run == 0)
				digit = r[0].at;
			run += w;
			len += w;
			hosts = n > ps->max || hosts * n > ps->max ?
			    ps->max + 1 : hosts * n;
		}
		if (run > DIGITS_MAX)
			return fail(ps, digit, "number longer than %d digits",
			    DIGITS_MAX);
	}
	if (len > AR_HOSTNAME_MAX)
		return fail(ps, start, "host name longer than %d bytes",
		    AR_HOSTNAME_MAX);
	if (hosts > ps->max - ps->count)
		return fail(ps, start, "more than %zu host%s", ps->max,
		    ps->max == 1 ? "" : "s");
	ps->count += hosts;

	ps->last = ps->nparts;
	for (i = ps->nparts; i > 0; i--)
		if (ps->parts[i - 1].lit == NULL) {
			ps->last = i - 1;
			break;
		}
	if (ps->last + 1 < ps->nparts) {
		pt = &ps->parts[ps->last + 1];
		for (j = 0; j < pt->n && !isdig(pt->lit[j]); j++)
			;
		if (j < pt->n)
			ps->last = ps->nparts;
	}
	return 0;
}

/* Read the host name at *pp, up to a comma or the end, into parts. */
static int
read_name(struct parse *ps, const char **pp)
{
	const char *start = *pp, *p = start, *q;
	struct part *pt;

	ps->start = start;
	ps->nparts = ps->nranges = 0;
	if (*p == ',' || *p == '\0')
		return fail(ps, p, "empty host name");
	while (*p != ',' && *p != '\0') {
		if (*p == '[') {
			if (brackets(ps, &p) != 0)
				return -1;
		} else if (*p == ']')
			return fail(ps, p, "unexpected ']'");
		else if (namechar(*p)) {
			for (q = p; namechar(*q); q++)
				;
			if (array_room(&ps->parts, &ps->partcap,
			    ps->nparts + 1, sizeof(*pt)) != 0)
				return nomem(ps);
			pt = &ps->parts[ps->nparts++];
			pt->lit = p;
			pt->n = q - p;
			p = q;
		} else
			return badchar(ps, p);
	}
	*pp = p;
	return check_name(ps, start);
}

/* The family of head and tail: the last one made if it is the same. */
static int
family(struct parse *ps, const char *head, size_t hn, const char *tail,
    size_t tn, uint32_t *fam)
{
	struct ar_hostfam *f;
	size_t need = hn + tn;

	if (ps->nfams > 0) {
		f = &ps->fams[ps->nfams - 1];
		if (f->hlen == hn && f->tlen == tn &&
		    memcmp(ps->text + f->at, head, hn) == 0 &&
		    memcmp(ps->text + f->at + hn, tail, tn) == 0) {
			*fam = ps->nfams - 1;
			return 0;
		}
	}
	/* Offsets into the text are uint32_t; a byte more, so that there
	 * is a text even for a family without head or tail. */
	if (ps->textlen + need >= UINT32_MAX || array_room(&ps->text,
	    &ps->textcap, ps->textlen + need + 1, 1) != 0 ||
	    array_room(&ps->fams, &ps->famcap, ps->nfams + 1, sizeof(*f)) != 0)
		return nomem(ps);
	f = &ps->fams[ps->nfams];
	f->at = ps->textlen;
	f->hlen = hn;
	f->tlen = tn;
	memcpy(ps->text + f->at, head, hn);
	memcpy(ps->text + f->at + hn, tail, tn);
	ps->textlen += need;
	*fam = ps->nfams++;
	return 0;
}

static int
addrun(struct parse *ps, uint32_t fam, int len, uint64_t lo, uint64_t hi,
    const char *at)
{
	struct ar_hostrun *r;

	if (array_room(&ps->runs, &ps->runcap, ps->nruns + 1, sizeof(*r)) != 0)
		return nomem(ps);
	r = &ps->runs[ps->nruns];
	r->lo = lo;
	r->hi = hi;
	r->len = len;
	r->fam = fam;
	r->pos = at - ps->s;
	r->seq = ps->nruns++;
	r->first = 0;
	return 0;
}

/* Add the host whose name is ps->name[0 .. n). */
static int
addname(struct parse *ps, size_t n, const char *at)
{
	const char *s = ps->name;
	size_t t = n, e;
	uint64_t v = 0;
	uint32_t fam;

	while (t > 0 && !isdig(s[t - 1]))
		t--;
	if (t == 0) {
		if (family(ps, s, n, "", 0, &fam) != 0)
			return -2;
		return addrun(ps, fam, 0, 0, 0, at);
	}
	for (e = t; e > 0 && isdig(s[e - 1]); e--)
		v += (s[e - 1] - '0') * tens[t - e];
	if (family(ps, s, e, s + t, n - t, &fam) != 0)
		return -2;
	return addrun(ps, fam, t - e, v, v, at);
}

/*
 * Add the hosts ps->name[0 .. n) + r + tail, written at at, as runs:
 * one for each number of digits the range spans (cn[8-10] is cn8-cn9
 * and cn10).  If the prefix ends with digits, they are the numbers'
 * first digits.
 */
static int
addrange(struct parse *ps, size_t n, const struct range *r,
    const struct part *tail, const char *at)
{
	size_t k;
	uint64_t dv = 0, lo, hi;
	uint32_t fam;
	int len;

	for (k = n; k > 0 && isdig(ps->name[k - 1]); k--)
		dv = dv + (ps->name[k - 1] - '0') * tens[n - k];
	if (family(ps, ps->name, k, tail ? tail->lit : "", tail ? tail->n : 0,
	    &fam) != 0)
		return -2;
	k = n - k;
	len = r->width > ndigits(r->lo) ? r->width : ndigits(r->lo);
	for (lo = r->lo;; lo = hi + 1, len++) {
		hi = r->hi < tens[len] - 1 ? r->hi : tens[len] - 1;
		if (addrun(ps, fam, k + len, dv * tens[len] + lo,
		    dv * tens[len] + hi, at) != 0)
			return -2;
		if (hi == r->hi)
			return 0;
	}
}

/*
 * Expand the parts from k on after the prefix ps->name[0 .. n): every
 * number of each brackets in turn, the first brackets varying slowest
 * as in Slurm, down to the brackets that become runs or to a name.
 * Hosts are said to be written at the range that last moved on to its
 * next number, at for the first of each brackets, so that a duplicate
 * in rack[1,1]-n[1-2] is found at the second 1.
 */
static int
expand(struct parse *ps, size_t k, size_t n, const char *at)
{
	const struct part *pt;
	const struct range *r;
	size_t i;
	uint64_t v;
	int rc;

	for (; k < ps->nparts; k++) {
		pt = &ps->parts[k];
		if (pt->lit != NULL) {
			memcpy(ps->name + n, pt->lit, pt->n);
			n += pt->n;
			continue;
		}
		for (i = 0; i < pt->n; i++) {
			r = &ps->ranges[pt->r + i];
			if (k == ps->last)
				rc = addrange(ps, n, r, k + 1 < ps->nparts ?
				    &ps->parts[k + 1] : NULL, i == 0 ? at :
				    r->at);
			else
				for (rc = 0, v = r->lo; v <= r->hi && rc == 0;
				    v++)
					rc = expand(ps, k + 1,
					    n + putnum(ps->name + n, v,
					    r->width), i == 0 && v == r->lo ?
					    at : r->at);
			if (rc != 0)
				return rc;
		}
		return 0;
	}
	return addname(ps, n, at);
}

/*
 * Compare two heads by their runs of digits and of other bytes: digits
 * by their length, then as bytes, so that 9 comes before 10; other
 * bytes as bytes; digits before other bytes, and a head that ends
 * first before one that goes on.  Only the first byte where they
 * differ matters, with the runs of digits around it: if it is in or
 * at the start of a number in both, the longer number is the larger;
 * if a number starts there in one only, that one comes first (its
 * text ends sooner); otherwise the bytes decide.
 */
static int
natcmp(const char *a, size_t na, const char *b, size_t nb)
{
	size_t p = 0, q, ra, rb, n = na < nb ? na : nb;

	while (p < n && a[p] == b[p])
		p++;
	if (p == n)
		return (na > nb) - (na < nb);
	for (q = p; q > 0 && isdig(a[q - 1]); q--)
		;
	for (ra = p; ra < na && isdig(a[ra]); ra++)
		;
	for (rb = p; rb < nb && isdig(b[rb]); rb++)
		;
	if (ra != rb && (q < p || (ra > p && rb > p)))
		return ra < rb ? -1 : 1;
	if ((ra > p) != (rb > p))
		return ra > p ? -1 : 1;
	return (unsigned char)a[p] - (unsigned char)b[p];
}

/* Compare a family with a head and a tail of given lengths. */
static int
famcmp(const char *text, const struct ar_hostfam *f, const char *head,
    size_t hn, const char *tail, size_t tn)
{
	const char *ft = text + f->at + f->hlen;
	size_t fn = f->tlen;
	int c;

	if ((c = natcmp(text + f->at, f->hlen, head, hn)) != 0)
		return c;
	if ((c = memcmp(ft, tail, fn < tn ? fn : tn)) != 0)
		return c;
	return (fn > tn) - (fn < tn);
}

/* A family while sorting them: its strings and its number. */
struct famkey {
	const char *text;
	const struct ar_hostfam *f;
	uint32_t id;
};

static int
famkeycmp(const void *a, const void *b)
{
	const struct famkey *x = a, *y = b;
	const char *t = x->text;

	return famcmp(t, x->f, t + y->f->at, y->f->hlen,
	    t + y->f->at + y->f->hlen, y->f->tlen);
}

static int
runcmp(const void *a, const void *b)
{
	const struct ar_hostrun *x = a, *y = b;

	if (x->fam != y->fam)
		return x->fam < y->fam ? -1 : 1;
	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* Sort with qsort, unless sorted already, as a list written in order is. */
static void
sort(void *base, size_t n, size_t size, int (*cmp)(const void *,
    const void *))
{
	const char *p = base;
	size_t i;

	for (i = 1; i < n && cmp(p + (i - 1) * size, p + i * size) <= 0; i++)
		;
	if (i < n)
		qsort(base, n, size, cmp);
}

/* Write the name of host v of run r, of the family f, into buf. */
static char *
putname(const char *text, const struct ar_hostfam *f,
    const struct ar_hostrun *r, uint64_t v, char *buf)
{
	size_t n = f->hlen;

	memcpy(buf, text + f->at, n);
	if (r->len > 0)
		n += putnum(buf + n, v, r->len);
	memcpy(buf + n, text + f->at + f->hlen, f->tlen);
	buf[n + f->tlen] = '\0';
	return buf;
}

/*
 * Sort the families and drop repeated ones, sort the runs, refuse a
 * host that two runs hold, and merge runs that meet.  The result goes
 * to h.
 */
static int
finish(struct parse *ps, struct ar_hostlist *h)
{
	struct famkey *keys;
	struct ar_hostfam *fams;
	struct ar_hostrun *r, *a, *b;
	uint32_t *rank, nf = 0;
	size_t i, n;
	char name[AR_HOSTNAME_MAX + 1];

	keys = calloc(ps->nfams, sizeof(*keys));
	rank = calloc(ps->nfams, sizeof(*rank));
	fams = calloc(ps->nfams, sizeof(*fams));
	if (keys == NULL || rank == NULL || fams == NULL) {
		free(keys);
		free(rank);
		free(fams);
		return nomem(ps);
	}
	for (i = 0; i < ps->nfams; i++) {
		keys[i].text = ps->text;
		keys[i].f = &ps->fams[i];
		keys[i].id = i;
	}
	sort(keys, ps->nfams, sizeof(*keys), famkeycmp);
	for (i = 0; i < ps->nfams; i++) {
		if (i == 0 || famkeycmp(&keys[i - 1], &keys[i]) != 0)
			fams[nf++] = *keys[i].f;
		rank[keys[i].id] = nf - 1;
	}
	free(keys);
	free(ps->fams);
	ps->fams = fams;
	ps->nfams = nf;
	for (i = 0; i < ps->nruns; i++)
		ps->runs[i].fam = rank[ps->runs[i].fam];
	free(rank);
	sort(ps->runs, ps->nruns, sizeof(*ps->runs), runcmp);

	for (i = 1, n = 1; i < ps->nruns; i++) {
		a = &ps->runs[n - 1];
		b = &ps->runs[i];
		if (a->fam != b->fam || a->len != b->len || a->hi + 1 <
		    b->lo) {
			ps->runs[n++] = *b;
			continue;
		}
		/* Sorted by lo, b meets the last of the runs merged into
		 * a, whose byte a keeps. */
		if (a->hi >= b->lo) {
			putname(ps->text, &ps->fams[b->fam], b, b->lo, name);
			return fail(ps, ps->s + (a->seq > b->seq ? a->pos :
			    b->pos), "duplicate host '%.*s%s'", QUOTE_MAX,
			    name, strlen(name) > QUOTE_MAX ? "..." : "");
		}
		a->hi = b->hi;
		a->seq = b->seq;
		a->pos = b->pos;
	}
	if ((r = realloc(ps->runs, n * sizeof(*r))) != NULL)
		ps->runs = r;
	for (i = 0, h->count = 0; i < n; i++) {
		ps->runs[i].first = h->count;
		h->count += ps->runs[i].hi - ps->runs[i].lo + 1;
	}
	h->runs = ps->runs;
	h->nruns = n;
	h->fams = ps->fams;
	h->nfams = ps->nfams;
	h->text = ps->text;
	ps->runs = NULL;
	ps->fams = NULL;
	ps->text = NULL;
	return 0;
}

void
ar_hostlist_init(struct ar_hostlist *h)
{
	h->count = 0;
	h->runs = NULL;
	h->nruns = 0;
	h->fams = NULL;
	h->nfams = 0;
	h->text = NULL;
}

void
ar_hostlist_free(struct ar_hostlist *h)
{
	free(h->runs);
	free(h->fams);
	free(h->text);
	ar_hostlist_init(h);
}

int
ar_hostlist_parse(const char *s, struct ar_hostlist *h, char *err)
{
	return ar_hostlist_parse_max(s, AR_HOSTS_MAX, h, err);
}

int
ar_hostlist_parse_max(const char *s, size_t max, struct ar_hostlist *h,
    char *err)
{
	struct parse ps;
	const char *p = s;
	int rc = 0;

	ar_hostlist_free(h);
	memset(&ps, 0, sizeof(ps));
	ps.s = s;
	ps.err = err;
	ps.max = max < AR_HOSTS_MAX ? max : AR_HOSTS_MAX;
	if (*s == '\0')
		rc = fail(&ps, NULL, "empty host list");
	while (rc == 0) {
		if ((rc = read_name(&ps, &p)) != 0 ||
		    (rc = expand(&ps, 0, 0, ps.start)) != 0)
			break;
		if (*p == '\0') {
			rc = finish(&ps, h);
			break;
		}
		p++;
	}
	free(ps.runs);
	free(ps.fams);
	free(ps.text);
	free(ps.parts);
	free(ps.ranges);
	return rc;
}

/*
 * Printing.  Hosts come in order as segments, consecutive hosts of one
 * run; a family's hosts follow each other and are printed as one
 * head[ranges]tail, or as a plain name if there is only one.  A range
 * written lo-hi means lo's number of digits for every number, or more
 * where a number needs them, so cn9 and cn10 make the range 9-10, cn09
 * and cn10 the range 09-10, but cn9 and cn010 do not meet.
 */
struct out {
	char **buf;
	size_t base;		/* where this print starts */
	size_t len, cap;	/* what is written, and *buf's size */
	int nomem;
	size_t hosts;		/* in the family being printed */
	uint32_t fam;
	size_t open;		/* where its '[' is */
	uint64_t lo, end;	/* the range being printed */
	int width;		/* lo's digits */
};

static void
put(struct out *o, const char *s, size_t n)
{
	if (o->nomem)
		return;
	/* And a byte for the NUL that ends it. */
	if (array_room(o->buf, &o->cap, o->len + n + 1, 1) != 0) {
		o->nomem = 1;
		return;
	}
	memcpy(*o->buf + o->len, s, n);
	o->len += n;
}

/* Print the head, or the tail, of family f of h. */
static void
puthead(struct out *o, const struct ar_hostlist *h, uint32_t f)
{
	put(o, h->text + h->fams[f].at, h->fams[f].hlen);
}

static void
puttail(struct out *o, const struct ar_hostlist *h, uint32_t f)
{
	put(o, h->text + h->fams[f].at + h->fams[f].hlen, h->fams[f].tlen);
}

static void
putn(struct out *o, uint64_t v, int width)
{
	char d[DIGITS_MAX + 1];

	put(o, d, putnum(d, v, width));
}

/* Close the range and the family being printed, if any. */
static void
close_family(struct out *o, const struct ar_hostlist *h)
{
	if (o->hosts == 0)
		return;
	if (o->end != o->lo) {
		put(o, "-", 1);
		putn(o, o->end, o->width);
	}
	if (o->hosts == 1 && !o->nomem) {
		/* A single host needs no brackets. */
		memmove(*o->buf + o->open, *o->buf + o->open + 1,
		    o->len - o->open - 1);
		o->len--;
	} else
		put(o, "]", 1);
	puttail(o, h, o->fam);
	o->hosts = 0;
}

/* Print the hosts lo to hi of run r. */
static void
segment(struct out *o, const struct ar_hostlist *h,
    const struct ar_hostrun *r, uint64_t lo, uint64_t hi)
{
	int need = ndigits(lo) > o->width ? ndigits(lo) : o->width;

	if (o->hosts > 0 && r->fam == o->fam && r->len > 0 &&
	    lo == o->end + 1 && r->len == need) {
		o->end = hi;
		o->hosts += hi - lo + 1;
		return;
	}
	if (o->hosts > 0 && r->fam == o->fam && r->len > 0) {
		if (o->end != o->lo) {
			put(o, "-", 1);
			putn(o, o->end, o->width);
		}
		put(o, ",", 1);
	} else {
		close_family(o, h);
		if (o->len > o->base)
			put(o, ",", 1);
		puthead(o, h, r->fam);
		if (r->len == 0) {
			puttail(o, h, r->fam);
			return;
		}
		o->fam = r->fam;
		o->open = o->len;
		put(o, "[", 1);
	}
	o->lo = lo;
	o->end = hi;
	o->width = r->len;
	o->hosts += hi - lo + 1;
	putn(o, lo, r->len);
}

/* Start printing at the end of *buf. */
static void
start(struct out *o, char **buf, size_t *len, size_t *cap)
{
	memset(o, 0, sizeof(*o));
	o->buf = buf;
	o->base = o->len = *len;
	o->cap = *buf != NULL ? *cap : 0;
}

/* Close what is open and NUL-terminate; the result for the caller. */
static int
end(struct out *o, const struct ar_hostlist *h, size_t *len, size_t *cap)
{
	close_family(o, h);
	put(o, "", 0);
	if (o->cap > *cap)
		*cap = o->cap;
	if (o->nomem)
		return -1;
	(*o->buf)[o->len] = '\0';
	*len = o->len;
	return 0;
}

int
ar_hostlist_format(const struct ar_hostlist *h, char **buf, size_t *len,
    size_t *cap)
{
	struct out o;
	size_t i;

	start(&o, buf, len, cap);
	for (i = 0; i < h->nruns; i++)
		segment(&o, h, &h->runs[i], h->runs[i].lo, h->runs[i].hi);
	return end(&o, h, len, cap);
}

/* The run that holds host i < h->count. */
static const struct ar_hostrun *
runat(const struct ar_hostlist *h, size_t i)
{
	size_t lo = 0, hi = h->nruns - 1, mid;

	while (lo < hi) {
		mid = lo + (hi - lo + 1) / 2;
		if (h->runs[mid].first <= i)
			lo = mid;
		else
			hi = mid - 1;
	}
	return &h->runs[lo];
}

int
ar_hostlist_format_subset(const struct ar_hostlist *h, const uint32_t *idx,
    size_t n, char **buf, size_t *len, size_t *cap)
{
	const struct ar_hostrun *r;
	struct out o;
	size_t i, j, off;

	for (i = 0; i < n; i++)
		if (idx[i] >= h->count || (i > 0 && idx[i] <= idx[i - 1]))
			return -2;
	start(&o, buf, len, cap);
	for (i = 0; i < n; i = j) {
		r = runat(h, idx[i]);
		off = idx[i] - r->first;
		for (j = i + 1; j < n && idx[j] == idx[j - 1] + 1 &&
		    idx[j] - r->first <= r->hi - r->lo; j++)
			;
		segment(&o, h, r, r->lo + off, r->lo + off + (j - 1 - i));
	}
	return end(&o, h, len, cap);
}

char *
ar_hostlist_name(const struct ar_hostlist *h, uint32_t i, char *buf)
{
	const struct ar_hostrun *r;

	if (i >= h->count)
		return NULL;
	r = runat(h, i);
	return putname(h->text, &h->fams[r->fam], r, r->lo + (i - r->first),
	    buf);
}

/*
 * The run of family fam with len digits that holds v, or NULL.  Runs
 * sort by family, digits and lo, and do not overlap.
 */
static const struct ar_hostrun *
runof(const struct ar_hostlist *h, uint32_t fam, int len, uint64_t v)
{
	const struct ar_hostrun *r;
	size_t lo = 0, hi = h->nruns, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		r = &h->runs[mid];
		if (r->fam < fam || (r->fam == fam && (r->len < len ||
		    (r->len == len && r->hi < v))))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == h->nruns)
		return NULL;
	r = &h->runs[lo];
	return r->fam == fam && r->len == len && r->lo <= v ? r : NULL;
}

/* The family of head and tail in h, or -1. */
static int64_t
famof(const struct ar_hostlist *h, const char *head, size_t hn,
    const char *tail, size_t tn)
{
	size_t lo = 0, hi = h->nfams, mid;
	int c;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if ((c = famcmp(h->text, &h->fams[mid], head, hn, tail,
		    tn)) == 0)
			return mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

int
ar_hostlist_find(const struct ar_hostlist *h, const char *name, uint32_t *i)
{
	const struct ar_hostrun *r;
	size_t n = strlen(name), t, e;
	uint64_t v = 0;
	int64_t fam;

	for (t = 0; t < n; t++)
		if (!namechar(name[t]))
			return -1;
	for (t = n; t > 0 && !isdig(name[t - 1]); t--)
		;
	for (e = t; e > 0 && isdig(name[e - 1]); e--)
		if (t - e == DIGITS_MAX)
			return -1;
		else
			v += (name[e - 1] - '0') * tens[t - e];
	if (t == 0)
		fam = famof(h, name, n, "", 0);
	else
		fam = famof(h, name, e, name + t, n - t);
	if (fam == -1 || (r = runof(h, fam, t - e, v)) == NULL)
		return -1;
	*i = r->first + (v - r->lo);
	return 0;
}

int
ar_hostlist_find_all(const struct ar_hostlist *h,
    const struct ar_hostlist *sub, uint32_t *idx, char *err)
{
	const struct ar_hostrun *s, *r;
	const struct ar_hostfam *f;
	char name[AR_HOSTNAME_MAX + 1];
	size_t i, k = 0;
	uint64_t v;
	int64_t fam;

	for (i = 0; i < sub->nruns; i++) {
		s = &sub->runs[i];
		f = &sub->fams[s->fam];
		fam = famof(h, sub->text + f->at, f->hlen,
		    sub->text + f->at + f->hlen, f->tlen);
		for (v = s->lo; v <= s->hi; v = r->hi + 1) {
			if (fam == -1 || (r = runof(h, fam, s->len, v)) ==
			    NULL) {
				putname(sub->text, f, s, v, name);
				snprintf(err, AR_ERRMAX, "unknown host '%.*s%s'",
				    QUOTE_MAX, name,
				    strlen(name) > QUOTE_MAX ? "..." : "");
				return -1;
			}
			for (; v <= s->hi && v <= r->hi; v++)
				idx[k++] = r->first + (v - r->lo);
		}
	}
	return 0;
}
