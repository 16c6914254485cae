/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of the checked grow helper: an array grows by doubling from
 * its first count, or straight to what is needed when that is more, and
 * keeps its elements; a count whose bytes do not fit in a size_t (by the
 * multiplication, by the doubling, or by a sum that wrapped) fails
 * without touching the array or its count, where an unchecked
 * cap * 2 * size would have wrapped to a small allocation.
 */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "grow.h"
#include "unit.h"

int
main(void)
{
	size_t cap = 0, i, big;
	uint32_t *v = NULL, *nv;
	char *p = malloc(1);

	if (p == NULL)
		return 99;
	*p = 'x';

	/* the first count, then doubling, then straight to NEED */
	nv = grow(v, &cap, 1, sizeof(*v), 16);
	CHECK(nv != NULL);
	CHECK_EQ_U64(cap, 16);
	v = nv;
	for (i = 0; i < 16; i++)
		v[i] = (uint32_t)i;
	nv = grow(v, &cap, 17, sizeof(*v), 16);
	CHECK(nv != NULL);
	CHECK_EQ_U64(cap, 32);
	v = nv;
	for (i = 0; i < 16; i++)
		CHECK_EQ_U64(v[i], i);
	nv = grow(v, &cap, 100, sizeof(*v), 16);
	CHECK(nv != NULL);
	CHECK_EQ_U64(cap, 100);
	v = nv;
	CHECK_EQ_U64(v[15], 15);
	/* room enough: the same array, the same count */
	CHECK(grow(v, &cap, 100, sizeof(*v), 16) == v);
	CHECK(grow(v, &cap, 0, sizeof(*v), 16) == v);
	CHECK_EQ_U64(cap, 100);
	free(v);

	/* NEED * SIZE does not fit: NULL, the count and array untouched */
	cap = 4;
	CHECK(grow(p, &cap, SIZE_MAX / 8 + 1, 8, 16) == NULL);
	CHECK_EQ_U64(cap, 4);
	CHECK(*p == 'x');
	CHECK_EQ_U64(grow_cap(4, SIZE_MAX / 8 + 1, 8, 16), 0);
	CHECK_EQ_U64(grow_cap(4, SIZE_MAX, 2, 16), 0);
	/* a sum that wrapped saturates and fails the same way */
	CHECK_EQ_U64(grow_add(SIZE_MAX - 1, 2), SIZE_MAX);
	CHECK_EQ_U64(grow_add(3, 4), 7);
	cap = 4;
	CHECK(grow(p, &cap, grow_add(SIZE_MAX, 1), 2, 16) == NULL);
	CHECK_EQ_U64(cap, 4);

	/* doubling past what fits stops at the largest count that fits,
	 * never at a wrapped one */
	big = SIZE_MAX / 16;
	CHECK_EQ_U64(grow_cap(big - 1, big, 16, 16), big);
	CHECK_EQ_U64(grow_cap(big / 2 + 1, big / 2 + 2, 16, 16), big);
	CHECK_EQ_U64(grow_cap(SIZE_MAX / 2 + 1, SIZE_MAX / 2 + 2, 1, 16),
		     SIZE_MAX);
	CHECK_EQ_U64(grow_cap(big, big + 1, 16, 16), 0);

	/* the byte count of a reallocation is checked too */
	CHECK(grow_realloc(p, SIZE_MAX / 4 + 1, 4) == NULL);
	CHECK(grow_realloc(p, 2, SIZE_MAX / 2 + 1) == NULL);
	CHECK(*p == 'x');
	free(p);
	return unit_exit();
}
