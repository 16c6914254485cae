/* SPDX-License-Identifier: MIT */
/*
 * Sums of sample counts and periods.  Each term comes from a file (a
 * record's count in a gperftools profile, a sample's period in a
 * perf.data file) and may be as large as its field allows, so a plain sum
 * can wrap: two profiles 2^64 samples apart would then look the same.
 * These sums stop at UINT64_MAX instead, which no real total reaches.
 */
#ifndef P2G_COUNT_H
#define P2G_COUNT_H

#include <stdint.h>

/* A + B, or UINT64_MAX when the sum does not fit. */
static inline uint64_t
count_add(uint64_t a, uint64_t b)
{
	uint64_t s;

	return __builtin_add_overflow(a, b, &s) ? UINT64_MAX : s;
}

/* True if V is a saturated sum (at least UINT64_MAX, so not exact). */
static inline int
count_saturated(uint64_t v)
{
	return v == UINT64_MAX;
}

#endif
