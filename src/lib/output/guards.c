/* SPDX-License-Identifier: MIT */
/* Guard lines against Go pprof's widening of mappings: see guards.h. */
#include "config.h"

#include <stdlib.h>

#include "guards.h"

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int
cmp_start(const void *a, const void *b)
{
	const struct guard_range *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* The number of ranges of V (N, sorted by start) that start at or below
 * A. */
static size_t
count_at_or_below(const struct guard_range *v, size_t n, uint64_t a)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid].start <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int
guards_find(struct guard_range *l, size_t nl, uint64_t *a, size_t n,
	    struct guard_range **out, size_t *nout)
{
	struct guard_range *z = NULL, *g = NULL;
	uint64_t *lend = NULL;
	size_t i, k, nz = 0, ng = 0, na = 0;
	int ret = -1;

	*out = NULL;
	*nout = 0;
	if (n == 0 || nl == 0)
		return 0;
	z = malloc(nl * sizeof(*z));
	lend = malloc(nl * sizeof(*lend));
	g = malloc(n * sizeof(*g));
	if (z == NULL || lend == NULL || g == NULL)
		goto out;

	/* The lines by start, with the highest end so far: an address is
	 * covered when that of the lines starting at or below it is above
	 * it. */
	qsort(l, nl, sizeof(*l), cmp_start);
	for (i = 0; i < nl; i++)
		lend[i] = i && lend[i - 1] > l[i].end ? lend[i - 1] : l[i].end;
	/* The spans a line may be lowered over, [start - offset, start)
	 * (none when the offset exceeds the start: Go pprof's unsigned
	 * difference then wraps above the start), likewise. */
	for (i = 0; i < nl; i++)
		if (l[i].off != 0 && l[i].off <= l[i].start) {
			z[nz].start = l[i].start - l[i].off;
			z[nz].end = l[i].start;
			nz++;
		}
	/* ... merged where they overlap or touch: disjoint, by start. */
	qsort(z, nz, sizeof(*z), cmp_start);
	for (i = 0, k = 0; i < nz; i++) {
		if (k > 0 && z[i].start <= z[k - 1].end) {
			if (z[i].end > z[k - 1].end)
				z[k - 1].end = z[i].end;
		} else {
			z[k++] = z[i];
		}
	}
	nz = k;

	qsort(a, n, sizeof(*a), cmp_u64);
	for (i = 0; i < n; i++) {
		uint64_t lo, hi;
		size_t zi, li;

		if (i > 0 && a[i] == a[i - 1])
			continue;
		zi = count_at_or_below(z, nz, a[i]);
		if (zi == 0 || z[zi - 1].end <= a[i])
			continue;	/* in no span: Go pprof leaves it */
		li = count_at_or_below(l, nl, a[i]);
		if (li > 0 && lend[li - 1] > a[i])
			continue;	/* a line covers it */
		/* The free stretch around it, within its span. */
		lo = z[zi - 1].start;
		if (li > 0 && lend[li - 1] > lo)
			lo = lend[li - 1];
		hi = z[zi - 1].end;
		if (li < nl && l[li].start < hi)
			hi = l[li].start;
		if (na > 0 && lo <= g[na - 1].end) {
			if (hi > g[na - 1].end)
				g[na - 1].end = hi;
			continue;
		}
		g[na].start = lo;
		g[na].end = hi;
		g[na].off = 0;
		na++;
	}
	ng = na;
	ret = 0;
out:
	free(z);
	free(lend);
	if (ret == 0 && ng > 0) {
		*out = g;
		*nout = ng;
	} else {
		free(g);
	}
	return ret;
}
