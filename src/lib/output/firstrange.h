/* SPDX-License-Identifier: MIT */
/*
 * The first of a list of address ranges, in the list's order, that holds
 * an address: what a reader of the maps text finds when it scans the
 * lines for each PC (gperfcheck's symbolizer, Go pprof's mappings), in
 * O(log n) rather than a scan of every line, which made tens of
 * thousands of lines times as many PCs quadratic.  The ranges may
 * overlap: they are cut once into pieces that each say which range comes
 * first there.
 */
#ifndef P2G_FIRSTRANGE_H
#define P2G_FIRSTRANGE_H

#include <stddef.h>
#include <stdint.h>

/* No range holds the address. */
#define FIRSTRANGE_NONE SIZE_MAX

struct firstrange {
	struct firstrange_piece {
		uint64_t lo, hi;	/* [lo, hi), sorted, disjoint */
		size_t first;		/* the first range over all of it */
	} *v;
	size_t n;
};

/*
 * Cut the N ranges [LO[i], HI[i]) (an empty one, LO >= HI, holds
 * nothing) into F's pieces.  0, or -1 when out of memory (F is then
 * empty).
 */
int firstrange_build(struct firstrange *f, const uint64_t *lo,
		     const uint64_t *hi, size_t n);

/* The index of the first range that holds A, or FIRSTRANGE_NONE. */
size_t firstrange_find(const struct firstrange *f, uint64_t a);

/* Free F's pieces; F is then empty.  A zeroed F is empty. */
void firstrange_free(struct firstrange *f);

#endif
