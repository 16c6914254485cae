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
#include "hashtab.h"

/* More inlining than any compiler does: a deeper chain is cut. */
#define DWLINES_MAX_DEPTH 64

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

/* No node, list or table. */
#define DWLINES_NONE UINT32_MAX

/*
 * Ranges are kept as sets of spans sorted by their start, each with the
 * largest end of itself and of those before it (top): a set holds an
 * address exactly when the last span starting at or below it has a top
 * above it, one binary search, overlapping spans or not.
 */
struct span {
	uint64_t lo, hi, top;
};

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
	bool in_fns;		/* its spans are in its CU's function index, */
	Dwarf_Off fn_die;	/* for this function: the last naming it */
	uint64_t mark;		/* the last level table that met it */
};

/* The functions of one CU by address: each range of each subprogram
 * (a function split into .cold parts has several), read once, so that a
 * lookup is a binary search and not a walk over the CU's DIEs.  A range
 * list shared by several subprograms is in it once, for the last of
 * them in DIE order (where each kept a copy, the last one's was found,
 * sorted last). */
struct fn_range {
	uint64_t lo, hi;
	Dwarf_Off die;
	uint32_t list;		/* the shared list it is from, or NONE */
	bool by_symbol;		/* named by its ELF symbol from now on */
};

struct cu_index {
	Dwarf_Off cu;
	struct fn_range *v;
	size_t n, cap;
};

/*
 * The scopes of one function, indexed by its first lookup, so that the
 * others never walk its DIEs: the function and, in preorder, the
 * subprograms, inlined subroutines, lexical, try and catch blocks in
 * it, as the walk over its DIEs meets them (each DIE and each range
 * entry one unit of work).  A namespace, module, class, structure or
 * union is no scope: its children are those of the level it is in, in
 * DIE order.  A scope's children are the nodes from the next one on,
 * each followed by its subtree: the next sibling of node C is node
 * v[C].end, and the level of P ends at v[P].end.  Scopes without any
 * range are left out with what is in them (no address reaches them),
 * and so are those below DWLINES_MAX_DEPTH * 2 levels.
 *
 * A lookup goes down from the function: at each level the first child
 * in DIE order whose ranges hold the address, until none does.  A child
 * sharing the range list of a sibling before it can never be the first
 * (dead).  A level of DWLINES_LEVEL_MIN children or more has a table:
 * the spans of its live children with short range sets, sorted, when
 * they do not overlap (a binary search finds the one such child holding
 * the address), and its other live children in DIE order (longs: those
 * with long lists, or every live child when the spans overlap), each
 * tried in turn for one unit of work, up to the child the search found.
 * A smaller level is tried child by child.
 */
#define DWLINES_LEVEL_MIN 8
#define DWLINES_SHORT 8

struct scope {
	Dwarf_Off die;
	uint32_t end;		/* past its subtree: its next sibling */
	uint32_t list;		/* its ranges: d->lists[list], or NONE and */
	uint32_t first, n;	/* fi->spans[first, first + n) */
	uint32_t level;		/* its children's table, or NONE */
	bool inlined;
	bool dead;		/* shares the list of a sibling before it */
};

/* A span of a child, in a level table. */
struct piece {
	uint64_t lo, hi;
	uint32_t node;
};

struct level {
	uint32_t first, n;	/* fi->pieces, sorted by lo */
	uint32_t lfirst, nl;	/* fi->longs, in DIE order */
};

struct fn_index {
	Dwarf_Off die;
	bool cut;		/* the work ran out while it was made */
	struct scope *v;
	size_t n, cap;
	struct span *spans;	/* the ranges of scopes, not shared */
	size_t nspans, cap_spans;
	struct piece *pieces;
	size_t npieces, cap_pieces;
	uint32_t *longs;
	size_t nlongs, cap_longs;
	struct level *levels;
	size_t nlevels, cap_levels;
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
	uint64_t work;		/* units of work left (see above) */
	struct cu_index *cus;	/* sorted by cu */
	size_t ncus, cap;
	struct rlist *lists;	/* by key in list_index */
	size_t nlists, cap_lists;
	struct hashtab list_index;
	uint64_t marks;		/* level tables made */
	struct fn_index *fns;	/* by die in fn_index */
	size_t nfns, cap_fns;
	struct hashtab fn_index;
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

/* Take one unit of D's work; false once there is none left. */
static bool
spend(struct dwlines *d)
{
	if (d->work == 0)
		return false;
	d->work--;
	return true;
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
	d->work = DWLINES_WORK_MIN + DWLINES_WORK_PER_BYTE * sections_size(elf);
	return d;
}

static void
fn_index_free(struct fn_index *fi)
{
	free(fi->v);
	free(fi->spans);
	free(fi->pieces);
	free(fi->longs);
	free(fi->levels);
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
	for (i = 0; i < d->nlists; i++)
		free(d->lists[i].v);
	free(d->lists);
	hashtab_free(&d->list_index);
	for (i = 0; i < d->nfns; i++)
		fn_index_free(&d->fns[i]);
	free(d->fns);
	hashtab_free(&d->fn_index);
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
	while (spend(d) && dwarf_get_units(d->dw, unit, &unit, &version,
					    &type, &cudie, &sub) == 0) {
		Dwarf_Addr base, lo, hi;
		ptrdiff_t r = 0;

		if (type != DW_UT_compile && type != DW_UT_partial &&
		    type != DW_UT_skeleton)
			continue;
		while (spend(d) &&
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
	while (lo > 0 && d->units[lo - 1].hi_max > addr && spend(d)) {
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

static int
cmp_span(const void *x, const void *y)
{
	const struct span *a = x, *b = y;

	if (a->lo != b->lo)
		return a->lo < b->lo ? -1 : 1;
	return a->hi < b->hi ? -1 : a->hi > b->hi;
}

/* Sort the N spans of V and set their tops (see struct span). */
static void
spans_sort(struct span *v, size_t n)
{
	uint64_t top = 0;
	size_t i;

	if (n > 1)
		qsort(v, n, sizeof(*v), cmp_span);
	for (i = 0; i < n; i++) {
		if (v[i].hi > top)
			top = v[i].hi;
		v[i].top = top;
	}
}

/* Whether the N sorted spans of V hold ADDR. */
static bool
spans_hold(const struct span *v, size_t n, uint64_t addr)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid].lo <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 && v[lo - 1].top > addr;
}

/* Append DIE's ranges (dwarf_ranges(), the empty ones left out) to *V,
 * of *N spans and room for *CAP, each entry read one unit of work.  0,
 * 1 when the work ran out, -1 when out of memory. */
static int
read_ranges(struct dwlines *d, Dwarf_Die *die, struct span **v, size_t *n,
	    size_t *cap)
{
	Dwarf_Addr base, lo, hi;
	ptrdiff_t r = 0;

	while ((r = dwarf_ranges(die, r, &base, &lo, &hi)) > 0) {
		if (!spend(d))
			return 1;
		if (hi <= lo)
			continue;
		if (*n == *cap) {
			struct span *nv = grow(*v, cap, *n + 1, sizeof(**v),
					       16);

			if (nv == NULL)
				return -1;
			*v = nv;
		}
		(*v)[*n].lo = lo;
		(*v)[*n].hi = hi;
		(*n)++;
	}
	return 0;
}

static uint64_t
list_hash(Dwarf_Off cu, unsigned int form, Dwarf_Word value)
{
	return hashtab_hash64(hashtab_hash64(hashtab_hash64(cu) ^ value) ^
			      form);
}

/*
 * Into *OUT, the index in D->lists of the range list DIE's DW_AT_ranges
 * names, read (sorted) when first asked for; NONE when DIE has no
 * DW_AT_ranges that reads as a number (its ranges are then its own).
 * 0, 1 when the work ran out (the list is then cut short, but no lookup
 * is made any more), -1 when out of memory.
 */
static int
shared_list(struct dwlines *d, Dwarf_Die *die, uint32_t *out)
{
	Dwarf_Attribute a;
	Dwarf_Word value;
	Dwarf_Die cudie;
	Dwarf_Off cu;
	struct hashtab_iter it;
	struct rlist *l;
	unsigned int form;
	size_t cap = 0;
	uint64_t h;
	uint32_t i;
	int rc;

	*out = DWLINES_NONE;
	if (dwarf_attr(die, DW_AT_ranges, &a) == NULL ||
	    dwarf_formudata(&a, &value) != 0 ||
	    dwarf_diecu(die, &cudie, NULL, NULL) == NULL)
		return 0;
	cu = dwarf_dieoffset(&cudie);
	form = dwarf_whatform(&a);
	h = list_hash(cu, form, value);
	if (hashtab_reserve(&d->list_index, d->nlists + 1) < 0)
		return -1;
	for (i = hashtab_probe(&d->list_index, h, &it); i != HASHTAB_NONE;
	     i = hashtab_next(&d->list_index, &it))
		if (d->lists[i].cu == cu && d->lists[i].form == form &&
		    d->lists[i].value == value) {
			*out = i;
			return 0;
		}
	if (d->nlists >= DWLINES_NONE - 1)
		return -1;
	if (d->nlists == d->cap_lists) {
		l = grow(d->lists, &d->cap_lists, d->nlists + 1, sizeof(*l),
			 16);
		if (l == NULL)
			return -1;
		d->lists = l;
	}
	l = &d->lists[d->nlists];
	memset(l, 0, sizeof(*l));
	l->cu = cu;
	l->form = form;
	l->value = value;
	rc = read_ranges(d, die, &l->v, &l->n, &cap);
	if (rc < 0) {
		free(l->v);
		return -1;
	}
	spans_sort(l->v, l->n);
	hashtab_insert(&d->list_index, &it, (uint32_t)d->nlists);
	*out = (uint32_t)d->nlists++;
	return rc;
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

	if ((rc = shared_list(d, die, &k)) != 0)
		return rc;
	if (k != DWLINES_NONE) {
		struct rlist *l = &d->lists[k];

		l->fn_die = off;
		if (l->in_fns)
			return 0;	/* in CI already */
		l->in_fns = true;
		src = l->v;
		n = l->n;
	} else {
		rc = read_ranges(d, die, &own, &n, &cap);
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
		int rc;

		if ((*budget)-- == 0 || off <= last || !spend(d))
			return 0;
		last = off;
		switch (dwarf_tag(&child)) {
		case DW_TAG_subprogram:
			rc = index_function(d, ci, &child, off);
			if (rc != 0)
				return rc < 0 ? -1 : 0;
			break;
		case DW_TAG_namespace:
		case DW_TAG_module:
		case DW_TAG_class_type:
		case DW_TAG_structure_type:
		case DW_TAG_union_type:
			/* definitions nested in these, as clang puts them */
			if (index_children(d, ci, &child, depth + 1,
					   budget) < 0)
				return -1;
			break;
		default:
			break;
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
		if (ci->v[i].list != DWLINES_NONE)
			ci->v[i].die = d->lists[ci->v[i].list].fn_die;
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

static int build_children(struct dwlines *d, struct fn_index *fi,
			  Dwarf_Die *parent, int depth);

/* Add the scope DIE of tag TAG, DEPTH levels down, and its subtree to
 * FI: 0, 1 when the work ran out, -1 when out of memory. */
static int
add_scope(struct dwlines *d, struct fn_index *fi, Dwarf_Die *die, int tag,
	  int depth)
{
	size_t first = fi->nspans;
	struct scope *s;
	uint32_t list, i;
	int rc;

	if ((rc = shared_list(d, die, &list)) != 0)
		return rc;
	if (list == DWLINES_NONE) {
		rc = read_ranges(d, die, &fi->spans, &fi->nspans,
				 &fi->cap_spans);
		if (rc != 0)
			return rc;
		if (fi->nspans == first)
			return 0;	/* no address is in it */
		spans_sort(&fi->spans[first], fi->nspans - first);
	} else if (d->lists[list].n == 0) {
		return 0;
	}
	if (fi->n >= DWLINES_NONE - 1 || fi->nspans >= DWLINES_NONE)
		return -1;
	if (fi->n == fi->cap) {
		s = grow(fi->v, &fi->cap, fi->n + 1, sizeof(*s), 64);
		if (s == NULL)
			return -1;
		fi->v = s;
	}
	i = (uint32_t)fi->n++;
	s = &fi->v[i];
	s->die = dwarf_dieoffset(die);
	s->list = list;
	s->first = (uint32_t)first;
	s->n = (uint32_t)(fi->nspans - first);
	s->level = DWLINES_NONE;
	s->inlined = tag == DW_TAG_inlined_subroutine;
	s->dead = false;
	rc = build_children(d, fi, die, depth + 1);
	fi->v[i].end = (uint32_t)fi->n;
	return rc;
}

/* Add the scopes among PARENT's children, DEPTH levels down, to FI (the
 * children of namespaces, classes and modules there among them): 0, 1
 * when the work ran out, -1 when out of memory.  A sibling that is not
 * after the one before (damaged DWARF) ends the level. */
static int
build_children(struct dwlines *d, struct fn_index *fi, Dwarf_Die *parent,
	       int depth)
{
	Dwarf_Die child;
	Dwarf_Off last = 0;
	int rc = 0;

	if (depth >= 2 * DWLINES_MAX_DEPTH || dwarf_child(parent, &child) != 0)
		return 0;
	do {
		Dwarf_Off off = dwarf_dieoffset(&child);
		int tag = dwarf_tag(&child);

		if (off <= last)
			return 0;
		if (!spend(d))
			return 1;
		last = off;
		switch (tag) {
		case DW_TAG_subprogram:
		case DW_TAG_inlined_subroutine:
		case DW_TAG_lexical_block:
		case DW_TAG_try_block:
		case DW_TAG_catch_block:
			rc = add_scope(d, fi, &child, tag, depth);
			break;
		case DW_TAG_namespace:
		case DW_TAG_module:
		case DW_TAG_class_type:
		case DW_TAG_structure_type:
		case DW_TAG_union_type:
			/* definitions nested in these (as clang puts
			 * them) have no range of their own around them */
			rc = build_children(d, fi, &child, depth + 1);
			break;
		default:
			break;
		}
		if (rc != 0)
			return rc;
	} while (dwarf_siblingof(&child, &child) == 0);
	return 0;
}

/* The spans of FI's node C, into *N. */
static const struct span *
scope_spans(const struct dwlines *d, const struct fn_index *fi, uint32_t c,
	    size_t *n)
{
	const struct scope *s = &fi->v[c];

	if (s->list != DWLINES_NONE) {
		*n = d->lists[s->list].n;
		return d->lists[s->list].v;
	}
	*n = s->n;
	return &fi->spans[s->first];
}

static int
cmp_piece(const void *x, const void *y)
{
	const struct piece *a = x, *b = y;

	if (a->lo != b->lo)
		return a->lo < b->lo ? -1 : 1;
	return a->node < b->node ? -1 : a->node > b->node;
}

/* Append node V to FI->longs: -1 when out of memory. */
static int
push_long(struct fn_index *fi, uint32_t v)
{
	if (fi->nlongs >= DWLINES_NONE)
		return -1;
	if (fi->nlongs == fi->cap_longs) {
		uint32_t *nv = grow(fi->longs, &fi->cap_longs, fi->nlongs + 1,
				    sizeof(*nv), 16);

		if (nv == NULL)
			return -1;
		fi->longs = nv;
	}
	fi->longs[fi->nlongs++] = v;
	return 0;
}

/* Mark the dead children of FI's node P and, if it has
 * DWLINES_LEVEL_MIN children or more, make their table (see struct
 * fn_index): -1 when out of memory. */
static int
make_level(struct dwlines *d, struct fn_index *fi, uint32_t p)
{
	uint64_t mark = ++d->marks;
	size_t nchildren = 0, pfirst = fi->npieces, lfirst = fi->nlongs, i;
	uint32_t c, end = fi->v[p].end;
	bool overlap = false;
	uint64_t top = 0;
	struct level *lv;

	for (c = p + 1; c < end; c = fi->v[c].end) {
		uint32_t k = fi->v[c].list;

		nchildren++;
		if (k == DWLINES_NONE)
			continue;
		if (d->lists[k].mark == mark)
			fi->v[c].dead = true;
		d->lists[k].mark = mark;
	}
	if (nchildren < DWLINES_LEVEL_MIN)
		return 0;
	for (c = p + 1; c < end; c = fi->v[c].end) {
		const struct span *v;
		size_t n;

		if (fi->v[c].dead)
			continue;
		v = scope_spans(d, fi, c, &n);
		if (n > DWLINES_SHORT) {
			if (push_long(fi, c) < 0)
				return -1;
			continue;
		}
		if (fi->npieces + n > fi->cap_pieces) {
			struct piece *nv = grow(fi->pieces, &fi->cap_pieces,
						fi->npieces + n, sizeof(*nv),
						64);

			if (nv == NULL)
				return -1;
			fi->pieces = nv;
		}
		for (i = 0; i < n; i++) {
			fi->pieces[fi->npieces].lo = v[i].lo;
			fi->pieces[fi->npieces].hi = v[i].hi;
			fi->pieces[fi->npieces].node = c;
			fi->npieces++;
		}
	}
	if (fi->npieces - pfirst > 1)
		qsort(&fi->pieces[pfirst], fi->npieces - pfirst,
		      sizeof(*fi->pieces), cmp_piece);
	for (i = pfirst; i < fi->npieces && !overlap; i++) {
		if (i > pfirst && fi->pieces[i].lo < top)
			overlap = true;
		if (fi->pieces[i].hi > top)
			top = fi->pieces[i].hi;
	}
	if (overlap) {
		/* every live child tried in turn */
		fi->npieces = pfirst;
		fi->nlongs = lfirst;
		for (c = p + 1; c < end; c = fi->v[c].end)
			if (!fi->v[c].dead && push_long(fi, c) < 0)
				return -1;
	}
	if (fi->npieces >= DWLINES_NONE || fi->nlevels >= DWLINES_NONE - 1)
		return -1;
	if (fi->nlevels == fi->cap_levels) {
		lv = grow(fi->levels, &fi->cap_levels, fi->nlevels + 1,
			  sizeof(*lv), 16);
		if (lv == NULL)
			return -1;
		fi->levels = lv;
	}
	lv = &fi->levels[fi->nlevels];
	lv->first = (uint32_t)pfirst;
	lv->n = (uint32_t)(fi->npieces - pfirst);
	lv->lfirst = (uint32_t)lfirst;
	lv->nl = (uint32_t)(fi->nlongs - lfirst);
	fi->v[p].level = (uint32_t)fi->nlevels++;
	return 0;
}

/* Make FI, the index of the function FN (see struct fn_index): 0, 1
 * when the work ran out, -1 when out of memory. */
static int
fn_index_make(struct dwlines *d, struct fn_index *fi, Dwarf_Die *fn)
{
	uint32_t p;
	int rc;

	fi->v = malloc(64 * sizeof(*fi->v));
	if (fi->v == NULL)
		return -1;
	fi->cap = 64;
	fi->n = 1;
	memset(&fi->v[0], 0, sizeof(fi->v[0]));
	fi->v[0].die = fi->die;
	fi->v[0].list = DWLINES_NONE;
	fi->v[0].level = DWLINES_NONE;
	rc = build_children(d, fi, fn, 1);
	fi->v[0].end = (uint32_t)fi->n;
	if (rc != 0)
		return rc;
	for (p = 0; p < fi->n; p++)
		if (fi->v[p].end > p + 1 && make_level(d, fi, p) < 0)
			return -1;
	return 0;
}

/* The scope index of the function FN, made when first asked for; NULL
 * when out of memory or out of work. */
static const struct fn_index *
fn_index(struct dwlines *d, Dwarf_Die *fn)
{
	Dwarf_Off off = dwarf_dieoffset(fn);
	uint64_t h = hashtab_hash64(off);
	struct hashtab_iter it;
	struct fn_index *fi;
	uint32_t i;
	int rc;

	if (hashtab_reserve(&d->fn_index, d->nfns + 1) < 0)
		return NULL;
	for (i = hashtab_probe(&d->fn_index, h, &it); i != HASHTAB_NONE;
	     i = hashtab_next(&d->fn_index, &it))
		if (d->fns[i].die == off)
			return d->fns[i].cut ? NULL : &d->fns[i];
	if (d->nfns >= DWLINES_NONE - 1)
		return NULL;
	if (d->nfns == d->cap_fns) {
		fi = grow(d->fns, &d->cap_fns, d->nfns + 1, sizeof(*fi), 16);
		if (fi == NULL)
			return NULL;
		d->fns = fi;
	}
	fi = &d->fns[d->nfns];
	memset(fi, 0, sizeof(*fi));
	fi->die = off;
	rc = fn_index_make(d, fi, fn);
	if (rc < 0) {
		fn_index_free(fi);
		return NULL;
	}
	/* kept when cut (the work is spent: no lookup comes any more) */
	fi->cut = rc > 0;
	hashtab_insert(&d->fn_index, &it, (uint32_t)d->nfns++);
	return fi->cut ? NULL : fi;
}

/* Whether the ranges of FI's node C hold ADDR. */
static bool
scope_holds(const struct dwlines *d, const struct fn_index *fi, uint32_t c,
	    uint64_t addr)
{
	const struct span *v;
	size_t n;

	v = scope_spans(d, fi, c, &n);
	return spans_hold(v, n, addr);
}

/* The first child of FI's node P in DIE order whose ranges hold ADDR,
 * or NONE (also when the work runs out). */
static uint32_t
level_find(struct dwlines *d, const struct fn_index *fi, uint32_t p,
	   uint64_t addr)
{
	const struct scope *s = &fi->v[p];
	const struct level *lv;
	uint32_t c, found = DWLINES_NONE, i;
	size_t lo, hi;

	if (s->level == DWLINES_NONE) {
		for (c = p + 1; c < s->end; c = fi->v[c].end) {
			if (fi->v[c].dead)
				continue;
			if (!spend(d))
				return DWLINES_NONE;
			if (scope_holds(d, fi, c, addr))
				return c;
		}
		return DWLINES_NONE;
	}
	lv = &fi->levels[s->level];
	lo = lv->first;
	hi = (size_t)lv->first + lv->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (fi->pieces[mid].lo <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo > lv->first && addr < fi->pieces[lo - 1].hi)
		found = fi->pieces[lo - 1].node;
	for (i = 0; i < lv->nl; i++) {
		c = fi->longs[lv->lfirst + i];
		if (c > found)
			break;
		if (!spend(d))
			return DWLINES_NONE;
		if (scope_holds(d, fi, c, addr))
			return c;
	}
	return found;
}

/* Into CHAIN, the inlined subroutines that hold ADDR in the function of
 * FI, outermost first: their number. */
static int
fn_chain(struct dwlines *d, const struct fn_index *fi, uint64_t addr,
	 Dwarf_Off *chain)
{
	uint32_t p = 0, c;
	int n = 0;

	while ((c = level_find(d, fi, p, addr)) != DWLINES_NONE) {
		if (fi->v[c].inlined && n < DWLINES_MAX_DEPTH)
			chain[n++] = fi->v[c].die;
		p = c;
	}
	return n;
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
	    d->nnames >= DWLINES_NONE - 1)
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
	const struct fn_index *fi;
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
	if (d->work == 0 || unit_of(d, addr, &cu, &nomem) == NULL)
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
		if ((fi = fn_index(d, &fn)) == NULL)
			return d->work == 0 ? 0 : -1;
		nchain = fn_chain(d, fi, addr, chain);
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
