/*
 * fields.c - the names taken for typos of the fields the ar commands
 * read or print (the commands keep the list of those: cmd/fields.c).
 *
 * A field a command does not know passes through a pipeline untouched,
 * so that labels of a site's own ride along.  That makes a typo silent:
 * `node=32` is a label, and the request books the default one node.  So
 * a name that is not one of the fields but is so near one that it is far
 * more likely a slip than a label of its own is bad input, with the
 * field it was probably meant to be.  Near is:
 *
 * - the same name but for case (Nodes, DURATION);
 * - one of the names another scheduler gives a field (Slurm's NodeCnt,
 *   StartTime; PBS's walltime), below, whatever its case;
 * - an optimal string alignment distance (insert, delete, substitute or
 *   swap two neighbours, each once per place), case ignored, of at most
 *   1 from a field of 4 to 9 characters (node, strat, duraton) or 2 from
 *   one of 10 or more (occurence); none from one of 3 or fewer (id, sd,
 *   end: every short word is near them), and with the first letter kept
 *   (or swapped with the second), as slips seldom hit it: team is not
 *   mean, nor block clock.
 *
 * A name that begins with "x-" is never a typo: it is how a label that
 * looks like one passes (x-node=rack4).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"

/* Other schedulers' names for fields, lower case: each is taken for the
 * field it names. */
static const struct {
	const char *name, *field;
} aliases[] = {
	{ "begin", "start" },           /* sbatch --begin */
	{ "endtime", "end" },           /* scontrol's reservations */
	{ "jobname", "job" },
	{ "nodecnt", "nodes" },
	{ "nodecount", "nodes" },
	{ "numnodes", "nodes" },
	{ "starttime", "start" },
	{ "timelimit", "duration" },
	{ "username", "user" },
	{ "users", "user" },
	{ "walltime", "duration" },     /* PBS */
};

static int
by_name(const void *key, const void *elem)
{
	return strcmp(key, *(const char *const *)elem);
}

/* The distance of a from b, case ignored, if it is at most max, else
 * max + 1: Damerau-Levenshtein as the optimal string alignment, a row of
 * the table at a time. */
static size_t
distance(const char *a, const char *b, size_t max)
{
	size_t la = strlen(a), lb = strlen(b), row[3][AR_KEY_MAX + 2];
	size_t *two = row[0], *up = row[1], *cur = row[2], *t, best;

	if (la > AR_KEY_MAX || lb > AR_KEY_MAX ||
	    (la > lb ? la - lb : lb - la) > max)
		return max + 1;
	for (size_t j = 0; j <= lb; j++)
		up[j] = j;
	for (size_t i = 1; i <= la; i++) {
		cur[0] = best = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t cost = tolower((unsigned char)a[i - 1]) !=
			    tolower((unsigned char)b[j - 1]), d;

			d = up[j - 1] + cost;
			if (up[j] + 1 < d)
				d = up[j] + 1;
			if (cur[j - 1] + 1 < d)
				d = cur[j - 1] + 1;
			if (i > 1 && j > 1 && tolower((unsigned char)a[i - 1]) ==
			    tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) ==
			    tolower((unsigned char)b[j - 1]) &&
			    two[j - 2] + 1 < d)
				d = two[j - 2] + 1;
			cur[j] = d;
			if (d < best)
				best = d;
		}
		if (best > max)
			return max + 1;
		t = two;
		two = up;
		up = cur;
		cur = t;
	}
	return up[lb] <= max ? up[lb] : max + 1;
}

/* How far a name may be from field f and still be taken for it. */
static size_t
reach(const char *f)
{
	size_t n = strlen(f);

	return n <= 3 ? 0 : n <= 9 ? 1 : 2;
}

int
ar_field_check(const char *name, const char *const *fields, size_t nfields,
    char *err)
{
	char low[AR_KEY_MAX + 1];
	const char *near = NULL, *const *hit;
	size_t best = (size_t)-1, d, r, n = strlen(name);

	if (bsearch(name, fields, nfields, sizeof(fields[0]),
	    by_name) != NULL || n > AR_KEY_MAX ||
	    (tolower((unsigned char)name[0]) == 'x' && name[1] == '-'))
		return 0;
	/* The fields and the aliases are lower case: so is what they are
	 * compared with. */
	for (size_t i = 0; i <= n; i++)
		low[i] = (char)tolower((unsigned char)name[i]);
	for (size_t i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++)
		if (strcmp(low, aliases[i].name) == 0)
			near = aliases[i].field;
	if (near == NULL && (hit = bsearch(low, fields, nfields,
	    sizeof(fields[0]), by_name)) != NULL)
		near = *hit;
	/* Else the nearest that begins alike (the first letter, or the
	 * first two swapped), the first of those as near. */
	for (size_t i = 0; near == NULL && i < nfields; i++) {
		const char *f = fields[i];

		if (f[0] != low[0] && (n < 2 || f[0] != low[1] ||
		    f[1] != low[0]))
			continue;
		r = reach(f);
		if (r > 0 && (d = distance(low, f, r)) <= r && d < best) {
			best = d;
			hit = &fields[i];
		}
	}
	if (near == NULL && best != (size_t)-1)
		near = *hit;
	if (near == NULL)
		return 0;
	snprintf(err, AR_ERRMAX, "unknown field '%.64s' (did you mean '%s'?)",
	    name, near);
	return -1;
}
