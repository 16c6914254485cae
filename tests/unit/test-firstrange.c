/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of firstrange.c against the scan it replaces: for random
 * lists of ranges (overlapping, nested, empty, equal, at the ends of the
 * address space) and addresses at and around every bound, the first
 * range in the list's order that holds the address.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>

#include "firstrange.h"
#include "unit.h"

static size_t
scan(const uint64_t *lo, const uint64_t *hi, size_t n, uint64_t a)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (a >= lo[i] && a < hi[i])
			return i;
	return FIRSTRANGE_NONE;
}

/* A small pseudo-random generator, fixed seed: the same lists each run. */
static uint64_t state = 88172645463325252ULL;

static uint64_t
next(void)
{
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	return state;
}

int
main(void)
{
	uint64_t lo[40], hi[40];
	struct firstrange f;
	size_t round, n, i;
	int d;

	for (round = 0; round < 2000; round++) {
		uint64_t span = round % 3 == 0 ? 20 : 1000;

		n = (size_t)(next() % 40);
		for (i = 0; i < n; i++) {
			lo[i] = next() % span;
			hi[i] = lo[i] + next() % (span / 2) - span / 10;
			if (round % 7 == 0) {
				/* near the top of the address space */
				lo[i] += UINT64_MAX - span;
				hi[i] = i % 2 ? UINT64_MAX
					      : hi[i] + UINT64_MAX - span;
			}
		}
		CHECK(firstrange_build(&f, lo, hi, n) == 0);
		for (i = 0; i < n; i++)
			for (d = -1; d <= 1; d++) {
				CHECK_EQ_U64(firstrange_find(&f, lo[i] + d),
					     scan(lo, hi, n, lo[i] + d));
				CHECK_EQ_U64(firstrange_find(&f, hi[i] + d),
					     scan(lo, hi, n, hi[i] + d));
			}
		CHECK_EQ_U64(firstrange_find(&f, 0), scan(lo, hi, n, 0));
		firstrange_free(&f);
	}
	/* none: nothing holds anything */
	CHECK(firstrange_build(&f, lo, hi, 0) == 0);
	CHECK_EQ_U64(firstrange_find(&f, 5), FIRSTRANGE_NONE);
	firstrange_free(&f);
	return unit_exit();
}
