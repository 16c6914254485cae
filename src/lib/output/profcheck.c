/* SPDX-License-Identifier: MIT */
/* Warnings and comparison of profiles: see profcheck.h. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "count.h"
#include "firstrange.h"
#include "grow.h"
#include "profcheck.h"
#include "stacktab.h"

static int
cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return a < b ? -1 : a > b;
}

struct range {
	uint64_t lo, hi;
	uint64_t off;		/* the file offset, 0 when none */
	const char *path;	/* in the maps text, or NULL */
	size_t path_len;
	uint64_t taken;		/* samples Go pprof gives it from below */
};

/* The path of the maps line LINE (a copy of the one at S) after the
 * first END bytes, as a pointer into S and a length; NULL when none. */
static const char *
path_after(const char *s, const char *line, size_t end, size_t *len)
{
	size_t b = end + strspn(line + end, " \t");
	size_t n = strcspn(line + b, " \t");

	*len = n;
	return n > 0 ? s + b : NULL;
}

/* The executable ranges of the maps text, as pprof reads its lines
 * ("start-end perms ..."; lines without perms count as executable),
 * with their offsets: "start-end perms offset dev inode path" or Go
 * pprof's "start-end perms path (@offset) ...". */
static struct range *
exec_ranges(const char *maps, size_t *n, size_t *spaces, size_t *glued)
{
	struct range *v = NULL, *nv;
	const char *s = maps, *nl;
	size_t cap = 0;

	*n = 0;
	*spaces = 0;
	*glued = 0;
	for (; s != NULL && *s != '\0'; s = nl ? nl + 1 : NULL) {
		unsigned long long lo, hi;
		char perms[16] = "x", dev[32] = "", line[4096];
		unsigned long long off, ino;
		int used = 0, k;
		size_t len;

		nl = strchr(s, '\n');
		len = nl ? (size_t)(nl - s) : strlen(s);
		if (len >= sizeof(line))
			len = sizeof(line) - 1;
		memcpy(line, s, len);
		line[len] = '\0';
		k = sscanf(line, "%llx-%llx %15s %llx %31s %llu %n", &lo, &hi,
			   perms, &off, dev, &ino, &used);
		if (k < 2)
			continue;
		if (k < 6 || used == 0 || strchr(dev, ':') == NULL) {
			const char *at = strstr(line, "(@");

			off = 0;
			if (at == NULL || sscanf(at + 2, "%llx", &off) != 1)
				off = 0;
			used = 0;
		}
		if (k >= 6 && used > 0 && strchr(dev, ':') != NULL &&
		    strchr(line + used, ' ') != NULL)
			(*spaces)++;
		/* gperftools 2.16 wrote the path right after the inode */
		if (k >= 6 && used > 1 && strchr(dev, ':') != NULL &&
		    line[used] == '/' && line[used - 1] >= '0' &&
		    line[used - 1] <= '9')
			(*glued)++;
		if (k >= 3 && perms[0] != '(' && strchr(perms, 'x') == NULL &&
		    strspn(perms, "-rwxps") == strlen(perms))
			continue;
		if (*n == cap) {
			nv = grow(v, &cap, *n + 1, sizeof(*v), 64);
			if (nv == NULL) {
				free(v);
				return NULL;
			}
			v = nv;
		}
		v[*n].lo = lo;
		v[*n].hi = hi;
		v[*n].off = off;
		v[*n].taken = 0;
		if (used > 0) {
			v[*n].path = path_after(s, line, (size_t)used,
						&v[*n].path_len);
		} else {
			/* "start-end [perms] path": the token after the
			 * range, or after the perms */
			size_t e = strcspn(line, " \t"), tl;
			const char *t = path_after(s, line, e, &tl);

			if (t != NULL && strspn(t, "-rwxps") >= tl) {
				e = (size_t)(t - s) + tl;
				t = path_after(s, line, e, &tl);
			}
			v[*n].path = t;
			v[*n].path_len = tl;
		}
		if (v[*n].path != NULL && v[*n].path[0] == '(')
			v[*n].path = NULL;
		(*n)++;
	}
	if (v == NULL)
		v = malloc(sizeof(*v));
	return v;
}

/* F made of R's N ranges, or when BELOW of the addresses below each
 * range that Go pprof gives it: [start - offset, start) (unsigned) for
 * a nonzero offset.  0, or -1 when out of memory. */
static int
ranges_index(struct firstrange *f, const struct range *r, size_t n,
	     bool below)
{
	uint64_t *lo = malloc((n ? n : 1) * sizeof(*lo));
	uint64_t *hi = malloc((n ? n : 1) * sizeof(*hi));
	size_t k;
	int ret = -1;

	memset(f, 0, sizeof(*f));
	if (lo != NULL && hi != NULL) {
		for (k = 0; k < n; k++) {
			lo[k] = below ? r[k].lo - r[k].off : r[k].lo;
			hi[k] = below ? (r[k].off != 0 ? r[k].lo : 0) : r[k].hi;
		}
		ret = firstrange_build(f, lo, hi, n);
	}
	free(lo);
	free(hi);
	return ret;
}

size_t
profcheck_space_paths(const char *maps)
{
	size_t n, spaces, glued;

	free(exec_ranges(maps, &n, &spaces, &glued));
	return spaces;
}

int
profcheck_notes(const struct profile *p, struct profcheck_notes *n)
{
	uint64_t *second = NULL;
	struct stacktab *t;
	struct range *r;
	struct firstrange in = { NULL, 0 }, below = { NULL, 0 };
	size_t i, k, ns = 0, nr;
	uint64_t j;

	memset(n, 0, sizeof(*n));
	t = stacktab_new();
	second = malloc((p->nrecs + 1) * sizeof(*second));
	r = exec_ranges(p->maps, &nr, &n->space_paths, &n->glued_paths);
	if (t == NULL || second == NULL || r == NULL ||
	    ranges_index(&in, r, nr, false) < 0 ||
	    ranges_index(&below, r, nr, true) < 0)
		goto nomem;
	n->exec_maps = nr;
	for (i = 0; i < p->nrecs; i++) {
		const struct profile_record *rec = &p->recs[i];
		const uint64_t *pcs = p->pcs + rec->off;

		if (rec->n >= 2)
			second[ns++] = pcs[1];
		if (stacktab_add(t, 0, 0, pcs, (uint32_t)rec->n, 1, 0) < 0)
			goto nomem;
		for (j = 0; j < rec->n && nr > 0; j++) {
			/* pprof looks up return addresses - 1 */
			uint64_t a = j ? pcs[j] - 1 : pcs[j];

			n->pcs = count_add(n->pcs, rec->count);
			if (firstrange_find(&in, a) != FIRSTRANGE_NONE)
				continue;
			n->pcs_unmapped = count_add(n->pcs_unmapped,
						    rec->count);
			/* Go pprof's remapMappingIDs() gives an address in
			 * no mapping to the first with a nonzero offset
			 * that has it in [start - offset, start) (unsigned),
			 * and lowers that one's start to take it */
			k = firstrange_find(&below, a);
			if (k != FIRSTRANGE_NONE) {
				r[k].taken = count_add(r[k].taken, rec->count);
				n->pcs_widened = count_add(n->pcs_widened,
							   rec->count);
			}
		}
	}
	for (k = 0; k < nr; k++)
		if (r[k].taken > n->widened_taken) {
			n->widened_taken = r[k].taken;
			n->widened_lo = r[k].lo;
			n->widened_off = r[k].off;
			n->widened_path = r[k].path;
			n->widened_path_len = r[k].path ? r[k].path_len : 0;
		}
	n->duplicate_records = p->nrecs - stacktab_nr(t);
	qsort(second, ns, sizeof(*second), cmp_u64);
	for (i = 0; i < ns; i = k) {
		for (k = i; k < ns && second[k] == second[i]; k++)
			;
		if (k - i > n->second_records) {
			n->second_records = k - i;
			n->second_pc = second[i];
		}
	}
	/* Go pprof's and perl pprof's second-frame rules
	 * (doc/pprof-readers.md) */
	n->go_strips = p->nrecs > 0 &&
		       n->second_records >= p->nrecs - p->nrecs / 32;
	n->perl_strips = p->nrecs > 0 && n->second_records == p->nrecs;
	free(second);
	free(r);
	stacktab_free(t);
	firstrange_free(&in);
	firstrange_free(&below);
	return 0;
nomem:
	free(second);
	free(r);
	stacktab_free(t);
	firstrange_free(&in);
	firstrange_free(&below);
	return -1;
}

static int
sum_stacks(const struct profile *p, struct stacktab *t)
{
	size_t i;

	for (i = 0; i < p->nrecs; i++)
		if (stacktab_add(t, 0, 0, p->pcs + p->recs[i].off,
				 (uint32_t)p->recs[i].n, p->recs[i].count,
				 0) < 0)
			return -1;
	return 0;
}

/* The count of stack PCS[0..N) in T, 0 if absent. */
static uint64_t
count_in(const struct stacktab *t, const uint64_t *pcs, uint64_t n)
{
	const struct stack_entry *e = stacktab_find(t, 0, 0, pcs, (uint32_t)n);

	return e ? e->count : 0;
}

static bool
differ(uint64_t a, uint64_t b, double tolerance)
{
	uint64_t hi = a > b ? a : b, d = a > b ? a - b : b - a;

	/* a saturated sum is not exact: it cannot be said to agree */
	if (count_saturated(a) || count_saturated(b))
		return true;
	return (double)d > (double)hi * tolerance / 100.0;
}

int
profcheck_compare(const struct profile *a, const struct profile *b,
		  double tolerance, struct profcheck_diff *d)
{
	struct stacktab *ta, *tb;
	const struct stack_entry *e = NULL;
	size_t i;
	int ret = -1;

	memset(d, 0, sizeof(*d));
	d->equal = true;
	ta = stacktab_new();
	tb = stacktab_new();
	if (ta == NULL || tb == NULL || sum_stacks(a, ta) < 0 ||
	    sum_stacks(b, tb) < 0)
		goto out;
	d->stacks_a = stacktab_nr(ta);
	d->stacks_b = stacktab_nr(tb);
	for (i = 0; i < stacktab_nr(ta); i++) {
		e = &stacktab_entries(ta)[i];
		if (stacktab_find(tb, 0, 0, stacktab_pcs(ta, e),
				  (uint32_t)e->n) != NULL)
			d->stacks_both++;
	}
	e = NULL;
	/* every stack of A against B, in A's order; then those of B that
	 * A lacks */
	for (i = 0; i < stacktab_nr(ta) && d->equal; i++) {
		uint64_t cb;

		e = &stacktab_entries(ta)[i];
		cb = count_in(tb, stacktab_pcs(ta, e), e->n);
		if (differ(e->count, cb, tolerance)) {
			d->equal = false;
			d->count_a = e->count;
			d->count_b = cb;
		}
	}
	for (i = 0; i < stacktab_nr(tb) && d->equal; i++) {
		e = &stacktab_entries(tb)[i];
		if (count_in(ta, stacktab_pcs(tb, e), e->n) == 0 &&
		    differ(0, e->count, tolerance)) {
			d->equal = false;
			d->count_a = 0;
			d->count_b = e->count;
		}
	}
	if (!d->equal) {
		/* D->pcs must outlive the tables: the first record of A or
		 * B with that stack */
		const struct profile *src = d->count_a ? a : b;
		const uint64_t *want = d->count_a ? stacktab_pcs(ta, e)
						  : stacktab_pcs(tb, e);

		d->n = e->n;
		for (i = 0; i < src->nrecs; i++)
			if (src->recs[i].n == d->n &&
			    memcmp(src->pcs + src->recs[i].off, want,
				   (size_t)d->n * 8) == 0) {
				d->pcs = src->pcs + src->recs[i].off;
				break;
			}
	}
	ret = 0;
out:
	stacktab_free(ta);
	stacktab_free(tb);
	return ret;
}
