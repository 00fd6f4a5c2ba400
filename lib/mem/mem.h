/*
 * mem.h - the memory backend (kv_memory in kv.h): what the rest of the
 * library, the tests and the fuzz targets may ask it besides struct
 * kv_backend.
 */
#ifndef AR_MEM_MEM_H
#define AR_MEM_MEM_H

/* Does where name a memory store, mem:NAME?  1 or 0. */
int mem_is_address(const char *where);

/*
 * Make a memory store named to, a copy of the one named from as its
 * last commit left it, in constant time: the two share what neither
 * changes.
 * AR_ENOSTORE if from is not there, EEXIST if to is, EINVAL if either
 * is not a memory store's address, ENOMEM.
 */
int mem_copy(const char *from, const char *to);

/* Do the memory stores a and b hold the same commit (one a copy of the
 * other, neither written since)?  1 or 0; 0 if either is not there. */
int mem_same(const char *a, const char *b);

/*
 * Remove the memory store where, and free its memory: AR_ENOSTORE if it
 * is not there, EBUSY while it is open, EINVAL if where is not a memory
 * store's address.
 */
int mem_remove(const char *where);

#endif
