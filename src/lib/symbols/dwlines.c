/* SPDX-License-Identifier: MIT */
/* Inlined functions and source lines from DWARF: see dwlines.h. */
#include "config.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "demangle.h"
#include "dwlines.h"
#include "grow.h"

/* More inlining than any compiler does: a deeper chain is cut. */
#define DWLINES_MAX_DEPTH 64

/* The functions of one CU by address: each range of each subprogram
 * (a function split into .cold parts has several), read once, so that a
 * lookup is a binary search and not a walk over the CU's DIEs. */
struct fn_range {
	uint64_t lo, hi;
	Dwarf_Off die;
	bool by_symbol;		/* named by its ELF symbol from now on */
};

struct cu_index {
	Dwarf_Off cu;
	struct fn_range *v;
	size_t n, cap;
};

struct dwlines {
	Dwarf *dw;
	struct cu_index *cus;	/* sorted by cu */
	size_t ncus, cap;
	char **names;		/* demangled names given out */
	size_t nnames, cap_names;
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
	size_t i;

	if (d == NULL)
		return;
	for (i = 0; i < d->ncus; i++)
		free(d->cus[i].v);
	free(d->cus);
	for (i = 0; i < d->nnames; i++)
		free(d->names[i]);
	free(d->names);
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

/* Add the ranges of the subprograms among PARENT's children (and in
 * the namespaces, classes and modules there) to CI.  -1 when out of
 * memory.  *BUDGET bounds the DIEs looked at (damaged DWARF). */
static int
index_children(struct cu_index *ci, Dwarf_Die *parent, int depth,
	       unsigned long *budget)
{
	Dwarf_Die child;
	Dwarf_Off last = 0;

	if (depth >= DWLINES_MAX_DEPTH || dwarf_child(parent, &child) != 0)
		return 0;
	do {
		Dwarf_Off off = dwarf_dieoffset(&child);
		Dwarf_Addr base, lo, hi;
		ptrdiff_t r = 0;

		if ((*budget)-- == 0 || off <= last)
			return 0;
		last = off;
		switch (dwarf_tag(&child)) {
		case DW_TAG_subprogram:
			while ((r = dwarf_ranges(&child, r, &base, &lo,
						 &hi)) > 0) {
				struct fn_range *v;

				if (hi <= lo)
					continue;
				if (ci->n == ci->cap) {
					v = grow(ci->v, &ci->cap, ci->n + 1,
						 sizeof(*v), 64);
					if (v == NULL)
						return -1;
					ci->v = v;
				}
				v = &ci->v[ci->n++];
				v->lo = lo;
				v->hi = hi;
				v->die = off;
				v->by_symbol = false;
			}
			break;
		case DW_TAG_namespace:
		case DW_TAG_module:
		case DW_TAG_class_type:
		case DW_TAG_structure_type:
		case DW_TAG_union_type:
			/* definitions nested in these, as clang puts them */
			if (index_children(ci, &child, depth + 1, budget) < 0)
				return -1;
			break;
		default:
			break;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	return 0;
}

static int
cmp_range(const void *x, const void *y)
{
	const struct fn_range *a = x, *b = y;

	return a->lo < b->lo ? -1 : a->lo > b->lo;
}

/* The index of the CU CUDIE, made when first asked for; NULL when out
 * of memory. */
static struct cu_index *
cu_index(struct dwlines *d, Dwarf_Die *cudie)
{
	Dwarf_Off off = dwarf_dieoffset(cudie);
	size_t lo = 0, hi = d->ncus;
	unsigned long budget = 1UL << 22;
	struct cu_index *ci;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (d->cus[mid].cu < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < d->ncus && d->cus[lo].cu == off)
		return &d->cus[lo];
	if (d->ncus == d->cap) {
		ci = grow(d->cus, &d->cap, d->ncus + 1, sizeof(*ci), 16);
		if (ci == NULL)
			return NULL;
		d->cus = ci;
	}
	memmove(&d->cus[lo + 1], &d->cus[lo],
		(d->ncus - lo) * sizeof(*d->cus));
	d->ncus++;
	ci = &d->cus[lo];
	memset(ci, 0, sizeof(*ci));
	ci->cu = off;
	if (index_children(ci, cudie, 0, &budget) < 0)
		return NULL;	/* kept, with what was read */
	if (ci->n > 1)
		qsort(ci->v, ci->n, sizeof(*ci->v), cmp_range);
	return ci;
}

/* The range of CI's subprogram that holds ADDR, with its DIE into *FN;
 * NULL if none. */
static struct fn_range *
cu_function(struct dwlines *d, const struct cu_index *ci, uint64_t addr,
	    Dwarf_Die *fn)
{
	size_t lo = 0, hi = ci->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ci->v[mid].lo <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo > 0 && addr < ci->v[lo - 1].hi &&
	    dwarf_offdie(d->dw, ci->v[lo - 1].die, fn) != NULL)
		return &ci->v[lo - 1];
	return NULL;
}

/* The search, in the function holding an address, for the scopes that
 * hold it: the inlined subroutines met on the way, outermost first, and
 * a bound on the DIEs looked at, so that damaged DWARF (a sibling
 * pointing back) cannot make it endless. */
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

/* True for the languages whose DW_AT_name binutils takes for a linkage
 * name (its dwarf2.c non_mangled()): C, Ada, COBOL, Fortran 77, Pascal,
 * PL/I, UPC and MIPS assembler. */
static bool
plain_names(int lang)
{
	switch (lang) {
	case DW_LANG_C89:
	case DW_LANG_C:
	case DW_LANG_Ada83:
	case DW_LANG_Cobol74:
	case DW_LANG_Cobol85:
	case DW_LANG_Fortran77:
	case DW_LANG_Pascal83:
	case DW_LANG_C99:
	case DW_LANG_Ada95:
	case DW_LANG_PLI:
	case DW_LANG_UPC:
	case DW_LANG_C11:
	case DW_LANG_Mips_Assembler:
		return true;
	default:
		return false;
	}
}

/*
 * The name addr2line (binutils) gives perf for FN, a function or a
 * function inlined, following its abstract origin and specification:
 * its linkage name, demangled as perf demangles it; else its DW_AT_name,
 * but for a function with nothing inlined at the address (ALONE) only in
 * a language LANG with plain names (else binutils takes the ELF
 * symbol's name: NULL).  (With functions inlined there, binutils names
 * their caller from the DWARF alone.)  NULL also when out of memory,
 * with *NOMEM set.
 */
static const char *
dwarf_name(struct dwlines *d, Dwarf_Die *fn, bool alone, int lang,
	   bool *nomem)
{
	Dwarf_Attribute a;
	const char *ln;
	char *dm, **v;

	ln = dwarf_formstring(dwarf_attr_integrate(fn, DW_AT_linkage_name,
						   &a));
	if (ln == NULL)
		ln = dwarf_formstring(dwarf_attr_integrate(
			fn, DW_AT_MIPS_linkage_name, &a));
	if (ln == NULL)
		return alone && !plain_names(lang) ? NULL : dwarf_diename(fn);
	dm = demangle_name(ln);
	if (dm == NULL)
		return ln;
	if (d->nnames == d->cap_names) {
		v = grow(d->names, &d->cap_names, d->nnames + 1, sizeof(*v),
			 16);
		if (v == NULL) {
			free(dm);
			*nomem = true;
			return NULL;
		}
		d->names = v;
	}
	d->names[d->nnames++] = dm;
	return dm;
}

int
dwlines_frames(struct dwlines *d, uint64_t addr, const char *symbol,
	       void *ctx, dwlines_alloc_fn alloc, struct sym_frame **out)
{
	struct walk w;
	struct cu_index *ci;
	Dwarf_Die cu, fn;
	Dwarf_Line *line;
	struct sym_frame f[DWLINES_MAX_DEPTH + 1], *v;
	const char *file = NULL, *own = NULL;
	bool nomem = false;
	uint32_t lineno = 0;
	struct fn_range *r;
	int i, n = 0, lang;

	*out = NULL;
	if (dwarf_addrdie(d->dw, addr, &cu) == NULL)
		return 0;
	lang = dwarf_srclang(&cu);
	line = dwarf_getsrc_die(&cu, addr);
	if (line != NULL) {
		int l = 0;

		file = dwarf_linesrc(line, NULL, NULL);
		if (dwarf_lineno(line, &l) == 0 && l > 0)
			lineno = (uint32_t)l;
	}
	ci = cu_index(d, &cu);
	if (ci == NULL)
		return -1;
	w.addr = addr;
	w.n = 0;
	w.budget = 1UL << 20;
	if ((r = cu_function(d, ci, addr, &fn)) != NULL) {
		(void)walk_children(&w, &fn, 1);
		/* Once binutils has named a function by its ELF symbol (at
		 * an address with nothing inlined), its addr2line process,
		 * which perf keeps for the file, names it so as the caller
		 * of inlined functions too: the order of the lookups
		 * counts, and perf's is ours (each address once, in the
		 * order of the samples). */
		if (!r->by_symbol)
			own = dwarf_name(d, &fn, w.n == 0, lang, &nomem);
		if (nomem)
			return -1;
		if (own == NULL && w.n == 0)
			r->by_symbol = true;
		if (own != NULL && strcmp(own, symbol) == 0)
			own = NULL;
	}
	/* innermost first: each inlined function at the place in it, its
	 * caller at the call site */
	for (i = w.n - 1; i >= 0; i--) {
		Dwarf_Die *sc = &w.chain[i];
		Dwarf_Attribute a;
		Dwarf_Word u;

		f[n].function = dwarf_name(d, sc, false, lang, &nomem);
		if (nomem)
			return -1;
		f[n].file = file;
		f[n].line = lineno;
		f[n].dwarf_function = NULL;
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
	f[n].dwarf_function = own;
	n++;
	v = alloc(ctx, (size_t)n);
	if (v == NULL)
		return -1;
	for (i = 0; i < n; i++)
		v[i] = f[i];
	*out = v;
	return n;
}
