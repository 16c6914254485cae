/* SPDX-License-Identifier: MIT */
/* The address space of the profile: see layout.h. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bases.h"
#include "buildids.h"
#include "grow.h"
#include "hashtab.h"
#include "layout.h"
#include "mapkind.h"
#include "mapstext.h"

/*
 * A map of ids (mapping or space indices) to nonzero values, holding
 * only the ids set: a layout is made for each profile of a --split, and
 * arrays over every mapping and space of the recording made it
 * quadratic in their number.
 */
struct idmap {
	struct hashtab index;
	uint32_t *key, *val;
	size_t n, cap;
};

/* The value of KEY in M, 0 if none. */
static uint32_t
idmap_get(const struct idmap *m, uint32_t key)
{
	struct hashtab_iter it;
	uint32_t i;

	for (i = hashtab_probe(&m->index, hashtab_hash64(key), &it);
	     i != HASHTAB_NONE; i = hashtab_next(&m->index, &it))
		if (m->key[i] == key)
			return m->val[i];
	return 0;
}

/* Set KEY to VAL (nonzero) in M.  0, or -1 when out of memory. */
static int
idmap_set(struct idmap *m, uint32_t key, uint32_t val)
{
	struct hashtab_iter it;
	uint64_t h = hashtab_hash64(key);
	uint32_t i;

	if (m->n >= HASHTAB_NONE - 1 ||
	    hashtab_reserve(&m->index, m->n + 1) < 0)
		return -1;
	for (i = hashtab_probe(&m->index, h, &it); i != HASHTAB_NONE;
	     i = hashtab_next(&m->index, &it))
		if (m->key[i] == key) {
			m->val[i] = val;
			return 0;
		}
	if (m->n == m->cap) {
		size_t cap = m->cap;
		uint32_t *nk = grow(m->key, &cap, m->n + 1, sizeof(*nk), 64);

		if (nk == NULL)
			return -1;
		m->key = nk;
		nk = grow_realloc(m->val, cap, sizeof(*nk));
		if (nk == NULL)
			return -1;
		m->val = nk;
		m->cap = cap;
	}
	m->key[m->n] = key;
	m->val[m->n] = val;
	hashtab_insert(&m->index, &it, (uint32_t)m->n++);
	return 0;
}

static void
idmap_free(struct idmap *m)
{
	hashtab_free(&m->index);
	free(m->key);
	free(m->val);
}

struct lay {
	struct addrspace *as;
	const struct layout_opts *o;
	struct place *places;
	size_t nplaces, cap_places;
	struct hashtab index;		/* of places, by key */
	struct idmap map_place;		/* mapping index -> place + 1 */
	const struct mapping *last;	/* the last mapping resolved, */
	uint32_t last_sid;		/* in this space */
	uint64_t *unmapped;		/* user frames in no mapping, as
					   pprof looks them up (guards.h) */
	size_t nunmapped, cap_unmapped;
	struct idmap seen;		/* space index -> 1: its mappings are
					   in */
	uint32_t ksid;			/* the kernel's space (pid -1), */
	bool have_ksid;			/* if the file has one */
	struct idmap module;		/* mapping index -> 1: a module (a
					   mapping of pid -1) with frames */
};

/* Anonymous memory, JIT code and the kernel's special mappings: these
 * belong to their process, whatever their name. */
static bool
is_anon_mapping(const struct mapping *m)
{
	return mapkind_is_own(mapping_kind(m->path));
}

/* The build id of M: its own (MMAP2), else the file's in the header. */
static void
build_id_of(const struct lay *l, const struct mapping *m, uint8_t *size,
	    const uint8_t **id)
{
	if (m->build_id_size > 0) {
		*size = m->build_id_size;
		*id = m->build_id;
		return;
	}
	if (!buildids_find(l->o->bids, m->path, size, id) &&
	    strcmp(m->path, "[kernel.kallsyms]") == 0) {
		const struct perf_build_id *k =
			perfdata_kernel_build_id(l->o->bids->hi);

		if (k != NULL) {
			*size = k->size;
			*id = k->id;
		}
	}
}

/* The place of mapping M seen in space SID, created if new; NULL when
 * out of memory. */
static struct place *
place_of(struct lay *l, const struct mapping *m, uint32_t sid)
{
	size_t mi = (size_t)(m - addrspace_map(l->as, 0));
	uint8_t bsize;
	const uint8_t *bid;
	char *key;
	size_t klen, k;
	struct hashtab_iter it;
	struct place *p;
	uint32_t i;
	bool anon;

	i = idmap_get(&l->map_place, (uint32_t)mi);
	if (i != 0)
		return &l->places[i - 1];
	anon = is_anon_mapping(m);
	build_id_of(l, m, &bsize, &bid);
	klen = strlen(m->path) + 2 * 20 + 40;
	key = malloc(klen);
	if (key == NULL)
		return NULL;
	if (anon) {
		snprintf(key, klen, "A%d:%llx:",
			 addrspace_space_pid(l->as, sid),
			 (unsigned long long)(m->start - m->pgoff));
	} else {
		key[0] = 'F';
		for (k = 0; k < bsize; k++)
			snprintf(key + 1 + 2 * k, 3, "%02x", bid[k]);
		key[1 + 2 * bsize] = ':';
		key[2 + 2 * bsize] = '\0';
		/* One process: the file where it was mapped, so each of the
		 * process's address spaces keeps its own addresses. */
		if (l->o->per_space)
			snprintf(key + 2 + 2 * bsize, klen - 2 - 2 * bsize,
				 "%llx:",
				 (unsigned long long)(m->start - m->pgoff));
	}
	strcat(key, m->path);
	if (hashtab_reserve(&l->index, l->nplaces + 1) < 0)
		goto nomem;
	for (i = hashtab_probe(&l->index, hashtab_hash_str(key), &it);
	     i != HASHTAB_NONE; i = hashtab_next(&l->index, &it)) {
		p = &l->places[i];
		if (strcmp(p->key, key) == 0) {
			free(key);
			if (!anon &&
			    idmap_set(&l->map_place, (uint32_t)mi, i + 1) < 0)
				return NULL;
			return p;
		}
	}
	if (l->nplaces == l->cap_places) {
		struct place *np = grow(l->places, &l->cap_places,
					l->nplaces + 1, sizeof(*np), 64);

		if (np == NULL)
			goto nomem;
		l->places = np;
	}
	p = &l->places[l->nplaces];
	memset(p, 0, sizeof(*p));
	p->key = key;
	p->m = m;
	p->build_id_size = bsize;
	p->build_id = bid;
	p->pref = m->start - m->pgoff;
	p->lo = UINT64_MAX;
	hashtab_insert(&l->index, &it, (uint32_t)l->nplaces++);
	if (!anon &&
	    idmap_set(&l->map_place, (uint32_t)mi, (uint32_t)l->nplaces) < 0)
		return NULL;
	return p;
nomem:
	free(key);
	return NULL;
}

/* Record that place P holds mapping M (one segment of its file). */
static int
add_segment(struct place *p, const struct mapping *m)
{
	uint64_t len = m->end - m->start;
	size_t i;

	for (i = 0; i < p->nsegs; i++)
		if (p->segs[i].pgoff == m->pgoff) {
			if (len > p->segs[i].len)
				p->segs[i].len = len;
			goto extent;
		}
	if (p->nsegs == p->cap_segs) {
		struct segment *ns = grow(p->segs, &p->cap_segs, p->nsegs + 1,
					  sizeof(*ns), 4);

		if (ns == NULL)
			return -1;
		p->segs = ns;
	}
	p->segs[p->nsegs].pgoff = m->pgoff;
	p->segs[p->nsegs].len = len;
	p->segs[p->nsegs].m = m;
	p->nsegs++;
extent:
	if (m->pgoff < p->lo)
		p->lo = m->pgoff;
	if (m->pgoff + len > p->hi)
		p->hi = m->pgoff + len;
	return 0;
}

/* Note the user frame at ADDR, DEPTH in its stack, in no mapping: pprof
 * looks a return address up less 1, and a leaf may get copies below it
 * (fixup.h).  0, or -1 when out of memory. */
static int
note_unmapped(struct lay *l, uint64_t addr, uint32_t depth)
{
	uint64_t a = addr - 1;
	int i;

	for (i = depth == 0 ? 0 : 1; i < 2; i++, a++) {
		if (l->nunmapped > 0 && l->unmapped[l->nunmapped - 1] == a)
			continue;
		if (l->nunmapped == l->cap_unmapped) {
			uint64_t *nv = grow(l->unmapped, &l->cap_unmapped,
					    l->nunmapped + 1, sizeof(*nv), 64);

			if (nv == NULL)
				return -1;
			l->unmapped = nv;
		}
		l->unmapped[l->nunmapped++] = a;
	}
	return 0;
}

/* The search, remembering its answer for resolve(). */
static const struct mapping *
resolve_slow(struct lay *l, uint32_t sid, uint64_t addr)
{
	const struct mapping *m = addrspace_resolve(l->as, sid, addr);

	if (m != NULL) {
		l->last = m;
		l->last_sid = sid;
	}
	return m;
}

/* The mapping of space SID that holds ADDR, or NULL.  The frames of a
 * stack mostly fall in one file, so the last answer is tried first
 * (the mappings of a space do not overlap), inline: it is asked twice
 * for every frame of every stack. */
static inline const struct mapping *
resolve(struct lay *l, uint32_t sid, uint64_t addr)
{
	const struct mapping *m = l->last;

	if (m != NULL && l->last_sid == sid && addr >= m->start &&
	    addr < m->end)
		return m;
	return resolve_slow(l, sid, addr);
}

/* ---- translating the stacks -------------------------------------------- */

/* Whether each mapping with a place is at its place's base, so that
 * translating its addresses changes none. */
static bool
native_everywhere(const struct lay *l)
{
	size_t i;

	for (i = 0; i < l->map_place.n; i++) {
		const struct mapping *m = addrspace_map(l->as,
							l->map_place.key[i]);

		if (l->places[l->map_place.val[i] - 1].base !=
		    m->start - m->pgoff)
			return false;
	}
	return true;
}

static int
cmp_entry_order(const void *a, const void *b)
{
	const struct stack_entry *x = *(const struct stack_entry *const *)a;
	const struct stack_entry *y = *(const struct stack_entry *const *)b;

	/* Most samples first, then first seen, for a stable output. */
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

/*
 * E sorted as cmp_entry_order() sorts it.  E usually comes in the order
 * the stacks were first seen (the pool's): then a stable sort by count
 * alone gives that order, and a radix sort on the count's bytes (only
 * the bytes that differ; with counts under 256, one pass) does it in
 * linear time, where qsort() took a tenth of the layout of 700k stacks.
 * 0, or -1 when out of memory.
 */
static int
sort_entries(struct stack_entry **e, size_t n)
{
	size_t (*hist)[256], i, b, sum;
	struct stack_entry **tmp, **src = e, **dst, **t;
	uint64_t key0;

	for (i = 1; i < n; i++)
		if (e[i - 1]->off > e[i]->off)
			break;
	if (i < n || n < 2) {
		qsort(e, n, sizeof(*e), cmp_entry_order);
		return 0;
	}
	hist = calloc(8, sizeof(*hist));
	tmp = malloc(n * sizeof(*tmp));
	if (hist == NULL || tmp == NULL) {
		free(hist);
		free(tmp);
		return -1;
	}
	/* Keys ~count: ascending keys are descending counts. */
	for (i = 0; i < n; i++) {
		uint64_t k = ~e[i]->count;

		for (b = 0; b < 8; b++)
			hist[b][(k >> (8 * b)) & 0xff]++;
	}
	key0 = ~e[0]->count;
	dst = tmp;
	for (b = 0; b < 8; b++) {
		size_t *h = hist[b];

		if (h[(key0 >> (8 * b)) & 0xff] == n)
			continue;	/* one value: nothing to sort */
		for (i = 0, sum = 0; i < 256; i++) {
			size_t c = h[i];

			h[i] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			dst[h[(~src[i]->count >> (8 * b)) & 0xff]++] = src[i];
		t = src;
		src = dst;
		dst = t;
	}
	if (src != e)
		memcpy(e, src, n * sizeof(*e));
	free(tmp);
	free(hist);
	return 0;
}


/* L set up for the space AS and the options O, with TAB unpacked.  0,
 * or -1 when out of memory; lay_free() L in either case. */
static int
lay_init(struct lay *l, struct addrspace *as, const struct layout_opts *o,
	 struct stacktab *tab)
{
	const struct process *kproc;

	memset(l, 0, sizeof(*l));
	l->as = as;
	l->o = o;
	if (stacktab_unpack(tab) < 0 ||
	    addrspace_walk_begin(as) < 0)
		return -1;
	kproc = addrspace_find(as, -1);
	if (kproc != NULL) {
		l->ksid = kproc->space;
		l->have_ksid = true;
	}
	return 0;
}

static void
lay_free(struct lay *l)
{
	size_t i;

	for (i = 0; i < l->nplaces; i++) {
		free(l->places[i].key);
		free(l->places[i].segs);
	}
	free(l->places);
	hashtab_free(&l->index);
	idmap_free(&l->map_place);
	free(l->unmapped);
	idmap_free(&l->seen);
	idmap_free(&l->module);
}

/* Note the kernel module (a mapping of pid -1 other than the kernel's
 * text, which the kernel's line covers) that holds kernel frame ADDR, if
 * any, as one with frames: it gets a line of its own.  0, or -1 when
 * out of memory. */
static int
note_module(struct lay *l, uint64_t addr)
{
	const struct mapping *km = addrspace_kernel(l->as);
	const struct mapping *m;
	size_t mi;

	if (!l->have_ksid ||
	    (km != NULL && addr >= km->start && addr < km->end))
		return 0;
	m = resolve(l, l->ksid, addr);
	if (m == NULL)
		return 0;
	mi = (size_t)(m - addrspace_map(l->as, 0));
	return idmap_set(&l->module, (uint32_t)mi, 1);
}

/* The places of every executable mapping of space SID, met for the
 * first time.  A mapping listed before (of a space before) adds nothing
 * but for an anonymous one, whose place is its process's.  0, or -1
 * when out of memory. */
static int
add_space(struct lay *l, uint32_t sid)
{
	const uint32_t *maps;
	size_t k, nmaps;

	if (idmap_set(&l->seen, sid, 1) < 0)
		return -1;
	if (addrspace_walk_space(l->as, sid, is_anon_mapping, &maps,
				 &nmaps) < 0)
		return -1;
	for (k = 0; k < nmaps; k++) {
		const struct mapping *m = addrspace_map(l->as, maps[k]);
		struct place *p = place_of(l, m, sid);

		if (p == NULL || add_segment(p, m) < 0)
			return -1;
	}
	return 0;
}

/* The place of a frame's mapping, and that mapping and its space: the
 * frames of a stack mostly fall in one file. */
struct frame_place {
	const struct mapping *m;
	uint32_t sid;
	struct place *p;
};

/* The place of mapping M of space SID, with its segment added when ADD;
 * LAST's place when M and SID are LAST's (its segment is in already),
 * else looked up and kept in LAST.  NULL when out of memory. */
static struct place *
frame_place_of(struct lay *l, struct frame_place *last,
	       const struct mapping *m, uint32_t sid, bool add)
{
	struct place *p;

	if (m == last->m && sid == last->sid)
		return last->p;
	p = place_of(l, m, sid);
	if (p == NULL || (add && add_segment(p, m) < 0))
		return NULL;
	last->m = m;
	last->sid = sid;
	last->p = p;
	return p;
}

/* Every executable mapping of the spaces of the N entries E (of TAB and
 * AG), and the places their frames fall in, with their samples; in ST,
 * whether frames are in the kernel and the samples of frames in no
 * mapping; in *ONE_CTX, whether the entries share one context and one
 * event.  0, or -1 when out of memory. */
static int
collect_places(struct lay *l, const struct aggregate *ag,
	       struct stacktab *tab, struct stack_entry **e, size_t n,
	       struct layout_stats *st, bool *one_ctx)
{
	const struct kernel_text *kt = addrspace_kernel_text(l->as);
	struct frame_place last = { NULL, 0, NULL };
	size_t i, k;

	for (i = 0; i < n; i++) {
		uint32_t sid = aggregate_space(ag, e[i]->ctx);
		const uint64_t *v = stacktab_pcs(tab, e[i]);

		*one_ctx = *one_ctx && e[i]->ctx == e[0]->ctx &&
			   e[i]->ev == e[0]->ev;
		if (idmap_get(&l->seen, sid) == 0) {
			if (add_space(l, sid) < 0)
				return -1;
			/* New places may have moved the array: the place
			 * of the frame before is looked up again. */
			last.m = NULL;
		}
		for (k = 0; k < e[i]->n; k++) {
			const struct mapping *m;
			struct place *p;

			if (addrspace_text_has(kt, v[k])) {
				st->with_kernel = true;
				if (note_module(l, v[k]) < 0)
					return -1;
				continue;
			}
			m = resolve(l, sid, v[k]);
			if (m == NULL) {
				st->unmapped += e[i]->count;
				if (note_unmapped(l, v[k], (uint32_t)k) < 0)
					return -1;
				continue;
			}
			p = frame_place_of(l, &last, m, sid, true);
			if (p == NULL)
				return -1;
			p->samples += e[i]->count;
		}
	}
	return 0;
}

/* The PCs of the N entries E (of TAB and AG) at their places' bases, in
 * place; kernel frames and frames in no mapping stay as they are.  0,
 * or -1 when out of memory. */
static int
translate_stacks(struct lay *l, const struct aggregate *ag,
		 struct stacktab *tab, struct stack_entry **e, size_t n)
{
	const struct kernel_text *kt = addrspace_kernel_text(l->as);
	struct frame_place last = { NULL, 0, NULL };
	size_t i, k;

	for (i = 0; i < n; i++) {
		uint32_t sid = aggregate_space(ag, e[i]->ctx);
		uint64_t *v = stacktab_pcs(tab, e[i]);

		for (k = 0; k < e[i]->n; k++) {
			const struct mapping *m = NULL;
			struct place *p;

			if (!addrspace_text_has(kt, v[k]))
				m = resolve(l, sid, v[k]);
			if (m == NULL)
				continue;
			p = frame_place_of(l, &last, m, sid, false);
			if (p == NULL)
				return -1;
			v[k] = p->base + (v[k] - m->start + m->pgoff);
		}
	}
	return 0;
}

/* Each of the N entries E (of TAB) counts its periods in whole UNITs,
 * rounded to the nearest, and at least 1. */
static void
count_periods(struct stacktab *tab, struct stack_entry **e, size_t n,
	      uint64_t unit)
{
	size_t i;

	for (i = 0; i < n; i++) {
		uint64_t p = stacktab_period(tab, e[i]);
		uint64_t c = p / unit + (p % unit >= unit - p % unit ? 1 : 0);

		e[i]->count = c ? c : 1;
	}
}

/* The N entries E (of TAB) added to OUT in their order: with
 * O->take_pool, the profile's records point into the table's pool, with
 * no copy of the stacks.  0, or -1 when out of memory. */
static int
add_records(struct stacktab *tab, struct stack_entry **e, size_t n,
	    const struct layout_opts *o, struct profile *out)
{
	size_t i;

	if (o->take_pool) {
		out->pcs = stacktab_take_pool(tab, &out->npcs, &out->cap_pcs);
		for (i = 0; i < n; i++)
			if (profile_add_at(out, e[i]->count, e[i]->off,
					   e[i]->n) < 0)
				return -1;
	} else {
		for (i = 0; i < n; i++)
			if (profile_add(out, e[i]->count,
					stacktab_pcs(tab, e[i]), e[i]->n) < 0)
				return -1;
	}
	return 0;
}

static int
cmp_map_start(const void *a, const void *b)
{
	const struct mapping *x = *(const struct mapping *const *)a;
	const struct mapping *y = *(const struct mapping *const *)b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* The mappings of the kernel written: with WITH_KERNEL, its text (when
 * there is one), then its modules with frames by address; into *OUT
 * (which the caller frees), their number into *N.  0, or -1 when out of
 * memory. */
static int
kernel_maps(struct lay *l, bool with_kernel, const struct mapping ***out,
	    size_t *n)
{
	const struct mapping *km = addrspace_kernel(l->as);
	size_t i, k = 0;

	*out = malloc((l->module.n + 1) * sizeof(**out));
	if (*out == NULL)
		return -1;
	if (with_kernel && km != NULL)
		(*out)[k++] = km;
	for (i = 0; i < l->module.n; i++)
		(*out)[k++] = addrspace_map(l->as, l->module.key[i]);
	qsort(*out + (k - l->module.n), l->module.n, sizeof(**out),
	      cmp_map_start);
	*n = k;
	return 0;
}

/* The bases of L's places, clear of the kernel and its modules with
 * frames.  0, or -1 when out of memory. */
static int
assign_bases(struct lay *l, struct layout_stats *st)
{
	const struct mapping **km;
	size_t n;
	int ret;

	if (kernel_maps(l, true, &km, &n) < 0)
		return -1;
	ret = bases_assign(l->places, l->nplaces, km, n, l->o->slot_bytes,
			   &st->relocated, &st->collisions);
	free(km);
	return ret;
}

/* The maps text of L's places into OUT, WITH_KERNEL the kernel's line
 * too (when there is a kernel), and a line for each module with frames.
 * 0, or -1 when out of memory. */
static int
write_maps(struct lay *l, bool with_kernel, struct profile *out)
{
	const struct mapping **km;
	struct mapstext_kernel *k;
	size_t i, n;
	int ret;

	if (kernel_maps(l, with_kernel, &km, &n) < 0)
		return -1;
	k = malloc((n + 1) * sizeof(*k));
	if (k == NULL) {
		free(km);
		return -1;
	}
	for (i = 0; i < n; i++) {
		k[i].m = km[i];
		k[i].name = i == 0 && km[i] == addrspace_kernel(l->as) &&
				    l->o->kernel_path ? l->o->kernel_path
						      : km[i]->path;
		build_id_of(l, km[i], &k[i].build_id_size, &k[i].build_id);
	}
	ret = mapstext_write(l->places, l->nplaces, k, n, l->unmapped,
			     l->nunmapped, out);
	free(k);
	free(km);
	return ret;
}

int
layout_build(struct addrspace *as, const struct aggregate *ag,
	     struct stacktab *tab,
	     struct stack_entry **e, size_t n,
	     const struct layout_opts *o, struct profile *out,
	     struct layout_stats *st, struct p2g_error *err)
{
	struct lay l;
	bool identity, one_ctx = true;
	int ret = -1;

	memset(st, 0, sizeof(*st));
	if (lay_init(&l, as, o, tab) < 0 ||
	    collect_places(&l, ag, tab, e, n, st, &one_ctx) < 0)
		goto nomem;
	st->places = l.nplaces;
	if (assign_bases(&l, st) < 0)
		goto nomem;
	/* The stacks at their new addresses, in place; then identical ones
	 * summed, most samples first.  When every place kept its native
	 * base (one process, the usual case), the new addresses are the old
	 * ones: every frame's mapping has a place (collect_places()). */
	identity = native_everywhere(&l);
	if (!identity && translate_stacks(&l, ag, tab, e, n) < 0)
		goto nomem;
	/* The table holds each stack once per event and context: with one
	 * of each and nothing moved, no two can have become identical. */
	if ((!identity || !one_ctx) && stacktab_merge(tab, e, &n) < 0)
		goto nomem;
	if (o->period_unit != 0)
		count_periods(tab, e, n, o->period_unit);
	if (sort_entries(e, n) < 0 || add_records(tab, e, n, o, out) < 0 ||
	    write_maps(&l, st->with_kernel, out) < 0)
		goto nomem;
	ret = 0;
	goto out;
nomem:
	p2g_fail(err, P2G_NOMEM, P2G_NO_OFFSET, "out of memory");
out:
	lay_free(&l);
	return ret;
}
