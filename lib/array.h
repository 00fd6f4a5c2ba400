/*
 * array.h - growing an array: the one way the library, the record
 * format and the commands make room for more elements.  Capacities
 * double, so that appending n elements one at a time costs O(n).
 */
#ifndef AR_ARRAY_H
#define AR_ARRAY_H

#include <stddef.h>

/* The array's first capacity, in elements, when it has none. */
#define ARRAY_FIRST 16

int array_grow(void *ap, size_t *cap, size_t n, size_t size);

/*
 * Make room in the array *ap (ap is the address of the array's
 * pointer, which may be NULL), of *cap elements of size bytes, for n
 * elements: the capacity doubles, from ARRAY_FIRST, until they fit,
 * and the elements added are zero bytes.  0, or ENOMEM with the array
 * and *cap as they were.  An array with room already costs a compare.
 */
static inline int
array_room(void *ap, size_t *cap, size_t n, size_t size)
{
	return n <= *cap ? 0 : array_grow(ap, cap, n, size);
}

#endif
