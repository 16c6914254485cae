/* SPDX-License-Identifier: MIT */
/* The first range that holds an address: see firstrange.h. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "firstrange.h"

/* For qsort(), which gives no context: the ranges' starts. */
static const uint64_t *sort_lo;

static int
cmp_by_lo(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	if (sort_lo[x] != sort_lo[y])
		return sort_lo[x] < sort_lo[y] ? -1 : 1;
	return x < y ? -1 : x > y;
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* A min-heap of range indices: the first range still open on top. */
static void
heap_push(size_t *h, size_t *n, size_t v)
{
	size_t i = (*n)++;

	while (i > 0 && h[(i - 1) / 2] > v) {
		h[i] = h[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h[i] = v;
}

static void
heap_pop(size_t *h, size_t *n)
{
	size_t v = h[--*n], i = 0, c;

	while ((c = 2 * i + 1) < *n) {
		if (c + 1 < *n && h[c + 1] < h[c])
			c++;
		if (h[c] >= v)
			break;
		h[i] = h[c];
		i = c;
	}
	if (*n > 0)
		h[i] = v;
}

int
firstrange_build(struct firstrange *f, const uint64_t *lo,
		 const uint64_t *hi, size_t n)
{
	size_t *order = NULL, *heap = NULL, i, j, k, nb = 0, nh = 0, next = 0;
	uint64_t *bound = NULL;

	memset(f, 0, sizeof(*f));
	order = malloc((n ? n : 1) * sizeof(*order));
	heap = malloc((n ? n : 1) * sizeof(*heap));
	bound = n <= SIZE_MAX / 2 / sizeof(*bound)
			? malloc((2 * n + 1) * sizeof(*bound)) : NULL;
	f->v = n <= SIZE_MAX / 2 / sizeof(*f->v)
		       ? malloc((2 * n + 1) * sizeof(*f->v)) : NULL;
	if (order == NULL || heap == NULL || bound == NULL || f->v == NULL)
		goto fail;
	for (i = k = 0; i < n; i++)
		if (lo[i] < hi[i]) {
			order[k++] = i;
			bound[nb++] = lo[i];
			bound[nb++] = hi[i];
		}
	sort_lo = lo;
	qsort(order, k, sizeof(*order), cmp_by_lo);
	sort_lo = NULL;
	qsort(bound, nb, sizeof(*bound), cmp_u64);
	/* Sweep the bounds: at each, open the ranges starting there and
	 * drop the first ones that have ended; the piece up to the next
	 * bound belongs to the first range open. */
	for (i = 0; i < nb; i = j) {
		uint64_t x = bound[i];

		for (j = i; j < nb && bound[j] == x; j++)
			;
		while (next < k && lo[order[next]] == x)
			heap_push(heap, &nh, order[next++]);
		while (nh > 0 && hi[heap[0]] <= x)
			heap_pop(heap, &nh);
		if (nh == 0 || j == nb)
			continue;
		if (f->n > 0 && f->v[f->n - 1].first == heap[0] &&
		    f->v[f->n - 1].hi == x) {
			f->v[f->n - 1].hi = bound[j];
			continue;
		}
		f->v[f->n].lo = x;
		f->v[f->n].hi = bound[j];
		f->v[f->n].first = heap[0];
		f->n++;
	}
	free(order);
	free(heap);
	free(bound);
	return 0;
fail:
	free(order);
	free(heap);
	free(bound);
	firstrange_free(f);
	return -1;
}

size_t
firstrange_find(const struct firstrange *f, uint64_t a)
{
	size_t lo = 0, hi = f->n;

	/* the last piece that starts at or before A */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (f->v[mid].lo <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || a >= f->v[lo - 1].hi)
		return FIRSTRANGE_NONE;
	return f->v[lo - 1].first;
}

void
firstrange_free(struct firstrange *f)
{
	free(f->v);
	memset(f, 0, sizeof(*f));
}
