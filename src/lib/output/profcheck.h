/* SPDX-License-Identifier: MIT */
/*
 * What gperfcheck says about a profile beyond its validity: the things
 * one pprof or the other mishandles (warnings), and the comparison of two
 * profiles as stacks with their counts.
 */
#ifndef P2G_PROFCHECK_H
#define P2G_PROFCHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "profile.h"

struct profcheck_notes {
	/* the most common second frame and the records that have it */
	uint64_t second_pc;
	size_t second_records;
	bool go_strips;		/* shared by >= N - N/32 of N records */
	bool perl_strips;	/* shared by all */
	size_t duplicate_records;	/* records repeating a stack */
	size_t space_paths;	/* maps paths Go pprof cuts at a space */
	size_t glued_paths;	/* no space between inode and path
				   (gperftools 2.16): Go reads no path */
	uint64_t pcs, pcs_unmapped;	/* PCs (by samples) in no x mapping */
	size_t exec_maps;	/* executable maps lines */
	/* Of the unmapped PCs, those Go pprof gives a mapping with a
	 * nonzero offset whose [start - offset, start) has them, and of
	 * those mappings the one given the most: its start and offset
	 * and its path (in P's maps text, not terminated; NULL if none) */
	uint64_t pcs_widened;
	uint64_t widened_taken, widened_lo, widened_off;
	const char *widened_path;
	size_t widened_path_len;
};

/* Fill N for P.  Returns 0, or -1 when out of memory. */
int profcheck_notes(const struct profile *p, struct profcheck_notes *n);

/* The lines of maps text MAPS whose path Go pprof cuts at a space
 * (profcheck_notes()'s space_paths); 0 also when out of memory. */
size_t profcheck_space_paths(const char *maps);

struct profcheck_diff {
	bool equal;
	/* the first difference: a stack, and its counts in A and B */
	const uint64_t *pcs;
	uint64_t n;
	uint64_t count_a, count_b;
	size_t stacks_a, stacks_b;	/* distinct stacks */
	size_t stacks_both;		/* distinct stacks in A and in B */
};

/*
 * Compare A and B as distinct stacks with summed counts; a stack's counts
 * may differ by TOLERANCE percent of the larger.  A sum that reaches
 * UINT64_MAX (count.h) is not exact and never agrees.  D->pcs points into A or
 * B.  Returns 0, or -1 when out of memory.
 */
int profcheck_compare(const struct profile *a, const struct profile *b,
		      double tolerance, struct profcheck_diff *d);

#endif
