/* SPDX-License-Identifier: MIT */
/* The scopes of DWARF functions: see dwscopes.h. */
#include "config.h"

#include <dwarf.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "dwscopes.h"
#include "grow.h"

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
 * and so are those below DWSCOPES_MAX_DEPTH * 2 levels.
 *
 * A lookup goes down from the function: at each level the first child
 * in DIE order whose ranges hold the address, until none does.  A child
 * sharing the range list of a sibling before it can never be the first
 * (dead).  A level of DWSCOPES_LEVEL_MIN children or more has a table:
 * the spans of its live children with short range sets, sorted, when
 * they do not overlap (a binary search finds the one such child holding
 * the address), and its other live children in DIE order (longs: those
 * with long lists, or every live child when the spans overlap), each
 * tried in turn for one unit of work, up to the child the search found.
 * A smaller level is tried child by child.
 */
#define DWSCOPES_LEVEL_MIN 8
#define DWSCOPES_SHORT 8

struct scope {
	Dwarf_Off die;
	uint32_t end;		/* past its subtree: its next sibling */
	uint32_t list;		/* its ranges: ranges->lists[list], */
	uint32_t first, n;	/* or (list DWRANGES_NONE) these of
				   fi->spans */
	uint32_t level;		/* its children's table, or
				   DWRANGES_NONE */
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
dwscopes_free(struct dwscopes *s)
{
	size_t i;

	for (i = 0; i < s->nfns; i++)
		fn_index_free(&s->fns[i]);
	free(s->fns);
	hashtab_free(&s->index);
	s->fns = NULL;
	s->nfns = s->cap_fns = 0;
}

static int build_children(struct dwscopes *d, struct fn_index *fi,
			  Dwarf_Die *parent, int depth);

/* Add the scope DIE of tag TAG, DEPTH levels down, and its subtree to
 * FI: 0, 1 when the work ran out, -1 when out of memory. */
static int
add_scope(struct dwscopes *d, struct fn_index *fi, Dwarf_Die *die, int tag,
	  int depth)
{
	size_t first = fi->nspans;
	struct scope *s;
	uint32_t list, i;
	int rc;

	if ((rc = dwranges_list(d->ranges, d->work, die, &list)) != 0)
		return rc;
	if (list == DWRANGES_NONE) {
		rc = dwranges_read(d->work, die, &fi->spans, &fi->nspans,
				 &fi->cap_spans);
		if (rc != 0)
			return rc;
		if (fi->nspans == first)
			return 0;	/* no address is in it */
		spans_sort(&fi->spans[first], fi->nspans - first);
	} else if (d->ranges->lists[list].n == 0) {
		return 0;
	}
	if (fi->n >= DWRANGES_NONE - 1 || fi->nspans >= DWRANGES_NONE)
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
	s->level = DWRANGES_NONE;
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
build_children(struct dwscopes *d, struct fn_index *fi, Dwarf_Die *parent,
	       int depth)
{
	Dwarf_Die child;
	Dwarf_Off last = 0;
	int rc = 0;

	if (depth >= 2 * DWSCOPES_MAX_DEPTH || dwarf_child(parent, &child) != 0)
		return 0;
	do {
		Dwarf_Off off = dwarf_dieoffset(&child);
		int tag = dwarf_tag(&child);

		if (off <= last)
			return 0;
		if (!dwwork_spend(d->work))
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
		default:
			if (dwscopes_container(tag))
				rc = build_children(d, fi, &child, depth + 1);
			break;
		}
		if (rc != 0)
			return rc;
	} while (dwarf_siblingof(&child, &child) == 0);
	return 0;
}

/* The spans of FI's node C, into *N. */
static const struct span *
scope_spans(const struct dwscopes *d, const struct fn_index *fi, uint32_t c,
	    size_t *n)
{
	const struct scope *s = &fi->v[c];

	if (s->list != DWRANGES_NONE) {
		*n = d->ranges->lists[s->list].n;
		return d->ranges->lists[s->list].v;
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
	if (fi->nlongs >= DWRANGES_NONE)
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
 * DWSCOPES_LEVEL_MIN children or more, make their table (see struct
 * fn_index): -1 when out of memory. */
static int
make_level(struct dwscopes *d, struct fn_index *fi, uint32_t p)
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
		if (k == DWRANGES_NONE)
			continue;
		if (d->ranges->lists[k].mark == mark)
			fi->v[c].dead = true;
		d->ranges->lists[k].mark = mark;
	}
	if (nchildren < DWSCOPES_LEVEL_MIN)
		return 0;
	for (c = p + 1; c < end; c = fi->v[c].end) {
		const struct span *v;
		size_t n;

		if (fi->v[c].dead)
			continue;
		v = scope_spans(d, fi, c, &n);
		if (n > DWSCOPES_SHORT) {
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
	if (fi->npieces >= DWRANGES_NONE || fi->nlevels >= DWRANGES_NONE - 1)
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
fn_index_make(struct dwscopes *d, struct fn_index *fi, Dwarf_Die *fn)
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
	fi->v[0].list = DWRANGES_NONE;
	fi->v[0].level = DWRANGES_NONE;
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
fn_index(struct dwscopes *d, Dwarf_Die *fn)
{
	Dwarf_Off off = dwarf_dieoffset(fn);
	uint64_t h = hashtab_hash64(off);
	struct hashtab_iter it;
	struct fn_index *fi;
	uint32_t i;
	int rc;

	if (hashtab_reserve(&d->index, d->nfns + 1) < 0)
		return NULL;
	for (i = hashtab_probe(&d->index, h, &it); i != HASHTAB_NONE;
	     i = hashtab_next(&d->index, &it))
		if (d->fns[i].die == off)
			return d->fns[i].cut ? NULL : &d->fns[i];
	if (d->nfns >= DWRANGES_NONE - 1)
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
	hashtab_insert(&d->index, &it, (uint32_t)d->nfns++);
	return fi->cut ? NULL : fi;
}

/* Whether the ranges of FI's node C hold ADDR. */
static bool
scope_holds(const struct dwscopes *d, const struct fn_index *fi, uint32_t c,
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
level_find(struct dwscopes *d, const struct fn_index *fi, uint32_t p,
	   uint64_t addr)
{
	const struct scope *s = &fi->v[p];
	const struct level *lv;
	uint32_t c, found = DWRANGES_NONE, i;
	size_t lo, hi;

	if (s->level == DWRANGES_NONE) {
		for (c = p + 1; c < s->end; c = fi->v[c].end) {
			if (fi->v[c].dead)
				continue;
			if (!dwwork_spend(d->work))
				return DWRANGES_NONE;
			if (scope_holds(d, fi, c, addr))
				return c;
		}
		return DWRANGES_NONE;
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
		if (!dwwork_spend(d->work))
			return DWRANGES_NONE;
		if (scope_holds(d, fi, c, addr))
			return c;
	}
	return found;
}

static int
fn_chain(struct dwscopes *d, const struct fn_index *fi, uint64_t addr,
	 Dwarf_Off *chain)
{
	uint32_t p = 0, c;
	int n = 0;

	while ((c = level_find(d, fi, p, addr)) != DWRANGES_NONE) {
		if (fi->v[c].inlined && n < DWSCOPES_MAX_DEPTH)
			chain[n++] = fi->v[c].die;
		p = c;
	}
	return n;
}

int
dwscopes_chain(struct dwscopes *s, Dwarf_Die *fn, uint64_t addr,
	       Dwarf_Off *chain)
{
	const struct fn_index *fi = fn_index(s, fn);

	return fi != NULL ? fn_chain(s, fi, addr, chain) : -1;
}
