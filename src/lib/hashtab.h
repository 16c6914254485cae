/* SPDX-License-Identifier: MIT */
/*
 * The hash index of the library's tables: open addressing with linear
 * probing over the entries of a caller's array.  The index holds no keys:
 * a slot is the upper 32 bits of the entry's 64-bit hash (its tag), then
 * the entry's index + 1 (0: a free slot).  The tag also picks the first
 * slot, so that the index grows from its slots alone, and a probe hands
 * the caller an entry to compare (a likely cache miss in a large table)
 * only when its tag matches.  The caller hashes, compares and owns the
 * entries; lookups are inline here because the stack table's is the
 * converter's hot path.
 *
 * A lookup, and an insert where it ended:
 *
 *	struct hashtab_iter it;
 *	uint32_t i;
 *
 *	if (hashtab_reserve(&t, t.n + 1) < 0)
 *		return -1;
 *	for (i = hashtab_probe(&t, h, &it); i != HASHTAB_NONE;
 *	     i = hashtab_next(&t, &it))
 *		if (same(&entries[i], key))
 *			return i;
 *	hashtab_insert(&t, &it, nentries++);
 */
#ifndef P2G_HASHTAB_H
#define P2G_HASHTAB_H

#include <stddef.h>
#include <stdint.h>

/* No (more) candidates; also the one entry index that cannot be held. */
#define HASHTAB_NONE UINT32_MAX

struct hashtab {
	uint64_t *slots;	/* tag << 32 | entry index + 1; 0: free */
	size_t nslots;		/* a power of 2, or 0 */
	size_t n;		/* entries held */
};

/* Where a probe is: the slot of the last candidate, or the free slot
 * that ended it. */
struct hashtab_iter {
	size_t pos;
	uint32_t tag;
};

/* Initialise an empty index (it holds no memory until the first
 * hashtab_reserve()).  A zeroed struct hashtab is one too. */
void hashtab_init(struct hashtab *t);

/* Free the slots; T is then empty, as after hashtab_init(). */
void hashtab_free(struct hashtab *t);

/* Forget every entry, keeping the slots' memory. */
void hashtab_clear(struct hashtab *t);

/* Out of line: grow T to hold N entries.  Use hashtab_reserve(). */
int hashtab_grow(struct hashtab *t, size_t n);

/* Room for N entries in all, at most 3/4 of the slots used (the tags
 * make a long probe cheap): grows T, by doubling, from its slots alone,
 * which voids any iterator.  0, or -1 when out of memory or N is
 * HASHTAB_NONE or more (T is then as it was). */
static inline int
hashtab_reserve(struct hashtab *t, size_t n)
{
	if (n * 4 > t->nslots * 3)
		return hashtab_grow(t, n);
	return 0;
}

/* A 64-bit hash of an integer key, for tables keyed by numbers: one
 * multiplication by 2^64 / the golden ratio.  Its upper half, which the
 * index uses, mixes the key's lower bits, where ids, pids and addresses
 * differ, and spreads consecutive keys evenly over the slots, at the
 * cost of one instruction where a lookup may come once per sample. */
static inline uint64_t
hashtab_hash64(uint64_t key)
{
	return key * 0x9e3779b97f4a7c15ULL;
}

/* A 64-bit hash of a string, for tables keyed by names (FNV-1a). */
static inline uint64_t
hashtab_hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

/* The tag of HASH, and the first slot it is looked for in. */
static inline uint32_t
hashtab_tag(uint64_t hash)
{
	return (uint32_t)(hash >> 32);
}

static inline size_t
hashtab_home(const struct hashtab *t, uint64_t hash)
{
	return (size_t)hashtab_tag(hash) & (t->nslots - 1);
}

/* A slot of entry INDEX with TAG, and the index in a slot S != 0. */
static inline uint64_t
hashtab_slot(uint32_t tag, uint32_t index)
{
	return (uint64_t)tag << 32 | (index + 1);
}

static inline uint32_t
hashtab_slot_index(uint64_t s)
{
	return (uint32_t)s - 1;
}

/* Start fetching the slot where HASH is looked for first. */
static inline void
hashtab_prefetch(const struct hashtab *t, uint64_t hash)
{
	if (t->nslots != 0)
		__builtin_prefetch(&t->slots[hashtab_home(t, hash)]);
}

/* From IT->pos on, the first entry whose tag matches, or HASHTAB_NONE
 * with IT->pos at the free slot that ends the probe. */
static inline uint32_t
hashtab_scan_(const struct hashtab *t, struct hashtab_iter *it)
{
	uint64_t s;

	while ((s = t->slots[it->pos]) != 0) {
		if ((uint32_t)(s >> 32) == it->tag)
			return hashtab_slot_index(s);
		it->pos = (it->pos + 1) & (t->nslots - 1);
	}
	return HASHTAB_NONE;
}

/* The first entry that may have hash HASH (its tag matches: the caller
 * compares it), or HASHTAB_NONE.  T must have slots (hashtab_reserve()),
 * or else hold nothing: then HASHTAB_NONE and IT is not to be used. */
static inline uint32_t
hashtab_probe(const struct hashtab *t, uint64_t hash, struct hashtab_iter *it)
{
	it->tag = hashtab_tag(hash);
	it->pos = 0;
	if (t->nslots == 0)
		return HASHTAB_NONE;
	it->pos = hashtab_home(t, hash);
	return hashtab_scan_(t, it);
}

/* The next candidate of the probe IT, or HASHTAB_NONE. */
static inline uint32_t
hashtab_next(const struct hashtab *t, struct hashtab_iter *it)
{
	it->pos = (it->pos + 1) & (t->nslots - 1);
	return hashtab_scan_(t, it);
}

/* Put entry INDEX (< HASHTAB_NONE) where the probe IT ended without a
 * match.  Nothing may be inserted, nor T grown, in between; room must
 * have been reserved before the probe. */
static inline void
hashtab_insert(struct hashtab *t, const struct hashtab_iter *it,
	       uint32_t index)
{
	t->slots[it->pos] = hashtab_slot(it->tag, index);
	t->n++;
}

/* Add entry INDEX of hash HASH, known not to be in T, growing T if
 * needed.  0, or -1 when out of memory. */
int hashtab_add(struct hashtab *t, uint64_t hash, uint32_t index);

#endif
