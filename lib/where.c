/*
 * where.c - a store's address as it may be shown: without its passwords.
 *
 * An address may hold a password in three places that libpq reads: a
 * URI's user information (postgresql://user:PASSWORD@host/db), a
 * password= parameter of its query (?password=PASSWORD&...), and a
 * password= keyword of a key=value connection string (host=db1
 * password=PASSWORD, the value bare or in single quotes).  Each is found
 * here, once, so that every message that names a store, and what libpq
 * says about its address, can show the rest of it and mask these.  A
 * directory named like one is masked the same way: a mask too many is
 * harmless, a password shown is not.
 */
#include <ctype.h>
#include <string.h>

#include "kv.h"

#define MASK "***"

/* The value of hex digit c, or -1. */
static int
hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Is s[0 .. n) "password", once percent-decoded (as libpq decodes a
 * query's keywords)? */
static int
is_password(const char *s, size_t n)
{
	static const char word[] = "password";
	size_t i = 0, k = 0;
	int c;

	while (i < n && k < sizeof(word) - 1) {
		c = (unsigned char)s[i];
		if (c == '%' && i + 2 < n &&
		    hexval((unsigned char)s[i + 1]) >= 0 &&
		    hexval((unsigned char)s[i + 2]) >= 0) {
			c = hexval((unsigned char)s[i + 1]) * 16 +
			    hexval((unsigned char)s[i + 2]);
			i += 3;
		} else
			i++;
		if (c != word[k++])
			return 0;
	}
	return i == n && k == sizeof(word) - 1;
}

/* The next password of a URI at or after from: its offset and length. */
static int
uri_secret(const char *w, size_t from, size_t *at, size_t *len)
{
	size_t auth = strstr(w, "://") - w + 3, end, p, n;
	const char *colon, *amp;

	end = auth + strcspn(w + auth, "/?#");
	/* The user information ends at the last '@' of the authority. */
	for (p = end; p > auth && w[p - 1] != '@'; p--)
		;
	if (p > auth && from <= auth &&
	    (colon = memchr(w + auth, ':', p - 1 - auth)) != NULL) {
		*at = (size_t)(colon + 1 - w);
		*len = p - 1 - *at;
		return 1;
	}
	/* Query parameters, after the path, to the fragment. */
	end += strcspn(w + end, "?#");
	if (w[end] != '?')
		return 0;
	n = end + 1 + strcspn(w + end + 1, "#");
	for (p = end + 1; p < n; p = (size_t)(amp - w) + 1) {
		const char *eq;

		if ((amp = memchr(w + p, '&', n - p)) == NULL)
			amp = w + n;
		eq = memchr(w + p, '=', (size_t)(amp - (w + p)));
		if (eq != NULL && (size_t)(eq + 1 - w) >= from &&
		    is_password(w + p, (size_t)(eq - (w + p)))) {
			*at = (size_t)(eq + 1 - w);
			*len = (size_t)(amp - eq - 1);
			return 1;
		}
		if (amp == w + n)
			break;
	}
	return 0;
}

/* The next password= value of a key=value connection string at or
 * after from. */
static int
conninfo_secret(const char *w, size_t from, size_t *at, size_t *len)
{
	const char *p = w + from, *v;

	while ((p = strstr(p, "password")) != NULL) {
		if (p > w && !isspace((unsigned char)p[-1])) {
			p++;
			continue;
		}
		v = p + 8;
		v += strspn(v, " \t\n\r\f\v");
		if (*v != '=') {
			p++;
			continue;
		}
		v++;
		v += strspn(v, " \t\n\r\f\v");
		*at = (size_t)(v - w);
		if (*v == '\'') {
			/* Quoted, with backslash escapes: to the closing
			 * quote, quotes included. */
			const char *q = v + 1;

			while (*q != '\0' && *q != '\'')
				q += q[0] == '\\' && q[1] != '\0' ? 2 : 1;
			*len = (size_t)(q - v) + (*q == '\'');
		} else
			*len = strcspn(v, " \t\n\r\f\v");
		return 1;
	}
	return 0;
}

/* The next password in where at or after byte from: its offset and
 * length; 1, or 0 if there is none. */
static int
where_secret(const char *where, size_t from, size_t *at, size_t *len)
{
	int found;

	do {
		found = strncmp(where, "postgresql://", 13) == 0 ||
		    strncmp(where, "postgres://", 11) == 0 ?
		    uri_secret(where, from, at, len) :
		    conninfo_secret(where, from, at, len);
		from = *at + *len + 1;
	} while (found && *len == 0 && from <= strlen(where));
	return found && *len > 0;
}

size_t
ar_where_masked(const char *where, char *buf, size_t size)
{
	size_t at, len, from = 0, n = 0;

	/* As snprintf: n counts every byte, those that fit are written. */
#define PUT(s, k) do {							\
		for (size_t i_ = 0; i_ < (k); i_++, n++)		\
			if (n + 1 < size)				\
				buf[n] = (s)[i_];			\
	} while (0)
	while (where_secret(where, from, &at, &len)) {
		PUT(where + from, at - from);
		PUT(MASK, sizeof(MASK) - 1);
		from = at + len;
	}
	PUT(where + from, strlen(where + from));
#undef PUT
	if (size > 0)
		buf[n < size ? n : size - 1] = '\0';
	return n;
}

void
where_mask_text(const char *where, char *text, size_t size)
{
	char out[1024];
	size_t at, len, from = 0, n, i;

	if (size == 0)
		return;
	while (where_secret(where, from, &at, &len)) {
		from = at + len;
		/* Every copy of it in the text, as libpq may quote it. */
		for (n = 0, i = 0; text[i] != '\0' && n + 1 < sizeof(out);) {
			if (strncmp(text + i, where + at, len) == 0) {
				for (size_t k = 0; k < sizeof(MASK) - 1 &&
				    n + 1 < sizeof(out); k++)
					out[n++] = MASK[k];
				i += len;
			} else
				out[n++] = text[i++];
		}
		out[n < size ? n : size - 1] = '\0';
		memcpy(text, out, (n < size ? n : size - 1) + 1);
	}
}
