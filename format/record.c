/*
 * record.c - one record per line, as key=value fields or a JSON object.
 *
 * Parsing is strict so that whatever a command accepts it also prints
 * back the same way: the line is checked for NUL bytes and UTF-8 first,
 * then scanned once; fields are appended to the record as soon as their
 * name is known so that clearing the record is the only cleanup an error
 * needs.
 */
#include <float.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "format.h"

#define JSON_DEPTH 32	/* nesting levels, the record's own braces too */

/* The state of one ar_record_parse. */
struct scan {
	struct ar_record *r;
	const char *line;	/* byte positions in messages count from here */
	const char *p;
	const char *end;
	char *err;
};

static int fail(struct scan *, const char *, const char *, ...)
    __attribute__((format(printf, 3, 4)));

/*
 * Fail the parse with a message, followed by the position of at unless at
 * is NULL, and empty the record.  The message is formatted first, as its
 * arguments may point into the record.
 */
static int
fail(struct scan *sc, const char *at, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(sc->err, AR_ERRMAX, fmt, ap);
	va_end(ap);
	if (at != NULL && n >= 0 && n < AR_ERRMAX) {
		if (at < sc->end)
			snprintf(sc->err + n, AR_ERRMAX - n, " at byte %zu",
			    (size_t)(at - sc->line) + 1);
		else
			snprintf(sc->err + n, AR_ERRMAX - n, " at end of line");
	}
	ar_record_clear(sc->r);
	return -1;
}

static int
nomem(struct scan *sc)
{
	snprintf(sc->err, AR_ERRMAX, "out of memory");
	ar_record_clear(sc->r);
	return -2;
}

static int
blank(int c)
{
	return c == ' ' || c == '\t';
}

static int
ctl(int c)
{
	return (unsigned char)c < 0x20 || c == 0x7f;
}

static int
isdig(int c)
{
	return c >= '0' && c <= '9';
}

/* Length of the field name at the start of [p, end). */
static size_t
keyspan(const char *p, const char *end)
{
	const char *s = p;
	int c;

	for (; p < end; p++) {
		c = *p | 0x20;		/* ASCII lower case */
		if (!(c >= 'a' && c <= 'z') && *p != '_' &&
		    (p == s || (!isdig(*p) && *p != '.' && *p != '-')))
			break;
	}
	return p - s;
}

/*
 * The length of the UTF-8 sequence at s (n bytes available), or 0 if it
 * is not valid: overlong forms, surrogates and code points above U+10FFFF
 * are refused, as RFC 3629 requires.
 */
static size_t
utf8len(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	unsigned char lo = 0x80, hi = 0xbf;
	size_t len, i;

	if (p[0] < 0x80)
		return 1;
	if (p[0] < 0xc2)
		return 0;
	if (p[0] < 0xe0)
		len = 2;
	else if (p[0] < 0xf0) {
		len = 3;
		if (p[0] == 0xe0)
			lo = 0xa0;
		else if (p[0] == 0xed)
			hi = 0x9f;
	} else if (p[0] < 0xf5) {
		len = 4;
		if (p[0] == 0xf0)
			lo = 0x90;
		else if (p[0] == 0xf4)
			hi = 0x8f;
	} else
		return 0;
	if (n < len || p[1] < lo || p[1] > hi)
		return 0;
	for (i = 2; i < len; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	return len;
}

/*
 * A block of a record's text: its keys and values, one after another.
 * Blocks never move, so fields point into them; clearing the record
 * keeps the newest block, so a record reused line after line stops
 * allocating once its block holds a whole line.
 */
struct ar_text {
	struct ar_text *prev;
	size_t len, cap;
	char data[];
};

#define TEXT_MIN 1024

static void
text_free(struct ar_text *t)
{
	while (t != NULL) {
		struct ar_text *prev = t->prev;

		free(t);
		t = prev;
	}
}

/* n bytes of r's text, or NULL if memory ran out. */
static char *
room(struct ar_record *r, size_t n)
{
	struct ar_text *t = r->text;
	char *p;

	if (t == NULL || t->cap - t->len < n) {
		size_t cap = t != NULL ? 2 * t->cap : TEXT_MIN;

		if (cap < n)
			cap = n;
		if ((t = malloc(sizeof(*t) + cap)) == NULL)
			return NULL;
		t->prev = r->text;
		t->len = 0;
		t->cap = cap;
		r->text = t;
	}
	p = t->data + t->len;
	t->len += n;
	return p;
}

/* A copy of the n bytes at s, NUL-terminated, in r's text. */
static char *
dupn(struct ar_record *r, const char *s, size_t n)
{
	char *d;

	if ((d = room(r, n + 1)) == NULL)
		return NULL;
	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

/* Make room for one more field. */
static int
grow(struct ar_record *r)
{
	return array_room(&r->fields, &r->cap, r->nfields + 1,
	    sizeof(*r->fields)) != 0 ? -1 : 0;
}

/* Append an empty field, owned by the record from now on. */
static struct ar_field *
newfield(struct scan *sc)
{
	struct ar_field *f;

	if (grow(sc->r) == -1)
		return NULL;
	f = &sc->r->fields[sc->r->nfields++];
	f->key = f->value = NULL;
	f->raw = 0;
	return f;
}

/* Refuse the name just given to the last field if an earlier one has it. */
static int
unique(struct scan *sc)
{
	struct ar_record *r = sc->r;
	const char *key = r->fields[r->nfields - 1].key;
	size_t i;

	for (i = 0; i + 1 < r->nfields; i++)
		if (strcmp(r->fields[i].key, key) == 0)
			return fail(sc, NULL, "duplicate field '%s'", key);
	return 0;
}

/* The closing quote of a string whose text starts at p, or NULL. */
static const char *
closing(const char *p, const char *end)
{
	for (; p < end; p++) {
		if (*p == '"')
			return p;
		if (*p == '\\' && ++p == end)
			break;
	}
	return NULL;
}

static int
hex4(const char *p, const char *end, unsigned long *v)
{
	int i, c;

	if (end - p < 4)
		return -1;
	for (*v = 0, i = 0; i < 4; i++) {
		c = p[i] | 0x20;
		if (isdig(p[i]))
			*v = *v << 4 | (unsigned long)(p[i] - '0');
		else if (c >= 'a' && c <= 'f')
			*v = *v << 4 | (unsigned long)(c - 'a' + 10);
		else
			return -1;
	}
	return 0;
}

/*
 * Escapes in pairs of the letter and what it stands for.  key=value
 * quotes know the first four, and print them; JSON knows them all.
 */
static const char escapes[] = "\"\"\\\\n\nt\t//b\bf\fr\r";
#define KV_ESCAPES 8

static char *
utf8put(char *o, unsigned long c)
{
	if (c < 0x80) {
		*o++ = c;
		return o;
	}
	if (c < 0x800)
		*o++ = 0xc0 | c >> 6;
	else {
		if (c < 0x10000)
			*o++ = 0xe0 | c >> 12;
		else {
			*o++ = 0xf0 | c >> 18;
			*o++ = 0x80 | (c >> 12 & 0x3f);
		}
		*o++ = 0x80 | (c >> 6 & 0x3f);
	}
	*o++ = 0x80 | (c & 0x3f);
	return o;
}

/*
 * Decode the inside [p, q) of a quoted string into out, which has room
 * for q - p + 1 bytes, or only check it if out is NULL.  key=value quotes
 * may hold a tab; JSON strings may hold DEL and \uXXXX escapes, but not
 * U+0000, which could not be stored, nor half of a surrogate pair.
 * Returns NULL, or what is wrong with *at pointing at it.
 */
static const char *
unquote(const char *p, const char *q, char *out, int json, const char **at)
{
	const char *e, *eend = escapes + (json ? sizeof(escapes) - 1 :
	    KV_ESCAPES);
	unsigned long c, lo;

	while (p < q) {
		*at = p;
		c = (unsigned char)*p++;
		if (c != '\\') {
			if ((c < 0x20 && (json || c != '\t')) ||
			    (c == 0x7f && !json))
				return "control character";
			if (out != NULL)
				*out++ = c;
			continue;
		}
		/* closing() saw that a character follows the backslash. */
		if (json && *p == 'u') {
			if (hex4(p + 1, q, &c) == -1)
				return "invalid \\u escape";
			p += 5;
			if (c == 0)
				return "\\u0000 is not allowed";
			if (c >= 0xd800 && c <= 0xdbff && q - p >= 6 &&
			    p[0] == '\\' && p[1] == 'u' &&
			    hex4(p + 2, q, &lo) == 0 &&
			    lo >= 0xdc00 && lo <= 0xdfff) {
				c = 0x10000 + ((c - 0xd800) << 10) +
				    (lo - 0xdc00);
				p += 6;
			} else if (c >= 0xd800 && c <= 0xdfff)
				return "lone surrogate";
			if (out != NULL)
				out = utf8put(out, c);
			continue;
		}
		for (e = escapes; e < eend && *e != *p; e += 2)
			;
		if (e == eend)
			return "invalid escape";
		p++;
		if (out != NULL)
			*out++ = e[1];
	}
	if (out != NULL)
		*out = '\0';
	return NULL;
}

static void
skipws(struct scan *sc)
{
	while (sc->p < sc->end && blank(*sc->p))
		sc->p++;
}

/* The next byte, or NUL at the end (the line holds no NUL). */
static int
peek(struct scan *sc)
{
	return sc->p < sc->end ? *sc->p : '\0';
}

/* One key=value field at sc->p, which is not blank. */
static int
kvfield(struct scan *sc)
{
	struct ar_field *f;
	const char *k = sc->p, *p, *q, *at, *why;
	size_t klen = keyspan(k, sc->end);

	p = k + klen;
	if (klen > AR_KEY_MAX)
		return fail(sc, k, "field name longer than %d bytes",
		    AR_KEY_MAX);
	if (p == sc->end || *p != '=') {
		if (klen > 0 && (p == sc->end || blank(*p)))
			return fail(sc, NULL, "missing '=' after '%.*s'",
			    (int)klen, k);
		return fail(sc, p, "invalid field name");
	}
	if (klen == 0)
		return fail(sc, p, "missing field name");
	if ((f = newfield(sc)) == NULL || (f->key = dupn(sc->r, k, klen)) == NULL)
		return nomem(sc);
	if (unique(sc) != 0)
		return -1;

	if (++p < sc->end && *p == '"') {
		if ((q = closing(++p, sc->end)) == NULL)
			return fail(sc, NULL, "unterminated quote in field "
			    "'%s'", f->key);
		if ((f->value = room(sc->r, q - p + 1)) == NULL)
			return nomem(sc);
		if ((why = unquote(p, q, f->value, 0, &at)) != NULL)
			return fail(sc, at, "%s in field '%s'", why, f->key);
		if (++q < sc->end && !blank(*q))
			return fail(sc, q, "text after closing quote in field "
			    "'%s'", f->key);
	} else {
		for (q = p; q < sc->end && !blank(*q) && *q != '"' &&
		    !ctl(*q); q++)
			;
		if (q < sc->end && !blank(*q))
			return fail(sc, q, "%s in field '%s'", *q == '"' ?
			    "unexpected quote" : "control character", f->key);
		if ((f->value = dupn(sc->r, p, q - p)) == NULL)
			return nomem(sc);
	}
	sc->p = q;
	return 0;
}

/* Fields up to the end of the line, or to a comment: a '#' where a
 * field's name would begin (no name begins so). */
static int
parse_kv(struct scan *sc)
{
	int rc;

	for (;;) {
		skipws(sc);
		if (sc->p == sc->end || *sc->p == '#')
			return 0;
		if ((rc = kvfield(sc)) != 0)
			return rc;
	}
}

/* A JSON string, decoded into a new *out unless out is NULL. */
static int
jstring(struct scan *sc, char **out)
{
	const char *p, *q, *at, *why;

	if (peek(sc) != '"')
		return fail(sc, sc->p, "expected '\"'");
	if ((q = closing(p = sc->p + 1, sc->end)) == NULL)
		return fail(sc, sc->p, "unterminated string");
	if (out != NULL && (*out = room(sc->r, q - p + 1)) == NULL)
		return nomem(sc);
	if ((why = unquote(p, q, out ? *out : NULL, 1, &at)) != NULL)
		return fail(sc, at, "%s", why);
	sc->p = q + 1;
	return 0;
}

/* How many digits there are at p. */
static size_t
ndigits(const char *p, const char *end)
{
	const char *s = p;

	while (p < end && isdig(*p))
		p++;
	return p - s;
}

/* -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
static int
jnumber(struct scan *sc)
{
	const char *p = sc->p, *end = sc->end;
	size_t n;

	if (*p == '-')
		p++;
	if ((n = ndigits(p, end)) == 0 || (*p == '0' && n > 1))
		goto bad;
	p += n;
	if (p < end && *p == '.') {
		if ((n = ndigits(++p, end)) == 0)
			goto bad;
		p += n;
	}
	if (p < end && (*p == 'e' || *p == 'E')) {
		if (++p < end && (*p == '+' || *p == '-'))
			p++;
		if ((n = ndigits(p, end)) == 0)
			goto bad;
		p += n;
	}
	sc->p = p;
	return 0;
bad:
	return fail(sc, sc->p, "invalid number");
}

static int jnest(struct scan *, int);

/* Check one JSON value at sc->p, which is depth levels deep. */
static int
jvalue(struct scan *sc, int depth)
{
	static const char *const words[] = { "true", "false", "null" };
	size_t i, n;

	switch (peek(sc)) {
	case '{':
	case '[':
		return jnest(sc, depth);
	case '"':
		return jstring(sc, NULL);
	case '-':
		return jnumber(sc);
	}
	if (isdig(peek(sc)))
		return jnumber(sc);
	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		n = strlen(words[i]);
		if ((size_t)(sc->end - sc->p) >= n &&
		    memcmp(sc->p, words[i], n) == 0) {
			sc->p += n;
			return 0;
		}
	}
	return fail(sc, sc->p, "expected a value");
}

static int
colon(struct scan *sc)
{
	skipws(sc);
	if (peek(sc) != ':')
		return fail(sc, sc->p, "expected ':'");
	sc->p++;
	skipws(sc);
	return 0;
}

/* A member of the record's own object: it becomes a field. */
static int
jfield(struct scan *sc)
{
	struct ar_field *f;
	const char *at = sc->p, *v;
	size_t n;
	int rc;

	if ((f = newfield(sc)) == NULL)
		return nomem(sc);
	if ((rc = jstring(sc, &f->key)) != 0)
		return rc;
	n = strlen(f->key);
	if (n == 0 || n > AR_KEY_MAX || keyspan(f->key, f->key + n) != n)
		return fail(sc, at, "invalid field name");
	if ((rc = unique(sc)) != 0 || (rc = colon(sc)) != 0)
		return rc;
	if (peek(sc) == '"')
		return jstring(sc, &f->value);
	v = sc->p;
	if ((rc = jvalue(sc, 2)) != 0)
		return rc;
	f->raw = 1;
	if ((f->value = dupn(sc->r, v, sc->p - v)) == NULL)
		return nomem(sc);
	return 0;
}

/*
 * The object or array at sc->p, depth levels deep.  Depth 1 is the
 * record itself, whose members become fields; deeper values are only
 * checked, as a raw field keeps their source text.
 */
static int
jnest(struct scan *sc, int depth)
{
	char closer = *sc->p == '{' ? '}' : ']';
	int rc;

	if (depth > JSON_DEPTH)
		return fail(sc, sc->p, "nested deeper than %d levels",
		    JSON_DEPTH);
	sc->p++;
	skipws(sc);
	if (peek(sc) == closer) {
		sc->p++;
		return 0;
	}
	for (;;) {
		if (closer == ']')
			rc = jvalue(sc, depth + 1);
		else if (depth == 1)
			rc = jfield(sc);
		else if ((rc = jstring(sc, NULL)) == 0 &&
		    (rc = colon(sc)) == 0)
			rc = jvalue(sc, depth + 1);
		if (rc != 0)
			return rc;
		skipws(sc);
		if (peek(sc) == closer) {
			sc->p++;
			return 0;
		}
		if (peek(sc) != ',')
			return fail(sc, sc->p, "expected ',' or '%c'", closer);
		sc->p++;
		skipws(sc);
	}
}

static int
parse_json(struct scan *sc)
{
	int rc;

	skipws(sc);
	if (peek(sc) != '{')
		return fail(sc, sc->p, "expected '{'");
	if ((rc = jnest(sc, 1)) != 0)
		return rc;
	skipws(sc);
	if (sc->p < sc->end)
		return fail(sc, sc->p, "text after the object");
	return 0;
}

int
ar_record_parse(struct ar_record *r, const char *line, size_t len,
    int flags, char *err)
{
	struct scan sc = { r, line, line, line + len, err };
	size_t n;

	ar_record_clear(r);
	if (len > AR_LINE_MAX)
		return fail(&sc, NULL, "line longer than %d bytes",
		    AR_LINE_MAX);
	for (; sc.p < sc.end; sc.p += n) {
		n = 1;
		if ((unsigned char)*sc.p - 1u < 0x7f)   /* ASCII, not NUL */
			continue;
		if (*sc.p == '\0')
			return fail(&sc, sc.p, "NUL byte");
		if ((n = utf8len(sc.p, sc.end - sc.p)) == 0)
			return fail(&sc, sc.p, "invalid UTF-8");
	}
	sc.p = line;
	if (len > 0 && line[len - 1] == '\r')	/* CRLF line ends */
		sc.end--;
	return flags & AR_REC_JSON ? parse_json(&sc) : parse_kv(&sc);
}

int
ar_record_skip(const char *line, size_t len)
{
	const char *p = line, *end = line + len;

	if (len > 0 && line[len - 1] == '\r')
		end--;
	while (p < end && blank(*p))
		p++;
	return p == end || *p == '#';
}

void
ar_record_init(struct ar_record *r)
{
	r->fields = NULL;
	r->nfields = r->cap = 0;
	r->text = NULL;
}

void
ar_record_clear(struct ar_record *r)
{
	if (r->text != NULL) {
		text_free(r->text->prev);
		r->text->prev = NULL;
		r->text->len = 0;
	}
	r->nfields = 0;
}

void
ar_record_free(struct ar_record *r)
{
	text_free(r->text);
	free(r->fields);
	ar_record_init(r);
}

static struct ar_field *
find(const struct ar_record *r, const char *key)
{
	size_t i;

	/* The first byte rules out most keys without a call. */
	for (i = 0; i < r->nfields; i++)
		if (r->fields[i].key[0] == key[0] &&
		    strcmp(r->fields[i].key, key) == 0)
			return &r->fields[i];
	return NULL;
}

const char *
ar_record_get(const struct ar_record *r, const char *key)
{
	struct ar_field *f = find(r, key);

	return f ? f->value : NULL;
}

static int
set(struct ar_record *r, const char *key, const char *value, int raw)
{
	struct ar_field *f;
	char *k, *v;

	/* The text never moves, so value may be the one it replaces. */
	if ((v = dupn(r, value, strlen(value))) == NULL)
		return -1;
	if ((f = find(r, key)) == NULL) {
		if (grow(r) == -1 || (k = dupn(r, key, strlen(key))) == NULL)
			return -1;
		f = &r->fields[r->nfields++];
		f->key = k;
	}
	f->value = v;
	f->raw = raw;
	return 0;
}

int
ar_record_set(struct ar_record *r, const char *key, const char *value)
{
	return set(r, key, value, 0);
}

/* The decimal digits of v, ending at end (which gets the NUL). */
static char *
uint_text(uint64_t v, char *end)
{
	*end = '\0';
	do
		*--end = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	return end;
}

int
ar_record_set_int(struct ar_record *r, const char *key, int64_t value)
{
	char buf[24], *p;

	p = uint_text(value < 0 ? -(uint64_t)value : (uint64_t)value,
	    buf + sizeof(buf) - 1);
	if (value < 0)
		*--p = '-';
	return set(r, key, p, 1);
}

int
ar_record_set_uint(struct ar_record *r, const char *key, uint64_t value)
{
	char buf[24];

	return set(r, key, uint_text(value, buf + sizeof(buf) - 1), 1);
}

int
ar_record_set_real(struct ar_record *r, const char *key, double value)
{
	char buf[32];

	/* %g may say 1e+06: JSON reads that, and so does ar_real_parse. */
	snprintf(buf, sizeof(buf), "%.6g", value);
	return set(r, key, buf, 1);
}

int
ar_record_set_time(struct ar_record *r, const char *key, int64_t t)
{
	char buf[AR_TIMEBUF];

	return set(r, key, ar_time_format(t, buf), 0);
}

int
ar_record_set_duration(struct ar_record *r, const char *key, int64_t d)
{
	char buf[AR_TIMEBUF];

	return set(r, key, ar_duration_format(d, buf), 0);
}

int
ar_record_set_null(struct ar_record *r, const char *key)
{
	return set(r, key, "null", 1);
}

void
ar_record_numbers(struct ar_record *r, const char *const *keys)
{
	char err[AR_ERRMAX];
	double d;

	for (size_t i = 0; i < r->nfields; i++) {
		struct ar_field *f = &r->fields[i];
		const char *const *k;

		if (f->raw)
			continue;
		for (k = keys; *k != NULL && strcmp(*k, f->key) != 0; k++)
			;
		/* JSON's grammar is ar_real_parse's; a value out of a
		 * double's range is left a string, as JSON could not say
		 * it either. */
		if (*k != NULL && ar_real_parse(f->value, -DBL_MAX, DBL_MAX, &d,
		    err) == 0)
			f->raw = 1;
	}
}

void
ar_record_del(struct ar_record *r, const char *key)
{
	struct ar_field *f;

	if ((f = find(r, key)) == NULL)
		return;
	memmove(f, f + 1, (r->nfields - (f - r->fields) - 1) * sizeof(*f));
	r->nfields--;
}

/*
 * Is every byte of s (n bytes) printable ASCII that key=value writes as
 * it is, unquoted?  Almost every value the commands print is: a number,
 * a time, a status, a plain label.
 */
static int
plain(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c <= 0x20 || c >= 0x7f || c == '"' || c == '\\' ||
		    c == '=')
			return 0;
	}
	return n > 0;
}

static int
needquote(const char *s)
{
	if (*s == '\0')
		return 1;
	for (; *s != '\0'; s++)
		if (*s == ' ' || *s == '"' || *s == '\\' || *s == '=' ||
		    ctl(*s))
			return 1;
	return 0;
}

/*
 * Copy s (n bytes) to o escaped for the inside of quotes: the escapes
 * key=value knows, other control characters as \u00XX in JSON and as '?'
 * in key=value, which has no way to write them.  Bytes that are not
 * UTF-8 become '?' too, so that whatever a caller stored, what is printed
 * parses.  Returns the end of the output, at most 6 * n bytes.
 */
static char *
escape(char *o, const char *s, size_t n, int json)
{
	const char *e;
	size_t i, len;
	unsigned char c;

	for (i = 0; i < n; i += len) {
		c = s[i];
		len = 1;
		/* Most bytes are plain printable ASCII: copy them at once. */
		if (c > 0x20 && c < 0x7f && c != '"' && c != '\\') {
			*o++ = (char)c;
			continue;
		}
		for (e = escapes; e < escapes + KV_ESCAPES && e[1] != c;
		    e += 2)
			;
		if (e < escapes + KV_ESCAPES) {
			*o++ = '\\';
			*o++ = e[0];
		} else if (ctl(c) && json) {
			memcpy(o, "\\u00", 4);
			o[4] = "0123456789abcdef"[c >> 4];
			o[5] = "0123456789abcdef"[c & 0xf];
			o += 6;
		} else if (ctl(c) || (len = utf8len(s + i, n - i)) == 0) {
			*o++ = '?';
			len = 1;
		} else {
			memcpy(o, s + i, len);
			o += len;
		}
	}
	return o;
}

int
ar_record_print(const struct ar_record *r, int flags, char **buf,
    size_t *len, size_t *cap)
{
	const struct ar_field *f;
	const struct ar_text *t;
	size_t i, n, text = 0, need;
	char *o;
	int json = flags & AR_REC_JSON;

	/*
	 * Room for the worst case, every byte escaped as \u00XX, six bytes
	 * of quotes and separators a field, braces and newline.  Every key
	 * and value is in the record's text, so its size bounds theirs
	 * without measuring each.
	 */
	for (t = r->text; t != NULL; t = t->prev)
		if (__builtin_add_overflow(text, t->len, &text))
			return -1;
	if (__builtin_add_overflow(text, r->nfields, &need) ||
	    __builtin_mul_overflow(need, 6, &need) ||
	    __builtin_add_overflow(need, 3, &need))
		return -1;
	if (__builtin_add_overflow(*len, need, &n) ||
	    array_room(buf, cap, n, 1) != 0)
		return -1;

	o = *buf + *len;
	if (json)
		*o++ = '{';
	for (i = 0; i < r->nfields; i++) {
		f = &r->fields[i];
		if (i > 0)
			*o++ = json ? ',' : ' ';
		if (json) {
			*o++ = '"';
			o = escape(o, f->key, strlen(f->key), 1);
			*o++ = '"';
			*o++ = ':';
		} else {
			n = strlen(f->key);
			memcpy(o, f->key, n);
			o += n;
			*o++ = '=';
		}
		n = strlen(f->value);
		if ((json && f->raw) || (!json && plain(f->value, n))) {
			memcpy(o, f->value, n);
			o += n;
		} else if (json || needquote(f->value)) {
			*o++ = '"';
			o = escape(o, f->value, n, json);
			*o++ = '"';
		} else
			o = escape(o, f->value, n, 0);
	}
	if (json)
		*o++ = '}';
	*o++ = '\n';
	*len = o - *buf;
	return 0;
}
