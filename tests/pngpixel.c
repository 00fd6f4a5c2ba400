/*
 * pngpixel - print the colour of pixels of a PNG image, for tests that
 * check where a chart drew what.
 *
 *   pngpixel FILE X Y [X Y ...]
 *
 * prints "WIDTH HEIGHT" on the first line, then "R G B" (0-255) for each
 * point, one per line.  Exit 1 if the file is not a PNG image or a point
 * is outside it, 2 on bad usage.
 */
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int
main(int argc, char **argv)
{
	png_image img;
	png_bytep px;
	long x, y;

	if (argc < 2 || argc % 2 != 0) {
		fprintf(stderr, "usage: pngpixel file [x y ...]\n");
		return 2;
	}
	memset(&img, 0, sizeof(img));
	img.version = PNG_IMAGE_VERSION;
	if (!png_image_begin_read_from_file(&img, argv[1])) {
		fprintf(stderr, "pngpixel: %s: %s\n", argv[1], img.message);
		return 1;
	}
	img.format = PNG_FORMAT_RGB;
	if ((px = malloc(PNG_IMAGE_SIZE(img))) == NULL ||
	    !png_image_finish_read(&img, NULL, px, 0, NULL)) {
		fprintf(stderr, "pngpixel: %s: %s\n", argv[1],
		    px == NULL ? "out of memory" : img.message);
		return 1;
	}
	printf("%u %u\n", img.width, img.height);
	for (int i = 2; i < argc; i += 2) {
		x = strtol(argv[i], NULL, 10);
		y = strtol(argv[i + 1], NULL, 10);
		if (x < 0 || y < 0 || x >= (long)img.width ||
		    y >= (long)img.height) {
			fprintf(stderr, "pngpixel: %ld,%ld: outside the image\n",
			    x, y);
			return 1;
		}
		png_bytep p = px + 3 * ((size_t)y * img.width + (size_t)x);
		printf("%d %d %d\n", p[0], p[1], p[2]);
	}
	free(px);
	return 0;
}
