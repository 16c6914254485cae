/* SPDX-License-Identifier: MIT */
/*
 * The mappings of an address space by address, in persistent search
 * trees that many spaces share.
 *
 * A tree is a treap (treap.h: a search tree that random priorities keep
 * balanced), so that an MMAP finds the mappings it replaces, and a
 * lookup its mapping, in logarithmic time.  The mappings themselves stay
 * in the caller's array (MAPS below, by index); a node holds an index
 * into it and its start.  The key is (start, not empty, index): an empty
 * mapping (start == end) overlaps none that starts where it does, so
 * several can share a start with one that is not empty; that one comes
 * last.  A node's priority is a hash of its mapping's index, seeded per
 * maptree, so that the copies of a node agree.  The caller keeps the
 * mappings of one tree from overlapping (each new one drops what it
 * covers of those it overlaps), so that a search looks at most at one
 * mapping below an address.
 *
 * Ownership: every node of every tree is in the maptree's one array, and
 * belongs to one owner number (maptree_owner_new()).  A tree is a root
 * and the owner number that may change it.  The trees are persistent: a
 * tree made from another (a forked process, or a used space that
 * changes) starts with the other's root, and the two share every node.
 * An owner changes its own nodes in place and copies the others on the
 * way to a change (path copying), so that a copy of a tree costs nothing
 * and a change of a shared tree a path of it.  A tree that another comes
 * to share must take a new owner number: its nodes stay as they are from
 * then on.  The nodes an owner drops that are its own go to a free list;
 * shared ones stay, so that the memory is that of the nodes ever made (a
 * few per change).
 *
 * Cost: insert, drop and the searches are O(log n) for n mappings in the
 * tree, in time and in nodes copied; a walk (maptree_walk()) is linear in
 * the nodes it has not seen before since maptree_walk_begin().
 */
#ifndef P2G_MAPTREE_H
#define P2G_MAPTREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "addrspace.h"
#include "treap.h"

/* No node (an empty tree or subtree). */
#define MAPTREE_NIL TREAP_NIL

struct maptree_node {
	uint64_t start;
	uint32_t map;		/* index into the caller's mappings */
	struct treap_links link;	/* nodes, or MAPTREE_NIL; a free
					   node's next free one is its
					   link.left */
	uint32_t owner;		/* the owner that may change it */
};

struct maptree_key {
	uint64_t start;
	uint32_t full;		/* 1: the mapping is not empty */
	uint32_t map;
};

/* What maptree_walk() lists, with its place in the order. */
struct maptree_item {
	uint64_t start;
	uint32_t map;
	uint32_t late;		/* 1: not below the tree's sort mark */
};

struct maptree {
	struct maptree_node *nodes;	/* the nodes of every tree */
	size_t nnodes, cap_nodes, nfree;
	uint32_t free;		/* the first free node, or MAPTREE_NIL */
	uint32_t owners;	/* the last owner number given */
	uint64_t seed;		/* of the nodes' priorities */
	/* maptree_walk()'s: the walk's number and, for each node, the walk
	 * that saw it last (shifted left by one) and whether its subtree
	 * holds a mapping that is listed every time (bit 0). */
	uint32_t walk;
	uint32_t *seen;
	size_t cap_seen;
	struct maptree_item *items;
	uint32_t *listed;
	size_t cap_items;
};

/* MT with no trees. */
void maptree_init(struct maptree *mt);
/* Frees what MT holds (not the mappings); MT is zeroed, to be
 * maptree_init()ed again before use. */
void maptree_release(struct maptree *mt);

/* A new owner number in *OWNER: the nodes of the tree that had the old
 * one are shared from now on.  0, or -1 when the numbers have run out. */
int maptree_owner_new(struct maptree *mt, uint32_t *owner);

/* The mapping index and the start of node T. */
static inline uint32_t
maptree_map(const struct maptree *mt, uint32_t t)
{
	return mt->nodes[t].map;
}

static inline uint64_t
maptree_start(const struct maptree *mt, uint32_t t)
{
	return mt->nodes[t].start;
}

/* The node of tree ROOT with the greatest key below K, or MAPTREE_NIL. */
uint32_t maptree_below(const struct maptree *mt, const struct mapping *maps,
		       uint32_t root, const struct maptree_key *k);
/* The node of tree ROOT with the least key not below K, or MAPTREE_NIL. */
uint32_t maptree_from(const struct maptree *mt, const struct mapping *maps,
		      uint32_t root, const struct maptree_key *k);

/* Add mapping MAPS[MAP] to the tree *ROOT of OWNER.  0, or -1 when out
 * of memory (the tree is as it was). */
int maptree_insert(struct maptree *mt, const struct mapping *maps,
		   uint32_t *root, uint32_t owner, uint32_t map);
/* Drop from the tree *ROOT of OWNER the mappings with keys from LO to
 * below HI.  0, or -1 when out of memory (the tree is as it was). */
int maptree_drop(struct maptree *mt, const struct mapping *maps,
		 uint32_t *root, uint32_t owner,
		 const struct maptree_key *lo, const struct maptree_key *hi);

/* Starts a walk: the trees must not change while it lasts.  0, or -1
 * when out of memory. */
int maptree_walk_begin(struct maptree *mt);
/* The executable mappings of tree ROOT in *OUT (*N of them; owned by MT,
 * good until the next call): those not seen before in this walk, and
 * those EVERY says to list every time.  Those with indexes below MARK
 * come first, by start (then index), then the others by index.  0, or -1
 * when out of memory. */
int maptree_walk(struct maptree *mt, const struct mapping *maps,
		 uint32_t root, uint32_t mark,
		 bool (*every)(const struct mapping *),
		 const uint32_t **out, size_t *n);

#endif
