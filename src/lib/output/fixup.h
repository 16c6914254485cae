/* SPDX-License-Identifier: MIT */
/*
 * Keeping pprof from rewriting real stacks: Go pprof's second-frame rules
 * (doc/pprof-readers.md) damage real perf stacks.
 *
 * The remedy is to repeat the leaf PC in just the records that would be
 * hit: a repeated leaf is what those rules remove first.  fixup_plan()
 * simulates Go pprof's reader on the stacks as they would be written and
 * raises the repeat count of each record it would damage until none is.
 */
#ifndef P2G_FIXUP_H
#define P2G_FIXUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "profile.h"

struct fixup_result {
	size_t records_changed;	/* records given leaf copies */
	uint64_t copies;	/* leaf copies added in all */
	bool converged;		/* Go pprof reads every stack as recorded */
	bool perl_strips;	/* perl pprof would strip a shared frame */
};

/*
 * For the records of P (true stacks, leaf first) compute EXTRA[i], the
 * number of leaf copies to insert after the leaf of record i so that Go
 * pprof reads every record as P holds it.  EXTRA has p->nrecs entries.
 * Returns 0, or -1 when out of memory.
 */
int fixup_plan(const struct profile *p, unsigned char *extra,
	       struct fixup_result *res);

/*
 * Apply Go pprof's stack rewriting to the records of P as written, and
 * report through SAME[i] whether record i comes out equal to TRUTH's
 * record i (TRUTH and P have the same record order).  Used by the plan
 * and by tests.  Returns the number of records that differ, or -1 when
 * out of memory.
 */
long fixup_simulate_go(const struct profile *p, const struct profile *truth,
		       bool *same);

/* True if perl pprof (without --no-auto-signal-frm) would strip the
 * second frame of every stack of P: all records have two or more PCs and
 * share the second. */
bool fixup_perl_strips(const struct profile *p);

#endif
