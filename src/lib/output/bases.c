/* SPDX-License-Identifier: MIT */
/* Where the places of the profile go: see bases.h. */
#include "config.h"

#include <stddef.h>
#include <stdlib.h>

#include "bases.h"
#include "treap.h"

/* Relocated places go from here up, each at a multiple of the step. */
#define RELOC_BASE64 0x100000000000ULL
#define RELOC_STEP64 (1ULL << 30)
#define RELOC_BASE32 0x40000000ULL
#define RELOC_STEP32 (1ULL << 24)

struct range {
	uint64_t lo, hi;
};

/*
 * The address ranges taken, disjoint (touching or overlapping ones
 * merged), in a treap (treap.h) in the order of the ranges' starts.
 * Finding the first range that ends after an address, and taking a
 * range (split off what it touches, merge back one node), each cost time
 * logarithmic in the number of ranges, so that the layout stays near
 * linear in the places and their segments however many processes there
 * are.  As the ranges are disjoint, their ends are in the order of their
 * starts too.
 */
struct range_node {
	struct range r;
	struct treap_links link;
	uint32_t prio;
};

struct ranges {
	struct range_node *v;	/* room for every range ever taken */
	uint32_t root, n;
	uint64_t state;		/* for the priorities */
	struct treap tr;
};

/* A split of the ranges at VALUE: those that end (BY_LO: start) at or
 * below it go left. */
struct range_key {
	uint64_t value;
	bool by_lo;
};

static bool
range_below(const struct treap *tr, uint32_t t, const void *key)
{
	const struct range_node *v = tr->nodes;
	const struct range_key *k = key;

	return (k->by_lo ? v[t].r.lo : v[t].r.hi) <= k->value;
}

static uint64_t
range_prio(const struct treap *tr, uint32_t t)
{
	const struct range_node *v = tr->nodes;

	return v[t].prio;
}

/* The first range that ends after LO, or NULL. */
static const struct range *
ranges_after(const struct ranges *u, uint64_t lo)
{
	struct range_key k = { lo, false };
	uint32_t t = treap_first_from(&u->tr, u->root, range_below, &k);

	return t != TREAP_NIL ? &u->v[t].r : NULL;
}

/* A range taken that overlaps [LO, HI), or NULL. */
static const struct range *
ranges_overlapping(const struct ranges *u, uint64_t lo, uint64_t hi)
{
	const struct range *r = ranges_after(u, lo);

	return r != NULL && r->lo < hi ? r : NULL;
}

/* Take [LO, HI) (room for one more range must be there). */
static void
ranges_take(struct ranges *u, uint64_t lo, uint64_t hi)
{
	struct range_key below_lo = { lo - 1, false }, upto_hi = { hi, true };
	uint32_t a, b, mid, c, t;
	uint64_t x;

	if (lo >= hi)
		return;
	/* The ranges in MID touch or overlap [lo, hi): they become one.
	 * Their nodes are not used again: each range taken makes at most
	 * one node. */
	if (lo > 0)
		treap_split(&u->tr, u->root, range_below, &below_lo, &a, &b);
	else
		a = TREAP_NIL, b = u->root;
	treap_split(&u->tr, b, range_below, &upto_hi, &mid, &c);
	if (mid != TREAP_NIL) {
		t = treap_end(&u->tr, mid, false);
		if (u->v[t].r.lo < lo)
			lo = u->v[t].r.lo;
		t = treap_end(&u->tr, mid, true);
		if (u->v[t].r.hi > hi)
			hi = u->v[t].r.hi;
	}
	/* xorshift64* */
	x = u->state;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	u->state = x;
	t = u->n++;
	u->v[t].r.lo = lo;
	u->v[t].r.hi = hi;
	u->v[t].link.left = u->v[t].link.right = TREAP_NIL;
	u->v[t].prio = (uint32_t)((x * 0x2545f4914f6cdd1dULL) >> 32);
	u->root = treap_merge(&u->tr, treap_merge(&u->tr, a, t), c);
}

static int
cmp_place_samples(const void *a, const void *b)
{
	const struct place *x = *(const struct place *const *)a;
	const struct place *y = *(const struct place *const *)b;

	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	return x->pref < y->pref ? -1 : x->pref > y->pref;
}

size_t
bases_nsegs(const struct place *places, size_t nplaces)
{
	size_t i, n = 0;

	for (i = 0; i < nplaces; i++)
		n += places[i].nsegs;
	return n;
}

/* The places of ORDER[0..N) that fit at their native addresses (each
 * segment below LIMIT and free: other mappings may sit in the gaps
 * between them) put there, in that order (most samples first); the
 * others marked relocated. */
static void
take_native(struct ranges *used, struct place **order, size_t n,
	    uint64_t limit)
{
	size_t i;

	for (i = 0; i < n; i++) {
		struct place *p = order[i];
		size_t k;
		bool fits = true;

		for (k = 0; k < p->nsegs && fits; k++) {
			uint64_t lo = p->pref + p->segs[k].pgoff;
			uint64_t hi = lo + p->segs[k].len;

			fits = hi >= lo && hi <= limit &&
			       ranges_overlapping(used, lo, hi) == NULL;
		}
		if (!fits) {
			p->relocated = true;
			continue;
		}
		p->base = p->pref;
		for (k = 0; k < p->nsegs; k++) {
			uint64_t lo = p->pref + p->segs[k].pgoff;

			ranges_take(used, lo, lo + p->segs[k].len);
		}
	}
}

/* The places of ORDER[0..N) marked relocated moved where there is room:
 * at the lowest step from RBASE on where each fits, below LIMIT; with
 * none, left at their native addresses.  Counts both in *RELOCATED and
 * *COLLISIONS. */
static void
take_relocated(struct ranges *used, struct place **order, size_t n,
	       uint64_t limit, unsigned slot_bytes, size_t *relocated,
	       size_t *collisions)
{
	uint64_t rbase = slot_bytes == 4 ? RELOC_BASE32 : RELOC_BASE64;
	uint64_t rstep = slot_bytes == 4 ? RELOC_STEP32 : RELOC_STEP64;
	uint64_t first[2] = { rbase, rbase };
	unsigned w;
	size_t i;

	for (i = 0; i < n; i++) {
		struct place *p = order[i];
		uint64_t cand, size = p->hi - p->lo;

		if (!p->relocated)
			continue;
		/* The steps below FIRST[1] are in a range taken, where no
		 * place of some size can start, and stay so: ranges only
		 * grow.  (An empty place can start where a range does: the
		 * steps below FIRST[0] are inside one.)  Moving FIRST up,
		 * rather than searching from RBASE each time, makes
		 * relocating many places linear, not quadratic. */
		w = size > 0;
		for (;;) {
			const struct range *r =
				ranges_overlapping(used, first[w],
						   first[w] + w);

			if (r == NULL)
				break;
			first[w] = (r->hi + rstep - 1) / rstep * rstep;
			if (first[w] < r->hi)
				first[w] = UINT64_MAX;	/* overflow */
		}
		cand = first[w];
		/* Past each range in the way, to the next step. */
		for (;;) {
			const struct range *r = NULL;

			if (cand + size < cand || cand + size > limit)
				break;
			r = ranges_overlapping(used, cand, cand + size);
			if (r == NULL)
				break;
			cand = (r->hi + rstep - 1) / rstep * rstep;
			if (cand < r->hi)
				cand = UINT64_MAX;	/* overflow: no room */
		}
		if (cand + size < cand || cand + size > limit) {
			/* Nowhere to go: keep its own addresses, where pprof
			 * may take some frames for another place's. */
			p->base = p->pref;
			p->relocated = false;
			(*collisions)++;
			continue;
		}
		p->base = cand - p->lo;
		ranges_take(used, cand, cand + size);
		(*relocated)++;
	}
}

int
bases_assign(struct place *places, size_t nplaces,
	     const struct mapping *const *kernel, size_t nkernel,
	     unsigned slot_bytes,
	     size_t *relocated, size_t *collisions)
{
	struct place **order;
	struct ranges used;
	size_t i, n = 0, nranges;
	uint64_t limit = slot_bytes == 4 ? (1ULL << 32) : UINT64_MAX;
	int ret = 0;

	order = malloc((nplaces + 1) * sizeof(*order));
	used.n = 0;
	used.root = TREAP_NIL;
	used.state = 0x9e3779b97f4a7c15ULL ^ (uint64_t)(uintptr_t)&used;
	nranges = bases_nsegs(places, nplaces) + nplaces + nkernel + 2;
	used.v = nranges < UINT32_MAX ? malloc(nranges * sizeof(*used.v))
				      : NULL;
	if (order == NULL || used.v == NULL) {
		ret = -1;
		goto out;
	}
	used.tr = (struct treap){ used.v, sizeof(*used.v),
				  offsetof(struct range_node, link),
				  range_prio, NULL, NULL };
	for (i = 0; i < nkernel; i++)
		ranges_take(&used, kernel[i]->start, kernel[i]->end);
	for (i = 0; i < nplaces; i++)
		order[n++] = &places[i];
	qsort(order, n, sizeof(*order), cmp_place_samples);
	/* Native addresses first, most samples first, then the places that
	 * collided, where there is room. */
	take_native(&used, order, n, limit);
	take_relocated(&used, order, n, limit, slot_bytes, relocated,
		       collisions);
out:
	free(order);
	free(used.v);
	return ret;
}
