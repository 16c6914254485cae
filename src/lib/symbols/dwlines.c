/* SPDX-License-Identifier: MIT */
/* Inlined functions and source lines from DWARF: see dwlines.h. */
#include "config.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <stdbool.h>
#include <stdlib.h>

#include "dwlines.h"

/* More inlining than any compiler does: a deeper chain is cut. */
#define DWLINES_MAX_DEPTH 64

struct dwlines {
	Dwarf *dw;
};

struct dwlines *
dwlines_open(Elf *elf)
{
	struct dwlines *d;
	Dwarf *dw = dwarf_begin_elf(elf, DWARF_C_READ, NULL);

	if (dw == NULL)
		return NULL;
	d = calloc(1, sizeof(*d));
	if (d == NULL) {
		dwarf_end(dw);
		return NULL;
	}
	d->dw = dw;
	return d;
}

void
dwlines_free(struct dwlines *d)
{
	if (d == NULL)
		return;
	dwarf_end(d->dw);
	free(d);
}

/* The file of index IDX in the CU's file table, or NULL. */
static const char *
cu_file(Dwarf_Die *cu, Dwarf_Word idx)
{
	Dwarf_Files *files;
	size_t n;

	if (dwarf_getsrcfiles(cu, &files, &n) != 0 || idx >= n)
		return NULL;
	return dwarf_filesrc(files, idx, NULL, NULL);
}

/* The search for the scopes holding an address: the inlined
 * subroutines met on the way, outermost first, and a bound on the DIEs
 * looked at, so that damaged DWARF (a sibling pointing back) cannot make
 * it endless. */
struct walk {
	Dwarf_Addr addr;
	Dwarf_Die chain[DWLINES_MAX_DEPTH];
	int n;
	unsigned long budget;
};

/* Look among PARENT's children, DEPTH levels down, for the scope holding
 * the address; true once found (the search ends there). */
static bool
walk_children(struct walk *w, Dwarf_Die *parent, int depth)
{
	Dwarf_Die child;
	Dwarf_Off last = 0;

	if (depth >= 2 * DWLINES_MAX_DEPTH || dwarf_child(parent, &child) != 0)
		return false;
	do {
		Dwarf_Off off = dwarf_dieoffset(&child);
		int tag = dwarf_tag(&child);

		if (w->budget-- == 0 || off <= last)
			return false;
		last = off;
		switch (tag) {
		case DW_TAG_subprogram:
		case DW_TAG_inlined_subroutine:
		case DW_TAG_lexical_block:
		case DW_TAG_try_block:
		case DW_TAG_catch_block:
			if (dwarf_haspc(&child, w->addr) != 1)
				break;
			if (tag == DW_TAG_inlined_subroutine &&
			    w->n < DWLINES_MAX_DEPTH)
				w->chain[w->n++] = child;
			(void)walk_children(w, &child, depth + 1);
			return true;
		case DW_TAG_namespace:
		case DW_TAG_module:
		case DW_TAG_class_type:
		case DW_TAG_structure_type:
		case DW_TAG_union_type:
			/* definitions nested in these (as clang puts
			 * them) have no range of their own around them */
			if (walk_children(w, &child, depth + 1))
				return true;
			break;
		default:
			break;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	return false;
}

int
dwlines_frames(struct dwlines *d, uint64_t addr, const char *symbol,
	       void *ctx, dwlines_alloc_fn alloc, struct sym_frame **out)
{
	struct walk w;
	Dwarf_Die cu;
	Dwarf_Line *line;
	struct sym_frame f[DWLINES_MAX_DEPTH + 1], *v;
	const char *file = NULL;
	uint32_t lineno = 0;
	int i, n = 0;

	*out = NULL;
	if (dwarf_addrdie(d->dw, addr, &cu) == NULL)
		return 0;
	line = dwarf_getsrc_die(&cu, addr);
	if (line != NULL) {
		int l = 0;

		file = dwarf_linesrc(line, NULL, NULL);
		if (dwarf_lineno(line, &l) == 0 && l > 0)
			lineno = (uint32_t)l;
	}
	w.addr = addr;
	w.n = 0;
	w.budget = 1UL << 20;
	(void)walk_children(&w, &cu, 0);
	/* innermost first: each inlined function at the place in it, its
	 * caller at the call site */
	for (i = w.n - 1; i >= 0; i--) {
		Dwarf_Die *sc = &w.chain[i];
		Dwarf_Attribute a;
		Dwarf_Word u;

		f[n].function = dwarf_diename(sc);
		f[n].file = file;
		f[n].line = lineno;
		n++;
		file = NULL;
		lineno = 0;
		if (dwarf_formudata(dwarf_attr(sc, DW_AT_call_file, &a),
				    &u) == 0)
			file = cu_file(&cu, u);
		if (dwarf_formudata(dwarf_attr(sc, DW_AT_call_line, &a),
				    &u) == 0 && u <= UINT32_MAX)
			lineno = (uint32_t)u;
	}
	f[n].function = symbol;
	f[n].file = file;
	f[n].line = lineno;
	n++;
	v = alloc(ctx, (size_t)n);
	if (v == NULL)
		return -1;
	for (i = 0; i < n; i++)
		v[i] = f[i];
	*out = v;
	return n;
}
