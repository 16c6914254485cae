/* SPDX-License-Identifier: MIT */
/*
 * Ordered sets as treaps: binary search trees that are also heaps in the
 * order of their nodes' priorities, which the caller makes random (or a
 * hash no input can foresee), so that a tree stays balanced whatever the
 * order its keys come in, and every operation below costs time
 * logarithmic in its nodes.  The nodes live in the caller's array, each
 * holding a struct treap_links, and are named by their index
 * (TREAP_NIL: none); the caller owns the nodes, their keys and their
 * priorities.  An insert is split at the key, merge, merge; dropping a
 * run of keys is split, split, merge.
 *
 * A tree may be persistent: with an OWN function, every node is passed
 * through it before its links change, and may come back as a copy (path
 * copying, as maptree.h does it); the caller then reserves the nodes
 * that copying may take (treap_path() of each split) before it starts.
 *
 * The operations take a struct treap that names the array as it is now:
 * make it anew after the array moves.  They are inline, so that the
 * caller's functions are called directly where the caller's tree is
 * searched on a hot path (a sample's frames in maptree.h's trees).
 */
#ifndef P2G_TREAP_H
#define P2G_TREAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TREAP_NIL UINT32_MAX

struct treap_links {
	uint32_t left, right;	/* nodes, or TREAP_NIL */
};

struct treap {
	void *nodes;		/* the caller's array */
	size_t size;		/* the bytes of one node */
	size_t links;		/* the offset of its struct treap_links */
	/* The priority of node T: a parent's is at least its children's. */
	uint64_t (*prio)(const struct treap *tr, uint32_t t);
	/* Node T as it may be changed: T, or a copy of it.  NULL: T. */
	uint32_t (*own)(const struct treap *tr, uint32_t t);
	void *ctx;		/* the caller's, for the functions */
};

/* True if node T's key is below KEY (the caller's). */
typedef bool treap_below_fn(const struct treap *tr, uint32_t t,
			    const void *key);

/* The links of node T. */
static inline struct treap_links *
treap_links(const struct treap *tr, uint32_t t)
{
	return (struct treap_links *)(void *)((char *)tr->nodes +
					      (size_t)t * tr->size +
					      tr->links);
}

/* Node T as it may be changed (struct treap's OWN). */
static inline uint32_t
treap_own(const struct treap *tr, uint32_t t)
{
	return tr->own != NULL ? tr->own(tr, t) : t;
}

/* Subtree T split into the nodes whose keys are BELOW KEY (*L) and the
 * others (*R). */
static inline void
treap_split(const struct treap *tr, uint32_t t, treap_below_fn *below,
	    const void *key, uint32_t *l, uint32_t *r)
{
	uint32_t a, b;

	if (t == TREAP_NIL) {
		*l = *r = TREAP_NIL;
		return;
	}
	t = treap_own(tr, t);
	if (below(tr, t, key)) {
		treap_split(tr, treap_links(tr, t)->right, below, key, &a, &b);
		treap_links(tr, t)->right = a;
		*l = t;
		*r = b;
	} else {
		treap_split(tr, treap_links(tr, t)->left, below, key, &a, &b);
		treap_links(tr, t)->left = b;
		*l = a;
		*r = t;
	}
}

/* Subtrees A and B (every key of A below every key of B) as one. */
static inline uint32_t
treap_merge(const struct treap *tr, uint32_t a, uint32_t b)
{
	uint32_t t;

	if (a == TREAP_NIL)
		return b;
	if (b == TREAP_NIL)
		return a;
	if (tr->prio(tr, a) >= tr->prio(tr, b)) {
		a = treap_own(tr, a);
		t = treap_merge(tr, treap_links(tr, a)->right, b);
		treap_links(tr, a)->right = t;
		return a;
	}
	b = treap_own(tr, b);
	t = treap_merge(tr, a, treap_links(tr, b)->left);
	treap_links(tr, b)->left = t;
	return b;
}

/* The node of tree ROOT on either side of KEY: with LAST, the one with
 * the greatest key BELOW KEY, else the one with the least key not BELOW
 * it; or TREAP_NIL. */
static inline uint32_t
treap_bound(const struct treap *tr, uint32_t root, treap_below_fn *below,
	    const void *key, bool last)
{
	uint32_t t = root, best = TREAP_NIL;

	while (t != TREAP_NIL) {
		bool b = below(tr, t, key);

		if (b == last)
			best = t;
		t = b ? treap_links(tr, t)->right : treap_links(tr, t)->left;
	}
	return best;
}

/* The node of tree ROOT with the greatest key BELOW KEY, or TREAP_NIL. */
static inline uint32_t
treap_last_below(const struct treap *tr, uint32_t root,
		 treap_below_fn *below, const void *key)
{
	return treap_bound(tr, root, below, key, true);
}

/* The node of tree ROOT with the least key not BELOW KEY, or TREAP_NIL. */
static inline uint32_t
treap_first_from(const struct treap *tr, uint32_t root,
		 treap_below_fn *below, const void *key)
{
	return treap_bound(tr, root, below, key, false);
}

/* The nodes on the way from ROOT down to where KEY is or would go: the
 * most that a split at KEY passes through OWN. */
static inline size_t
treap_path(const struct treap *tr, uint32_t root, treap_below_fn *below,
	   const void *key)
{
	uint32_t t = root;
	size_t n = 0;

	for (; t != TREAP_NIL; n++)
		t = below(tr, t, key) ? treap_links(tr, t)->right
				      : treap_links(tr, t)->left;
	return n;
}

/* The first (LAST: the last) node of the non-empty tree ROOT. */
static inline uint32_t
treap_end(const struct treap *tr, uint32_t root, bool last)
{
	uint32_t t = root, next;

	for (;;) {
		next = last ? treap_links(tr, t)->right
			    : treap_links(tr, t)->left;
		if (next == TREAP_NIL)
			return t;
		t = next;
	}
}

#endif
