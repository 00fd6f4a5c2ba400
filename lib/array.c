/*
 * array.c - growing an array (array.h).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"

int
array_grow(void *ap, size_t *cap, size_t n, size_t size)
{
	size_t c = *cap ? *cap : size < ARRAY_FIRST ? ARRAY_FIRST / size : 1;
	void *a;

	while (c < n)
		if (__builtin_mul_overflow(c, 2, &c))
			return ENOMEM;
	if (size > 0 && c > SIZE_MAX / size)
		return ENOMEM;
	/* The caller's pointer, whatever it points to, as a void *. */
	memcpy(&a, ap, sizeof(a));
	if ((a = realloc(a, c * size)) == NULL)
		return ENOMEM;
	memcpy(ap, &a, sizeof(a));
	*cap = c;
	return 0;
}
