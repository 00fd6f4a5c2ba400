/*
 * pngpix.c - the colour of pixels of a PNG image, for the tests of
 * ar-report --svg (rendered by rsvg-convert): 8-bit RGB or RGBA, not
 * interlaced, which is what rsvg-convert writes.
 *
 *   pngpix FILE X Y [X Y ...]    prints rrggbb for each point, one a line
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

static uint32_t
be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | p[3];
}

static int
paeth(int a, int b, int c)
{
	int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);

	return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

int
main(int argc, char **argv)
{
	unsigned char *file, *idat = NULL, *raw;
	size_t n = 0, cap = 1 << 20, ni = 0;
	uint32_t w = 0, h = 0, bpp = 0;
	uLongf rawlen;
	FILE *f;

	if (argc < 4 || argc % 2 != 0 || (f = fopen(argv[1], "rb")) == NULL) {
		fprintf(stderr, "usage: pngpix FILE X Y [X Y ...]\n");
		return 2;
	}
	if ((file = malloc(cap)) == NULL || (idat = malloc(cap)) == NULL)
		return 2;
	while (!feof(f)) {
		if (n == cap && (file = realloc(file, cap *= 2)) == NULL)
			return 2;
		n += fread(file + n, 1, cap - n, f);
	}
	fclose(f);
	if (n < 8 || memcmp(file, "\x89PNG\r\n\x1a\n", 8) != 0)
		return fprintf(stderr, "pngpix: not a PNG\n"), 2;
	for (size_t p = 8; p + 12 <= n; ) {
		uint32_t len = be32(file + p);
		const unsigned char *type = file + p + 4, *d = file + p + 8;

		if (p + 12 + len > n)
			return fprintf(stderr, "pngpix: truncated\n"), 2;
		if (memcmp(type, "IHDR", 4) == 0) {
			w = be32(d);
			h = be32(d + 4);
			if (d[8] != 8 || (d[9] != 2 && d[9] != 6) || d[12] != 0)
				return fprintf(stderr, "pngpix: not 8-bit RGB(A), "
				    "or interlaced\n"), 2;
			bpp = d[9] == 6 ? 4 : 3;
		} else if (memcmp(type, "IDAT", 4) == 0) {
			if ((idat = realloc(idat, ni + len + 1)) == NULL)
				return 2;
			memcpy(idat + ni, d, len);
			ni += len;
		}
		p += 12 + len;
	}
	if (bpp == 0)
		return fprintf(stderr, "pngpix: no header\n"), 2;
	rawlen = (uLongf)h * (1 + (uLongf)w * bpp);
	if ((raw = malloc(rawlen)) == NULL ||
	    uncompress(raw, &rawlen, idat, ni) != Z_OK)
		return fprintf(stderr, "pngpix: bad image data\n"), 2;
	/* Undo each row's filter, in place: a row refers to the one above. */
	for (uint32_t y = 0; y < h; y++) {
		unsigned char *row = raw + (size_t)y * (1 + w * bpp);
		unsigned char *up = y ? row - (1 + w * bpp) : NULL;

		for (uint32_t i = 1; i <= w * bpp; i++) {
			int a = i > bpp ? row[i - bpp] : 0, b = up ? up[i] : 0;
			int c = i > bpp && up ? up[i - bpp] : 0;

			switch (row[0]) {
			case 1: row[i] += a; break;
			case 2: row[i] += b; break;
			case 3: row[i] += (a + b) / 2; break;
			case 4: row[i] += paeth(a, b, c); break;
			}
		}
	}
	for (int i = 2; i + 1 < argc; i += 2) {
		long x = strtol(argv[i], NULL, 10), y = strtol(argv[i + 1], NULL, 10);
		const unsigned char *px;

		if (x < 0 || y < 0 || x >= (long)w || y >= (long)h)
			return fprintf(stderr, "pngpix: %ld,%ld outside\n", x, y), 2;
		px = raw + (size_t)y * (1 + w * bpp) + 1 + (size_t)x * bpp;
		printf("%02x%02x%02x\n", px[0], px[1], px[2]);
	}
	return 0;
}
