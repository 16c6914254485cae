/* SPDX-License-Identifier: MIT */
/* Persistent search trees of mappings: see maptree.h. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "maptree.h"
#include "treap.h"

#define NIL MAPTREE_NIL

void
maptree_init(struct maptree *mt)
{
	memset(mt, 0, sizeof(*mt));
	mt->free = NIL;
	/* Priorities no input can foresee: a tree that inputs could make
	 * deep would make the work quadratic (and the recursion deep). */
	mt->seed = 0x9e3779b97f4a7c15ULL ^ (uint64_t)(uintptr_t)mt;
}

void
maptree_release(struct maptree *mt)
{
	free(mt->nodes);
	free(mt->seen);
	free(mt->items);
	free(mt->listed);
	memset(mt, 0, sizeof(*mt));
}

int
maptree_owner_new(struct maptree *mt, uint32_t *owner)
{
	if (mt->owners == UINT32_MAX)
		return -1;
	*owner = ++mt->owners;
	return 0;
}

/* ---- nodes ------------------------------------------------------------- */

/* What the treap's functions need: the maptree, the mappings and the
 * owner of the tree being changed. */
struct maptree_op {
	struct maptree *mt;
	const struct mapping *maps;
	uint32_t owner;
};

/* The priority of node T: a hash (splitmix64's) of its mapping's index
 * and the seed, so that the copies of a node agree. */
static inline uint64_t
maptree_prio(const struct treap *tr, uint32_t t)
{
	const struct maptree_op *op = tr->ctx;
	uint64_t x = op->mt->seed +
		     op->mt->nodes[t].map * 0x9e3779b97f4a7c15ULL;

	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* Node T's key below K. */
static inline bool
maptree_key_below(const struct treap *tr, uint32_t t, const void *key)
{
	const struct maptree_op *op = tr->ctx;
	const struct maptree_node *n = &op->mt->nodes[t];
	const struct maptree_key *k = key;
	uint32_t full;

	if (n->start != k->start)
		return n->start < k->start;
	full = op->maps[n->map].end > n->start;
	if (full != k->full)
		return full < k->full;
	return n->map < k->map;
}

/* Room for N new nodes, so that the tree operations that follow cannot
 * fail half done.  0, or -1 when out of memory. */
static int
maptree_reserve(struct maptree *mt, size_t n)
{
	size_t nc;
	struct maptree_node *nn;

	if (mt->nfree + (mt->cap_nodes - mt->nnodes) >= n)
		return 0;
	nc = grow_cap(mt->cap_nodes, grow_add(mt->nnodes, n - mt->nfree),
		      sizeof(*nn), 64);
	if (nc == 0 || nc >= NIL)
		return -1;
	nn = grow_realloc(mt->nodes, nc, sizeof(*nn));
	if (nn == NULL)
		return -1;
	mt->nodes = nn;
	mt->cap_nodes = nc;
	return 0;
}

/* A node from the room reserved. */
static uint32_t
maptree_node_new(struct maptree *mt)
{
	uint32_t t = mt->free;

	if (t != NIL) {
		mt->free = mt->nodes[t].link.left;
		mt->nfree--;
		return t;
	}
	return (uint32_t)mt->nnodes++;
}

/* Node T as the owner may change it: T if it is the owner's, else a
 * copy (from the room reserved). */
static uint32_t
maptree_node_own(const struct treap *tr, uint32_t t)
{
	const struct maptree_op *op = tr->ctx;
	struct maptree *mt = op->mt;
	uint32_t c;

	if (mt->nodes[t].owner == op->owner)
		return t;
	c = maptree_node_new(mt);
	mt->nodes[c] = mt->nodes[t];
	mt->nodes[c].owner = op->owner;
	return c;
}

/* The treap of MT's nodes as they are now, for OP. */
static struct treap
maptree_treap(struct maptree_op *op)
{
	struct treap tr = {
		op->mt->nodes, sizeof(struct maptree_node),
		offsetof(struct maptree_node, link), maptree_prio,
		maptree_node_own, op
	};

	return tr;
}

/* The nodes of subtree T that OWNER owns onto the free list.  Below a
 * node of another owner, none is OWNER's: a node is copied before its
 * links change. */
static void
maptree_free_owned(struct maptree *mt, uint32_t owner, uint32_t t)
{
	if (t == NIL || mt->nodes[t].owner != owner)
		return;
	maptree_free_owned(mt, owner, mt->nodes[t].link.left);
	maptree_free_owned(mt, owner, mt->nodes[t].link.right);
	mt->nodes[t].link.left = mt->free;
	mt->free = t;
	mt->nfree++;
}

/* ---- trees ------------------------------------------------------------- */

uint32_t
maptree_below(const struct maptree *mt, const struct mapping *maps,
	      uint32_t root, const struct maptree_key *k)
{
	struct maptree_op op = { (struct maptree *)mt, maps, 0 };
	struct treap tr = maptree_treap(&op);

	return treap_last_below(&tr, root, maptree_key_below, k);
}

uint32_t
maptree_from(const struct maptree *mt, const struct mapping *maps,
	     uint32_t root, const struct maptree_key *k)
{
	struct maptree_op op = { (struct maptree *)mt, maps, 0 };
	struct treap tr = maptree_treap(&op);

	return treap_first_from(&tr, root, maptree_key_below, k);
}

int
maptree_drop(struct maptree *mt, const struct mapping *maps,
	     uint32_t *root, uint32_t owner,
	     const struct maptree_key *lo, const struct maptree_key *hi)
{
	struct maptree_op op = { mt, maps, owner };
	struct treap tr = maptree_treap(&op);
	uint32_t a, b, mid, c;

	/* Each split copies at most its path (the second one's, in B, is
	 * part of HI's in the whole tree); the merges join edges the
	 * splits copied.  Twice that, to be safe. */
	if (maptree_reserve(mt, 2 * (treap_path(&tr, *root, maptree_key_below,
						lo) +
				     treap_path(&tr, *root, maptree_key_below,
						hi))) < 0)
		return -1;
	tr = maptree_treap(&op);	/* the nodes may have moved */
	treap_split(&tr, *root, maptree_key_below, lo, &a, &b);
	treap_split(&tr, b, maptree_key_below, hi, &mid, &c);
	maptree_free_owned(mt, owner, mid);
	*root = treap_merge(&tr, a, c);
	return 0;
}

int
maptree_insert(struct maptree *mt, const struct mapping *maps,
	       uint32_t *root, uint32_t owner, uint32_t map)
{
	const struct mapping *m = &maps[map];
	struct maptree_key k = { m->start, m->end > m->start, map };
	struct maptree_op op = { mt, maps, owner };
	struct treap tr = maptree_treap(&op);
	uint32_t t, l, r;

	if (maptree_reserve(mt, 2 * treap_path(&tr, *root, maptree_key_below,
					       &k) + 1) < 0)
		return -1;
	tr = maptree_treap(&op);	/* the nodes may have moved */
	t = maptree_node_new(mt);
	mt->nodes[t].start = m->start;
	mt->nodes[t].map = map;
	mt->nodes[t].link.left = mt->nodes[t].link.right = NIL;
	mt->nodes[t].owner = owner;
	treap_split(&tr, *root, maptree_key_below, &k, &l, &r);
	*root = treap_merge(&tr, treap_merge(&tr, l, t), r);
	return 0;
}

/* ---- walks ------------------------------------------------------------- */

/*
 * A walk lists the mappings of the trees it is asked for, each once: the
 * layout of a profile wants every executable mapping of every space with
 * samples, and spaces share most of their mappings (the forks of a
 * process; the spaces of one process, one for each change after a
 * sample), so that listing each in full would take time (and a list of
 * each space, memory) of the spaces times their mappings.  A subtree
 * seen before in the walk is the same (the trees change no more while it
 * lasts) and is skipped, but for the mappings the caller wants every
 * time, which the marks say where to find.
 */

int
maptree_walk_begin(struct maptree *mt)
{
	if (mt->cap_seen < mt->nnodes) {
		uint32_t *ns = realloc(mt->seen, mt->nnodes * sizeof(*ns));

		if (ns == NULL)
			return -1;
		memset(ns + mt->cap_seen, 0,
		       (mt->nnodes - mt->cap_seen) * sizeof(*ns));
		mt->seen = ns;
		mt->cap_seen = mt->nnodes;
	}
	if (mt->walk == UINT32_MAX >> 1) {
		memset(mt->seen, 0, mt->cap_seen * sizeof(*mt->seen));
		mt->walk = 0;
	}
	mt->walk++;
	return 0;
}

/* Room for one more item in MT's list.  0, or -1 when out of memory. */
static int
maptree_walk_reserve(struct maptree *mt, size_t n)
{
	size_t nc;
	struct maptree_item *ni;
	uint32_t *nl;

	if (n < mt->cap_items)
		return 0;
	nc = grow_cap(mt->cap_items, grow_add(n, 1), sizeof(*ni), 64);
	if (nc == 0)
		return -1;
	ni = grow_realloc(mt->items, nc, sizeof(*ni));
	if (ni == NULL)
		return -1;
	mt->items = ni;
	nl = grow_realloc(mt->listed, nc, sizeof(*nl));
	if (nl == NULL)
		return -1;
	mt->listed = nl;
	mt->cap_items = nc;
	return 0;
}

/* The executable mappings of subtree T onto the list from *N on: those
 * first seen in this walk and those that EVERY says to list always.  1
 * if the subtree holds one of the latter, 0 if not, -1 when out of
 * memory. */
static int
maptree_walk_subtree(struct maptree *mt, const struct mapping *maps,
		     uint32_t t, uint32_t mark,
		     bool (*every)(const struct mapping *), size_t *n)
{
	const struct mapping *m;
	bool seen, always;
	int l, r;

	if (t == NIL)
		return 0;
	seen = t < mt->cap_seen && mt->seen[t] >> 1 == mt->walk;
	if (seen && !(mt->seen[t] & 1))
		return 0;
	m = &maps[mt->nodes[t].map];
	always = m->exec && every(m);
	l = maptree_walk_subtree(mt, maps, mt->nodes[t].link.left, mark, every, n);
	if (l < 0)
		return -1;
	if (m->exec && (!seen || always)) {
		if (maptree_walk_reserve(mt, *n) < 0)
			return -1;
		mt->items[*n].start = m->start;
		mt->items[*n].map = mt->nodes[t].map;
		mt->items[*n].late = mt->nodes[t].map >= mark;
		(*n)++;
	}
	r = maptree_walk_subtree(mt, maps, mt->nodes[t].link.right, mark, every, n);
	if (r < 0)
		return -1;
	if (t < mt->cap_seen)
		mt->seen[t] = mt->walk << 1 | (l || r || always);
	return l || r || always;
}

/* The order of a tree's list: the mappings below its sort mark by start
 * (then as they came), then the others as they came. */
static int
maptree_cmp_items(const void *a, const void *b)
{
	const struct maptree_item *x = a, *y = b;

	if (x->late != y->late)
		return x->late < y->late ? -1 : 1;
	if (!x->late && x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->map < y->map ? -1 : x->map > y->map;
}

int
maptree_walk(struct maptree *mt, const struct mapping *maps,
	     uint32_t root, uint32_t mark,
	     bool (*every)(const struct mapping *),
	     const uint32_t **out, size_t *n)
{
	size_t i, k = 0;

	*out = NULL;
	*n = 0;
	if (maptree_walk_subtree(mt, maps, root, mark, every, &k) < 0)
		return -1;
	if (k == 0)
		return 0;
	qsort(mt->items, k, sizeof(*mt->items), maptree_cmp_items);
	for (i = 0; i < k; i++)
		mt->listed[i] = mt->items[i].map;
	*out = mt->listed;
	*n = k;
	return 0;
}
