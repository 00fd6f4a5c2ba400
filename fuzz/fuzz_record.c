/*
 * fuzz_record.c - libFuzzer target for the record parser and printer.
 *
 * The input is parsed as key=value and as JSON.  A failure must leave an
 * empty record and a short one-line message; a line that readers skip
 * (blank, or a comment) must hold no fields.  A success must print a
 * line that parses back to the same fields and prints the same again, in
 * both formats; setting and deleting fields must keep it so, and so must
 * making a value set to the input a number if it is one.
 *
 * Every field name parsed is checked for a typo of the commands' fields:
 * a near miss names one of them, and no field nor a name marked x- is
 * one.  And both ways of the rule, from the first bytes: one of the
 * fields with one slip (a letter inserted, dropped, changed or swapped
 * with the next, the first letter kept, in a field of 4 or more) or its
 * case changed is refused; marked x-, it passes.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "format.h"
#include "message.h"

#define KV 0
#define JS AR_REC_JSON

static int
samefields(const struct ar_record *a, const struct ar_record *b, int raw)
{
	size_t i;

	if (a->nfields != b->nfields)
		return 0;
	for (i = 0; i < a->nfields; i++)
		if (strcmp(a->fields[i].key, b->fields[i].key) != 0 ||
		    strcmp(a->fields[i].value, b->fields[i].value) != 0 ||
		    (raw && a->fields[i].raw != b->fields[i].raw))
			return 0;
	return 1;
}

/*
 * Print r with flags, parse the line into tmp and print tmp: both lines
 * must be equal, and when the formats agree the fields too.  A line
 * printed in key=value may have lost control characters to '?', which
 * are quoted the first time only, so it is compared one cycle later.
 */
static void
roundtrip(const struct ar_record *r, int from, int flags,
    struct ar_record *tmp, struct ar_record *tmp2)
{
	char err[AR_ERRMAX], *a = NULL, *b = NULL;
	size_t alen = 0, acap = 0, blen = 0, bcap = 0;

	if (ar_record_print(r, flags, &a, &alen, &acap) != 0 ||
	    alen == 0 || a[alen - 1] != '\n' ||
	    memchr(a, '\n', alen - 1) != NULL ||
	    ar_record_parse(tmp, a, alen - 1, flags, err) != 0)
		abort();
	if (from == flags && !samefields(r, tmp, flags == JS))
		abort();
	if (from == KV && flags == JS && !samefields(r, tmp, 0))
		abort();
	if (flags == KV && from != KV) {
		alen = 0;
		if (ar_record_print(tmp, flags, &a, &alen, &acap) != 0 ||
		    ar_record_parse(tmp2, a, alen - 1, flags, err) != 0)
			abort();
		tmp = tmp2;
	}
	if (ar_record_print(tmp, flags, &b, &blen, &bcap) != 0 ||
	    alen != blen || memcmp(a, b, alen) != 0)
		abort();
	free(a);
	free(b);
}

static const char *const *fields;       /* the commands' */
static size_t nfields;

static int
is_field(const char *name)
{
	for (size_t i = 0; i < nfields; i++)
		if (strcmp(fields[i], name) == 0)
			return 1;
	return 0;
}

/* Is name taken for a typo of one of the fields? */
static int
typo(const char *name, char *err)
{
	return ar_field_check(name, fields, nfields, err) != 0;
}

/* A name the parser took: passed, or refused for a field it names. */
static void
name_checked(const char *name)
{
	char err[AR_ERRMAX], want[AR_ERRMAX];
	const char *near;

	if (!typo(name, err))
		return;
	checkerr(err);
	snprintf(want, sizeof(want), "unknown field '%s' (did you mean '",
	    name);
	near = err + strlen(want);
	if (strncmp(err, want, strlen(want)) != 0 || is_field(name) ||
	    (tolower((unsigned char)name[0]) == 'x' && name[1] == '-'))
		abort();
	strcpy(want, near);
	if (strlen(want) < 3 || strcmp(want + strlen(want) - 3, "'?)") != 0)
		abort();
	want[strlen(want) - 3] = '\0';
	if (!is_field(want))
		abort();
}

/* A field with one slip, chosen by d[0 .. 4): refused, unless it is a
 * field itself or no name; marked x-, it passes. */
static void
slipped(const uint8_t *d)
{
	static const char chars[] = "abcdefghijklmnopqrstuvwxyz_-.0123456789";
	char name[AR_KEY_MAX + 8], err[AR_ERRMAX];
	const char *f;
	size_t len, at;
	int op = d[1] % 5, must;

	f = fields[d[0] % nfields];
	len = strlen(f);
	at = 1 + d[2] % len;            /* the first letter stays */
	memcpy(name, f, len + 1);
	switch (op) {
	case 0:                         /* a letter inserted */
		memmove(name + at + 1, name + at, len - at + 1);
		name[at] = chars[d[3] % (sizeof(chars) - 1)];
		break;
	case 1:                         /* dropped */
		if (at == len)
			return;
		memmove(name + at, name + at + 1, len - at);
		break;
	case 2:                         /* changed */
		if (at == len)
			return;
		name[at] = chars[d[3] % (sizeof(chars) - 1)];
		break;
	case 3:                         /* swapped with the next */
		if (at + 1 >= len)
			return;
		name[at] = f[at + 1];
		name[at + 1] = f[at];
		break;
	default:                        /* its case, from at on */
		for (size_t i = at - 1; i < len; i++)
			name[i] = (char)toupper((unsigned char)name[i]);
	}
	if (is_field(name) || name[0] == '\0')
		return;
	must = op == 4 || len >= 4;
	if (must && !typo(name, err))
		abort();
	memmove(name + 2, name, strlen(name) + 1);
	memcpy(name, "x-", 2);
	if (typo(name, err))
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const numeric[] = { "fuzz.value", NULL };
	struct ar_record r, tmp, tmp2;
	char err[AR_ERRMAX], key[AR_KEY_MAX + 1], *s;
	size_t n;
	int flags, rc;

	if (fields == NULL)
		fields = cmd_field_names(&nfields);
	if (size >= 4)
		slipped(data);
	ar_record_init(&r);
	ar_record_init(&tmp);
	ar_record_init(&tmp2);
	/* A NUL-terminated copy, as a value to set. */
	if ((s = malloc(size + 1)) == NULL)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';

	for (flags = KV; flags <= JS; flags++) {
		rc = ar_record_parse(&r, (const char *)data, size, flags, err);
		/* A line readers skip holds no fields in key=value. */
		if (flags == KV && rc == 0 && r.nfields != 0 &&
		    ar_record_skip((const char *)data, size))
			abort();
		if (rc != 0) {
			if (rc != -1 || r.nfields != 0)
				abort();
			checkerr(err);
			continue;
		}
		roundtrip(&r, flags, KV, &tmp, &tmp2);
		roundtrip(&r, flags, JS, &tmp, &tmp2);
		for (n = 0; n < r.nfields; n++)
			name_checked(r.fields[n].key);

		/* Replace the first field and delete it; add some. */
		if ((n = r.nfields) > 0) {
			strcpy(key, r.fields[0].key);
			if (ar_record_set(&r, key, s) != 0 ||
			    r.nfields != n ||
			    strcmp(ar_record_get(&r, key), s) != 0)
				abort();
			ar_record_del(&r, key);
			if (r.nfields != n - 1 ||
			    ar_record_get(&r, key) != NULL)
				abort();
		}
		if (ar_record_set(&r, "fuzz.value", s) != 0 ||
		    ar_record_set_int(&r, "fuzz.int", (int64_t)size - 5) != 0 ||
		    ar_record_set_time(&r, "fuzz.time", (int64_t)size * 977) ||
		    ar_record_set_duration(&r, "fuzz.dur", (int64_t)size) ||
		    strcmp(ar_record_get(&r, "fuzz.value"), s) != 0)
			abort();
		roundtrip(&r, -1, KV, &tmp, &tmp2);
		roundtrip(&r, -1, JS, &tmp, &tmp2);
		/* A value made a number must still print as valid JSON. */
		ar_record_numbers(&r, numeric);
		roundtrip(&r, -1, KV, &tmp, &tmp2);
		roundtrip(&r, -1, JS, &tmp, &tmp2);
	}
	ar_record_free(&r);
	ar_record_free(&tmp);
	ar_record_free(&tmp2);
	free(s);
	return 0;
}
