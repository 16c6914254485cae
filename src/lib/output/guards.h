/* SPDX-License-Identifier: MIT */
/*
 * Guard lines: the maps lines that keep Go pprof from giving a frame in
 * no mapping to the file above it (remapMappingIDs: doc/pprof-readers.md,
 * "Addresses in no mapping").  A line over the free stretch around such
 * an address, named "[unknown]" as perf names the frame, covers it first.
 */
#ifndef P2G_GUARDS_H
#define P2G_GUARDS_H

#include <stddef.h>
#include <stdint.h>

/* A maps line's range and offset; or a guard's range. */
struct guard_range {
	uint64_t start, end, off;
};

/* The name of guard lines. */
#define GUARDS_NAME "[unknown]"

/*
 * The guards for the N addresses A (as pprof looks them up: return
 * addresses less 1; sorted and made unique here) that the NL lines L
 * (sorted here) leave uncovered: for each such address below a line
 * with a nonzero offset, within [start - offset, start), the stretch
 * around it that no line covers, clipped to that span.  The guards
 * (sorted, disjoint) go to *OUT, which the caller frees, and their
 * number to *NOUT.  0, or -1 when out of memory.
 */
int guards_find(struct guard_range *l, size_t nl, uint64_t *a, size_t n,
		struct guard_range **out, size_t *nout);

#endif
