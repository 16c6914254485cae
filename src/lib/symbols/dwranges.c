/* SPDX-License-Identifier: MIT */
/* The address ranges of DWARF DIEs: see dwranges.h. */
#include "config.h"

#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

#include "dwranges.h"
#include "grow.h"

void
dwranges_free(struct dwranges *r)
{
	size_t i;

	for (i = 0; i < r->nlists; i++)
		free(r->lists[i].v);
	free(r->lists);
	hashtab_free(&r->index);
	memset(r, 0, sizeof(*r));
}

static int
cmp_span(const void *x, const void *y)
{
	const struct span *a = x, *b = y;

	if (a->lo != b->lo)
		return a->lo < b->lo ? -1 : 1;
	return a->hi < b->hi ? -1 : a->hi > b->hi;
}

void
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

bool
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

int
dwranges_read(struct dwwork *w, Dwarf_Die *die, struct span **v, size_t *n,
	      size_t *cap)
{
	Dwarf_Addr base, lo, hi;
	ptrdiff_t r = 0;

	while ((r = dwarf_ranges(die, r, &base, &lo, &hi)) > 0) {
		if (!dwwork_spend(w))
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

int
dwranges_list(struct dwranges *r, struct dwwork *w, Dwarf_Die *die,
	      uint32_t *out)
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

	*out = DWRANGES_NONE;
	if (dwarf_attr(die, DW_AT_ranges, &a) == NULL ||
	    dwarf_formudata(&a, &value) != 0 ||
	    dwarf_diecu(die, &cudie, NULL, NULL) == NULL)
		return 0;
	cu = dwarf_dieoffset(&cudie);
	form = dwarf_whatform(&a);
	h = list_hash(cu, form, value);
	if (hashtab_reserve(&r->index, r->nlists + 1) < 0)
		return -1;
	for (i = hashtab_probe(&r->index, h, &it); i != HASHTAB_NONE;
	     i = hashtab_next(&r->index, &it))
		if (r->lists[i].cu == cu && r->lists[i].form == form &&
		    r->lists[i].value == value) {
			*out = i;
			return 0;
		}
	if (r->nlists >= DWRANGES_NONE - 1)
		return -1;
	if (r->nlists == r->cap_lists) {
		l = grow(r->lists, &r->cap_lists, r->nlists + 1, sizeof(*l),
			 16);
		if (l == NULL)
			return -1;
		r->lists = l;
	}
	l = &r->lists[r->nlists];
	memset(l, 0, sizeof(*l));
	l->cu = cu;
	l->form = form;
	l->value = value;
	rc = dwranges_read(w, die, &l->v, &l->n, &cap);
	if (rc < 0) {
		free(l->v);
		return -1;
	}
	spans_sort(l->v, l->n);
	hashtab_insert(&r->index, &it, (uint32_t)r->nlists);
	*out = (uint32_t)r->nlists++;
	return rc;
}
