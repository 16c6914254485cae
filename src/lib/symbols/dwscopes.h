/* SPDX-License-Identifier: MIT */
/*
 * The scopes of DWARF functions, for dwlines.c: for an address in a
 * function, the inlined subroutines that hold it, outermost first.  A
 * function's scopes are read from its DIEs once, at its first lookup,
 * into an index that later lookups search (see dwscopes.c); their
 * ranges come from a struct dwranges, and the work from a struct dwwork
 * both shared with the caller.
 */
#ifndef P2G_DWSCOPES_H
#define P2G_DWSCOPES_H

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dwranges.h"
#include "hashtab.h"

/* More inlining than any compiler does: a deeper chain is cut. */
#define DWSCOPES_MAX_DEPTH 64

struct fn_index;

/* Whether a DIE of TAG (a namespace, module, class, structure or union)
 * only holds definitions, as clang nests them: no range of its own is
 * around them, and its children count as those of the level it is in
 * (in the CU's functions and in a function's scopes alike). */
static inline bool
dwscopes_container(int tag)
{
	return tag == DW_TAG_namespace || tag == DW_TAG_module ||
	       tag == DW_TAG_class_type || tag == DW_TAG_structure_type ||
	       tag == DW_TAG_union_type;
}

/* The functions indexed (a zeroed struct, its ranges and work set, is
 * an empty one). */
struct dwscopes {
	struct dwranges *ranges;
	struct dwwork *work;
	uint64_t marks;		/* level tables made */
	struct fn_index *fns;	/* by die in index */
	size_t nfns, cap_fns;
	struct hashtab index;
};

void dwscopes_free(struct dwscopes *s);

/*
 * Into CHAIN (room for DWSCOPES_MAX_DEPTH), the inlined subroutines that
 * hold ADDR in the function FN, outermost first: their number; -1 when
 * out of memory or out of work (S->work is then spent).
 */
int dwscopes_chain(struct dwscopes *s, Dwarf_Die *fn, uint64_t addr,
		   Dwarf_Off *chain);

#endif
