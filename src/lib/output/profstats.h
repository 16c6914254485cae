/* SPDX-License-Identifier: MIT */
/*
 * The shares of a profile by function and by mapping, as pprof's text
 * view gives them: a function's flat samples are those whose leaf is in
 * it, its cumulative samples those with a frame in it, each sample
 * counted once however often the function recurs in its stack.  Frames
 * are named through symbolize.h (return addresses less 1, as pprof looks
 * them up).  Two profiles are compared by these shares, which do not
 * depend on where the mappings were loaded.  Sums use count.h: they
 * stop at UINT64_MAX rather than wrap.
 */
#ifndef P2G_PROFSTATS_H
#define P2G_PROFSTATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "profile.h"

/* A function (by name) or a mapping (by path) and its samples. */
struct profstats_entry {
	char *name;
	uint64_t flat, cum;
};

struct profstats {
	uint64_t samples;	/* all samples */
	uint64_t symbolized;	/* samples whose leaf has a function name */
	struct profstats_entry *fns, *maps;	/* by cum, flat, then name */
	size_t nfns, nmaps;
	/* private: for each PC of the profile's pool, its function's and
	 * its mapping's index + 1 (0: none) */
	const struct profile *p;
	uint32_t *pc_fn, *pc_map;
	size_t npcs;
};

/* Fill S for P (which must outlive S), its PCs named with the files
 * found where perf finds them and in the NBINARIES directories BINARIES
 * (symbolize.h).  Returns 0, or -1 when out of memory (S is then
 * empty). */
int profstats_compute(const struct profile *p, const char *const *binaries,
		      size_t nbinaries, struct profstats *s);

/* Free what S holds; accepts an S that profstats_compute() failed on. */
void profstats_release(struct profstats *s);

/* The flat and cumulative samples of function NAME (0 and 0 if no frame
 * has that name). */
void profstats_function(const struct profstats *s, const char *name,
			uint64_t *flat, uint64_t *cum);

/*
 * The flat and cumulative samples of the mappings whose path is PATH, or
 * (for a PATH without '/') whose path's last component is PATH: a sample
 * with frames in several such mappings counts once.
 */
void profstats_mapping(const struct profstats *s, const char *path,
		       uint64_t *flat, uint64_t *cum);

/* N of D samples as a percentage (0 when D is 0). */
double profstats_percent(uint64_t n, uint64_t d);

/* One function or mapping in a comparison: its shares in A and B, in
 * percent, and the difference allowed. */
struct profstats_row {
	const char *name;	/* lives as long as the two profstats */
	bool mapping;		/* a mapping, named by its path's last part */
	double flat_a, flat_b, cum_a, cum_b;
	double diff;		/* the larger of |flat_a - flat_b| and
				   |cum_a - cum_b| */
	double allowed;		/* the tolerance, in points */
};

struct profstats_cmp {
	bool equal;
	bool inexact;		/* a total reached UINT64_MAX: no verdict */
	struct profstats_row *rows;	/* those beyond their allowance
					   first, then by diff */
	size_t nrows;
	size_t nfns_a, nfns_b, nfns_both;
};

/*
 * Compare the shares of every function and every mapping (by the last
 * part of its path) of A and B.  A function's shares may differ by
 * TOLERANCE points; with TOLERANCE < 0, by four standard errors of the
 * difference of two shares drawn from A's and B's sample counts (at
 * least 1 point), what two runs of one program stay within.  Returns 0,
 * or -1 when out of memory.
 */
int profstats_compare(const struct profstats *a, const struct profstats *b,
		      double tolerance, struct profstats_cmp *c);

void profstats_cmp_release(struct profstats_cmp *c);

#endif
