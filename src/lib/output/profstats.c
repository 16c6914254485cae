/* SPDX-License-Identifier: MIT */
/* Shares of a profile by function and mapping: see profstats.h. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "count.h"
#include "grow.h"
#include "hashtab.h"
#include "profstats.h"
#include "symbolize.h"

/* A table of names: the entries of S's fns or maps and their index. */
struct names {
	struct profstats_entry *v;
	uint64_t *hash;
	size_t n, cap;
	struct hashtab index;
};

/* FNV-1a, then mixed so that the index's upper bits vary. */
static uint64_t
name_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return hashtab_hash64(h ^ (h >> 29));
}

/* The index + 1 of NAME in T, added if new; 0 when out of memory. */
static uint32_t
names_id(struct names *t, const char *name)
{
	uint64_t h = name_hash(name);
	struct hashtab_iter it;
	uint32_t i;

	if (t->n >= HASHTAB_NONE - 1 ||
	    hashtab_reserve(&t->index, t->n + 1) < 0)
		return 0;
	for (i = hashtab_probe(&t->index, h, &it); i != HASHTAB_NONE;
	     i = hashtab_next(&t->index, &it))
		if (t->hash[i] == h && strcmp(t->v[i].name, name) == 0)
			return i + 1;
	if (t->n == t->cap) {
		size_t cap = grow_cap(t->cap, t->n + 1, sizeof(*t->v), 64);
		struct profstats_entry *nv;
		uint64_t *nh;

		if (cap == 0 ||
		    (nv = grow_realloc(t->v, cap, sizeof(*nv))) == NULL)
			return 0;
		t->v = nv;
		nh = grow_realloc(t->hash, cap, sizeof(*nh));
		if (nh == NULL)
			return 0;
		t->hash = nh;
		t->cap = cap;
	}
	t->v[t->n].name = strdup(name);
	if (t->v[t->n].name == NULL)
		return 0;
	t->v[t->n].flat = 0;
	t->v[t->n].cum = 0;
	t->hash[t->n] = h;
	hashtab_insert(&t->index, &it, (uint32_t)t->n);
	return (uint32_t)++t->n;
}

static void
names_free_index(struct names *t)
{
	free(t->hash);
	hashtab_free(&t->index);
}

static void
entries_free(struct profstats_entry *v, size_t n)
{
	size_t i;

	for (i = 0; v != NULL && i < n; i++)
		free(v[i].name);
	free(v);
}

/* Name every PC of P's records into S->pc_fn and S->pc_map. */
static int
resolve(const struct profile *p, const char *const *binaries,
	size_t nbinaries, struct profstats *s, struct names *fns,
	struct names *maps)
{
	struct symbolizer *sy = symbolizer_new(p->maps, p->maps_len,
					       binaries, nbinaries);
	size_t i;
	uint64_t j;
	int ret = -1;

	if (sy == NULL)
		return -1;
	for (i = 0; i < p->nrecs; i++) {
		const struct profile_record *r = &p->recs[i];

		for (j = 0; j < r->n; j++) {
			uint64_t k = r->off + j, pc = p->pcs[k];
			const char *path, *name;

			/* pprof looks up return addresses less 1 */
			name = symbolizer_lookup(sy, j ? pc - 1 : pc, &path);
			if (name != NULL &&
			    (s->pc_fn[k] = names_id(fns, name)) == 0)
				goto out;
			if (path != NULL &&
			    (s->pc_map[k] = names_id(maps, path)) == 0)
				goto out;
		}
	}
	ret = 0;
out:
	symbolizer_free(sy);
	return ret;
}

/* Add record R's count to the entries of V its frames are in (IDS: the
 * entry index + 1 of each PC of the pool), once each: SEEN[e] holds the
 * record index + 1 that last counted entry e. */
static void
count_record(const struct profile *p, size_t ri, const uint32_t *ids,
	     struct profstats_entry *v, size_t *seen)
{
	const struct profile_record *r = &p->recs[ri];
	uint64_t j;

	for (j = 0; j < r->n; j++) {
		uint32_t id = ids[r->off + j];

		if (id == 0)
			continue;
		if (j == 0)
			v[id - 1].flat = count_add(v[id - 1].flat, r->count);
		if (seen[id - 1] == ri + 1)
			continue;
		seen[id - 1] = ri + 1;
		v[id - 1].cum = count_add(v[id - 1].cum, r->count);
	}
}

static int
cmp_entry(const void *x, const void *y)
{
	const struct profstats_entry *a = x, *b = y;

	if (a->cum != b->cum)
		return a->cum > b->cum ? -1 : 1;
	if (a->flat != b->flat)
		return a->flat > b->flat ? -1 : 1;
	return strcmp(a->name, b->name);
}

/* An entry and where it was before sorting. */
struct placed {
	struct profstats_entry e;
	uint32_t old;
};

static int
cmp_placed(const void *x, const void *y)
{
	return cmp_entry(&((const struct placed *)x)->e,
			 &((const struct placed *)y)->e);
}

/* Sort the N entries of V by cmp_entry() and renumber the NPCS ids of
 * IDS (index + 1, 0: none) to match.  0, or -1 when out of memory. */
static int
sort_entries(struct profstats_entry *v, size_t n, uint32_t *ids, size_t npcs)
{
	struct placed *t = malloc((n + 1) * sizeof(*t));
	uint32_t *to = malloc((n + 1) * sizeof(*to));
	size_t i;

	if (t == NULL || to == NULL) {
		free(t);
		free(to);
		return -1;
	}
	for (i = 0; i < n; i++) {
		t[i].e = v[i];
		t[i].old = (uint32_t)i;
	}
	qsort(t, n, sizeof(*t), cmp_placed);
	for (i = 0; i < n; i++) {
		v[i] = t[i].e;
		to[t[i].old] = (uint32_t)i;
	}
	for (i = 0; i < npcs; i++)
		if (ids[i] != 0)
			ids[i] = to[ids[i] - 1] + 1;
	free(t);
	free(to);
	return 0;
}

int
profstats_compute(const struct profile *p, const char *const *binaries,
		  size_t nbinaries, struct profstats *s)
{
	struct names fns, maps;
	size_t i, *seen_fn = NULL, *seen_map = NULL;

	memset(s, 0, sizeof(*s));
	memset(&fns, 0, sizeof(fns));
	memset(&maps, 0, sizeof(maps));
	s->p = p;
	s->npcs = 0;
	for (i = 0; i < p->nrecs; i++)
		if (p->recs[i].off + p->recs[i].n > s->npcs)
			s->npcs = (size_t)(p->recs[i].off + p->recs[i].n);
	s->pc_fn = calloc(s->npcs + 1, sizeof(*s->pc_fn));
	s->pc_map = calloc(s->npcs + 1, sizeof(*s->pc_map));
	if (s->pc_fn == NULL || s->pc_map == NULL ||
	    resolve(p, binaries, nbinaries, s, &fns, &maps) < 0)
		goto nomem;
	seen_fn = calloc(fns.n + 1, sizeof(*seen_fn));
	seen_map = calloc(maps.n + 1, sizeof(*seen_map));
	if (seen_fn == NULL || seen_map == NULL)
		goto nomem;
	for (i = 0; i < p->nrecs; i++) {
		const struct profile_record *r = &p->recs[i];

		s->samples = count_add(s->samples, r->count);
		if (r->n > 0 && s->pc_fn[r->off] != 0)
			s->symbolized = count_add(s->symbolized, r->count);
		count_record(p, i, s->pc_fn, fns.v, seen_fn);
		count_record(p, i, s->pc_map, maps.v, seen_map);
	}
	free(seen_fn);
	free(seen_map);
	names_free_index(&fns);
	names_free_index(&maps);
	s->fns = fns.v;
	s->nfns = fns.n;
	s->maps = maps.v;
	s->nmaps = maps.n;
	if (sort_entries(s->fns, s->nfns, s->pc_fn, s->npcs) < 0 ||
	    sort_entries(s->maps, s->nmaps, s->pc_map, s->npcs) < 0) {
		profstats_release(s);
		return -1;
	}
	return 0;
nomem:
	free(seen_fn);
	free(seen_map);
	names_free_index(&fns);
	names_free_index(&maps);
	entries_free(fns.v, fns.n);
	entries_free(maps.v, maps.n);
	free(s->pc_fn);
	free(s->pc_map);
	memset(s, 0, sizeof(*s));
	return -1;
}

void
profstats_release(struct profstats *s)
{
	entries_free(s->fns, s->nfns);
	entries_free(s->maps, s->nmaps);
	free(s->pc_fn);
	free(s->pc_map);
	memset(s, 0, sizeof(*s));
}

/* Flat and cumulative samples of the entries of V (IDS as in
 * count_record()) for which MATCH is true, each sample once. */
static void
count_matching(const struct profstats *s, const uint32_t *ids,
	       const bool *match, uint64_t *flat, uint64_t *cum)
{
	const struct profile *p = s->p;
	size_t i;
	uint64_t j;

	*flat = 0;
	*cum = 0;
	for (i = 0; p != NULL && i < p->nrecs; i++) {
		const struct profile_record *r = &p->recs[i];

		for (j = 0; j < r->n; j++) {
			uint32_t id = ids[r->off + j];

			if (id == 0 || !match[id - 1])
				continue;
			if (j == 0)
				*flat = count_add(*flat, r->count);
			*cum = count_add(*cum, r->count);
			break;
		}
	}
}

void
profstats_function(const struct profstats *s, const char *name,
		   uint64_t *flat, uint64_t *cum)
{
	size_t i;

	*flat = 0;
	*cum = 0;
	/* the entries are unique by name: no sample is counted twice */
	for (i = 0; i < s->nfns; i++)
		if (strcmp(s->fns[i].name, name) == 0) {
			*flat = s->fns[i].flat;
			*cum = s->fns[i].cum;
		}
}

/* The last component of PATH. */
static const char *
base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

void
profstats_mapping(const struct profstats *s, const char *path,
		  uint64_t *flat, uint64_t *cum)
{
	bool *match = calloc(s->nmaps + 1, sizeof(*match));
	bool by_base = strchr(path, '/') == NULL, any = false;
	size_t i;

	*flat = 0;
	*cum = 0;
	for (i = 0; i < s->nmaps; i++) {
		const char *n = s->maps[i].name;

		if (strcmp(n, path) == 0 ||
		    (by_base && strcmp(base_name(n), path) == 0)) {
			if (match == NULL) {
				/* out of memory: the first match alone */
				*flat = s->maps[i].flat;
				*cum = s->maps[i].cum;
				return;
			}
			match[i] = true;
			any = true;
		}
	}
	if (any)
		count_matching(s, s->pc_map, match, flat, cum);
	free(match);
}

double
profstats_percent(uint64_t n, uint64_t d)
{
	return d ? 100.0 * (double)n / (double)d : 0.0;
}

/* What two runs of one program stay within: four standard errors of the
 * difference of two shares (pooled, as a percentage P) drawn from NA and
 * NB samples, at least 1 point. */
static double
allowance(double pa, double pb, uint64_t na, uint64_t nb)
{
	double p, se;

	if (na == 0 || nb == 0)
		return 1.0;
	p = (pa * (double)na + pb * (double)nb) / 100.0 /
	    ((double)na + (double)nb);
	se = sqrt(p * (1 - p) * (1.0 / (double)na + 1.0 / (double)nb));
	return 400.0 * se > 1.0 ? 400.0 * se : 1.0;
}

static double
max_d(double a, double b)
{
	return a > b ? a : b;
}

/* Fill ROW with the shares FA, CA of NA samples and FB, CB of NB. */
static void
fill_row(struct profstats_row *row, uint64_t fa, uint64_t ca, uint64_t na,
	 uint64_t fb, uint64_t cb, uint64_t nb, double tolerance)
{
	row->flat_a = profstats_percent(fa, na);
	row->flat_b = profstats_percent(fb, nb);
	row->cum_a = profstats_percent(ca, na);
	row->cum_b = profstats_percent(cb, nb);
	row->diff = max_d(fabs(row->flat_a - row->flat_b),
			  fabs(row->cum_a - row->cum_b));
	if (tolerance >= 0)
		row->allowed = tolerance;
	else
		row->allowed = max_d(allowance(row->flat_a, row->flat_b, na,
					       nb),
				     allowance(row->cum_a, row->cum_b, na,
					       nb));
}

/* Rows beyond their allowance first, then by the difference, largest
 * first; functions before mappings, then by name. */
static int
cmp_row(const void *x, const void *y)
{
	const struct profstats_row *a = x, *b = y;
	bool oa = a->diff > a->allowed, ob = b->diff > b->allowed;

	if (oa != ob)
		return oa ? -1 : 1;
	if (a->diff != b->diff)
		return a->diff > b->diff ? -1 : 1;
	if (a->mapping != b->mapping)
		return a->mapping ? 1 : -1;
	return strcmp(a->name, b->name);
}

/* A function or a mapping's file name and its samples in one profile. */
struct keyed {
	const char *key;
	uint64_t flat, cum;
};

static int
cmp_keyed(const void *x, const void *y)
{
	return strcmp(((const struct keyed *)x)->key,
		      ((const struct keyed *)y)->key);
}

/*
 * The functions (MAPS false) or the mappings by file name (MAPS true) of
 * S, sorted by key, each key once: *N of them, or NULL when out of
 * memory.  Mappings that share a file name are counted together, each
 * sample once.
 */
static struct keyed *
keyed_list(const struct profstats *s, bool maps, size_t *n)
{
	size_t i, k, m = maps ? s->nmaps : s->nfns;
	const struct profstats_entry *v = maps ? s->maps : s->fns;
	struct keyed *t = malloc((m + 1) * sizeof(*t));

	*n = 0;
	if (t == NULL)
		return NULL;
	for (i = 0; i < m; i++) {
		t[i].key = maps ? base_name(v[i].name) : v[i].name;
		t[i].flat = v[i].flat;
		t[i].cum = v[i].cum;
	}
	qsort(t, m, sizeof(*t), cmp_keyed);
	for (i = 0; i < m; i = k) {
		for (k = i + 1; k < m && strcmp(t[k].key, t[i].key) == 0; k++)
			;
		t[*n] = t[i];
		if (k > i + 1)
			profstats_mapping(s, t[i].key, &t[*n].flat,
					  &t[*n].cum);
		(*n)++;
	}
	return t;
}

/* Append to C the rows of the keys of A[0..NA) and B[0..NB) (sorted, as
 * keyed_list() makes them) of profiles of SA and SB samples. */
static void
merge_rows(struct profstats_cmp *c, const struct keyed *a, size_t na,
	   uint64_t sa, const struct keyed *b, size_t nb, uint64_t sb,
	   bool mapping, double tolerance)
{
	static const struct keyed none;
	size_t i = 0, j = 0;

	while (i < na || j < nb) {
		int d = i == na ? 1 : j == nb ? -1
					      : strcmp(a[i].key, b[j].key);
		const struct keyed *x = d <= 0 ? &a[i] : &none;
		const struct keyed *y = d >= 0 ? &b[j] : &none;
		struct profstats_row *row = &c->rows[c->nrows++];

		row->name = d <= 0 ? a[i].key : b[j].key;
		row->mapping = mapping;
		fill_row(row, x->flat, x->cum, sa, y->flat, y->cum, sb,
			 tolerance);
		if (!mapping && d == 0 && x->cum > 0 && y->cum > 0)
			c->nfns_both++;
		i += d <= 0;
		j += d >= 0;
	}
}

int
profstats_compare(const struct profstats *a, const struct profstats *b,
		  double tolerance, struct profstats_cmp *c)
{
	size_t k, n[4], max = a->nfns + b->nfns + a->nmaps + b->nmaps;
	struct keyed *t[4];
	int ret = -1;

	memset(c, 0, sizeof(*c));
	t[0] = keyed_list(a, false, &n[0]);
	t[1] = keyed_list(b, false, &n[1]);
	t[2] = keyed_list(a, true, &n[2]);
	t[3] = keyed_list(b, true, &n[3]);
	c->rows = calloc(max + 1, sizeof(*c->rows));
	if (c->rows == NULL || t[0] == NULL || t[1] == NULL || t[2] == NULL ||
	    t[3] == NULL) {
		profstats_cmp_release(c);
		goto out;
	}
	c->nfns_a = a->nfns;
	c->nfns_b = b->nfns;
	merge_rows(c, t[0], n[0], a->samples, t[1], n[1], b->samples, false,
		   tolerance);
	merge_rows(c, t[2], n[2], a->samples, t[3], n[3], b->samples, true,
		   tolerance);
	qsort(c->rows, c->nrows, sizeof(*c->rows), cmp_row);
	c->inexact = count_saturated(a->samples) ||
		     count_saturated(b->samples);
	c->equal = !c->inexact &&
		   (c->nrows == 0 || !(c->rows[0].diff > c->rows[0].allowed));
	ret = 0;
out:
	for (k = 0; k < 4; k++)
		free(t[k]);
	return ret;
}

void
profstats_cmp_release(struct profstats_cmp *c)
{
	free(c->rows);
	memset(c, 0, sizeof(*c));
}
