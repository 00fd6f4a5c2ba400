/*
 * fuzz_hostlist.c - libFuzzer target for host lists.
 *
 * The input, NUL-terminated, is parsed as a host list of at most a
 * bound of hosts drawn from the input, up to BOUND: a list of a million
 * hosts that share no prefix takes a second and a gigabyte here, the
 * unit tests try those.  The bound is BOUND halved a random number of
 * times (none to 17), then drawn below that, so that one input in seven
 * may hold more than ten thousand hosts: drawn below BOUND itself, most
 * lists of ranges ran to tens of thousands of hosts, which every
 * execution parsed, sorted, looked up and printed for the branches a
 * short list takes (a campaign's rate fell to 3,400 a second, two
 * thirds of it in the comparison hooks).  A failure must leave an
 * empty list and a short one-line message.  A success must print a line
 * that parses back to the same hosts in the same order and prints the
 * same again, and every host (a sample of a long list) must be found at
 * its index.  Subsets of hosts chosen by a generator seeded from the
 * input must print as lists of exactly those hosts.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ar.h"
#include "message.h"

#define BOUND 100000	/* hosts in a list, at most */
#define HALVINGS 18	/* BOUND is halved fewer times than this */
#define SAMPLE 2000	/* hosts looked up, at most */
#define SUBSET 300	/* hosts in a subset, at most */

/* xorshift64*, so that a subset depends on the input alone. */
static uint64_t
next(uint64_t *x)
{
	*x ^= *x >> 12;
	*x ^= *x << 25;
	*x ^= *x >> 27;
	return *x * UINT64_C(2685821657736338717);
}

static int
idxcmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/* Print h whole into *buf, or abort. */
static void
print(const struct ar_hostlist *h, char **buf, size_t *cap)
{
	size_t len = 0;

	if (ar_hostlist_format(h, buf, &len, cap) != 0 ||
	    strlen(*buf) != len || (h->count > 0) != (len > 0))
		abort();
}

/* Host i of h and host j of h2 must be the same, and be found again. */
static void
samehost(const struct ar_hostlist *h, uint32_t i,
    const struct ar_hostlist *h2, uint32_t j)
{
	char a[AR_HOSTNAME_MAX + 1], b[AR_HOSTNAME_MAX + 1];
	uint32_t k;

	if (ar_hostlist_name(h, i, a) == NULL ||
	    ar_hostlist_name(h2, j, b) == NULL || strcmp(a, b) != 0 ||
	    ar_hostlist_find(h, a, &k) != 0 || k != i)
		abort();
}

/*
 * Print the n hosts of h at idx (increasing), parse what was printed
 * and check that it holds those hosts, in that order.
 */
static void
subset(const struct ar_hostlist *h, const uint32_t *idx, size_t n,
    char **buf, size_t *cap)
{
	struct ar_hostlist sub;
	char err[AR_ERRMAX];
	uint32_t *back;
	size_t i, len = 0;

	if (ar_hostlist_format_subset(h, idx, n, buf, &len, cap) != 0)
		abort();
	if (n == 0) {
		if (len != 0)
			abort();
		return;
	}
	ar_hostlist_init(&sub);
	if (ar_hostlist_parse(*buf, &sub, err) != 0 || sub.count != n ||
	    (back = malloc(n * sizeof(*back))) == NULL ||
	    ar_hostlist_find_all(h, &sub, back, err) != 0)
		abort();
	for (i = 0; i < n; i++) {
		if (back[i] != idx[i])
			abort();
		samehost(h, idx[i], &sub, i);
	}
	free(back);
	ar_hostlist_free(&sub);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ar_hostlist h, h2;
	char err[AR_ERRMAX], *s, *a = NULL, *b = NULL;
	size_t i, n, max, acap = 0, bcap = 0;
	uint32_t idx[SUBSET], w, i32;
	uint64_t x = UINT64_C(0x9e3779b97f4a7c15);
	int rc;

	if ((s = malloc(size + 1)) == NULL)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	for (i = 0; i < size; i++)
		x = (x ^ data[i]) * UINT64_C(0x100000001b3);
	if (x == 0)
		x = 1;
	ar_hostlist_init(&h);
	ar_hostlist_init(&h2);

	max = next(&x) % ((BOUND >> next(&x) % HALVINGS) + 1);
	if ((rc = ar_hostlist_parse_max(s, max, &h, err)) != 0) {
		if (rc != -1 || h.count != 0)
			abort();
		checkerr(err);
		goto done;
	}
	if (h.count == 0 || h.count > max)
		abort();

	/* The printed form is the same list, and prints the same. */
	print(&h, &a, &acap);
	if (ar_hostlist_parse(a, &h2, err) != 0 || h2.count != h.count)
		abort();
	print(&h2, &b, &bcap);
	if (strcmp(a, b) != 0)
		abort();
	n = h.count < SAMPLE ? h.count : SAMPLE;
	for (i = 0; i < n; i++) {
		i32 = h.count <= SAMPLE ? i : next(&x) % h.count;
		samehost(&h, i32, &h2, i32);
	}
	if (ar_hostlist_name(&h, h.count, err) != NULL ||
	    ar_hostlist_find(&h, "", &i32) == 0)
		abort();

	/* Hosts anywhere in the list; a window with a few gaps; the
	 * first and the last. */
	for (n = 0, i = next(&x) % SUBSET; i > 0; i--)
		idx[n++] = next(&x) % h.count;
	qsort(idx, n, sizeof(*idx), idxcmp);
	for (i = 1, w = n, n = n > 0; i < w; i++)
		if (idx[i] != idx[n - 1])
			idx[n++] = idx[i];
	subset(&h, idx, n, &b, &bcap);
	w = next(&x) % h.count;
	for (n = 0; n < SUBSET && w < h.count; w++)
		if (next(&x) % 4 != 0)
			idx[n++] = w;
	subset(&h, idx, n, &b, &bcap);
	idx[0] = 0;
	idx[1] = h.count - 1;
	subset(&h, idx, h.count > 1 ? 2 : 1, &b, &bcap);
done:
	ar_hostlist_free(&h);
	ar_hostlist_free(&h2);
	free(a);
	free(b);
	free(s);
	return 0;
}
