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
	size_t nbinaries, struct dbgfetch *fetch, struct profstats *s,
	struct names *fns, struct names *maps)
{
	struct symbolizer *sy = symbolizer_new(p->maps, p->maps_len,
					       binaries, nbinaries, fetch);
	size_t i;
	uint64_t j;

	if (sy == NULL)
		return -1;
	s->sy = sy;
	for (i = 0; i < p->nrecs; i++) {
		const struct profile_record *r = &p->recs[i];

		for (j = 0; j < r->n; j++) {
			uint64_t k = r->off + j, pc = p->pcs[k];
			const char *path, *name;

			/* pprof looks up return addresses less 1 */
			name = symbolizer_lookup(sy, j ? pc - 1 : pc, &path);
			if (name != NULL &&
			    (s->pc_fn[k] = names_id(fns, name)) == 0)
				return -1;
			if (path != NULL &&
			    (s->pc_map[k] = names_id(maps, path)) == 0)
				return -1;
		}
	}
	/* a file not opened is no name missing: the run fails */
	return symbolizer_no_fds(sy) ? -1 : 0;
}

bool
profstats_no_fds(const struct profstats *s)
{
	return s->no_fds;
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
		  size_t nbinaries, struct dbgfetch *fetch,
		  struct profstats *s)
{
	struct names fns, maps;
	size_t i, *seen_fn = NULL, *seen_map = NULL;
	bool no_fds;

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
	    resolve(p, binaries, nbinaries, fetch, s, &fns, &maps) < 0)
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
	no_fds = s->sy != NULL && symbolizer_no_fds(s->sy);
	symbolizer_free(s->sy);
	memset(s, 0, sizeof(*s));
	s->no_fds = no_fds;
	return -1;
}

void
profstats_release(struct profstats *s)
{
	entries_free(s->fns, s->nfns);
	entries_free(s->maps, s->nmaps);
	free(s->pc_fn);
	free(s->pc_map);
	symbolizer_free(s->sy);
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

/* The optimal string alignment distance of A and B (edits, adjacent
 * swaps counted as one), or LIMIT + 1 when it exceeds LIMIT. */
static size_t
distance(const char *a, const char *b, size_t limit)
{
	size_t la = strlen(a), lb = strlen(b), i, j, best, *row[3], *buf;
	size_t r;

	if ((la > lb ? la - lb : lb - la) > limit)
		return limit + 1;
	buf = malloc(3 * (lb + 1) * sizeof(*buf));
	if (buf == NULL)
		return limit + 1;
	for (i = 0; i < 3; i++)
		row[i] = buf + i * (lb + 1);
	for (j = 0; j <= lb; j++)
		row[1][j] = j;
	for (i = 1; i <= la; i++) {
		size_t *prev2 = row[0], *prev = row[1], *cur = row[2];

		cur[0] = i;
		best = cur[0];
		for (j = 1; j <= lb; j++) {
			size_t c = a[i - 1] != b[j - 1];
			size_t v = prev[j - 1] + c;

			if (prev[j] + 1 < v)
				v = prev[j] + 1;
			if (cur[j - 1] + 1 < v)
				v = cur[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && prev2[j - 2] + 1 < v)
				v = prev2[j - 2] + 1;
			cur[j] = v;
			if (v < best)
				best = v;
		}
		row[0] = prev;
		row[1] = cur;
		row[2] = prev2;
		if (best > limit) {
			free(buf);
			return limit + 1;
		}
	}
	r = row[1][lb];
	free(buf);
	return r > limit ? limit + 1 : r;
}

/* The search of profstats_known(): the name, whether it was found, and
 * the closest names so far (by distance, then name). */
struct nearby {
	const char *want;
	bool base;		/* compare the last part of paths */
	bool found;
	size_t limit;
	const char **close;
	size_t *dist;
	size_t max, n;
	bool copy;		/* names live during their call only: the
				   close ones are copied, */
	bool owned[PROFSTATS_CLOSE_MAX];	/* these */
};

/* symbolizer_each_name() callback: NAME against the one wanted. */
static int
consider(void *ctx, const char *name)
{
	struct nearby *nb = ctx;
	const char *key = nb->base ? base_name(name) : name;
	const char *at = nb->base || !*key ? NULL : strchr(key + 1, '@');
	char *copy = NULL;
	size_t d, k, i;

	if (strcmp(key, nb->want) == 0) {
		nb->found = true;
		return 1;
	}
	/* a versioned symbol ("pthread_create@@GLIBC_2.34") is nearest
	 * to its name without the version */
	if (at != NULL && strlen(nb->want) == (size_t)(at - key) &&
	    strncmp(key, nb->want, (size_t)(at - key)) == 0)
		d = 0;
	else
		d = distance(nb->want, key, nb->limit);
	/* a part of a file name ("libc" of libc.so.6) is near too */
	if (d > nb->limit && nb->base && strlen(nb->want) >= 3 &&
	    strstr(key, nb->want) != NULL)
		d = nb->limit;
	if (d > nb->limit || nb->max == 0)
		return 0;
	for (i = 0; i < nb->n; i++)
		if (strcmp(nb->close[i], key) == 0)
			return 0;
	for (k = 0; k < nb->n && (nb->dist[k] < d ||
				  (nb->dist[k] == d &&
				   strcmp(nb->close[k], key) < 0)); k++)
		;
	if (k == nb->max)
		return 0;
	if (nb->copy && (copy = strdup(key)) == NULL)
		return -1;
	if (nb->n < nb->max)
		nb->n++;
	else if (nb->owned[nb->n - 1])
		free((char *)nb->close[nb->n - 1]);
	for (i = nb->n - 1; i > k; i--) {
		nb->close[i] = nb->close[i - 1];
		nb->dist[i] = nb->dist[i - 1];
		nb->owned[i] = nb->owned[i - 1];
	}
	nb->close[k] = copy != NULL ? copy : key;
	nb->dist[k] = d;
	nb->owned[k] = copy != NULL;
	return 0;
}

int
profstats_known(const struct profstats *s, bool mapping, const char *name,
		const char **close, size_t max, size_t *nclose)
{
	const struct profstats_entry *v = mapping ? s->maps : s->fns;
	size_t i, n = mapping ? s->nmaps : s->nfns;
	size_t dist[PROFSTATS_CLOSE_MAX];
	struct nearby nb;
	int r = 0;

	memset(&nb, 0, sizeof(nb));
	nb.want = name;
	nb.base = mapping && strchr(name, '/') == NULL;
	nb.limit = (strlen(name) + 2) / 4;
	if (nb.limit < 1)
		nb.limit = 1;
	nb.close = close;
	nb.dist = dist;
	nb.max = max < PROFSTATS_CLOSE_MAX ? max : PROFSTATS_CLOSE_MAX;
	for (i = 0; i < n && !nb.found; i++)
		consider(&nb, v[i].name);
	nb.copy = !mapping;
	if (!nb.found && s->sy != NULL)
		r = symbolizer_each_name(s->sy, mapping, consider, &nb);
	/* the names copied live as long as the symbolizer */
	for (i = 0; i < nb.n; i++) {
		if (!nb.owned[i])
			continue;
		if (r < 0 || nb.found)
			free((char *)nb.close[i]);
		else if (symbolizer_keep(s->sy, (char *)nb.close[i]) < 0)
			r = -1;
	}
	*nclose = nb.found || r < 0 ? 0 : nb.n;
	if (r < 0)
		return -1;
	return nb.found ? 1 : 0;
}

double
profstats_percent(uint64_t n, uint64_t d)
{
	return d ? 100.0 * (double)n / (double)d : 0.0;
}

double
profstats_normal_quantile(double q)
{
	double lo = -40, hi = 40, mid;
	int i;

	/* bisection on the upper tail, which erfc() gives to full
	 * precision far out: 0.5 erfc(z / sqrt 2) = 1 - q */
	for (i = 0; i < 200; i++) {
		mid = (lo + hi) / 2;
		if (0.5 * erfc(mid / M_SQRT2) > 1 - q)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/* One difference of shares: X of N samples in A, Y of M in B. */
struct test {
	double diff;		/* X/N - Y/M, as a fraction */
	double center, se;	/* Agresti-Caffo: (X+1)/(N+2) - (Y+1)/(M+2) */
	double p;		/* two-sided p-value of no difference */
};

static void
test_shares(struct test *t, uint64_t x, uint64_t n, uint64_t y, uint64_t m)
{
	double pa = ((double)x + 1) / ((double)n + 2);
	double pb = ((double)y + 1) / ((double)m + 2);

	t->diff = (n ? (double)x / (double)n : 0) -
		  (m ? (double)y / (double)m : 0);
	t->center = pa - pb;
	t->se = sqrt(pa * (1 - pa) / ((double)n + 2) +
		     pb * (1 - pb) / ((double)m + 2));
	t->p = erfc(fabs(t->center) / t->se / M_SQRT2);
}

/* A row's two tests: flat, cumulative. */
struct row_tests {
	struct test t[2];
};

static int
cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return a < b ? -1 : a > b;
}

/*
 * The largest p-value that Holm's step-down procedure at ALPHA rejects
 * among the N p-values of P (sorted in place), or -1 when it rejects
 * none.
 */
static double
holm(double *p, size_t n, double alpha)
{
	double last = -1;
	size_t i;

	qsort(p, n, sizeof(*p), cmp_double);
	for (i = 0; i < n; i++) {
		if (!(p[i] <= alpha / (double)(n - i)))
			break;
		last = p[i];
	}
	return last;
}

static const int verdict_rank[] = {
	[PROFSTATS_DIFFERENT] = 0,
	[PROFSTATS_UNSURE] = 1,
	[PROFSTATS_SAME] = 2,
};

/* Different first, then unsure, then same; then by the difference,
 * largest first; functions before mappings, then by name. */
static int
cmp_row(const void *x, const void *y)
{
	const struct profstats_row *a = x, *b = y;

	if (a->verdict != b->verdict)
		return verdict_rank[a->verdict] - verdict_rank[b->verdict];
	if (fabs(a->diff) != fabs(b->diff))
		return fabs(a->diff) > fabs(b->diff) ? -1 : 1;
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
 * keyed_list() makes them), their samples only. */
static void
merge_rows(struct profstats_cmp *c, const struct keyed *a, size_t na,
	   const struct keyed *b, size_t nb, bool mapping)
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
		row->nflat_a = x->flat;
		row->ncum_a = x->cum;
		row->nflat_b = y->flat;
		row->ncum_b = y->cum;
		if (!mapping && d == 0 && x->cum > 0 && y->cum > 0)
			c->nfns_both++;
		i += d <= 0;
		j += d >= 0;
	}
}

/* The verdict of test T at tolerance TOL (a fraction), bounds +-H
 * around its center, and the largest p-value Holm rejects, REJECT. */
static enum profstats_verdict
test_verdict(const struct test *t, double tol, double h, double reject)
{
	if (fabs(t->center) + h <= tol)
		return PROFSTATS_SAME;
	if (t->p <= reject)
		return PROFSTATS_DIFFERENT;
	return PROFSTATS_UNSURE;
}

/* Test the shares of every row of C, A and B of NA and NB samples, and
 * give each row and C their verdicts.  0, or -1 when out of memory. */
static int
judge(struct profstats_cmp *c, uint64_t na, uint64_t nb)
{
	double alpha = 1 - c->confidence / 100, tol = c->tolerance / 100;
	double z = profstats_normal_quantile(1 - alpha), reject, worst = 0;
	struct row_tests *rt = calloc(c->nrows + 1, sizeof(*rt));
	double *ps = calloc(2 * c->nrows + 1, sizeof(*ps));
	size_t k, m;

	if (rt == NULL || ps == NULL) {
		free(rt);
		free(ps);
		return -1;
	}
	for (k = 0; k < c->nrows; k++) {
		const struct profstats_row *w = &c->rows[k];

		test_shares(&rt[k].t[0], w->nflat_a, na, w->nflat_b, nb);
		test_shares(&rt[k].t[1], w->ncum_a, na, w->ncum_b, nb);
		ps[2 * k] = rt[k].t[0].p;
		ps[2 * k + 1] = rt[k].t[1].p;
	}
	c->ntests = 2 * c->nrows;
	reject = holm(ps, c->ntests, alpha);
	for (k = 0; k < c->nrows; k++) {
		struct profstats_row *w = &c->rows[k];
		enum profstats_verdict v[2];
		const struct test *t;
		size_t pick;

		for (m = 0; m < 2; m++)
			v[m] = test_verdict(&rt[k].t[m], tol,
					    z * rt[k].t[m].se, reject);
		if (v[0] != v[1])
			pick = verdict_rank[v[1]] < verdict_rank[v[0]];
		else
			pick = fabs(rt[k].t[1].diff) > fabs(rt[k].t[0].diff);
		t = &rt[k].t[pick];
		w->cum = pick == 1;
		w->verdict = v[pick];
		w->diff = 100 * t->diff;
		w->lo = 100 * (t->center - z * t->se);
		w->hi = 100 * (t->center + z * t->se);
		w->p = t->p;
		w->flat_a = profstats_percent(w->nflat_a, na);
		w->flat_b = profstats_percent(w->nflat_b, nb);
		w->cum_a = profstats_percent(w->ncum_a, na);
		w->cum_b = profstats_percent(w->ncum_b, nb);
		if (w->verdict == PROFSTATS_DIFFERENT)
			c->ndifferent++;
		if (w->verdict != PROFSTATS_UNSURE)
			continue;
		c->nunsure++;
		for (m = 0; m < 2; m++)
			if (rt[k].t[m].se > worst)
				worst = rt[k].t[m].se;
	}
	c->verdict = c->ndifferent ? PROFSTATS_DIFFERENT
		     : c->nunsure || na == 0 || nb == 0 ? PROFSTATS_UNSURE
		     : PROFSTATS_SAME;
	if (c->nunsure > 0) {
		/* the share of the least certain test, p (1 - p) from its
		 * standard error, and the count n at which bounds z se(n)
		 * leave room for a difference of z2 se(n) by chance (at
		 * the two-sided confidence) within the tolerance */
		double zc = profstats_normal_quantile(
			1 - alpha / 2 / (double)c->ntests);
		double z2 = profstats_normal_quantile(1 - alpha / 2);
		double n2 = (double)(na < nb ? na : nb) + 2, pq, need;

		c->detectable = 100 * zc * worst;
		pq = worst * worst * n2 / 2;
		need = tol > 0 ? 2 * pq * ((z + z2) / tol) * ((z + z2) / tol)
			       : INFINITY;
		c->needed = need < 1e18 ? (uint64_t)ceil(need) : UINT64_MAX;
	}
	free(rt);
	free(ps);
	return 0;
}

int
profstats_compare(const struct profstats *a, const struct profstats *b,
		  double tolerance, double confidence,
		  struct profstats_cmp *c)
{
	size_t k, n[4], max = a->nfns + b->nfns + a->nmaps + b->nmaps;
	struct keyed *t[4];
	int ret = -1;

	memset(c, 0, sizeof(*c));
	c->tolerance = tolerance < 0 ? PROFSTATS_TOLERANCE : tolerance;
	c->confidence = confidence <= 0 ? PROFSTATS_CONFIDENCE : confidence;
	t[0] = keyed_list(a, false, &n[0]);
	t[1] = keyed_list(b, false, &n[1]);
	t[2] = keyed_list(a, true, &n[2]);
	t[3] = keyed_list(b, true, &n[3]);
	c->rows = calloc(max + 1, sizeof(*c->rows));
	if (c->rows == NULL || t[0] == NULL || t[1] == NULL || t[2] == NULL ||
	    t[3] == NULL)
		goto fail;
	c->nfns_a = a->nfns;
	c->nfns_b = b->nfns;
	c->unnamed_a = a->samples - a->symbolized;
	c->unnamed_b = b->samples - b->symbolized;
	merge_rows(c, t[0], n[0], t[1], n[1], false);
	merge_rows(c, t[2], n[2], t[3], n[3], true);
	c->inexact = count_saturated(a->samples) ||
		     count_saturated(b->samples);
	if (judge(c, a->samples, b->samples) < 0)
		goto fail;
	qsort(c->rows, c->nrows, sizeof(*c->rows), cmp_row);
	if (c->inexact)
		c->verdict = PROFSTATS_UNSURE;
	ret = 0;
	goto out;
fail:
	profstats_cmp_release(c);
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
