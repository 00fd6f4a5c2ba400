/*
 * array.h - growing an array: the one way the library, the record
 * format and the commands make room for more elements.  Capacities
 * double, so that appending n elements one at a time costs O(n).
 */
#ifndef AR_ARRAY_H
#define AR_ARRAY_H

#include <stddef.h>

/* An array's first room, in bytes, when it has none: small elements
 * come several at once, a large one (a record) alone. */
#define ARRAY_FIRST 256

int array_grow(void *ap, size_t *cap, size_t n, size_t size);

/*
 * Make room in the array *ap (ap is the address of the array's
 * pointer, which may be NULL), of *cap elements of size bytes, for n
 * elements: the capacity doubles, from what ARRAY_FIRST bytes hold (at
 * least one element), until they fit; the elements it adds hold
 * nothing yet.  0, or ENOMEM with the array and *cap as they were.  An
 * array with room already costs a compare.
 */
static inline int
array_room(void *ap, size_t *cap, size_t n, size_t size)
{
	return n <= *cap ? 0 : array_grow(ap, cap, n, size);
}

#endif
