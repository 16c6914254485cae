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
#include "dwranges.h"
#include "dwscopes.h"
#include "grow.h"
#include "hashtab.h"

#define DWLINES_MAX_DEPTH DWSCOPES_MAX_DEPTH

/*
 * The work a file's DWARF may cost, over all its lookups: DIEs looked
 * at, range entries read, functions indexed and scopes tried, each one
 * unit, at most DWLINES_WORK_PER_BYTE units per byte of the file's
 * sections, plus DWLINES_WORK_MIN.  A real file's lookups cost a small
 * part of it (each function's scopes are read once, each range list
 * once); a hostile one (a function of a million scopes whose ranges
 * overlap) stops there, and its addresses are named by their symbols
 * alone from then on.
 */
#define DWLINES_WORK_PER_BYTE 16
#define DWLINES_WORK_MIN (1UL << 20)

/* The functions of one CU by address: each range of each subprogram
 * (a function split into .cold parts has several), read once, so that a
 * lookup is a binary search and not a walk over the CU's DIEs.  A range
 * list shared by several subprograms is in it once, for the last of
 * them in DIE order (where each kept a copy, the last one's was found,
 * sorted last). */
struct fn_range {
	uint64_t lo, hi;
	Dwarf_Off die;
	uint32_t list;		/* the shared list it is from, or
				   DWRANGES_NONE */
	bool by_symbol;		/* named by its ELF symbol from now on */
};

struct cu_index {
	Dwarf_Off cu;
	struct fn_range *v;
	size_t n, cap;
};

/* A demangled name given out, kept for its DIE. */
struct dwname {
	Dwarf_Off die;
	char *name;		/* NULL: the linkage name as it is */
};

/* A range of a compile unit's code; HI_MAX is the greatest hi of the
 * ranges up to this one (by lo), so that a search needs no more than
 * the ranges that reach the address. */
struct unit_range {
	uint64_t lo, hi, hi_max;
	Dwarf_Off die;
};

struct dwlines {
	Dwarf *dw;
	struct dwwork work;	/* units of work left (see above) */
	struct cu_index *cus;	/* sorted by cu */
	size_t ncus, cap;
	struct dwranges ranges;	/* the range lists read */
	struct dwscopes scopes;	/* the functions' scopes indexed */
	struct dwname *names;	/* by die in name_index */
	size_t nnames, cap_names;
	struct hashtab name_index;
	/* the units' ranges, for a file whose .debug_aranges does not
	 * cover an address (clang writes none): read when first needed */
	bool units_read;
	struct unit_range *units;	/* by lo */
	size_t nunits, cap_units;
};

/* The bytes of ELF's sections (with contents): its size, nearly, read
 * from its section headers alone. */
static uint64_t
sections_size(Elf *elf)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	uint64_t n = 0;

	while ((scn = elf_nextscn(elf, scn)) != NULL)
		if (gelf_getshdr(scn, &sh) != NULL &&
		    sh.sh_type != SHT_NOBITS &&
		    sh.sh_size < (UINT64_MAX >> 8) - n)
			n += sh.sh_size;
	return n;
}

/*
 * Whether ELF's string sections of DWARF (.debug_str, .debug_line_str,
 * as libdw holds them once it began: inflated) end in a NUL.  libdw
 * 0.188 reads a line table's file names with strlen() and would read
 * past the end of one that does not.
 */
static bool
strings_end(Elf *elf)
{
	static const char *const names[] = {
		".debug_str", ".debug_line_str", ".zdebug_str",
		".zdebug_line_str",
	};
	Elf_Scn *scn = NULL;
	size_t shstrndx, i;
	GElf_Shdr sh;

	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		return false;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		const char *name;
		Elf_Data *data;

		if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type == SHT_NOBITS)
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (name == NULL)
			continue;
		for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			if (strcmp(name, names[i]) == 0)
				break;
		if (i == sizeof(names) / sizeof(names[0]))
			continue;
		data = elf_getdata(scn, NULL);
		if (data != NULL && data->d_size > 0 &&
		    (data->d_buf == NULL ||
		     ((const char *)data->d_buf)[data->d_size - 1] != '\0'))
			return false;
	}
	return true;
}

struct dwlines *
dwlines_open(Elf *elf)
{
	struct dwlines *d;
	Dwarf *dw = dwarf_begin_elf(elf, DWARF_C_READ, NULL);

	if (dw == NULL)
		return NULL;
	if (!strings_end(elf)) {
		dwarf_end(dw);
		return NULL;
	}
	d = calloc(1, sizeof(*d));
	if (d == NULL) {
		dwarf_end(dw);
		return NULL;
	}
	d->dw = dw;
	d->work.left = DWLINES_WORK_MIN +
		       DWLINES_WORK_PER_BYTE * sections_size(elf);
	d->scopes.ranges = &d->ranges;
	d->scopes.work = &d->work;
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
	dwranges_free(&d->ranges);
	dwscopes_free(&d->scopes);
	for (i = 0; i < d->nnames; i++)
		free(d->names[i].name);
	free(d->names);
	hashtab_free(&d->name_index);
	free(d->units);
	dwarf_end(d->dw);
	free(d);
}

static int
cmp_unit(const void *x, const void *y)
{
	const struct unit_range *a = x, *b = y;

	if (a->lo != b->lo)
		return a->lo < b->lo ? -1 : 1;
	return a->die < b->die ? -1 : a->die > b->die;
}

/* Read the ranges of D's compile units, each unit and range entry one
 * unit of work.  -1 when out of memory. */
static int
units_read(struct dwlines *d)
{
	Dwarf_CU *unit = NULL;
	Dwarf_Die cudie, sub;
	uint8_t type;
	Dwarf_Half version;
	size_t i;

	d->units_read = true;
	while (dwwork_spend(&d->work) &&
	       dwarf_get_units(d->dw, unit, &unit, &version, &type, &cudie,
			       &sub) == 0) {
		Dwarf_Addr base, lo, hi;
		ptrdiff_t r = 0;

		if (type != DW_UT_compile && type != DW_UT_partial &&
		    type != DW_UT_skeleton)
			continue;
		while (dwwork_spend(&d->work) &&
		       (r = dwarf_ranges(&cudie, r, &base, &lo, &hi)) > 0) {
			struct unit_range *v;

			if (hi <= lo)
				continue;
			if (d->nunits == d->cap_units) {
				v = grow(d->units, &d->cap_units,
					 d->nunits + 1, sizeof(*v), 16);
				if (v == NULL)
					return -1;
				d->units = v;
			}
			v = &d->units[d->nunits++];
			v->lo = lo;
			v->hi = hi;
			v->die = dwarf_dieoffset(&cudie);
		}
	}
	if (d->nunits > 1)
		qsort(d->units, d->nunits, sizeof(*d->units), cmp_unit);
	for (i = 0; i < d->nunits; i++)
		d->units[i].hi_max = i > 0 && d->units[i - 1].hi_max >
						  d->units[i].hi
					     ? d->units[i - 1].hi_max
					     : d->units[i].hi;
	return 0;
}

/*
 * The compile unit holding ADDR into *CU: by .debug_aranges, else by the
 * units' own ranges (of those that hold it, the one starting last).  NULL
 * if none does, or memory ran out (*NOMEM set).
 */
static Dwarf_Die *
unit_of(struct dwlines *d, uint64_t addr, Dwarf_Die *cu, bool *nomem)
{
	size_t lo = 0, hi;

	if (dwarf_addrdie(d->dw, addr, cu) != NULL)
		return cu;
	if (!d->units_read && units_read(d) < 0) {
		*nomem = true;
		return NULL;
	}
	hi = d->nunits;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (d->units[mid].lo <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* back over the ranges that start before ADDR while one of them
	 * may reach it */
	while (lo > 0 && d->units[lo - 1].hi_max > addr &&
	       dwwork_spend(&d->work)) {
		const struct unit_range *u = &d->units[--lo];

		if (addr < u->hi)
			return dwarf_offdie(d->dw, u->die, cu);
	}
	return NULL;
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


/* Add to CI the ranges of the subprogram DIE at OFF: 0, 1 when the
 * work ran out, -1 when out of memory. */
static int
index_function(struct dwlines *d, struct cu_index *ci, Dwarf_Die *die,
	       Dwarf_Off off)
{
	struct span *own = NULL, *src;
	size_t n = 0, cap = 0, i;
	uint32_t k;
	int rc;

	if ((rc = dwranges_list(&d->ranges, &d->work, die, &k)) != 0)
		return rc;
	if (k != DWRANGES_NONE) {
		struct rlist *l = &d->ranges.lists[k];

		l->fn_die = off;
		if (l->in_fns)
			return 0;	/* in CI already */
		l->in_fns = true;
		src = l->v;
		n = l->n;
	} else {
		rc = dwranges_read(&d->work, die, &own, &n, &cap);
		if (rc < 0) {
			free(own);
			return -1;
		}
		src = own;
	}
	if (n > 0 && ci->n + n > ci->cap) {
		struct fn_range *v = grow(ci->v, &ci->cap, grow_add(ci->n, n),
					  sizeof(*v), 64);

		if (v == NULL) {
			free(own);
			return -1;
		}
		ci->v = v;
	}
	for (i = 0; i < n; i++) {
		struct fn_range *v = &ci->v[ci->n++];

		v->lo = src[i].lo;
		v->hi = src[i].hi;
		v->die = off;
		v->list = k;
		v->by_symbol = false;
	}
	free(own);
	return rc;
}

/* Add the ranges of the subprograms among PARENT's children (and in
 * the namespaces, classes and modules there) to CI.  -1 when out of
 * memory.  *BUDGET bounds the DIEs looked at (damaged DWARF). */
static int
index_children(struct dwlines *d, struct cu_index *ci, Dwarf_Die *parent,
	       int depth, unsigned long *budget)
{
	Dwarf_Die child;
	Dwarf_Off last = 0;

	if (depth >= DWLINES_MAX_DEPTH || dwarf_child(parent, &child) != 0)
		return 0;
	do {
		Dwarf_Off off = dwarf_dieoffset(&child);
		int rc, tag;

		if ((*budget)-- == 0 || off <= last ||
		    !dwwork_spend(&d->work))
			return 0;
		last = off;
		tag = dwarf_tag(&child);
		if (tag == DW_TAG_subprogram) {
			rc = index_function(d, ci, &child, off);
			if (rc != 0)
				return rc < 0 ? -1 : 0;
		} else if (dwscopes_container(tag) &&
			   index_children(d, ci, &child, depth + 1,
					  budget) < 0) {
			return -1;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	return 0;
}

/* By start, then by DIE: the last of equal starts is the last function
 * in DIE order. */
static int
cmp_range(const void *x, const void *y)
{
	const struct fn_range *a = x, *b = y;

	if (a->lo != b->lo)
		return a->lo < b->lo ? -1 : 1;
	return a->die < b->die ? -1 : a->die > b->die;
}

/* The index of the CU CUDIE, made when first asked for; NULL when out
 * of memory. */
static struct cu_index *
cu_index(struct dwlines *d, Dwarf_Die *cudie)
{
	Dwarf_Off off = dwarf_dieoffset(cudie);
	size_t lo = 0, hi = d->ncus, i;
	unsigned long budget = 1UL << 22;
	struct cu_index *ci;
	int rc;

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
	rc = index_children(d, ci, cudie, 0, &budget);
	/* a shared list's spans go to the last function naming it */
	for (i = 0; i < ci->n; i++)
		if (ci->v[i].list != DWRANGES_NONE)
			ci->v[i].die = d->ranges.lists[ci->v[i].list].fn_die;
	if (ci->n > 1)
		qsort(ci->v, ci->n, sizeof(*ci->v), cmp_range);
	return rc < 0 ? NULL : ci;	/* kept, with what was read */
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
	Dwarf_Off off = dwarf_dieoffset(fn);
	uint64_t h = hashtab_hash64(off);
	struct hashtab_iter it;
	Dwarf_Attribute a;
	const char *ln;
	struct dwname *v;
	uint32_t i;

	ln = dwarf_formstring(dwarf_attr_integrate(fn, DW_AT_linkage_name,
						   &a));
	if (ln == NULL)
		ln = dwarf_formstring(dwarf_attr_integrate(
			fn, DW_AT_MIPS_linkage_name, &a));
	if (ln == NULL)
		return alone && !plain_names(lang) ? NULL : dwarf_diename(fn);
	/* demangled once for each DIE, however often it is looked up */
	if (hashtab_reserve(&d->name_index, d->nnames + 1) < 0 ||
	    d->nnames >= DWRANGES_NONE - 1)
		goto nomem;
	for (i = hashtab_probe(&d->name_index, h, &it); i != HASHTAB_NONE;
	     i = hashtab_next(&d->name_index, &it))
		if (d->names[i].die == off)
			return d->names[i].name != NULL ? d->names[i].name
							: ln;
	if (d->nnames == d->cap_names) {
		v = grow(d->names, &d->cap_names, d->nnames + 1, sizeof(*v),
			 16);
		if (v == NULL)
			goto nomem;
		d->names = v;
	}
	v = &d->names[d->nnames];
	v->die = off;
	v->name = demangle_name(ln);
	hashtab_insert(&d->name_index, &it, (uint32_t)d->nnames++);
	return v->name != NULL ? v->name : ln;
nomem:
	*nomem = true;
	return NULL;
}

int
dwlines_frames(struct dwlines *d, uint64_t addr, const char *symbol,
	       void *ctx, dwlines_alloc_fn alloc, struct sym_frame **out)
{
	struct cu_index *ci;
	Dwarf_Off chain[DWLINES_MAX_DEPTH];
	Dwarf_Die cu, fn;
	Dwarf_Line *line;
	struct sym_frame f[DWLINES_MAX_DEPTH + 1], *v;
	const char *file = NULL, *own = NULL;
	bool nomem = false;
	uint32_t lineno = 0;
	struct fn_range *r;
	int i, n = 0, nchain = 0, lang;

	*out = NULL;
	/* no work left: named by the symbol alone */
	if (d->work.left == 0 || unit_of(d, addr, &cu, &nomem) == NULL)
		return nomem ? -1 : 0;
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
	if ((r = cu_function(d, ci, addr, &fn)) != NULL) {
		nchain = dwscopes_chain(&d->scopes, &fn, addr, chain);
		if (nchain < 0)
			return d->work.left == 0 ? 0 : -1;
		/* Once binutils has named a function by its ELF symbol (at
		 * an address with nothing inlined), its addr2line process,
		 * which perf keeps for the file, names it so as the caller
		 * of inlined functions too: the order of the lookups
		 * counts, and perf's is ours (each address once, in the
		 * order of the samples). */
		if (!r->by_symbol)
			own = dwarf_name(d, &fn, nchain == 0, lang, &nomem);
		if (nomem)
			return -1;
		if (own == NULL && nchain == 0)
			r->by_symbol = true;
		if (own != NULL && strcmp(own, symbol) == 0)
			own = NULL;
	}
	/* innermost first: each inlined function at the place in it, its
	 * caller at the call site */
	for (i = nchain - 1; i >= 0; i--) {
		Dwarf_Die die, *sc = &die;
		Dwarf_Attribute a;
		Dwarf_Word u;

		if (dwarf_offdie(d->dw, chain[i], sc) == NULL)
			continue;
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
