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

struct dbgfetch;
struct symbolizer;

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
	struct symbolizer *sy;	/* the names, kept for profstats_known() */
};

/* Fill S for P (which must outlive S), its PCs named with the files
 * found where perf finds them, in the NBINARIES directories BINARIES and
 * through FETCH (NULL: not) on the debuginfod servers (symbolize.h).
 * Returns 0, or -1 when out of memory (S is then empty). */
int profstats_compute(const struct profile *p, const char *const *binaries,
		      size_t nbinaries, struct dbgfetch *fetch,
		      struct profstats *s);

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

/* The most names profstats_known() offers. */
#define PROFSTATS_CLOSE_MAX 8

/*
 * Whether NAME is known: as a function (MAPPING false), a function of
 * some frame of the profile or a symbol of a file its maps text names;
 * as a mapping, a path of the maps text, or (for a NAME without '/') the
 * last part of one.  When it is not, *NCLOSE gets the number of the
 * known names nearest to it (a few edits away, or containing it) put in
 * CLOSE, at most MAX of them, nearest first; they live as long as S.
 * Returns 1 known, 0 not, -1 out of memory.  Reads the files the
 * profile's frames did not need.
 */
int profstats_known(const struct profstats *s, bool mapping, const char *name,
		    const char **close, size_t max, size_t *nclose);

/* N of D samples as a percentage (0 when D is 0). */
double profstats_percent(uint64_t n, uint64_t d);

/* What the samples tell of a difference of shares, or of two profiles. */
enum profstats_verdict {
	PROFSTATS_SAME,		/* within the tolerance, with confidence */
	PROFSTATS_DIFFERENT,	/* beyond it, with confidence */
	PROFSTATS_UNSURE,	/* too few samples to tell */
};

/* The default of profstats_compare()'s tolerance, in points, and of its
 * confidence, in percent. */
#define PROFSTATS_TOLERANCE 8.0
#define PROFSTATS_CONFIDENCE 95.0

/*
 * One function or mapping in a comparison: its samples and shares (in
 * percent) in A and B, and of its two measures (flat, cumulative) the
 * one that decides its verdict: a different one, else an unsure one,
 * else the larger difference.
 */
struct profstats_row {
	const char *name;	/* lives as long as the two profstats */
	bool mapping;		/* a mapping, named by its path's last part */
	uint64_t nflat_a, nflat_b, ncum_a, ncum_b;	/* samples */
	double flat_a, flat_b, cum_a, cum_b;
	bool cum;		/* the measure shown: cumulative, else flat */
	double diff;		/* its share in A less that in B, points */
	double lo, hi;		/* the bounds of that difference, points */
	double p;		/* its p-value of "no difference" */
	enum profstats_verdict verdict;
};

struct profstats_cmp {
	enum profstats_verdict verdict;
	bool inexact;		/* a total reached UINT64_MAX: no verdict */
	double tolerance, confidence;	/* as used */
	struct profstats_row *rows;	/* different first, then unsure,
					   then same; by |diff| */
	size_t nrows;
	size_t ntests;		/* differences tested: 2 a row */
	size_t ndifferent, nunsure;	/* rows of those verdicts */
	size_t nfns_a, nfns_b, nfns_both;
	/* samples of A and B whose leaf has no function name: compared by
	 * their mappings only */
	uint64_t unnamed_a, unnamed_b;
	/* UNSURE: the smallest difference, in points, that these sample
	 * counts could show beyond chance (after the correction for
	 * ntests tests), and about how many samples each profile would
	 * need for the least certain share of two equal profiles to be
	 * shown within the tolerance (its bounds z se and a difference
	 * by chance, at the two-sided confidence, z2 se, within it) */
	double detectable;
	uint64_t needed;
};

/*
 * Compare the shares of every function and every mapping (by the last
 * part of its path) of A and B, each share as a proportion of its
 * profile's samples.  For each flat and each cumulative share, the
 * difference gets bounds at CONFIDENCE percent (one-sided, each side;
 * Agresti and Caffo's interval, which adds one sample in and one out to
 * each share so that a share of 0 has bounds too) and a p-value of no
 * difference (the same normal approximation, two-sided).  A row is
 *  - SAME when the bounds of both its differences lie within
 *    +-TOLERANCE points (an equivalence test: two one-sided tests);
 *  - DIFFERENT when it is not SAME and one of its differences is not
 *    chance: its p-value passes Holm's correction for all the tests at
 *    1 - CONFIDENCE (so that the chance that any row of two profiles
 *    of equal shares is called different stays below that);
 *  - UNSURE otherwise.
 * The comparison is DIFFERENT if some row is, SAME if every row is,
 * else UNSURE.  TOLERANCE < 0 or CONFIDENCE <= 0 take the defaults
 * above.  Returns 0, or -1 when out of memory.
 */
int profstats_compare(const struct profstats *a, const struct profstats *b,
		      double tolerance, double confidence,
		      struct profstats_cmp *c);

/* The Q-quantile of the standard normal distribution, 0 < Q < 1. */
double profstats_normal_quantile(double q);

void profstats_cmp_release(struct profstats_cmp *c);

#endif
