/* SPDX-License-Identifier: MIT */
/*
 * Arrays that grow by doubling, with every size checked: the element
 * counts come from the input (records, mappings, frames), so neither the
 * doubled count nor its byte count may wrap around to a small
 * allocation.  One array:
 *
 *	if (t->n == t->cap) {
 *		struct item *nv = grow(t->v, &t->cap, t->n + 1,
 *				       sizeof(*nv), 64);
 *
 *		if (nv == NULL)
 *			return -1;
 *		t->v = nv;
 *	}
 *
 * Arrays that share one count take grow_cap() once and grow_realloc()
 * for each.
 */
#ifndef P2G_GROW_H
#define P2G_GROW_H

#include <stddef.h>
#include <stdint.h>

/* A + B, or SIZE_MAX when the sum does not fit (no array holds that
 * many elements, so grow() then fails). */
static inline size_t
grow_add(size_t a, size_t b)
{
	size_t s;

	return __builtin_add_overflow(a, b, &s) ? SIZE_MAX : s;
}

/* The count an array of CAP elements of SIZE bytes grows to so that it
 * holds NEED: twice CAP (FIRST when CAP is 0), or NEED when that is
 * more, and no more than the largest count whose bytes fit in a size_t.
 * CAP itself when it holds NEED already; else 0 when NEED elements'
 * bytes do not fit. */
size_t grow_cap(size_t cap, size_t need, size_t size, size_t first);

/* realloc() of P to N elements of SIZE bytes; NULL when N * SIZE does
 * not fit in a size_t or memory is short (P is then still the
 * caller's, unchanged). */
void *grow_realloc(void *p, size_t n, size_t size);

/* P (*CAP elements of SIZE bytes) reallocated by grow_cap() to hold
 * NEED elements, *CAP set to the new count; P itself when it holds them
 * already.  NULL when out of memory or the size overflows (P and *CAP
 * are then unchanged). */
void *grow(void *p, size_t *cap, size_t need, size_t size, size_t first);

#endif
