/* SPDX-License-Identifier: MIT */
/*
 * Growing arrays by doubling, the multiplications and additions of
 * their sizes checked (see grow.h).
 */
#include <stdlib.h>

#include "grow.h"

size_t
grow_cap(size_t cap, size_t need, size_t size, size_t first)
{
	size_t most = size > 0 ? SIZE_MAX / size : SIZE_MAX;
	size_t nc;

	if (need <= cap)
		return cap;
	if (need > most)
		return 0;
	nc = cap == 0 ? first : cap > most / 2 ? most : 2 * cap;
	if (nc > most)
		nc = most;
	return nc > need ? nc : need;
}

void *
grow_realloc(void *p, size_t n, size_t size)
{
	size_t bytes;

	if (__builtin_mul_overflow(n, size, &bytes))
		return NULL;
	return realloc(p, bytes > 0 ? bytes : 1);
}

void *
grow(void *p, size_t *cap, size_t need, size_t size, size_t first)
{
	size_t nc;
	void *np;

	if (need <= *cap)
		return p;
	nc = grow_cap(*cap, need, size, first);
	if (nc == 0)
		return NULL;
	np = grow_realloc(p, nc, size);
	if (np != NULL)
		*cap = nc;
	return np;
}
