/*
 * message.h - what the format fuzz targets ask of an error message: it
 * is non-empty, short, printable ASCII, one clean line; else abort().
 */
#ifndef AR_FUZZ_MESSAGE_H
#define AR_FUZZ_MESSAGE_H

#include <stdlib.h>
#include <string.h>

static inline void
checkerr(const char *err)
{
	size_t i, n = strlen(err);

	if (n == 0 || n >= 200)
		abort();
	for (i = 0; i < n; i++)
		if (err[i] < 0x20 || err[i] > 0x7e)
			abort();
}

#endif
