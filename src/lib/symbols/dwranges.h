/* SPDX-License-Identifier: MIT */
/*
 * The address ranges of DWARF DIEs, for dwlines.c and dwscopes.c: sets
 * of spans, read with dwarf_ranges(), and the range lists
 * (DW_AT_ranges) that many DIEs may share, each read once.  Every range
 * entry read costs one unit of the file's work (struct dwwork).
 */
#ifndef P2G_DWRANGES_H
#define P2G_DWRANGES_H

#include <elfutils/libdw.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hashtab.h"

/* No list (nor node, nor table: dwscopes.h). */
#define DWRANGES_NONE UINT32_MAX

/* The work a file's DWARF may still cost, in units (see dwlines.c). */
struct dwwork {
	uint64_t left;
};

/* Take one unit of W; false once there is none left. */
static inline bool
dwwork_spend(struct dwwork *w)
{
	if (w->left == 0)
		return false;
	w->left--;
	return true;
}

/*
 * Ranges are kept as sets of spans sorted by their start, each with the
 * largest end of itself and of those before it (top): a set holds an
 * address exactly when the last span starting at or below it has a top
 * above it, one binary search, overlapping spans or not.
 */
struct span {
	uint64_t lo, hi, top;
};

/* Sort the N spans of V and set their tops (see struct span). */
void spans_sort(struct span *v, size_t n);

/* Whether the N sorted spans of V hold ADDR. */
bool spans_hold(const struct span *v, size_t n, uint64_t addr);

/*
 * A range list (DW_AT_ranges) read once, however many DIEs name it: its
 * key is its CU and the form and value of the attribute, which are all
 * dwarf_ranges() reads it from.  Thousands of scopes or functions may
 * share one long list.
 */
struct rlist {
	Dwarf_Off cu;
	Dwarf_Word value;
	unsigned int form;
	struct span *v;
	size_t n;
	/* for the users of the list: */
	bool in_fns;		/* its spans are in its CU's function index, */
	Dwarf_Off fn_die;	/* for this function: the last naming it */
	uint64_t mark;		/* the last level table that met it */
};

/* The range lists read (a zeroed struct is an empty one). */
struct dwranges {
	struct rlist *lists;	/* by key in index */
	size_t nlists, cap_lists;
	struct hashtab index;
};

void dwranges_free(struct dwranges *r);

/* Append DIE's ranges (dwarf_ranges(), the empty ones left out) to *V,
 * of *N spans and room for *CAP, each entry read one unit of W.  0, 1
 * when the work ran out, -1 when out of memory. */
int dwranges_read(struct dwwork *w, Dwarf_Die *die, struct span **v,
		  size_t *n, size_t *cap);

/*
 * Into *OUT, the index in R->lists of the range list DIE's DW_AT_ranges
 * names, read (sorted) when first asked for; DWRANGES_NONE when DIE has
 * no DW_AT_ranges that reads as a number (its ranges are then its own).
 * 0, 1 when the work ran out (the list is then cut short, but no lookup
 * is made any more), -1 when out of memory.
 */
int dwranges_list(struct dwranges *r, struct dwwork *w, Dwarf_Die *die,
		  uint32_t *out);

#endif
