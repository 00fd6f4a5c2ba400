/*
 * buf.c - text made in memory before it goes out whole: the tables and
 * the SVG charts of the commands.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "format.h"

void
ar_buf_printf(struct ar_buf *b, const char *fmt, ...)
{
	va_list ap;
	size_t cap;
	char *p;
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
		cap = 2 * (b->n + (size_t)n + 256);
		if ((p = realloc(b->p, cap)) == NULL) {
			b->nomem = 1;
			return;
		}
		b->p = p;
		b->cap = cap;
	}
}

void
ar_buf_xml(struct ar_buf *b, const char *s)
{
	for (; *s != '\0'; s++)
		switch (*s) {
		case '<':
			ar_buf_printf(b, "&lt;");
			break;
		case '>':
			ar_buf_printf(b, "&gt;");
			break;
		case '&':
			ar_buf_printf(b, "&amp;");
			break;
		case '"':
			ar_buf_printf(b, "&quot;");
			break;
		default:
			ar_buf_printf(b, "%c", *s);
		}
}

void
ar_svg_begin(struct ar_buf *b, int width, int height)
{
	ar_buf_printf(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
	    "height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" "
	    "font-size=\"11\">\n"
	    "<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n",
	    width, height, width, height);
}

int
ar_buf_save(const struct ar_buf *b, const char *path)
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
ar_buf_free(struct ar_buf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}
