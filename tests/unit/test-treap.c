/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of the treap module: keys inserted in a scrambled order
 * (split at the key, merge, merge) come out in order, with every parent's
 * priority at least its children's; the searches agree with a scan of
 * the keys; dropping a run of keys (split, split, merge) leaves the
 * others; and with an OWN function that copies nodes, a tree changed
 * after another came to share it leaves the other as it was.
 */
#include "config.h"

#include <stddef.h>
#include <string.h>

#include "treap.h"
#include "unit.h"

#define NKEYS 3000

struct node {
	uint64_t key;
	struct treap_links link;
	uint32_t owner;
};

static struct node nodes[4 * NKEYS + 64];
static uint32_t nnodes, owner;

static uint64_t
prio(const struct treap *tr, uint32_t t)
{
	const struct node *v = tr->nodes;
	uint64_t x = v[t].key + 0x9e3779b97f4a7c15ULL;

	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static bool
below(const struct treap *tr, uint32_t t, const void *key)
{
	const struct node *v = tr->nodes;

	return v[t].key < *(const uint64_t *)key;
}

/* A copy of T unless it is the current owner's. */
static uint32_t
own(const struct treap *tr, uint32_t t)
{
	(void)tr;
	if (nodes[t].owner == owner)
		return t;
	nodes[nnodes] = nodes[t];
	nodes[nnodes].owner = owner;
	return nnodes++;
}

static uint32_t
insert(const struct treap *tr, uint32_t root, uint64_t key)
{
	uint32_t t = nnodes++, l, r;

	nodes[t].key = key;
	nodes[t].link.left = nodes[t].link.right = TREAP_NIL;
	nodes[t].owner = owner;
	treap_split(tr, root, below, &key, &l, &r);
	return treap_merge(tr, treap_merge(tr, l, t), r);
}

/* The keys of subtree T in order into OUT from *N on; false if the
 * order or the heap is broken. */
static bool
walk(const struct treap *tr, uint32_t t, uint64_t *out, size_t *n)
{
	uint32_t c[2];
	int i;

	if (t == TREAP_NIL)
		return true;
	c[0] = nodes[t].link.left;
	c[1] = nodes[t].link.right;
	for (i = 0; i < 2; i++)
		if (c[i] != TREAP_NIL && prio(tr, c[i]) > prio(tr, t))
			return false;
	if (!walk(tr, c[0], out, n))
		return false;
	if (*n > 0 && out[*n - 1] >= nodes[t].key)
		return false;
	out[(*n)++] = nodes[t].key;
	return walk(tr, c[1], out, n);
}

static uint64_t got[NKEYS], again[NKEYS];

int
main(void)
{
	struct treap plain = { nodes, sizeof(nodes[0]),
			       offsetof(struct node, link), prio, NULL, NULL };
	struct treap persistent = plain;
	uint32_t root = TREAP_NIL, copy, a, b, mid, c, t;
	uint64_t k, lo, hi;
	size_t i, n = 0, m;
	bool ok = true;

	persistent.own = own;
	/* keys 0, 2, ..., 2 (NKEYS - 1), scrambled */
	for (i = 0; i < NKEYS; i++)
		root = insert(&plain, root, 2 * ((i * 1237) % NKEYS));
	CHECK(walk(&plain, root, got, &n));
	CHECK_EQ_U64(n, NKEYS);
	for (i = 0; i < n; i++)
		ok = ok && got[i] == 2 * i;
	CHECK(ok);
	CHECK_EQ_U64(nodes[treap_end(&plain, root, false)].key, 0);
	CHECK_EQ_U64(nodes[treap_end(&plain, root, true)].key, 2 * (NKEYS - 1));
	k = NKEYS;
	CHECK(treap_path(&plain, root, below, &k) <= NKEYS);

	/* searches: the greatest key below K, the least not below it */
	ok = true;
	for (k = 0; k <= 2 * NKEYS; k++) {
		uint32_t lb = treap_last_below(&plain, root, below, &k);
		uint32_t ff = treap_first_from(&plain, root, below, &k);
		uint64_t want_lb = k == 0 ? UINT64_MAX : (k - 1) & ~1ULL;
		uint64_t want_ff = (k + 1) & ~1ULL;

		ok = ok && (lb == TREAP_NIL ? want_lb == UINT64_MAX
					    : nodes[lb].key == want_lb);
		ok = ok && (ff == TREAP_NIL ? want_ff >= 2 * NKEYS
					    : nodes[ff].key == want_ff);
	}
	CHECK(ok);

	/* a tree shared: owner 2 drops [100, 200) and adds 7 to its copy */
	copy = root;
	owner = 2;
	lo = 100;
	hi = 200;
	treap_split(&persistent, copy, below, &lo, &a, &b);
	treap_split(&persistent, b, below, &hi, &mid, &c);
	copy = treap_merge(&persistent, a, c);
	copy = insert(&persistent, copy, 7);
	n = 0;
	CHECK(walk(&plain, copy, got, &n));
	CHECK_EQ_U64(n, NKEYS - 50 + 1);
	ok = true;
	for (i = 0, m = 0; i < NKEYS; i++) {
		if (2 * i >= 100 && 2 * i < 200)
			continue;
		if (m < n && got[m] == 7)
			m++;
		ok = ok && m < n && got[m++] == 2 * i;
	}
	CHECK(ok);
	/* the first owner's tree is as it was */
	n = 0;
	CHECK(walk(&plain, root, again, &n));
	CHECK_EQ_U64(n, NKEYS);
	ok = true;
	for (i = 0; i < n; i++)
		ok = ok && again[i] == 2 * i;
	CHECK(ok);
	t = treap_first_from(&plain, root, below, &lo);
	CHECK(t != TREAP_NIL && nodes[t].key == 100);
	return unit_exit();
}
