/*
 * pq.c - libpq by dlopen (see pq.h).
 */
#include <dlfcn.h>
#include <stddef.h>

#include "pq.h"

struct pq pq;

int
pq_load(void)
{
	static void *lib;
	void *f;

	if (lib != NULL)
		return 0;
	if ((lib = dlopen("libpq.so.5", RTLD_NOW | RTLD_LOCAL)) == NULL)
		return -1;
#define PQ_LOAD(name) \
	if ((f = dlsym(lib, #name)) == NULL) \
		goto missing; \
	pq.name = (__typeof__(pq.name))f;
	PQ_FUNCTIONS(PQ_LOAD)
#undef PQ_LOAD
	return 0;
missing:
	/* A libpq.so.5 too old for one of them: as if there were none. */
	dlclose(lib);
	lib = NULL;
	return -1;
}
