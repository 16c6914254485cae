/* SPDX-License-Identifier: MIT */
/*
 * The hash index (see hashtab.h): what is not on a lookup's path, that
 * is growing, adding a key known to be new, and freeing.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "hashtab.h"

/* The fewest slots of an index that has any. */
#define HASHTAB_MIN_SLOTS 16

void
hashtab_init(struct hashtab *t)
{
	memset(t, 0, sizeof(*t));
}

void
hashtab_free(struct hashtab *t)
{
	free(t->slots);
	hashtab_init(t);
}

void
hashtab_clear(struct hashtab *t)
{
	if (t->slots != NULL)
		memset(t->slots, 0, t->nslots * sizeof(*t->slots));
	t->n = 0;
}

/*
 * N zeroed bytes whose pages have been written.  The fresh pages of a
 * large calloc() are mapped to the shared zero page when first read (a
 * probe looks before it writes), and the first write then costs a
 * second fault, a copy on write, which flushes the TLB of every CPU that
 * runs the process.  A write to each page
 * first takes one fault and no flush.  (The same memory from malloc()
 * and memset() is made a calloc() by the compiler.)
 */
static void *
calloc_written(size_t n)
{
	unsigned char *p = calloc(1, n);
	size_t i;

	if (p != NULL)
		for (i = 0; i < n; i += 4096)
			((volatile unsigned char *)p)[i] = 0;
	return p;
}

int
hashtab_grow(struct hashtab *t, size_t n)
{
	size_t ns = t->nslots ? t->nslots : HASHTAB_MIN_SLOTS, i, j;
	uint64_t *s;

	if (n >= HASHTAB_NONE)
		return -1;
	while (n * 4 > ns * 3)
		ns *= 2;
	/* The tag picks the first slot: no more than 2^32 slots. */
	if (ns > SIZE_MAX / sizeof(*s) || ns > (size_t)UINT32_MAX + 1)
		return -1;
	if (ns == t->nslots)
		return 0;
	s = calloc_written(ns * sizeof(*s));
	if (s == NULL)
		return -1;
	for (i = 0; i < t->nslots; i++) {
		if (t->slots[i] == 0)
			continue;
		j = (size_t)(t->slots[i] >> 32) & (ns - 1);
		while (s[j] != 0)
			j = (j + 1) & (ns - 1);
		s[j] = t->slots[i];
	}
	free(t->slots);
	t->slots = s;
	t->nslots = ns;
	return 0;
}

int
hashtab_add(struct hashtab *t, uint64_t hash, uint32_t index)
{
	struct hashtab_iter it;

	if (index == HASHTAB_NONE || hashtab_reserve(t, t->n + 1) < 0)
		return -1;
	if (hashtab_probe(t, hash, &it) != HASHTAB_NONE)
		while (hashtab_next(t, &it) != HASHTAB_NONE)
			;
	hashtab_insert(t, &it, index);
	return 0;
}
