/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of the hash index: an empty index finds nothing; keys put in
 * are found again, as the entry they were put in as, across growth from
 * the first slots to many thousands; keys whose hashes share their tag (or
 * are equal) are told apart by the caller's comparison; hashtab_add() of
 * keys known to be new; clearing and freeing leave an index that works.
 */
#include "config.h"

#include <string.h>

#include "hashtab.h"
#include "unit.h"

#define NKEYS 50000

static uint64_t keys[NKEYS];
static size_t nkeys, bad_candidates;

/* The hash of key K: plain, or with every tag the same (all in one
 * probe sequence), or with every hash the same. */
enum mode { PLAIN, SAME_TAG, SAME_HASH };

static uint64_t
hash_of(uint64_t k, enum mode m)
{
	switch (m) {
	case SAME_TAG:
		return (uint64_t)0xdeadbeef << 32 | (uint32_t)k;
	case SAME_HASH:
		return 42;
	default:
		return hashtab_hash64(k);
	}
}

/* The entry of key K, or HASHTAB_NONE with IT where it would go. */
static uint32_t
find(const struct hashtab *t, uint64_t k, enum mode m,
     struct hashtab_iter *it)
{
	uint32_t i;

	for (i = hashtab_probe(t, hash_of(k, m), it); i != HASHTAB_NONE;
	     i = hashtab_next(t, it)) {
		if (i >= nkeys)
			bad_candidates++;
		else if (keys[i] == k)
			break;
	}
	return i;
}

/* Put key K, unless there already; its entry. */
static uint32_t
put(struct hashtab *t, uint64_t k, enum mode m)
{
	struct hashtab_iter it;
	uint32_t i;

	if (hashtab_reserve(t, t->n + 1) < 0)
		return HASHTAB_NONE;
	i = find(t, k, m, &it);
	if (i != HASHTAB_NONE)
		return i;
	keys[nkeys] = k;
	hashtab_insert(t, &it, (uint32_t)nkeys);
	return (uint32_t)nkeys++;
}

/* Keys K * 7919 + 1 for K < N, each put twice, then all found. */
static void
test_many(enum mode m, size_t n)
{
	struct hashtab t;
	struct hashtab_iter it;
	size_t k, nslots = 0, grown = 0;
	int ok = 1;

	hashtab_init(&t);
	nkeys = 0;
	CHECK(find(&t, 1, m, &it) == HASHTAB_NONE);
	for (k = 0; k < n; k++) {
		if (put(&t, k * 7919 + 1, m) != k ||
		    put(&t, k * 7919 + 1, m) != k)
			ok = 0;
		if (t.nslots != nslots) {
			grown++;
			nslots = t.nslots;
		}
		if (t.n * 4 > t.nslots * 3)
			ok = 0;
	}
	CHECK(ok);
	CHECK_EQ_U64(t.n, n);
	CHECK_EQ_U64(nkeys, n);
	CHECK(n < 100 || grown > 3);
	CHECK((t.nslots & (t.nslots - 1)) == 0);
	for (k = 0, ok = 1; k < n; k++)
		if (find(&t, k * 7919 + 1, m, &it) != k)
			ok = 0;
	CHECK(ok);
	CHECK(find(&t, 2, m, &it) == HASHTAB_NONE);
	CHECK(find(&t, n * 7919 + 1, m, &it) == HASHTAB_NONE);
	hashtab_free(&t);
	CHECK(t.slots == NULL && t.nslots == 0 && t.n == 0);
}

/* The candidates of a hash are exactly the entries of its tag. */
static void
test_candidates(void)
{
	struct hashtab t;
	struct hashtab_iter it;
	uint32_t i, seen = 0, n = 0;

	hashtab_init(&t);
	/* Entries 0..9: tags 5 and 6 alternately, one home slot. */
	for (i = 0; i < 10; i++)
		CHECK(hashtab_add(&t, (uint64_t)(5 + i % 2) << 32, i) == 0);
	CHECK_EQ_U64(t.n, 10);
	for (i = hashtab_probe(&t, (uint64_t)5 << 32 | 77, &it);
	     i != HASHTAB_NONE; i = hashtab_next(&t, &it)) {
		CHECK(i % 2 == 0);
		seen |= 1u << i;
		n++;
	}
	CHECK_EQ_U64(n, 5);
	CHECK_EQ_U64(seen, 0x155);
	CHECK(hashtab_probe(&t, (uint64_t)7 << 32, &it) == HASHTAB_NONE);
	CHECK(t.slots[it.pos] == 0);

	/* Cleared, the slots stay and nothing is found. */
	hashtab_clear(&t);
	CHECK(t.nslots != 0 && t.n == 0);
	CHECK(hashtab_probe(&t, (uint64_t)5 << 32, &it) == HASHTAB_NONE);
	CHECK(hashtab_add(&t, 99, 3) == 0);
	CHECK(hashtab_probe(&t, 99, &it) == 3);
	CHECK(hashtab_add(&t, 99, HASHTAB_NONE) < 0);
	hashtab_free(&t);
	hashtab_free(&t);
}

/* The slot helpers agree with the layout the probes read. */
static void
test_slots(void)
{
	struct hashtab t;

	hashtab_init(&t);
	CHECK(hashtab_reserve(&t, 12) == 0);
	CHECK_EQ_U64(t.nslots, 16);
	CHECK(hashtab_reserve(&t, 13) == 0);
	CHECK_EQ_U64(t.nslots, 32);
	CHECK(hashtab_reserve(&t, (size_t)UINT32_MAX) < 0);
	CHECK_EQ_U64(t.nslots, 32);
	CHECK_EQ_U64(hashtab_slot(0xabcd, 0), 0xabcd00000001ULL);
	CHECK_EQ_U64(hashtab_slot_index(hashtab_slot(1, 41)), 41);
	CHECK_EQ_U64(hashtab_tag(0x1234567800000000ULL), 0x12345678);
	CHECK_EQ_U64(hashtab_home(&t, 0x1234567800000000ULL), 0x18);
	hashtab_prefetch(&t, 1);
	hashtab_free(&t);
	hashtab_prefetch(&t, 1);
	CHECK(hashtab_hash64(1) != hashtab_hash64(2));
}

int
main(void)
{
	test_many(PLAIN, 1);
	test_many(PLAIN, NKEYS);
	test_many(SAME_TAG, 3000);
	test_many(SAME_HASH, 500);
	test_candidates();
	test_slots();
	CHECK_EQ_U64(bad_candidates, 0);
	return unit_exit();
}
